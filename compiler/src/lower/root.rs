//! Confining a script's files to a root directory (`marsc serve --root DIR`): a
//! `load` or `save` path must be relative, have no `..`, and, after resolving
//! symlinks, still lie inside the root. A path that escapes is a compile-time error
//! pointing at the path's expression; without a root every path is allowed.

use marsc_grammar::{Diagnostic, Span};
use std::path::{Component, Path, PathBuf};

/// Checks the script path `written` (resolved to `resolved`) against `root`.
pub(super) fn check(
    root: Option<&Path>,
    written: &str,
    resolved: &Path,
    span: Span,
) -> Result<(), Diagnostic> {
    let Some(root) = root else {
        return Ok(());
    };
    let refuse = |why: String| {
        Diagnostic::error(format!("`{written}` is outside the server's root: {why}"), span)
            .with_help(format!(
                "scripts run by this server may only read and write files under {}; use a path relative to it",
                root.display()
            ))
    };
    let written_path = Path::new(written);
    if written_path.is_absolute() {
        return Err(refuse("an absolute path".to_string()));
    }
    if written_path
        .components()
        .any(|component| matches!(component, Component::ParentDir))
    {
        return Err(refuse("it contains `..`".to_string()));
    }
    let root = root
        .canonicalize()
        .map_err(|error| refuse(format!("the root cannot be resolved ({error})")))?;
    let target = canonical_target(resolved)
        .map_err(|error| refuse(format!("it cannot be resolved ({error})")))?;
    if target.starts_with(&root) {
        Ok(())
    } else {
        Err(refuse(format!("it resolves to {}", target.display())))
    }
}

/// The path with every symlink resolved: its nearest existing ancestor (the file
/// itself when it exists) canonicalized, followed by the rest (which has no
/// symlinks, since it does not exist).
fn canonical_target(path: &Path) -> std::io::Result<PathBuf> {
    for ancestor in path.ancestors() {
        let probe = if ancestor.as_os_str().is_empty() {
            Path::new(".")
        } else {
            ancestor
        };
        if probe.symlink_metadata().is_ok() {
            let mut target = probe.canonicalize()?;
            let rest = path.strip_prefix(ancestor).unwrap_or(Path::new(""));
            if !rest.as_os_str().is_empty() {
                target.push(rest);
            }
            return Ok(target);
        }
    }
    path.canonicalize()
}
