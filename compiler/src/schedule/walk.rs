//! The demand-driven walk behind [`super::priority::order`]: pick a target, compute
//! its missing inputs depth-first, run whatever releases memory as soon as it can, then
//! pick the next target near what is live. The priority module's documentation gives
//! the rules; this file is their mechanics.

use super::buckets::BucketQueue;
use super::dag::Dag;
use super::section::{SectionFinder, SectionLimits, WalkView};
use std::cmp::Reverse;

/// The knobs of the walk; [`Tuning::DEFAULT`] is what `order` uses, the others exist
/// so tests can show what each rule buys.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tuning {
    /// Run a runnable node at once when it frees exactly as many results as it
    /// creates (continuing a chain), not only when it frees more.
    pub neutral_eager: bool,
    /// Sections: how long, and how many extra results they may hold on the way.
    pub sections: SectionLimits,
    /// After a final result, go on with a node that is already runnable (all inputs
    /// computed) before loading anything new.
    pub prefer_runnable: bool,
}

impl Tuning {
    /// Eight nodes cover a reader with its private inputs and the final results
    /// hanging off it; one extra result lets a section load a private input. Measured
    /// on random DAGs against the exact optimum (tests/evaluate.rs): longer sections
    /// gain nothing, two extra results lose.
    pub(crate) const DEFAULT: Tuning = Tuning {
        neutral_eager: true,
        sections: SectionLimits {
            nodes: 8,
            extra_results: 1,
        },
        prefer_runnable: true,
    };
}

/// The run sequence of the walk.
pub(crate) fn walk_sequence(dag: &Dag, sizes: Option<&[u64]>, tuning: Tuning) -> Vec<u32> {
    let facts = NodeFacts::compute(dag, sizes);
    let mut walk = Walk::new(dag, &facts, tuning);
    walk.run();
    walk.sequence
}

/// Static facts the walk consults: each node's inputs in the order to compute them,
/// and the final results in the order to start from.
struct NodeFacts {
    need: Vec<u32>,
    preferred_offsets: Vec<u32>,
    preferred: Vec<u32>,
    targets: Vec<u32>,
}

impl NodeFacts {
    fn compute(dag: &Dag, sizes: Option<&[u64]>) -> NodeFacts {
        let size = |node: u32| {
            sizes
                .and_then(|s| s.get(node as usize))
                .copied()
                .unwrap_or(0)
        };
        let depth = dag.depths();
        // need[v]: how many results computing v alone holds at its peak (Sethi–Ullman
        // numbering: exact on trees, an over-estimate where subgraphs are shared).
        let mut need = vec![0u32; dag.len()];
        let mut preferred_offsets = Vec::with_capacity(dag.len() + 1);
        preferred_offsets.push(0u32);
        for node in dag.nodes() {
            preferred_offsets
                .push(preferred_offsets[node as usize] + dag.dependencies(node).len() as u32);
        }
        let mut preferred = vec![0u32; dag.edge_count()];
        for &node in dag.topological_order() {
            let range = preferred_offsets[node as usize] as usize
                ..preferred_offsets[node as usize + 1] as usize;
            let inputs = &mut preferred[range];
            inputs.copy_from_slice(dag.dependencies(node));
            inputs.sort_unstable_by_key(|&input| {
                let at = input as usize;
                (
                    Reverse(need[at]),
                    Reverse(depth[at]),
                    Reverse(dag.dependents(input).len()),
                    size(input),
                    input,
                )
            });
            let held_while_computing = inputs
                .iter()
                .enumerate()
                .map(|(held, &input)| held as u32 + need[input as usize])
                .max()
                .unwrap_or(0);
            need[node as usize] = held_while_computing.max(inputs.len() as u32);
        }
        group_final_inputs_by_part(dag, &preferred_offsets, &mut preferred);
        // Final results deepest first, then the most demanding; among equals, the one
        // reading the input with the most readers, so a shared ("broker") input's
        // readers run together rather than after an unrelated branch.
        let mut targets: Vec<u32> = dag.nodes().filter(|&node| dag.is_sink(node)).collect();
        let most_shared_input = |node: u32| {
            dag.dependencies(node)
                .iter()
                .map(|&input| dag.dependents(input).len())
                .max()
                .unwrap_or(0)
        };
        targets.sort_unstable_by_key(|&node| {
            let at = node as usize;
            (
                Reverse(depth[at]),
                Reverse(need[at]),
                Reverse(most_shared_input(node)),
                size(node),
                node,
            )
        });
        NodeFacts {
            need,
            preferred_offsets,
            preferred,
            targets,
        }
    }

    fn preferred_inputs(&self, node: u32) -> &[u32] {
        let node = node as usize;
        &self.preferred
            [self.preferred_offsets[node] as usize..self.preferred_offsets[node + 1] as usize]
    }
}

