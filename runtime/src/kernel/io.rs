//! The kernels that touch files: reading a chunk's region of a `.npy` file (or copying
//! it out of the file's mapping, for `mmap_mode='r'`), and the three parts of a save
//! (create a temporary file, write each chunk's region into it, rename it into place
//! once complete, so a failed run never leaves a half-written file under the real
//! name). Errors name the user's file.

use super::{ChunkValue, Kernel};
use crate::dtype::DType;
use crate::npy::{create_npy, read_region, write_region};
use crate::npy_header::NpyError;
use std::path::{Path, PathBuf};

/// One `save(path, x)`: where it goes and what the file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveFile {
    /// The file the user named.
    pub path: PathBuf,
    /// Where the data is written until every region is in (same directory, so the
    /// final rename is atomic).
    pub temporary: PathBuf,
    pub dtype: DType,
    pub shape: Vec<usize>,
    /// Byte offset of the data, the length of the header `create_npy` writes.
    pub data_offset: u64,
}

impl SaveFile {
    /// The temporary name used for `path` by this process: hidden, next to it.
    pub fn temporary_for(path: &Path) -> PathBuf {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        path.with_file_name(format!(".{name}.marsc-{}.partial", std::process::id()))
    }
}

/// Runs one of the file kernels.
pub(super) fn run_file_kernel(kernel: &Kernel, args: &[&ChunkValue]) -> Result<ChunkValue, String> {
    match kernel {
        Kernel::Load {
            spec,
            offset,
            shape,
        } => match &spec.mapped {
            Some(mapped) => mapped.read_region(offset, shape).map(ChunkValue::Array),
            None => read_region(&spec.path, &spec.header, offset, shape)
                .map(ChunkValue::Array)
                .map_err(|e| naming(&spec.path, "cannot read", e)),
        },
        Kernel::SaveInit(file) => {
            let data_offset = create_npy(&file.temporary, file.dtype, &file.shape)
                .map_err(|e| saving(file, e))?;
            if data_offset != file.data_offset {
                return Err(format!(
                    "internal error: the header of '{}' is {data_offset} bytes, not {}",
                    file.path.display(),
                    file.data_offset
                ));
            }
            Ok(ChunkValue::Done)
        }
        Kernel::SaveRegion { file, offset } => {
            let data = args
                .first()
                .ok_or_else(|| "internal error: save.region without data".to_string())?
                .array()?;
            write_region(&file.temporary, file.data_offset, &file.shape, offset, data)
                .map_err(|e| saving(file, e))?;
            Ok(ChunkValue::Done)
        }
        Kernel::SaveCommit(file) => {
            std::fs::rename(&file.temporary, &file.path)
                .map_err(|e| format!("cannot save '{}': {e}", file.path.display()))?;
            Ok(ChunkValue::Done)
        }
        other => Err(format!(
            "internal error: {} is not a file kernel",
            other.name()
        )),
    }
}

/// An I/O error's message, naming the user's file (not the temporary one).
fn naming(path: &Path, doing: &str, error: NpyError) -> String {
    let shown = path.display().to_string();
    let message = error.to_string();
    if message.contains(&shown) {
        message
    } else {
        format!("{doing} '{shown}': {message}")
    }
}

/// A save's I/O error, speaking of the user's file rather than the temporary one.
fn saving(file: &SaveFile, error: NpyError) -> String {
    let temporary = file.temporary.display().to_string();
    let message = error
        .to_string()
        .replace(&temporary, &file.path.display().to_string());
    naming(&file.path, "cannot save", NpyError::Io(message))
}
