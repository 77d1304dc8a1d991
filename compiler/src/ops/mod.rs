//! Op families: one module per family of operations, holding once what an op of
//! the family knows about itself at every stage — its name and dump text in both
//! IRs, its content key, its verification rules, whether it may fail at run time,
//! how it takes part in fusion, and how one of its chunks is computed (the runtime
//! kernel it maps to). The IRs hold a family's type as one variant
//! ([`TileOp::Create`](crate::tileable::TileOp::Create) and
//! [`ChunkOp::Create`](crate::chunk::ChunkOp::Create) hold a [`Creation`]), and the
//! passes (`tileable` display and verify, `chunk` key and display, `tile`, `fuse`,
//! `plan`) ask the family instead of listing its ops.
//!
//! Arrows go one way: a family module depends only on the runtime (its kernels and
//! value types), never on the IRs or the passes that call it, so a new family adds
//! no import cycle. What a family needs from a pass it asks through a small trait
//! the pass implements (the planner's [`creation::ChunkSite`]).
//!
//! The first family is [`creation`] (`full`, `arange`, `linspace`, `eye`, literals,
//! random, `load`, cached tensors); the element-wise, reduction, shape, sorting and
//! save ops are still variants of `TileOp` and `ChunkOp` (issue 18). ARCHITECTURE.md,
//! "How to add a creation op", lists what a new op of a family touches.

pub mod creation;

pub use creation::Creation;

/// How an op's chunks take part in fusion (`fuse/rules.rs`): whether a producer
/// ends a group before a consumer that reads other chunks too, and whether a
/// consumer absorbs only producers it reads alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FusionClass {
    /// Neither contracts an axis nor gathers: joins its neighbours' group freely
    /// (element-wise work, creation leaves).
    Plain,
    /// Reduces the size of an axis: where a tree of partial results begins.
    Contracts,
    /// Reads a variable number of chunks meant to be computed in parallel.
    Gathers,
}
