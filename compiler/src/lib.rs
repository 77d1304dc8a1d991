//! The marsc compiler: `.mt` source -> AST -> TileableGraph -> ChunkGraph ->
//! SubtaskGraph -> a plan the runtime executes. Front-ends (the `marsc` binary's
//! CLI and REPL) compile and run scripts through [`job`].

pub mod chunk;
pub mod diagnostics;
pub mod driver;
pub mod error;
pub mod fuse;
pub mod infer;
pub mod job;
pub mod lower;
pub mod ops;
pub mod plan;
pub mod run;
pub mod schedule;
pub mod session;
pub mod simulate;
pub mod size;
pub mod subtask;
pub mod tile;
pub mod tileable;
