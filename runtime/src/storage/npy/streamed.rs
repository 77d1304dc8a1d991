//! A load without `mmap_mode`: the file is opened once per run, before the run (see
//! the compiler's `plan/mapped.rs`), and every chunk reads its region through that
//! descriptor with positioned reads, so a save that replaces the path during the
//! run, as `save` of the file the script loads does, cannot change what the load
//! reads.

use super::codec::read_region_of;
use super::header::{parse_header, NpyHeader};
use super::named;
use crate::array::ArrayData;
use crate::storage::{StoreError, StoreReader};
use std::any::Any;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One load of a `.npy` file, read through a descriptor opened once per run.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamedNpy {
    path: PathBuf,
    /// The header the script was compiled against.
    header: NpyHeader,
    /// The caller's tag for the `load` call (reported with an error opening it).
    label: u32,
    /// A raw file (`fromfile`): no header to check, only the length.
    pub raw: bool,
    opened: OpenedNpy,
}

impl StreamedNpy {
    pub fn new(path: &Path, header: NpyHeader, label: u32) -> StreamedNpy {
        StreamedNpy {
            path: path.to_path_buf(),
            header,
            label,
            raw: false,
            opened: OpenedNpy::default(),
        }
    }
}

impl StoreReader for StreamedNpy {
    fn open(&self) -> Result<(), StoreError> {
        self.opened
            .file(&self.path, &self.header, self.raw)
            .map(drop)
    }

    fn read_region(&self, offset: &[usize], shape: &[usize]) -> Result<ArrayData, StoreError> {
        let file = self.opened.file(&self.path, &self.header, self.raw)?;
        read_region_of(file, &self.path, &self.header, offset, shape)
            .map_err(|e| named(&self.path, "cannot read", e))
    }

    fn label(&self) -> u32 {
        self.label
    }

    fn same_as(&self, other: &dyn StoreReader) -> bool {
        (other as &dyn Any).downcast_ref::<StreamedNpy>() == Some(self)
    }
}

/// A loaded file, opened on first use and checked: the header against the one the
/// script was compiled against, and the file's length.
#[derive(Default)]
pub struct OpenedNpy(OnceLock<Result<File, StoreError>>);

impl OpenedNpy {
    /// The open file, opening and checking it on the first call.
    /// A raw file (`raw`) has no header: only its length is checked.
    pub fn file(&self, path: &Path, header: &NpyHeader, raw: bool) -> Result<&File, StoreError> {
        self.0
            .get_or_init(|| open_checked(path, header, raw))
            .as_ref()
            .map_err(Clone::clone)
    }
}

fn open_checked(path: &Path, expected: &NpyHeader, raw: bool) -> Result<File, StoreError> {
    let shown = path.display();
    let cannot_read = |e: std::io::Error| StoreError::Io(format!("cannot read '{shown}': {e}"));
    let file = File::open(path).map_err(cannot_read)?;
    let changed = || StoreError::Data(format!("'{shown}' changed since the script was compiled"));
    let len = file.metadata().map_err(cannot_read)?.len();
    if !raw {
        let header_len = usize::try_from(expected.data_offset).map_err(|_| changed())?;
        let mut bytes = vec![0; header_len];
        file.read_exact_at(&mut bytes, 0).map_err(|_| changed())?;
        match parse_header(&bytes) {
            Ok(found) if &found == expected => {}
            _ => return Err(changed()),
        }
    }
    let needed = expected.data_offset.saturating_add(expected.data_bytes());
    if len < needed && raw {
        return Err(changed());
    }
    if len < needed {
        return Err(StoreError::Data(format!(
            "'{shown}': the file is truncated: the header announces {} bytes of data but the file has {}",
            expected.data_bytes(),
            len.saturating_sub(expected.data_offset)
        )));
    }
    Ok(file)
}

// A plan compares and clones kernels by their parameters; the open file is run state.
impl Clone for OpenedNpy {
    fn clone(&self) -> OpenedNpy {
        OpenedNpy::default()
    }
}

impl PartialEq for OpenedNpy {
    fn eq(&self, _: &OpenedNpy) -> bool {
        true
    }
}

impl std::fmt::Debug for OpenedNpy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let open = self.0.get().is_some_and(Result::is_ok);
        write!(f, "OpenedNpy(open: {open})")
    }
}
