//! The one driver that orders the passes. The CLI, the REPL and the tests all go
//! through it: parse → lower (→ tile → form subtasks → run, as those stages land),
//! verifying each IR after the pass that built it and serving `--emit`.

use crate::chunk::ChunkGraph;
use crate::lower::{lower, LowerOptions};
use crate::tile::{tile, TileOptions};
use crate::tileable::TileableGraph;
use marsc_grammar::{ast::Module, Diagnostic};
use std::path::PathBuf;

/// Everything that shapes a compilation.
#[derive(Clone, Debug)]
pub struct Options {
    /// Byte budget of an automatically sized chunk.
    pub chunk_bytes: u64,
    /// Directory that relative `load`/`save` paths are resolved against.
    pub base_dir: PathBuf,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            chunk_bytes: 128 << 20,
            base_dir: PathBuf::from("."),
        }
    }
}

/// A stage whose IR `--emit` can print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Stage {
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

/// How `--emit` renders a stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EmitFormat {
    /// A deterministic text dump.
    Text,
    /// A Graphviz digraph (`dot -Tsvg`).
    Dot,
}

/// Why the driver stopped.
#[derive(Debug)]
pub enum DriverError {
    /// Errors in the script, with their locations.
    Diagnostics(Vec<Diagnostic>),
    /// A stage or feature that does not exist yet.
    NotSupported(String),
    /// An error while running (a file that cannot be read or written, ...).
    Runtime(String),
}

/// Parses a script, reporting every syntax error it can.
pub fn parse(text: &str) -> Result<Module, DriverError> {
    let (module, diagnostics) = marsc_grammar::parse(text);
    if diagnostics.is_empty() {
        Ok(module)
    } else {
        Err(DriverError::Diagnostics(diagnostics))
    }
}

/// Parses and lowers a script to its TileableGraph, verified.
pub fn tileable(text: &str, options: &Options) -> Result<(Module, TileableGraph), DriverError> {
    let module = parse(text)?;
    let lower_options = LowerOptions {
        chunk_bytes: options.chunk_bytes,
        base_dir: options.base_dir.clone(),
    };
    let graph = lower(&module, &lower_options).map_err(DriverError::Diagnostics)?;
    verify_ir("tileable", crate::tileable::verify::verify(&graph));
    Ok((module, graph))
}

/// Parses, lowers and tiles a script to its ChunkGraph, verified.
pub fn chunk(text: &str, options: &Options) -> Result<(TileableGraph, ChunkGraph), DriverError> {
    let (_, graph) = tileable(text, options)?;
    let chunks = tile(&graph, &TileOptions::default())
        .map_err(|error| DriverError::Runtime(error.to_string()))?;
    verify_ir("chunk", crate::chunk::verify(&chunks));
    Ok((graph, chunks))
}

/// An IR that fails verification is a compiler bug, never a user error; stop loudly
/// in debug builds and tests, where the check runs.
fn verify_ir(stage: &str, result: Result<(), String>) {
    if cfg!(debug_assertions) {
        if let Err(message) = result {
            panic!("internal compiler error: the {stage} IR failed verification: {message}");
        }
    }
}

/// Compiles the script as far as the compiler goes, reporting every static error.
pub fn check(text: &str, options: &Options) -> Result<(), DriverError> {
    chunk(text, options).map(|_| ())
}

/// Compiles up to `stage` and renders its IR.
pub fn emit(
    text: &str,
    stage: Stage,
    format: EmitFormat,
    options: &Options,
) -> Result<String, DriverError> {
    match stage {
        Stage::Ast => {
            let module = parse(text)?;
            Ok(match format {
                EmitFormat::Text => marsc_grammar::dump_ast(&module, text),
                EmitFormat::Dot => marsc_grammar::dump_ast_dot(&module),
            })
        }
        Stage::Tileable => {
            let (_, graph) = tileable(text, options)?;
            Ok(match format {
                EmitFormat::Text => graph.with_source(text).to_string(),
                EmitFormat::Dot => crate::tileable::dot::to_dot(&graph),
            })
        }
        Stage::All => {
            let module = parse(text)?;
            let (graph, chunks) = chunk(text, options)?;
            Ok(match format {
                EmitFormat::Text => format!(
                    "after parse\n{}\nafter lower\n{}\nafter tile\n{}",
                    marsc_grammar::dump_ast(&module, text),
                    graph.with_source(text),
                    chunks
                ),
                EmitFormat::Dot => crate::tileable::dot::to_dot(&graph),
            })
        }
        Stage::Chunk => {
            let (_, chunks) = chunk(text, options)?;
            Ok(match format {
                EmitFormat::Text => chunks.to_string(),
                EmitFormat::Dot => crate::chunk::dot::to_dot(&chunks),
            })
        }
        Stage::Subtask => Err(DriverError::NotSupported(
            "--emit subtask: subtask graphs are not built yet".to_string(),
        )),
        Stage::Kernels => Err(DriverError::NotSupported(
            "--emit kernels: the JIT is not built yet".to_string(),
        )),
    }
}
