//! The command line's spellings of the library's choices (`--emit`, `--format`,
//! `--assign`, `--order`, `:emit`): clap's value enums, each mapped onto the
//! library's own enum, which knows nothing of clap. The doc comments are the help
//! texts `--help` shows.

use clap::ValueEnum;
use marsc::driver::{EmitFormat, Stage};
use marsc::subtask::{AssignPolicy, OrderPolicy};

/// A stage whose IR `--emit` can print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StageArg {
    /// The syntax tree.
    Ast,
    /// The TileableGraph: one node per tensor operation.
    Tileable,
    /// The ChunkGraph: every tensor split into chunks.
    Chunk,
    /// The SubtaskGraph: fused groups of chunk operations with workers and priorities.
    Subtask,
    /// The generated Cranelift IR of every kernel.
    Kernels,
    /// Every stage, each under an `after <pass>` heading.
    All,
}

impl From<StageArg> for Stage {
    fn from(stage: StageArg) -> Stage {
        match stage {
            StageArg::Ast => Stage::Ast,
            StageArg::Tileable => Stage::Tileable,
            StageArg::Chunk => Stage::Chunk,
            StageArg::Subtask => Stage::Subtask,
            StageArg::Kernels => Stage::Kernels,
            StageArg::All => Stage::All,
        }
    }
}

/// How `--emit` renders a stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// A deterministic text dump.
    Text,
    /// A Graphviz digraph (`dot -Tsvg`).
    Dot,
}

impl From<FormatArg> for EmitFormat {
    fn from(format: FormatArg) -> EmitFormat {
        match format {
            FormatArg::Text => EmitFormat::Text,
            FormatArg::Dot => EmitFormat::Dot,
        }
    }
}

/// How the execution priority of subtasks is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// The memory-frugal demand-driven order (finish a branch before starting another).
    Priority,
    /// Breadth-first: every subtask of one depth before any deeper one.
    Bfs,
}

impl From<OrderArg> for OrderPolicy {
    fn from(order: OrderArg) -> OrderPolicy {
        match order {
            OrderArg::Priority => OrderPolicy::Priority,
            OrderArg::Bfs => OrderPolicy::Bfs,
        }
    }
}

/// How the initial subtasks (those reading no other subtask) are spread over workers;
/// the rest follow the bytes of their inputs whatever the policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AssignArg {
    /// The Mars breadth-first assignment: neighbouring initial subtasks share a worker.
    Bfs,
    /// The i-th initial subtask goes to worker i mod workers.
    RoundRobin,
    /// A fixed-seed random permutation of the initial subtasks, dealt round-robin.
    Random,
}

impl From<AssignArg> for AssignPolicy {
    fn from(assign: AssignArg) -> AssignPolicy {
        match assign {
            AssignArg::Bfs => AssignPolicy::Bfs,
            AssignArg::RoundRobin => AssignPolicy::RoundRobin,
            AssignArg::Random => AssignPolicy::Random,
        }
    }
}
