//! A save of a `.npy` file ([`NpyWriter`]), with what `np.save` does to the file
//! system, atomically: the create first opens the target for writing without
//! truncating it, so a save fails where `np.save` would (a read-only file stays as
//! it was, a directory is refused); it writes through a symlink (the temporary file
//! goes beside the end of the link chain); the temporary file is created
//! exclusively (`O_EXCL`) under a random hidden name that fits in `NAME_MAX`
//! (`.NAME.marsc-RANDOM.partial`); and the commit keeps the permissions of a file
//! it replaces and renames the complete file into place, so a failed run never
//! leaves a half-written file under the user's name. Errors name the user's file.
//!
//! The create maps the temporary file (see [`super::writable`]); regions copy into
//! the mapping, or JIT kernels compute into it ([`crate::jit::SaveSink`]). Where the
//! file cannot be mapped or its pages cannot be reserved, regions `pwrite`.

use super::codec::{init_npy, write_region, write_region_mapped};
use super::header::{encode_header, NpyError};
use super::naming;
use super::writable::{MappingSlot, Reserved, WritableNpy};
use crate::array::ArrayData;
use crate::dtype::DType;
use crate::paths::{directory_of, resolve_symlinks};
use crate::storage::{RunSlot, StoreError, StoreWriter};
use std::any::Any;
use std::ffi::OsStr;
use std::fs::{File, OpenOptions, Permissions};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The longest file name Linux file systems take (`NAME_MAX`).
const NAME_MAX: usize = 255;

/// The random part of a temporary name: 12 alphanumerics, about 71 bits.
const RANDOM_CHARS: usize = 12;

/// What every temporary save name starts after the dot and the user's file name, and
/// ends with, so that a left-over one can be found (`.*.marsc-*.partial`).
const TEMPORARY_TAG: &str = ".marsc-";
const TEMPORARY_SUFFIX: &str = ".partial";

/// One `save(path, x)` as a `.npy` file: where it goes and what the file holds.
#[derive(Debug, PartialEq, Eq)]
pub struct NpyWriter {
    /// The file the user named.
    path: PathBuf,
    dtype: DType,
    shape: Vec<usize>,
    /// Byte offset of the data, the length of the header `create_npy` writes.
    data_offset: u64,
    /// A raw file (`tofile`): the elements alone, no header.
    raw: bool,
    /// The temporary file's writable mapping, once the init has made it.
    mapping: MappingSlot,
    /// The temporary file and where it goes, once the init has created it.
    staged: RunSlot<Staged>,
}

/// A save's temporary file, created by its init and renamed by its commit.
#[derive(Clone, Debug)]
struct Staged {
    /// Hidden, with a random name, beside `target`, so the final rename is atomic.
    temporary: PathBuf,
    /// The user's path with its symlinks followed: `np.save` writes through a link.
    target: PathBuf,
    /// The permissions of the file the save replaces, which it keeps (`np.save`
    /// truncates and rewrites the file in place); `None` for a new file.
    keep_permissions: Option<Permissions>,
}

impl NpyWriter {
    /// The save of an array of `dtype` and `shape` to `path`.
    pub fn new(path: &Path, dtype: DType, shape: &[usize]) -> NpyWriter {
        NpyWriter {
            path: path.to_path_buf(),
            dtype,
            shape: shape.to_vec(),
            data_offset: encode_header(dtype, shape).len() as u64,
            raw: false,
            mapping: MappingSlot::default(),
            staged: RunSlot::default(),
        }
    }

    /// The save of an array of `dtype` and `shape` to `path` as a raw file: its
    /// elements in C order, no header (`tofile`).
    pub fn raw(path: &Path, dtype: DType, shape: &[usize]) -> NpyWriter {
        NpyWriter {
            data_offset: 0,
            raw: true,
            ..NpyWriter::new(path, dtype, shape)
        }
    }

    /// The bytes of element data.
    pub fn data_bytes(&self) -> u64 {
        self.shape
            .iter()
            .fold(self.dtype.itemsize() as u64, |acc, &d| {
                acc.saturating_mul(d as u64)
            })
    }

    /// The temporary file, once the init has created it and until the commit.
    pub fn temporary(&self) -> Option<PathBuf> {
        self.staged.get().map(|staged| staged.temporary)
    }

    /// Removes the temporary file, if there is one (a run that failed or stopped).
    pub fn remove_temporary(&self) {
        if let Some(staged) = self.staged.take() {
            // Absent is fine: it may never have been fully created.
            let _ = std::fs::remove_file(staged.temporary);
        }
    }

