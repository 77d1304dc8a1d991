//! Initial worker assignment: which worker runs each node, decided before execution.
//!
//! Initial nodes are placed by one of three policies; every other node then goes, in
//! topological order, to the worker already holding the most bytes of its inputs, so
//! the policies differ only in where the data starts. A node is initial when it reads
//! nothing but broadcasters (below): a root, or e.g. each chunk of `ones(n) + 1`,
//! which reads only the broadcast scalar. Placing those by input bytes would find no
//! bytes and deal them out alternately, so that every reader of two neighbouring
//! chunks fetched one of them from another worker.
//!
//! - [`InitialAssignment::Bfs`], the Mars algorithm: walk the undirected graph
//!   breadth-first from an unassigned initial node, giving the initial nodes met to the
//!   current worker until it holds its share, then go on with the next worker. Nodes
//!   that share readers are close in the undirected graph, so they land together and
//!   their readers need nothing from other workers. Beyond the seed, assigning an
//!   initial node pulls the other initial inputs of its readers (and, through narrow
//!   nodes, of their readers and inputs: `a_i` and `b_i` of an unfused `a * 2 + b`)
//!   to the front of the search, so inputs read together stay together even when a
//!   wide reduction tree reaches other initial nodes in fewer hops. Each worker's
//!   search continues from the frontier the previous one left (a new search starts
//!   from the lowest unassigned initial node only when the frontier is empty), which
//!   is the seed's "start from an unassigned initial node" without re-walking
//!   assigned regions: the whole pass is O(V + E).
//! - [`InitialAssignment::RoundRobin`] and [`InitialAssignment::Random`], for
//!   comparison.
//!
//! Every policy gives each worker `total / workers` initial nodes, the first
//! `total % workers` workers one more.
//!
//! An input read by more than [`broadcaster_threshold`] nodes (a broadcaster) counts
//! as zero bytes when placing its readers, so they spread out by their other inputs
//! instead of piling onto the broadcaster's worker; for the same reason the BFS walk
//! does not pass through one, and initial broadcasters are dealt outside the walk's
//! shares (to the least loaded workers, keeping the balance within one).

use super::dag::Dag;
use super::shuffle::shuffle;
use std::collections::VecDeque;

/// How initial nodes are spread over workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitialAssignment {
    /// The Mars breadth-first assignment (the default).
    Bfs,
    /// The i-th initial node (by index) goes to worker `i % workers`.
    RoundRobin,
    /// A seeded random permutation of the initial nodes, dealt round-robin.
    Random { seed: u64 },
}

const UNASSIGNED: u32 = u32::MAX;

/// The worker (`0..workers`) of every node. `sizes` holds each node's output size in
/// bytes (missing entries count as 0); `workers` below 1 is taken as 1.
pub fn assign_workers(
    dag: &Dag,
    sizes: &[u64],
    workers: usize,
    initial: InitialAssignment,
) -> Vec<u32> {
    let workers = workers.clamp(1, UNASSIGNED as usize - 1);
    let initial_nodes = initial_nodes(dag, workers);
    let mut assignment = match initial {
        InitialAssignment::Bfs => bfs_initial(dag, workers, &initial_nodes),
        InitialAssignment::RoundRobin => {
            let roots: Vec<u32> = dag
                .nodes()
                .filter(|&node| initial_nodes[node as usize])
                .collect();
            dealt(dag.len(), &roots, workers)
        }
        InitialAssignment::Random { seed } => {
            let mut roots: Vec<u32> = dag
                .nodes()
                .filter(|&node| initial_nodes[node as usize])
                .collect();
            shuffle(&mut roots, seed);
            dealt(dag.len(), &roots, workers)
        }
    };
    place_by_input_bytes(dag, sizes, workers, &mut assignment);
    assignment
}

/// Inputs read by more than this many nodes are broadcasters. Once a result has more
/// readers than there are workers, a balanced placement of its readers puts some on
/// every worker, so it is copied everywhere whatever we do; letting it attract its
/// readers would only pile them onto its worker. Below four readers (small clusters)
/// the pull of a shared input is still worth following, as in a diamond.
pub fn broadcaster_threshold(workers: usize) -> usize {
    workers.max(4)
}

