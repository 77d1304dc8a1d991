//! A compact, immutable DAG for the scheduling passes: both adjacency directions in
//! CSR form (flat `u32` lists with offsets), plus one topological order, so a pass
//! over a million nodes touches a few flat arrays and allocates nothing per node.
//!
//! Nodes are `0..len()`. An edge `(input, reader)` says that `reader` depends on
//! `input`. Repeated edges collapse into one (an op reading the same chunk twice holds
//! it once); a cycle is an error.

use std::fmt;
use std::ops::Range;

pub use super::dag_file::parse_dag_file;

/// A directed acyclic graph over nodes `0..len()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dag {
    dependency_offsets: Vec<u32>,
    dependencies: Vec<u32>,
    dependent_offsets: Vec<u32>,
    dependents: Vec<u32>,
    topological: Vec<u32>,
}

/// Why a [`Dag`] could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DagError {
    /// A problem in a `.dag` file, on the given 1-based line.
    Line { line: usize, message: String },
    /// An edge names a node outside `0..node_count`.
    UnknownNode { node: u32, node_count: usize },
    /// The edges form a cycle; the nodes are listed so that each depends on the next
    /// and the last depends on the first.
    Cycle { cycle: Vec<u32> },
    /// More nodes or edges than `u32` indices can address.
    TooLarge,
}

impl fmt::Display for DagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DagError::Line { line, message } => write!(f, "line {line}: {message}"),
            DagError::UnknownNode { node, node_count } => {
                write!(
                    f,
                    "edge names node {node}, but the graph has {node_count} nodes"
                )
            }
            DagError::Cycle { cycle } => {
                let path: Vec<String> = cycle
                    .iter()
                    .chain(cycle.first())
                    .map(u32::to_string)
                    .collect();
                write!(f, "dependency cycle: {}", path.join(" -> "))
            }
            DagError::TooLarge => write!(f, "graph too large: at most 2^32 - 1 nodes and edges"),
        }
    }
}

impl std::error::Error for DagError {}

impl Dag {
    /// Builds a DAG of `node_count` nodes from `(input, reader)` edges.
    pub fn from_edges(node_count: usize, edges: &[(u32, u32)]) -> Result<Dag, DagError> {
        if node_count >= u32::MAX as usize || edges.len() >= u32::MAX as usize {
            return Err(DagError::TooLarge);
        }
        if let Some(&(input, reader)) = edges
            .iter()
            .find(|&&(input, reader)| input.max(reader) as usize >= node_count)
        {
            let node = if input as usize >= node_count {
                input
            } else {
                reader
            };
            return Err(DagError::UnknownNode { node, node_count });
        }
        let (dependency_offsets, dependencies) = grouped_unique(
            node_count,
            edges.iter().map(|&(input, reader)| (reader, input)),
        );
        let (dependent_offsets, dependents) = grouped_unique(
            node_count,
            (0..node_count as u32).flat_map(|reader| {
                let range = dependency_offsets[reader as usize] as usize
                    ..dependency_offsets[reader as usize + 1] as usize;
                dependencies[range]
                    .iter()
                    .map(move |&input| (input, reader))
            }),
        );
        let mut dag = Dag {
            dependency_offsets,
            dependencies,
            dependent_offsets,
            dependents,
            topological: Vec::new(),
        };
        dag.topological = dag.kahn_order()?;
        Ok(dag)
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.dependency_offsets.len() - 1
    }

    /// Whether the graph has no nodes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of distinct edges.
    pub fn edge_count(&self) -> usize {
        self.dependencies.len()
    }

    /// All node indices.
    pub fn nodes(&self) -> Range<u32> {
        0..self.len() as u32
    }

    /// The nodes `node` reads, in ascending index order.
    pub fn dependencies(&self, node: u32) -> &[u32] {
        let node = node as usize;
        &self.dependencies
            [self.dependency_offsets[node] as usize..self.dependency_offsets[node + 1] as usize]
    }

    /// The nodes that read `node`, in ascending index order.
    pub fn dependents(&self, node: u32) -> &[u32] {
        let node = node as usize;
        &self.dependents
            [self.dependent_offsets[node] as usize..self.dependent_offsets[node + 1] as usize]
    }

