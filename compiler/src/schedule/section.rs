//! Sections: short runs of nodes that the priority walk slips in as soon as they cost
//! no memory overall. A section starts at a lead node (a reader of something just
//! computed), takes first the lead's missing inputs if they are private (read by one
//! node only, so the section frees them itself), then the lead, then readers that become runnable, and is kept only
//! up to its shortest prefix that ends holding no more results than before while never
//! holding more than a few extra ones on the way. Each check touches a bounded number
//! of nodes and edges, so sections keep the walk linear.

use super::dag::Dag;
use super::walk::NodeState;

/// How many readers of one node, and inputs of one node, a section check looks at, so
/// a broadcaster or a huge reducer does not make every check expensive.
const SECTION_SCAN: usize = 32;

/// What a section may do.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SectionLimits {
    /// The most nodes a section may hold; 0 disables sections.
    pub nodes: usize,
    /// How many results a section may hold beyond those already live while it runs.
    pub extra_results: u32,
}

/// The walk's state a section check reads.
pub(crate) struct WalkView<'a> {
    pub dag: &'a Dag,
    /// Per node, the results computing it alone holds at its peak.
    pub need: &'a [u32],
    pub done: &'a [bool],
    /// The walk's counters per node.
    pub state: &'a [NodeState],
}

/// Reusable buffers, so a check allocates nothing.
pub(crate) struct SectionFinder {
    limits: SectionLimits,
    nodes: Vec<u32>,
    /// `stamp[v] == generation` marks v as a member of the section being built.
    stamp: Vec<u32>,
    generation: u32,
    /// (input, readers left) as the simulated section runs.
    local_unread: Vec<(u32, u32)>,
    /// The post-order walk over private inputs: (node, next input to look at).
    descent: Vec<(u32, u32)>,
}

impl SectionFinder {
    pub(crate) fn new(node_count: usize, limits: SectionLimits) -> SectionFinder {
        SectionFinder {
            limits,
            nodes: Vec::new(),
            stamp: vec![0; if limits.nodes == 0 { 0 } else { node_count }],
            generation: 0,
            local_unread: Vec::new(),
            descent: Vec::new(),
        }
    }

    /// The section led by `lead`, in run order, if one releases memory early.
    pub(crate) fn find(&mut self, view: &WalkView<'_>, lead: u32) -> Option<&[u32]> {
        if self.limits.nodes == 0 || !self.gather(view, lead) {
            return None;
        }
        let lead_at = self.nodes.iter().position(|&n| n == lead)?;
        let len = self.shortest_releasing_prefix(view, lead_at)?;
        Some(&self.nodes[..len])
    }

    /// Collects the candidate members: the lead's missing private inputs (each read
    /// by one node only, recursively) in post-order, the lead, then readers whose inputs
    /// are all computed or members, breadth-first.
    fn gather(&mut self, view: &WalkView<'_>, lead: u32) -> bool {
        self.nodes.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        if !self.gather_private_inputs(view, lead) {
            return false;
        }
        let generation = self.generation;
        for &member in &self.nodes {
            self.stamp[member as usize] = generation;
        }
        let dag = view.dag;
        let mut grow = self.nodes.len() - 1;
        while grow < self.nodes.len() && self.nodes.len() < self.limits.nodes {
            let member = self.nodes[grow];
            grow += 1;
            for &reader in dag.dependents(member).iter().take(SECTION_SCAN) {
                let stamp = &self.stamp;
                let inside =
                    |node: u32| view.done[node as usize] || stamp[node as usize] == generation;
                let inputs = dag.dependencies(reader);
                if self.nodes.len() < self.limits.nodes
                    && !inside(reader)
                    && inputs.len() <= SECTION_SCAN
                    && inputs.iter().all(|&input| inside(input))
                {
                    self.stamp[reader as usize] = generation;
                    self.nodes.push(reader);
                }
            }
        }
        true
    }

    /// Pushes the lead's missing inputs, which must be private (one reader each, so
    /// the section frees them itself), then the lead, in post-order.
    fn gather_private_inputs(&mut self, view: &WalkView<'_>, lead: u32) -> bool {
        let dag = view.dag;
        self.descent.clear();
        self.descent.push((lead, 0));
        while let Some(top) = self.descent.last_mut() {
            let (node, cursor) = (top.0, top.1 as usize);
            let inputs = dag.dependencies(node);
            if inputs.len() > SECTION_SCAN {
                return false;
            }
            let next = (cursor..inputs.len()).find(|&at| !view.done[inputs[at] as usize]);
            match next {
                Some(at) => {
                    top.1 = at as u32 + 1;
                    let input = inputs[at];
                    // An input that alone needs more than the section may hold would
                    // fail the simulation anyway; stop before walking its subgraph.
                    if dag.dependents(input).len() != 1
                        || view.need[input as usize] > self.limits.extra_results
                        || self.nodes.len() + self.descent.len() >= self.limits.nodes
                    {
                        return false;
                    }
                    self.descent.push((input, 0));
                }
                None => {
                    self.descent.pop();
                    self.nodes.push(node);
                }
            }
        }
        true
    }

    /// Simulates the members in order and returns the length of the shortest prefix
    /// that includes the lead, never holds more than `extra_results` extra results
    /// before a member runs, and ends holding no more results than before it.
    fn shortest_releasing_prefix(&mut self, view: &WalkView<'_>, lead_at: usize) -> Option<usize> {
        let dag = view.dag;
        self.local_unread.clear();
        let mut held: i64 = 0;
        let mut finishes_output = false;
        for (at, &member) in self.nodes.iter().enumerate() {
            if held > i64::from(self.limits.extra_results) {
                return None;
            }
            for &input in dag.dependencies(member) {
                let slot = match self.local_unread.iter().position(|&(n, _)| n == input) {
                    Some(slot) => slot,
                    None => {
                        self.local_unread
                            .push((input, view.state[input as usize].unread));
                        self.local_unread.len() - 1
                    }
                };
                self.local_unread[slot].1 -= 1;
                if self.local_unread[slot].1 == 0 {
                    held -= 1;
                }
            }
            if dag.is_sink(member) {
                finishes_output = true;
            } else {
                held += 1;
            }
            if at >= lead_at && (held < 0 || held == 0 && finishes_output) {
                return Some(at + 1);
            }
        }
        None
    }
}