/// Whether each node is initial: it reads nothing but broadcasters (a root reads
/// nothing at all), so its inputs cannot say where it should run.
pub(crate) fn initial_nodes(dag: &Dag, workers: usize) -> Vec<bool> {
    let threshold = broadcaster_threshold(workers);
    dag.nodes()
        .map(|node| {
            dag.dependencies(node)
                .iter()
                .all(|&input| dag.dependents(input).len() > threshold)
        })
        .collect()
}

/// Bytes that readers fetch from another worker: every edge whose input lives on a
/// different worker than its reader counts the input's size once.
pub fn transfer_bytes(dag: &Dag, sizes: &[u64], assignment: &[u32]) -> u64 {
    let worker = |node: u32| assignment.get(node as usize).copied().unwrap_or(UNASSIGNED);
    dag.nodes()
        .flat_map(|reader| {
            dag.dependencies(reader)
                .iter()
                .map(move |&input| (input, reader))
        })
        .filter(|&(input, reader)| worker(input) != worker(reader))
        .map(|(input, _)| sizes.get(input as usize).copied().unwrap_or(0))
        .sum()
}

/// How many initial nodes worker `worker` gets out of `total`.
fn share(total: usize, workers: usize, worker: usize) -> usize {
    total / workers + usize::from(worker < total % workers)
}

/// Deals `roots` in the given order: the i-th goes to worker `i % workers`.
fn dealt(len: usize, roots: &[u32], workers: usize) -> Vec<u32> {
    let mut assignment = vec![UNASSIGNED; len];
    for (position, &root) in roots.iter().enumerate() {
        assignment[root as usize] = (position % workers) as u32;
    }
    assignment
}

fn bfs_initial(dag: &Dag, workers: usize, initial: &[bool]) -> Vec<u32> {
    // A broadcaster is next to all its readers in the undirected graph: walking
    // through it would sweep every reader's other inputs onto one worker (with
    // `--no-fuse`, a scalar `2` in `(a * 2 + b).sum()` pulled all of `a` ahead of
    // `b`). The walk neither enters nor expands one, and initial broadcasters do not
    // count in the walk's shares (one would shift every later share boundary by
    // one, splitting a group at each): they are dealt to the least loaded workers
    // afterwards, which keeps every worker within one of the others.
    let threshold = broadcaster_threshold(workers);
    let broadcasts = |node: u32| dag.dependents(node).len() > threshold;
    let mut assignment = vec![UNASSIGNED; dag.len()];
    let (broadcasters, roots): (Vec<u32>, Vec<u32>) = dag
        .nodes()
        .filter(|&node| initial[node as usize])
        .partition(|&node| broadcasts(node));
    let mut visited = vec![false; dag.len()];
    let mut frontier = VecDeque::new();
    let mut scratch = CoInputs::default();
    let mut next_start = 0;
    let mut load = vec![0usize; workers];
    for (worker, held) in load.iter_mut().enumerate() {
        while *held < share(roots.len(), workers, worker) {
            let node = match frontier.pop_front() {
                Some(node) => node,
                None => {
                    while visited[roots[next_start] as usize] {
                        next_start += 1;
                    }
                    visited[roots[next_start] as usize] = true;
                    roots[next_start]
                }
            };
            if initial[node as usize] {
                if assignment[node as usize] != UNASSIGNED {
                    // Pulled ahead by a co-input, and expanded then.
                    continue;
                }
                assignment[node as usize] = worker as u32;
                *held += 1;
                // A node that reads only broadcasters needs no pull: the walk reaches
                // its co-inputs through their common reader, and pulling for each of
                // a million such chunks cost more than the rest of the pass.
                if dag.is_root(node) {
                    let mut walk = Frontier {
                        visited: &mut visited,
                        queue: &mut frontier,
                    };
                    pull_co_inputs(dag, node, initial, &assignment, &mut walk, &mut scratch);
                }
            }
            for &neighbour in dag.dependencies(node).iter().chain(dag.dependents(node)) {
                if !visited[neighbour as usize] && !broadcasts(neighbour) {
                    visited[neighbour as usize] = true;
                    frontier.push_back(neighbour);
                }
            }
        }
    }
    for broadcaster in broadcasters {
        let worker = least_loaded(&load);
        assignment[broadcaster as usize] = worker;
        load[worker as usize] += 1;
    }
    assignment
}

