//! Generators of the graph shapes the scheduling passes are judged on (tree
//! reductions, independent chains, blocked matrix products, element-wise maps feeding
//! a reduction), for tests and benchmarks. Each returns a valid [`Dag`].

use super::dag::Dag;
use super::shuffle::shuffle;

/// `leaves` roots reduced `fan_in` at a time, level by level, to one final node. A
/// level's leftover single node is carried up to the next level unchanged.
pub fn tree_reduction(leaves: usize, fan_in: usize) -> Dag {
    let fan_in = fan_in.max(2);
    let mut edges = Vec::with_capacity(leaves + leaves / (fan_in - 1));
    let mut next = leaves as u32;
    let mut level: Vec<u32> = (0..leaves as u32).collect();
    while level.len() > 1 {
        let mut above = Vec::with_capacity(level.len().div_ceil(fan_in));
        for group in level.chunks(fan_in) {
            if let [single] = group {
                above.push(*single);
                continue;
            }
            edges.extend(group.iter().map(|&input| (input, next)));
            above.push(next);
            next += 1;
        }
        level = above;
    }
    build(next as usize, &edges)
}

/// `chains` independent chains of `length` nodes each.
pub fn independent_chains(chains: usize, length: usize) -> Dag {
    let length = length.max(1);
    let mut edges = Vec::with_capacity(chains * (length - 1));
    for chain in 0..chains {
        let first = (chain * length) as u32;
        edges.extend((1..length as u32).map(|step| (first + step - 1, first + step)));
    }
    build(chains * length, &edges)
}

/// `C = A @ B` on an `n`×`n` grid of blocks: roots `A[i,k]` and `B[k,j]`, a product
/// per `(i, j, k)`, and each `C[i,j]` the fan-in-2 tree sum of its `n` products.
pub fn block_matmul(n: usize) -> Dag {
    let a = |i: usize, k: usize| (i * n + k) as u32;
    let b = |k: usize, j: usize| (n * n + k * n + j) as u32;
    let mut next = (2 * n * n) as u32;
    let mut edges = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let mut partials = Vec::with_capacity(n);
            for k in 0..n {
                edges.push((a(i, k), next));
                edges.push((b(k, j), next));
                partials.push(next);
                next += 1;
            }
            while partials.len() > 1 {
                let mut above = Vec::with_capacity(partials.len().div_ceil(2));
                for pair in partials.chunks(2) {
                    if let [left, right] = pair {
                        edges.push((*left, next));
                        edges.push((*right, next));
                        above.push(next);
                        next += 1;
                    } else {
                        above.push(pair[0]);
                    }
                }
                partials = above;
            }
        }
    }
    build(next as usize, &edges)
}

/// `(x + y).sum()` over `chunks` chunks: two creation roots per chunk, an element-wise
/// node reading both, then a fan-in-`fan_in` tree reduction.
pub fn map_then_reduce(chunks: usize, fan_in: usize) -> Dag {
    let reduction = tree_reduction(chunks, fan_in);
    let offset = 2 * chunks as u32;
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(reduction.edge_count() + 2 * chunks);
    for chunk in 0..chunks as u32 {
        edges.push((2 * chunk, offset + chunk));
        edges.push((2 * chunk + 1, offset + chunk));
    }
    for node in reduction.nodes() {
        for &input in reduction.dependencies(node) {
            edges.push((offset + input, offset + node));
        }
    }
    build(offset as usize + reduction.len(), &edges)
}

/// The same graph with its nodes renumbered by a seeded random permutation, to check
/// that a pass follows the structure rather than the numbering. Returns the new graph
/// and, per old node, its new index.
pub fn relabeled(dag: &Dag, seed: u64) -> (Dag, Vec<u32>) {
    let mut new_index: Vec<u32> = dag.nodes().collect();
    shuffle(&mut new_index, seed);
    let mut edges = Vec::with_capacity(dag.edge_count());
    for node in dag.nodes() {
        for &input in dag.dependencies(node) {
            edges.push((new_index[input as usize], new_index[node as usize]));
        }
    }
    (build(dag.len(), &edges), new_index)
}

/// The generators only produce acyclic, in-range edges, so building cannot fail.
fn build(node_count: usize, edges: &[(u32, u32)]) -> Dag {
    Dag::from_edges(node_count, edges).expect("generated shapes are acyclic")
}