/// A final result may join parts of the graph that nothing else connects (two
/// independent halves stored by one final node): its inputs are then taken part by
/// part, each part in need order, the part of the most demanding input first, so one
/// part is finished and freed before the next starts. Parts are the connected
/// components of the graph without its final results (union-find, O(E α(V))).
fn group_final_inputs_by_part(dag: &Dag, offsets: &[u32], preferred: &mut [u32]) {
    let mut parent: Vec<u32> = dag.nodes().collect();
    fn find(parent: &mut [u32], mut node: u32) -> u32 {
        while parent[node as usize] != node {
            let up = parent[parent[node as usize] as usize];
            parent[node as usize] = up;
            node = up;
        }
        node
    }
    for node in dag.nodes().filter(|&node| !dag.is_sink(node)) {
        for &input in dag.dependencies(node) {
            let (a, b) = (find(&mut parent, input), find(&mut parent, node));
            if a != b {
                parent[a.max(b) as usize] = a.min(b);
            }
        }
    }
    let mut keyed: Vec<(u32, u32, u32)> = Vec::new();
    let mut first_at: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    for node in dag.nodes().filter(|&node| dag.is_sink(node)) {
        let inputs =
            &mut preferred[offsets[node as usize] as usize..offsets[node as usize + 1] as usize];
        if inputs.len() < 2 {
            continue;
        }
        keyed.clear();
        first_at.clear();
        for (at, &input) in inputs.iter().enumerate() {
            let part = find(&mut parent, input);
            let first = *first_at.entry(part).or_insert(at as u32);
            keyed.push((first, at as u32, input));
        }
        if first_at.len() > 1 && first_at.len() < inputs.len() {
            keyed.sort_unstable();
            for (slot, &(_, _, input)) in inputs.iter_mut().zip(keyed.iter()) {
                *slot = input;
            }
        }
    }
}

/// The walk's counters for one node.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NodeState {
    /// Inputs not yet run.
    pub missing: u32,
    /// Readers not yet run.
    pub unread: u32,
    /// Inputs this node is the last unrun reader of: running it frees that many.
    pub frees: u32,
    /// How many of its readers, in order, are known to have run (a scan position).
    pub reader_cursor: u32,
}

fn initial_state(dag: &Dag) -> Vec<NodeState> {
    let mut state: Vec<NodeState> = dag
        .nodes()
        .map(|node| NodeState {
            missing: dag.dependencies(node).len() as u32,
            unread: dag.dependents(node).len() as u32,
            ..NodeState::default()
        })
        .collect();
    for node in dag.nodes() {
        if let [only_reader] = dag.dependents(node) {
            state[*only_reader as usize].frees += 1;
        }
    }
    state
}

/// The state of the demand-driven walk.
struct Walk<'a> {
    dag: &'a Dag,
    facts: &'a NodeFacts,
    tuning: Tuning,
    done: Vec<bool>,
    sequence: Vec<u32>,
    /// The counters of every node, side by side so one cache line serves them all.
    state: Vec<NodeState>,
    /// The depth-first descent: (node, index of the next preferred input to visit).
    descent: Vec<(u32, u32)>,
    /// Nodes whose chance to run early may have changed.
    to_check: Vec<u32>,
    /// Nodes that might lead a section, tried once nothing runs for free.
    section_leads: Vec<u32>,
    sections: SectionFinder,
    /// The members of the section being run (reused).
    section_members: Vec<u32>,
    /// The target computed last, whose readers come next.
    last_target: Option<u32>,
    /// Non-root nodes whose inputs are all computed, most recent on top.
    runnable: Vec<u32>,
    /// Live results keyed by unrun readers, fewest (then most recent) first: the ones
    /// closest to being freed. Entries go stale as counts drop; stale ones are skipped.
    closest_to_free: BucketQueue,
}

