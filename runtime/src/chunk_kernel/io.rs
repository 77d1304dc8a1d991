//! The kernels that touch stores: reading a chunk's region of a loaded store, and
//! the three parts of a save (create the store's temporary form, write each chunk's
//! region into it, commit it under the user's name once complete). What a format
//! does at each step is its own ([`crate::storage`]); this is the dispatch (the save's
//! shared state is [`crate::chunk_value::SaveFile`]).

use super::{ChunkError, ChunkValue, Kernel};

/// Runs one of the file kernels.
pub(super) fn run_file_kernel(
    kernel: &Kernel,
    args: &[&ChunkValue],
) -> Result<ChunkValue, ChunkError> {
    match kernel {
        Kernel::Load {
            spec,
            offset,
            shape,
        } => Ok(ChunkValue::Array(spec.reader.read_region(offset, shape)?)),
        Kernel::SaveInit(file) => {
            file.create()?;
            Ok(ChunkValue::Done)
        }
        Kernel::SaveRegion { file, offset } => {
            let data = args
                .first()
                .ok_or("internal error: save.region without data")?
                .array()?;
            file.write_region(offset, data)?;
            Ok(ChunkValue::Done)
        }
        Kernel::SaveCommit(file) => {
            file.commit()?;
            Ok(ChunkValue::Done)
        }
        other => Err(ChunkError::Internal(format!(
            "internal error: {} is not a file kernel",
            other.name()
        ))),
    }
}
