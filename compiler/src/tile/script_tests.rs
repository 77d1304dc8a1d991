//! End-to-end checks through the real parser and lowering: every example script and
//! every lowering `ok` case tiles to a ChunkGraph that passes `verify`, and tiling
//! is deterministic.

use super::{tile, TileOptions};
use crate::chunk::{verify, ChunkGraph};
use crate::lower::{lower, LowerOptions};
use std::path::{Path, PathBuf};

/// Parses, lowers and tiles a script whose relative paths resolve against `base_dir`;
/// `None` when the front end rejects it (that is lowering's business, not tiling's).
pub(crate) fn tile_script(source: &str, base_dir: &Path) -> Option<ChunkGraph> {
    let (module, syntax_errors) = marsc_grammar::parse(source);
    if !syntax_errors.is_empty() {
        return None;
    }
    let options = LowerOptions {
        base_dir: base_dir.to_path_buf(),
        ..LowerOptions::default()
    };
    let graph = lower(&module, &options).ok()?;
    let chunks =
        tile(&graph, &TileOptions::default()).unwrap_or_else(|e| panic!("tiling failed: {e}"));
    if let Err(message) = verify(&chunks) {
        panic!("verify failed: {message}\n{chunks}");
    }
    Some(chunks)
}

fn scripts_in(relative: &str) -> Vec<PathBuf> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative);
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "mt"))
        .collect();
    scripts.sort();
    scripts
}

fn check_folder(relative: &str) {
    let scripts = scripts_in(relative);
    assert!(!scripts.is_empty(), "no scripts in {relative}");
    let mut tiled = 0;
    for path in &scripts {
        let source = std::fs::read_to_string(path).expect("readable script");
        // Scripts name data files relative to the repository root.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let base = root.as_path();
        let result = std::panic::catch_unwind(|| tile_script(&source, base));
        match result {
            Ok(Some(graph)) => {
                tiled += 1;
                let again = tile_script(&source, base).map(|g| g.to_string());
                assert_eq!(
                    Some(graph.to_string()),
                    again,
                    "{} tiles differently twice",
                    path.display()
                );
            }
            Ok(None) => eprintln!("skipped (does not lower yet): {}", path.display()),
            Err(_) => panic!("{} failed (see above)", path.display()),
        }
    }
    // Most scripts must get through the front end, or this test checks nothing.
    assert!(
        tiled * 4 >= scripts.len() * 3,
        "only {tiled} of {} scripts tiled",
        scripts.len()
    );
}

#[test]
fn every_example_tiles_and_verifies() {
    check_folder("examples");
}

#[test]
fn every_lowering_case_tiles_and_verifies() {
    check_folder("tests/cases/lower/ok");
}

#[test]
fn every_chunk_case_tiles_and_verifies() {
    check_folder("tests/cases/chunk/ok");
}