    /// Checks that the file can be written as `np.save` would write it, then creates
    /// the temporary file (exclusively, under an unpredictable name) and maps it. An
    /// init that runs again (its result was lost with a worker) keeps the file and
    /// its mapping: recreating it would drop the regions already written and
    /// truncate pages other writers map.
    pub fn create(&self) -> Result<(), StoreError> {
        if self.staged.get().is_some() {
            return Ok(());
        }
        let target = resolve_symlinks(&self.path).map_err(|e| self.io_error(e))?;
        let keep_permissions = self.check_writable(&target)?;
        let (file, temporary) = create_temporary(&target).map_err(|e| self.io_error(e))?;
        let initialised = match self.init(&file, &temporary) {
            Ok(offset) if offset == self.data_offset => Ok(()),
            Ok(offset) => Err(StoreError::Internal(format!(
                "internal error: the header of '{}' is {offset} bytes, not {}",
                self.path.display(),
                self.data_offset
            ))),
            Err(error) => Err(saving(self, &temporary, error)),
        };
        if let Err(error) = initialised {
            let _ = std::fs::remove_file(&temporary);
            return Err(error);
        }
        self.staged.set(Staged {
            temporary,
            target,
            keep_permissions,
        });
        // Without a mapping the regions write with `pwrite`, so failing to map is
        // not an error.
        if let Ok(mapping) = WritableNpy::map(file, self.data_offset, self.data_bytes()) {
            self.mapping.set(Arc::new(mapping));
        }
        Ok(())
    }

    /// Writes the header (none for a raw file) and sizes the file; returns where
    /// the elements start.
    fn init(&self, file: &File, temporary: &Path) -> Result<u64, NpyError> {
        if !self.raw {
            return init_npy(file, temporary, self.dtype, &self.shape);
        }
        file.set_len(self.data_bytes())
            .map_err(|e| NpyError::Io(format!("cannot size '{}': {e}", self.path.display())))?;
        Ok(0)
    }

    /// What `np.save` finds when it opens `target` for writing: an error where it
    /// would fail (a read-only file, a directory), the permissions to keep where a
    /// file is replaced. The file is opened without truncating it (and without
    /// blocking, for a FIFO), so the check changes nothing.
    fn check_writable(&self, target: &Path) -> Result<Option<Permissions>, StoreError> {
        let metadata = match std::fs::metadata(target) {
            Ok(metadata) => metadata,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(self.io_error(error)),
        };
        if metadata.is_dir() {
            return Err(StoreError::Io(
                self.error("Is a directory (os error 21)".to_string()),
            ));
        }
        OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(target)
            .map_err(|e| self.io_error(e))?;
        if !metadata.is_file() {
            return Err(StoreError::NotSupported(format!(
                "not supported yet: saving to '{}', which is not a regular file",
                self.path.display()
            )));
        }
        Ok(Some(Permissions::from_mode(
            metadata.permissions().mode() & 0o777,
        )))
    }

    /// Writes `data` as the region at `offset`: into the mapping when there is one
    /// that can reserve its pages, else with `pwrite`.
    pub fn write_region(&self, offset: &[usize], data: &ArrayData) -> Result<(), StoreError> {
        let temporary = self.temporary().ok_or_else(|| {
            StoreError::Internal(self.error("internal error: a region before the init".into()))
        })?;
        if let Some(mapping) = self.mapping.get() {
            let written = write_region_mapped(&temporary, &mapping, &self.shape, offset, data)
                .map_err(|e| saving(self, &temporary, e))?;
            if written == Reserved::Yes {
                return Ok(());
            }
        }
        write_region(&temporary, self.data_offset, &self.shape, offset, data)
            .map_err(|e| saving(self, &temporary, e))
    }

    /// Moves the complete temporary file over the target, keeping the permissions
    /// of a file it replaces.
    pub fn commit(&self) -> Result<(), StoreError> {
        let staged = self.staged.get().ok_or_else(|| {
            StoreError::Internal(self.error("internal error: a commit before the init".into()))
        })?;
        if let Some(permissions) = &staged.keep_permissions {
            std::fs::set_permissions(&staged.temporary, permissions.clone())
                .map_err(|e| self.io_error(e))?;
        }
        std::fs::rename(&staged.temporary, &staged.target)
            .map_err(|e| StoreError::Io(format!("cannot save '{}': {e}", self.path.display())))?;
        self.staged.take();
        Ok(())
    }

    /// An error about this save, naming the user's file.
    pub fn error(&self, message: String) -> String {
        naming(&self.path, "cannot save", NpyError::Io(message))
    }

    /// The system's refusal of an operation of this save, naming the user's file.
    fn io_error(&self, error: std::io::Error) -> StoreError {
        StoreError::Io(self.error(error.to_string()))
    }
}