impl<'a> Walk<'a> {
    fn new(dag: &'a Dag, facts: &'a NodeFacts, tuning: Tuning) -> Walk<'a> {
        Walk {
            dag,
            facts,
            tuning,
            done: vec![false; dag.len()],
            sequence: Vec::with_capacity(dag.len()),
            state: initial_state(dag),
            descent: Vec::new(),
            to_check: Vec::new(),
            section_leads: Vec::new(),
            sections: SectionFinder::new(dag.len(), tuning.sections),
            section_members: Vec::new(),
            last_target: None,
            runnable: Vec::new(),
            closest_to_free: BucketQueue::new(),
        }
    }

    fn run(&mut self) {
        let mut next_final = 0;
        loop {
            let target = match self.next_target() {
                Some(target) => target,
                None => {
                    let targets = &self.facts.targets;
                    while next_final < targets.len() && self.done[targets[next_final] as usize] {
                        next_final += 1;
                    }
                    match targets.get(next_final) {
                        Some(&target) => target,
                        None => break,
                    }
                }
            };
            self.compute(target);
            self.last_target = Some(target);
        }
    }

    /// Where to go after a target: up to the reader of the node run last (the walk may
    /// have run on past the target for free; finish that branch), else up to the
    /// target's reader; else to a node that is already runnable (nothing new to load);
    /// else to a reader of the live result closest to being freed. `None` leaves it to
    /// the next final result.
    fn next_target(&mut self) -> Option<u32> {
        if let Some(&last) = self.sequence.last() {
            if let Some(reader) = self.unrun_reader(last) {
                return Some(reader);
            }
        }
        if let Some(reader) = self.last_target.and_then(|t| self.unrun_reader(t)) {
            return Some(reader);
        }
        if self.tuning.prefer_runnable {
            while let Some(node) = self.runnable.pop() {
                if !self.done[node as usize] {
                    return Some(node);
                }
            }
        }
        while let Some((unread, node)) = self.closest_to_free.pop() {
            if unread > 0 && self.state[node as usize].unread == unread {
                if let Some(reader) = self.unrun_reader(node) {
                    return Some(reader);
                }
            }
        }
        None
    }

    /// The first unrun reader of `node`, if any.
    fn unrun_reader(&mut self, node: u32) -> Option<u32> {
        let readers = self.dag.dependents(node);
        let cursor = &mut self.state[node as usize].reader_cursor;
        while (*cursor as usize) < readers.len() && self.done[readers[*cursor as usize] as usize] {
            *cursor += 1;
        }
        readers.get(*cursor as usize).copied()
    }

    /// Runs `target` after its missing inputs, depth-first in preferred order.
    fn compute(&mut self, target: u32) {
        self.descent.push((target, 0));
        while let Some(top) = self.descent.last_mut() {
            let (node, mut cursor) = (top.0, top.1 as usize);
            if self.done[node as usize] {
                self.descent.pop();
                continue;
            }
            let inputs = self.facts.preferred_inputs(node);
            while cursor < inputs.len() && self.done[inputs[cursor] as usize] {
                cursor += 1;
            }
            if let Some(&input) = inputs.get(cursor) {
                top.1 = cursor as u32 + 1;
                self.descent.push((input, 0));
            } else {
                self.descent.pop();
                self.run_and_release(node);
            }
        }
    }

    /// Runs `node`, then every node that became runnable and frees at least as many
    /// results as it creates, then the sections that release memory early.
    fn run_and_release(&mut self, node: u32) {
        self.record(node);
        loop {
            if let Some(next) = self.to_check.pop() {
                if self.done[next as usize] {
                    continue;
                }
                if self.runs_for_free(next) {
                    self.record(next);
                } else {
                    self.section_leads.push(next);
                }
            } else if let Some(lead) = self.section_leads.pop() {
                if self.done[lead as usize] {
                    continue;
                }
                let view = WalkView {
                    dag: self.dag,
                    need: &self.facts.need,
                    done: &self.done,
                    state: &self.state,
                };
                if let Some(section) = self.sections.find(&view, lead) {
                    self.section_members.clear();
                    self.section_members.extend_from_slice(section);
                    for at in 0..self.section_members.len() {
                        self.record(self.section_members[at]);
                    }
                }
            } else {
                break;
            }
        }
    }

    /// Runnable now, and frees at least as many results as it creates (more, unless
    /// neutral runs are allowed or it creates nothing).
    fn runs_for_free(&self, node: u32) -> bool {
        let creates = u32::from(!self.dag.is_sink(node));
        let NodeState { missing, frees, .. } = self.state[node as usize];
        let allowed =
            frees > creates || frees == creates && (creates == 0 || self.tuning.neutral_eager);
        missing == 0 && allowed
    }

    fn record(&mut self, node: u32) {
        let dag = self.dag;
        self.done[node as usize] = true;
        self.sequence.push(node);
        if !dag.is_sink(node) {
            self.closest_to_free
                .push(self.state[node as usize].unread, node);
        }
        for &input in dag.dependencies(node) {
            let unread = &mut self.state[input as usize].unread;
            *unread -= 1;
            match *unread {
                0 => {}
                1 => {
                    self.closest_to_free.push(1, input);
                    if let Some(last) = self.unrun_reader(input) {
                        self.state[last as usize].frees += 1;
                        self.to_check.push(last);
                    }
                }
                left => self.closest_to_free.push(left, input),
            }
        }
        let section_reach = self.tuning.sections.extra_results;
        for &reader in dag.dependents(node) {
            let missing = &mut self.state[reader as usize].missing;
            *missing -= 1;
            if *missing == 0 {
                self.runnable.push(reader);
            }
            if *missing <= section_reach {
                self.to_check.push(reader);
            }
        }
    }
}
