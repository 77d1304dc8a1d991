//! The demand-driven walk behind [`super::priority::order`]: a depth-first descent
//! from targets, interleaved with small "sections" that run as soon as they cost no
//! memory. See the priority module's documentation for the rules it implements.

use super::dag::Dag;
use std::cmp::Reverse;

/// How many readers of one node a section check looks at, so that a broadcaster with
/// a million readers does not make every check expensive.
const SECTION_SCAN: usize = 32;

/// The knobs of the walk; [`Tuning::DEFAULT`] is what `order` uses, the others exist
/// so tests can show what each rule buys.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tuning {
    /// Run a runnable node at once when it frees exactly as many results as it
    /// creates (continuing a chain), not only when it frees more.
    pub neutral_eager: bool,
    /// The largest section (nodes run at once to release memory early) the walk
    /// tries; 0 disables sections. A few nodes cover a reader with its private inputs
    /// and the final results hanging off it, and the bound keeps each check O(1).
    pub section_nodes: usize,
    /// How many results a section may hold beyond those already live while it runs.
    pub section_extra: i64,
}

impl Tuning {
    pub(crate) const DEFAULT: Tuning = Tuning {
        neutral_eager: true,
        section_nodes: 8,
        section_extra: 1,
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
    preferred_offsets: Vec<u32>,
    preferred: Vec<u32>,
    targets: Vec<u32>,
}

impl NodeFacts {
    fn compute(dag: &Dag, sizes: Option<&[u64]>) -> NodeFacts {
        let size = |node: u32| sizes.and_then(|s| s.get(node as usize)).copied().unwrap_or(0);
        let depth = dag.depths();
        // need[v]: how many results computing v alone holds at its peak (Sethi–Ullman
        // numbering, exact on trees, an over-estimate where subgraphs are shared).
        let mut need = vec![0u32; dag.len()];
        let mut preferred_offsets = vec![0u32; dag.len() + 1];
        for node in dag.nodes() {
            preferred_offsets[node as usize + 1] =
                preferred_offsets[node as usize] + dag.dependencies(node).len() as u32;
        }
        let mut preferred = vec![0u32; dag.edge_count()];
        for &node in dag.topological_order() {
            let range = preferred_offsets[node as usize] as usize
                ..preferred_offsets[node as usize + 1] as usize;
            let inputs = &mut preferred[range];
            inputs.copy_from_slice(dag.dependencies(node));
            inputs.sort_unstable_by_key(|&input| {
                (
                    Reverse(need[input as usize]),
                    Reverse(depth[input as usize]),
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
        let mut targets: Vec<u32> = dag.nodes().filter(|&node| dag.is_sink(node)).collect();
        targets.sort_unstable_by_key(|&node| {
            (
                Reverse(depth[node as usize]),
                Reverse(need[node as usize]),
                size(node),
                node,
            )
        });
        NodeFacts {
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

/// Per node, the inputs it is the only reader of.
fn initial_frees(dag: &Dag) -> Vec<u32> {
    let mut frees = vec![0u32; dag.len()];
    for node in dag.nodes() {
        if let [only_reader] = dag.dependents(node) {
            frees[*only_reader as usize] += 1;
        }
    }
    frees
}

/// The state of the demand-driven walk.
struct Walk<'a> {
    dag: &'a Dag,
    tuning: Tuning,
    facts: &'a NodeFacts,
    done: Vec<bool>,
    /// Inputs not yet run, per node.
    missing: Vec<u32>,
    /// Readers not yet run, per node.
    unread: Vec<u32>,
    /// Inputs this node is the last unrun reader of: running it frees that many.
    frees: Vec<u32>,
    sequence: Vec<u32>,
    /// Readers of computed results, most recent on top: where the walk goes next.
    candidates: Vec<u32>,
    /// The depth-first descent: (node, index of the next preferred input to visit).
    descent: Vec<(u32, u32)>,
    /// Nodes whose chance to run early may have changed.
    to_check: Vec<u32>,
    /// Nodes that could lead a section holding extra results, tried after the nodes
    /// that run for free.
    section_leads: Vec<u32>,
    section: SectionScratch,
}

/// Reusable buffers of the section check.
struct SectionScratch {
    nodes: Vec<u32>,
    /// `stamp[v] == generation` marks v as a member of the section being built.
    stamp: Vec<u32>,
    generation: u32,
    /// Readers left per input, as the simulated section runs.
    local_unread: Vec<(u32, u32)>,
}

impl<'a> Walk<'a> {
    fn new(dag: &'a Dag, facts: &'a NodeFacts, tuning: Tuning) -> Walk<'a> {
        Walk {
            dag,
            tuning,
            facts,
            done: vec![false; dag.len()],
            missing: dag
                .nodes()
                .map(|node| dag.dependencies(node).len() as u32)
                .collect(),
            unread: dag
                .nodes()
                .map(|node| dag.dependents(node).len() as u32)
                .collect(),
            frees: initial_frees(dag),
            sequence: Vec::with_capacity(dag.len()),
            candidates: Vec::new(),
            descent: Vec::new(),
            to_check: Vec::new(),
            section_leads: Vec::new(),
            section: SectionScratch {
                nodes: Vec::new(),
                stamp: vec![0; dag.len()],
                generation: 0,
                local_unread: Vec::new(),
            },
        }
    }

    fn run(&mut self) {
        let mut next_target = 0;
        loop {
            let target = match self.next_candidate() {
                Some(candidate) => candidate,
                None => {
                    let targets = &self.facts.targets;
                    while next_target < targets.len() && self.done[targets[next_target] as usize]
                    {
                        next_target += 1;
                    }
                    match targets.get(next_target) {
                        Some(&target) => target,
                        None => break,
                    }
                }
            };
            self.compute(target);
        }
    }

    fn next_candidate(&mut self) -> Option<u32> {
        while let Some(candidate) = self.candidates.pop() {
            if !self.done[candidate as usize] {
                return Some(candidate);
            }
        }
        None
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
                if self.tuning.section_nodes == 0 {
                    continue;
                }
                if !self.done[lead as usize] && self.build_section(lead) {
                    for at in 0..self.section.nodes.len() {
                        let member = self.section.nodes[at];
                        self.record(member);
                    }
                }
            } else {
                break;
            }
        }
    }

    /// Runnable now, and frees at least as many results as it creates.
    fn runs_for_free(&self, node: u32) -> bool {
        let creates = u32::from(!self.dag.is_sink(node));
        let frees = self.frees[node as usize];
        self.missing[node as usize] == 0
            && (frees > creates || frees == creates && (creates == 0 || self.tuning.neutral_eager))
    }

    /// Tries to build, in `self.section.nodes`, a short run that starts with `lead`'s
    /// private missing inputs and `lead`, may go on to readers that become runnable,
    /// holds at most `section_extra` more results at any moment, and ends holding no
    /// more than before. Returns whether one was found.
    fn build_section(&mut self, lead: u32) -> bool {
        let dag = self.dag;
        let scratch = &mut self.section;
        scratch.nodes.clear();
        scratch.generation = scratch.generation.wrapping_add(1);
        if scratch.generation == 0 {
            scratch.stamp.fill(0);
            scratch.generation = 1;
        }
        let generation = scratch.generation;
        if dag.dependencies(lead).len() > SECTION_SCAN {
            return false;
        }
        for &input in dag.dependencies(lead) {
            if self.done[input as usize] {
                continue;
            }
            let private_root = dag.is_root(input) && dag.dependents(input).len() == 1;
            if !private_root || scratch.nodes.len() as i64 >= self.tuning.section_extra {
                return false;
            }
            scratch.nodes.push(input);
        }
        let lead_at = scratch.nodes.len();
        scratch.nodes.push(lead);
        for &member in &scratch.nodes {
            scratch.stamp[member as usize] = generation;
        }
        let mut grow = lead_at;
        while grow < scratch.nodes.len() && scratch.nodes.len() < self.tuning.section_nodes {
            let member = scratch.nodes[grow];
            grow += 1;
            for &reader in dag.dependents(member).iter().take(SECTION_SCAN) {
                let inside = |node: u32| {
                    self.done[node as usize] || scratch.stamp[node as usize] == generation
                };
                if scratch.nodes.len() < self.tuning.section_nodes
                    && !inside(reader)
                    && dag.dependencies(reader).len() <= SECTION_SCAN
                    && dag.dependencies(reader).iter().all(|&input| inside(input))
                {
                    scratch.stamp[reader as usize] = generation;
                    scratch.nodes.push(reader);
                }
            }
        }
        match self.shortest_releasing_prefix(lead_at) {
            Some(len) => {
                self.section.nodes.truncate(len);
                true
            }
            None => false,
        }
    }

    /// Simulates the candidate section and returns the length of its shortest prefix
    /// that includes the lead, never holds more than `section_extra` extra results,
    /// and ends holding no more results than before it.
    fn shortest_releasing_prefix(&mut self, lead_at: usize) -> Option<usize> {
        let dag = self.dag;
        let scratch = &mut self.section;
        scratch.local_unread.clear();
        let mut held: i64 = 0;
        for (at, &member) in scratch.nodes.iter().enumerate() {
            if held > self.tuning.section_extra {
                return None;
            }
            for &input in dag.dependencies(member) {
                let slot = match scratch.local_unread.iter().position(|&(n, _)| n == input) {
                    Some(slot) => slot,
                    None => {
                        scratch.local_unread.push((input, self.unread[input as usize]));
                        scratch.local_unread.len() - 1
                    }
                };
                scratch.local_unread[slot].1 -= 1;
                if scratch.local_unread[slot].1 == 0 {
                    held -= 1;
                }
            }
            if !dag.is_sink(member) {
                held += 1;
            }
            if at >= lead_at && held <= 0 {
                return Some(at + 1);
            }
        }
        None
    }

    fn record(&mut self, node: u32) {
        let dag = self.dag;
        self.done[node as usize] = true;
        self.sequence.push(node);
        for &input in dag.dependencies(node) {
            self.unread[input as usize] -= 1;
            if self.unread[input as usize] == 1 {
                if let Some(&last) = dag
                    .dependents(input)
                    .iter()
                    .find(|&&reader| !self.done[reader as usize])
                {
                    self.frees[last as usize] += 1;
                    self.to_check.push(last);
                }
            }
        }
        for &reader in dag.dependents(node).iter().rev() {
            self.missing[reader as usize] -= 1;
            if self.missing[reader as usize] == 0 || self.missing[reader as usize] as i64 <= self.tuning.section_extra {
                self.to_check.push(reader);
            }
            self.candidates.push(reader);
        }
    }
}
