//! The files a session loaded, as they were when loaded.
//!
//! A `load` reads its file lazily: only the chunks a later statement needs, when it
//! runs. Python reads the whole file at `np.load`, so a session must see each load as
//! of the statement that made it. Reading every loaded file into memory at once is
//! what NumPy does, but would bound a session's files by memory (and read a 10 GB
//! file to show `x[:2]`); instead each load records its file's identity (device,
//! inode, size, modification and change times) when it is lowered, and a statement
//! whose values need a load whose file no longer has that identity fails, naming the
//! file and the line that loaded it, rather than mixing old and new data. Only those
//! statements fail: the rest of the session goes on, and loading the file again
//! (a new `load`, with the file's new identity) makes its data usable.
//!
//! Chunk keys name a load by its path, not its contents, so cached chunks of one
//! version of a file must not answer for another: when a file is seen with a new
//! identity the caller drops the session's cache.

use crate::lower::incremental::LoadSite;
use crate::tileable::TileableId;
use marsc_grammar::Span;
use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// What tells one version of a file from another without reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileIdentity {
    device: u64,
    inode: u64,
    size: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl FileIdentity {
    /// The identity of the file at `path` now; `None` when it cannot be read.
    pub fn of(path: &Path) -> Option<FileIdentity> {
        let meta = std::fs::metadata(path).ok()?;
        Some(FileIdentity {
            device: meta.dev(),
            inode: meta.ino(),
            size: meta.size(),
            modified: (meta.mtime(), meta.mtime_nsec()),
            changed: (meta.ctime(), meta.ctime_nsec()),
        })
    }
}

/// One `load` of the session.
#[derive(Clone, Debug)]
pub struct LoadedFile {
    pub node: TileableId,
    pub path: PathBuf,
    /// The `load(...)` expression, in the session's text.
    pub span: Span,
    /// The file as it was when the load was lowered.
    identity: Option<FileIdentity>,
    /// The file has been seen with another identity (or gone) since.
    pub changed: bool,
}

/// What a check found about a load.
pub enum Staleness<'a> {
    /// The file is no longer the one loaded.
    Changed(&'a LoadedFile),
    /// The file is gone.
    Removed(&'a LoadedFile),
}

/// Every load of the session, by node (nodes are recorded in increasing order).
#[derive(Default)]
pub struct LoadedFiles {
    loads: Vec<LoadedFile>,
    /// The identity each path was last seen with.
    last_seen: HashMap<PathBuf, Option<FileIdentity>>,
}

impl LoadedFiles {
    /// Records the loads of an accepted input with their files' identities now.
    /// Returns whether a file was seen with an identity other than the one it last
    /// had, so that chunks cached from it are of another version.
    pub fn record(&mut self, sites: Vec<LoadSite>) -> bool {
        let mut other_version = false;
        for site in sites {
            let identity = FileIdentity::of(&site.path);
            if let Some(previous) = self.last_seen.insert(site.path.clone(), identity) {
                other_version |= previous != identity;
            }
            self.loads.push(LoadedFile {
                node: site.node,
                path: site.path,
                span: site.span,
                identity,
                changed: false,
            });
        }
        other_version
    }

    /// Checks the files of the loads `needed` (session node ids) against their
    /// identities at load; marks and returns the first whose file changed. Files in
    /// `expected` (saved by the statement itself) are marked but not reported.
    pub fn check(&mut self, needed: &[TileableId], expected: &[PathBuf]) -> Option<Staleness<'_>> {
        let mut first = None;
        for &node in needed {
            let Ok(at) = self.loads.binary_search_by_key(&node, |load| load.node) else {
                continue;
            };
            let load = &mut self.loads[at];
            // `last_seen` keeps the identity of the last load: the next load of the
            // path compares against it and so drops chunks cached from this version.
            let now = FileIdentity::of(&load.path);
            if now != load.identity {
                load.changed = true;
            }
            if load.changed && first.is_none() && !saved_by(&load.path, expected) {
                first = Some((at, now.is_none()));
            }
        }
        first.map(|(at, removed)| {
            let load = &self.loads[at];
            if removed {
                Staleness::Removed(load)
            } else {
                Staleness::Changed(load)
            }
        })
    }

    pub fn clear(&mut self) {
        self.loads.clear();
        self.last_seen.clear();
    }
}

/// Whether `path` is one of `saved` (compared as canonical paths where they exist).
fn saved_by(path: &Path, saved: &[PathBuf]) -> bool {
    let canonical = |path: &Path| std::fs::canonicalize(path).unwrap_or_else(|_| path.into());
    let path = canonical(path);
    saved.iter().any(|saved| canonical(saved) == path)
}
