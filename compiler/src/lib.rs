//! The marsc compiler: `.mt` source -> AST -> TileableGraph -> ChunkGraph ->
//! SubtaskGraph -> a plan the runtime executes. The `marsc` binary is a thin shell
//! over [`driver`].

pub mod chunk;
pub mod cli;
pub mod diagnostics;
pub mod driver;
pub mod fuse;
pub mod infer;
pub mod lower;
pub mod plan;
pub mod repl;
pub mod run;
pub mod schedule;
pub mod size;
pub mod subtask;
pub mod tile;
pub mod tileable;
