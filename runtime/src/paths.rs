//! Which file a path names. Two needs share it: a save writes *through* a symlink,
//! as `np.save` does (it opens the path, so the link's target gets the data), which
//! takes the end of the link chain; and the compiler and the CLI must tell when two
//! spellings (`a.npy`, `./a.npy`, a hard link, a symlink) name one file, which takes
//! an identity: the (device, inode) pair of a file that exists, else the canonical
//! directory plus the final name of the file a save would create (or, when the
//! directory is missing too, the path as written).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// How many symlinks a chain may have before it is taken for a loop (Linux's limit).
const MAX_LINKS: usize = 40;

/// What a path names, for comparing two paths.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FileIdentity {
    /// An existing file: its device and inode.
    Inode { device: u64, inode: u64 },
    /// A file that does not exist (yet): where it would be created.
    Path(PathBuf),
}

/// The identity of the file `path` names (following symlinks).
pub fn file_identity(path: &Path) -> FileIdentity {
    if let Ok(metadata) = std::fs::metadata(path) {
        return FileIdentity::Inode {
            device: metadata.dev(),
            inode: metadata.ino(),
        };
    }
    let target = resolve_symlinks(path).unwrap_or_else(|_| path.to_path_buf());
    FileIdentity::Path(canonical_location(&target))
}

/// The path at the end of `path`'s chain of symlinks (the path itself when it is not
/// a link); the file there need not exist. The directories on the way are left to
/// the kernel, which follows links in them when the path is used.
pub fn resolve_symlinks(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other(format!(
        "too many levels of symbolic links at '{}'",
        path.display()
    )))
}

/// The directory a file at `path` is (or would be) in: `.` for a bare file name.
pub fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(directory) if !directory.as_os_str().is_empty() => directory,
        _ => Path::new("."),
    }
}

/// `path` with its directory canonicalised. A path whose directory does not exist
/// names no file anyone can create, so it is kept as written: it is the same file
/// only as the same spelling.
fn canonical_location(path: &Path) -> PathBuf {
    let Some(name) = path.file_name() else {
        return path.to_path_buf();
    };
    match std::fs::canonicalize(directory_of(path)) {
        Ok(dir) => dir.join(name),
        Err(_) => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_one_file_have_one_identity() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.npy");
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        // Not there yet: the directory and name decide.
        let dotted = sub.join("..").join("a.npy");
        assert_eq!(file_identity(&file), file_identity(&dotted));
        let link = dir.path().join("link.npy");
        std::os::unix::fs::symlink("a.npy", &link).unwrap();
        assert_eq!(file_identity(&link), file_identity(&file));
        assert_ne!(file_identity(&file), file_identity(&sub.join("a.npy")));
        // There: the inode decides, hard links included.
        std::fs::write(&file, b"x").unwrap();
        let hard = dir.path().join("hard.npy");
        std::fs::hard_link(&file, &hard).unwrap();
        assert_eq!(file_identity(&file), file_identity(&dotted));
        assert_eq!(file_identity(&link), file_identity(&hard));
        assert!(matches!(file_identity(&file), FileIdentity::Inode { .. }));
    }

    #[test]
    fn symlink_chains_resolve_to_their_last_target() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("first.npy");
        let second = dir.path().join("second.npy");
        std::os::unix::fs::symlink("second.npy", &first).unwrap();
        std::os::unix::fs::symlink(dir.path().join("target.npy"), &second).unwrap();
        assert_eq!(
            resolve_symlinks(&first).unwrap(),
            dir.path().join("target.npy")
        );
        let plain = dir.path().join("plain.npy");
        assert_eq!(resolve_symlinks(&plain).unwrap(), plain);
        let looped = dir.path().join("loop.npy");
        std::os::unix::fs::symlink("loop.npy", &looped).unwrap();
        assert!(resolve_symlinks(&looped).is_err());
    }
}