impl StoreWriter for NpyWriter {
    fn path(&self) -> &Path {
        &self.path
    }

    fn create(&self) -> Result<(), StoreError> {
        NpyWriter::create(self)
    }

    fn write_region(&self, offset: &[usize], data: &ArrayData) -> Result<(), StoreError> {
        NpyWriter::write_region(self, offset, data)
    }

    fn commit(&self) -> Result<(), StoreError> {
        NpyWriter::commit(self)
    }

    fn abort(&self) {
        self.remove_temporary();
    }

    fn temporary(&self) -> Option<PathBuf> {
        NpyWriter::temporary(self)
    }

    fn mapping(&self) -> Option<Arc<WritableNpy>> {
        self.mapping.get()
    }

    fn error(&self, message: String) -> String {
        NpyWriter::error(self, message)
    }

    fn same_as(&self, other: &dyn StoreWriter) -> bool {
        (other as &dyn Any).downcast_ref::<NpyWriter>() == Some(self)
    }
}

/// Creates the hidden temporary file beside `target`, exclusively (`O_EXCL`) under
/// a random name that fits in `NAME_MAX` however long the target's name is:
/// `.NAME.marsc-RANDOM.partial`, with NAME cut short where needed.
pub(crate) fn create_temporary(target: &Path) -> std::io::Result<(File, PathBuf)> {
    let name = target.file_name().map_or(&[][..], OsStr::as_bytes);
    let room = NAME_MAX - 1 - TEMPORARY_TAG.len() - RANDOM_CHARS - TEMPORARY_SUFFIX.len();
    let mut prefix = b".".to_vec();
    prefix.extend_from_slice(&name[..name.len().min(room)]);
    prefix.extend_from_slice(TEMPORARY_TAG.as_bytes());
    tempfile::Builder::new()
        .prefix(OsStr::from_bytes(&prefix))
        .suffix(TEMPORARY_SUFFIX)
        .rand_bytes(RANDOM_CHARS)
        // Like `np.save`, a new file gets the user's default permissions.
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(directory_of(target))
        .and_then(|file| file.keep().map_err(|e| e.error))
        // tempfile's errors name the temporary file; the user's is named instead.
        // (tempfile wraps an OS error with " at path ..."; that suffix is cut off).
        .map_err(|e| match e.raw_os_error() {
            Some(code) => std::io::Error::from_raw_os_error(code),
            None => {
                let text = e.to_string();
                let cause = text.split(" at path ").next().unwrap_or(&text);
                std::io::Error::new(e.kind(), cause.to_string())
            }
        })
}

/// A save's I/O error, speaking of the user's file rather than the temporary one.
fn saving(file: &NpyWriter, temporary: &Path, error: NpyError) -> StoreError {
    let temporary = temporary.display().to_string();
    let message = error
        .to_string()
        .replace(&temporary, &file.path.display().to_string());
    StoreError::Io(naming(&file.path, "cannot save", NpyError::Io(message)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_hidden_random_exclusive_and_fit_name_max() {
        let dir = tempfile::tempdir().unwrap();
        for len in [1, 200, 227, 228, 251, 255] {
            let target = dir.path().join("x".repeat(len));
            let (_, first) = create_temporary(&target).unwrap();
            let (_, second) = create_temporary(&target).unwrap();
            assert_ne!(first, second, "two saves of one file get two names");
            for temporary in [&first, &second] {
                let name = temporary.file_name().unwrap().to_str().unwrap();
                assert!(name.len() <= NAME_MAX, "{len}: {name}");
                assert!(
                    name.starts_with(".x") && name.ends_with(".partial"),
                    "{name}"
                );
                assert!(name.contains(".marsc-"), "{name}");
                assert_eq!(temporary.parent(), Some(dir.path()));
            }
        }
        // The random part is not the process id.
        let (_, temporary) = create_temporary(&dir.path().join("y.npy")).unwrap();
        let name = temporary.file_name().unwrap().to_str().unwrap();
        assert!(!name.contains(&std::process::id().to_string()), "{name}");
    }

    #[test]
    fn a_save_through_a_symlink_replaces_the_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.npy");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.path().join("link.npy");
        std::os::unix::fs::symlink("target.npy", &link).unwrap();
        let save = NpyWriter::new(&link, DType::Int64, &[2]);
        save.create().unwrap();
        let temporary = save.temporary().unwrap();
        assert_eq!(temporary.parent(), Some(dir.path()));
        save.create().unwrap();
        assert_eq!(
            save.temporary(),
            Some(temporary),
            "an init run again keeps its file"
        );
        save.commit().unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).unwrap().len(), 128 + 16);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