    /// Whether `node` depends on nothing (an initial node).
    pub fn is_root(&self, node: u32) -> bool {
        self.dependencies(node).is_empty()
    }

    /// Whether nothing depends on `node` (a final result).
    pub fn is_sink(&self, node: u32) -> bool {
        self.dependents(node).is_empty()
    }

    /// A topological order: every node comes after all of its dependencies.
    pub fn topological_order(&self) -> &[u32] {
        &self.topological
    }

    /// For every node, the length of the longest path reaching it from a root (roots
    /// are at depth 0): the "depth" of the Mars scheduling rules.
    pub fn depths(&self) -> Vec<u32> {
        let mut depth = vec![0u32; self.len()];
        for &node in &self.topological {
            depth[node as usize] = self
                .dependencies(node)
                .iter()
                .map(|&input| depth[input as usize] + 1)
                .max()
                .unwrap_or(0);
        }
        depth
    }

    /// Kahn's algorithm, roots in index order; a leftover node means a cycle.
    fn kahn_order(&self) -> Result<Vec<u32>, DagError> {
        let mut missing: Vec<u32> = self
            .nodes()
            .map(|node| self.dependencies(node).len() as u32)
            .collect();
        let mut order: Vec<u32> = self
            .nodes()
            .filter(|&node| missing[node as usize] == 0)
            .collect();
        let mut next = 0;
        while next < order.len() {
            let node = order[next];
            next += 1;
            for &reader in self.dependents(node) {
                missing[reader as usize] -= 1;
                if missing[reader as usize] == 0 {
                    order.push(reader);
                }
            }
        }
        if order.len() == self.len() {
            Ok(order)
        } else {
            Err(DagError::Cycle {
                cycle: self.find_cycle(&missing),
            })
        }
    }

    /// Walks from the lowest leftover node along leftover dependencies until a node
    /// repeats. Every leftover node of Kahn's algorithm has a leftover dependency, so
    /// the walk never gets stuck.
    fn find_cycle(&self, missing: &[u32]) -> Vec<u32> {
        let leftover = |node: u32| missing[node as usize] > 0;
        let mut position = vec![u32::MAX; self.len()];
        let mut path = Vec::new();
        let mut node = self.nodes().find(|&node| leftover(node)).unwrap_or(0);
        while position[node as usize] == u32::MAX {
            position[node as usize] = path.len() as u32;
            path.push(node);
            match self
                .dependencies(node)
                .iter()
                .copied()
                .find(|&d| leftover(d))
            {
                Some(input) => node = input,
                None => return path,
            }
        }
        path.split_off(position[node as usize] as usize)
    }
}

/// Groups `(key, value)` pairs by key into CSR form (a counting sort), each group
/// sorted ascending with repeats removed.
fn grouped_unique(
    node_count: usize,
    pairs: impl Iterator<Item = (u32, u32)> + Clone,
) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = vec![0u32; node_count + 1];
    for (key, _) in pairs.clone() {
        offsets[key as usize + 1] += 1;
    }
    for index in 0..node_count {
        offsets[index + 1] += offsets[index];
    }
    let mut fill = offsets.clone();
    let mut values = vec![0u32; offsets[node_count] as usize];
    for (key, value) in pairs {
        values[fill[key as usize] as usize] = value;
        fill[key as usize] += 1;
    }
    // Sort each group, then compact the groups leftwards past removed repeats.
    let mut write = 0usize;
    let mut compact_offsets = Vec::with_capacity(node_count + 1);
    compact_offsets.push(0u32);
    for key in 0..node_count {
        let group = offsets[key] as usize..offsets[key + 1] as usize;
        values[group.clone()].sort_unstable();
        let mut previous = None;
        for read in group {
            let value = values[read];
            if previous != Some(value) {
                values[write] = value;
                write += 1;
                previous = Some(value);
            }
        }
        compact_offsets.push(write as u32);
    }
    values.truncate(write);
    (compact_offsets, values)
}