/// Puts the other initial inputs of `root`'s readers at the front of the frontier, so
/// that inputs read together land on the same worker even when a wide reduction tree
/// reaches other initial nodes in fewer hops (`(a * b).sum()` beside `a.sum()`).
/// "Read together" reaches one step further on each side, through narrow nodes: the
/// inputs of the readers' readers, and the inputs of the readers' inputs, so that in
/// `a * 2 + b` without fusion `a_i` (read by `a_i * 2`) pulls `b_i` (read with it by
/// the sum). Broadcasters and wide nodes pull nothing and are not pulled: their
/// neighbours spread anyway.
fn pull_co_inputs(
    dag: &Dag,
    root: u32,
    initial: &[bool],
    assignment: &[u32],
    walk: &mut Frontier<'_>,
    scratch: &mut CoInputs,
) {
    let limit = broadcaster_threshold(0);
    let narrow = |node: u32| dag.dependents(node).len() <= limit;
    if !narrow(root) {
        return;
    }
    // Nearest first: the readers' own inputs, then those one step further.
    let CoInputs { near, further } = scratch;
    near.clear();
    further.clear();
    for &reader in dag.dependents(root) {
        let next_readers: &[u32] = if narrow(reader) {
            dag.dependents(reader)
        } else {
            &[]
        };
        for (distance, &together) in std::iter::once(&reader).chain(next_readers).enumerate() {
            let inputs = dag.dependencies(together);
            if inputs.len() > limit {
                continue;
            }
            for &input in inputs {
                if initial[input as usize] {
                    if distance == 0 {
                        &mut *near
                    } else {
                        &mut *further
                    }
                    .push(input);
                } else if narrow(input) && dag.dependencies(input).len() <= limit {
                    further.extend_from_slice(dag.dependencies(input));
                }
            }
        }
    }
    for &input in near.iter().chain(further.iter()).rev() {
        // Already queued further back is not enough: take it now (the later copy is
        // skipped once assigned).
        if initial[input as usize] && assignment[input as usize] == UNASSIGNED && narrow(input) {
            walk.visited[input as usize] = true;
            walk.queue.push_front(input);
        }
    }
}

/// The BFS walk's state that [`pull_co_inputs`] moves nodes to the front of.
struct Frontier<'a> {
    visited: &'a mut [bool],
    queue: &'a mut VecDeque<u32>,
}

/// [`pull_co_inputs`]' lists, kept between calls (it runs once per initial node).
#[derive(Default)]
struct CoInputs {
    near: Vec<u32>,
    further: Vec<u32>,
}

/// Places every unassigned node, in topological order, on the worker holding the
/// most bytes of its inputs (broadcasters count as zero); ties go to the worker with
/// the fewest nodes so far, then the lowest worker.
fn place_by_input_bytes(dag: &Dag, sizes: &[u64], workers: usize, assignment: &mut [u32]) {
    let threshold = broadcaster_threshold(workers);
    let mut load = vec![0usize; workers];
    for &worker in assignment.iter().filter(|&&w| w != UNASSIGNED) {
        load[worker as usize] += 1;
    }
    let mut bytes_on = vec![0u64; workers];
    let mut touched: Vec<u32> = Vec::new();
    for &node in dag.topological_order() {
        if assignment[node as usize] != UNASSIGNED {
            continue;
        }
        for &input in dag.dependencies(node) {
            if dag.dependents(input).len() > threshold {
                continue;
            }
            let worker = assignment[input as usize];
            let bytes = sizes.get(input as usize).copied().unwrap_or(0);
            if bytes > 0 && bytes_on[worker as usize] == 0 {
                touched.push(worker);
            }
            bytes_on[worker as usize] += bytes;
        }
        let most_held = touched.iter().map(|&w| bytes_on[w as usize]).max();
        let chosen = match most_held {
            Some(most) => touched
                .iter()
                .copied()
                .filter(|&w| bytes_on[w as usize] == most)
                .min_by_key(|&w| (load[w as usize], w))
                .unwrap_or(0),
            None => least_loaded(&load),
        };
        for &worker in &touched {
            bytes_on[worker as usize] = 0;
        }
        touched.clear();
        assignment[node as usize] = chosen;
        load[chosen as usize] += 1;
    }
}

fn least_loaded(load: &[usize]) -> u32 {
    (0..load.len() as u32)
        .min_by_key(|&w| (load[w as usize], w))
        .unwrap_or(0)
}
