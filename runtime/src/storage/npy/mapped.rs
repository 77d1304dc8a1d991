//! `load(path, mmap_mode='r')`: the `.npy` file mapped read-only, once per run, and
//! read in place. JIT kernels read a chunk's region straight from the mapping (a
//! mapped leaf); interpreted kernels copy the region out of it.
//!
//! Like NumPy's memmaps, a mapping reflects the file: another process writing the
//! file while it is mapped changes the values read, and truncating it is undefined
//! (the kernel delivers SIGBUS on a read past the new end). The header is checked
//! against the one read at compile time, and the mapping's length against the data
//! the header announces, when the file is mapped.
#![allow(unsafe_code)]

use super::codec::copy_region;
use super::header::{parse_header, read_header, NpyHeader};
use crate::array::ArrayData;
use crate::storage::{StoreError, StoreReader};
use memmap2::{Mmap, MmapOptions};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A `.npy` file read through a read-only mapping, mapped on first use.
pub struct MappedNpy {
    path: PathBuf,
    /// The header the script was compiled against.
    header: NpyHeader,
    /// The caller's tag for the `load` call (reported with a mapping error).
    pub label: u32,
    mapping: OnceLock<Result<Mmap, StoreError>>,
}

impl MappedNpy {
    pub fn new(path: PathBuf, header: NpyHeader, label: u32) -> MappedNpy {
        MappedNpy {
            path,
            header,
            label,
            mapping: OnceLock::new(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn header(&self) -> &NpyHeader {
        &self.header
    }

    /// The array's element bytes (little-endian, in the file's order), mapping the
    /// file on the first call; an error names the file and says what is wrong.
    pub fn data(&self) -> Result<&[u8], StoreError> {
        let mapping = self
            .mapping
            .get_or_init(|| map_checked(&self.path, &self.header))
            .as_ref()
            .map_err(Clone::clone)?;
        let start = usize::try_from(self.header.data_offset).unwrap_or(usize::MAX);
        let len = usize::try_from(self.header.data_bytes()).unwrap_or(usize::MAX);
        start
            .checked_add(len)
            .and_then(|end| mapping.get(start..end))
            .ok_or_else(|| {
                StoreError::Internal(format!(
                    "internal error: '{}' is mapped short",
                    self.path.display()
                ))
            })
    }

    /// The region at `offset` of extent `shape`, copied out of the mapping (C order).
    pub fn read_region(&self, offset: &[usize], shape: &[usize]) -> Result<ArrayData, StoreError> {
        let data = self.data()?;
        copy_region(&self.path, data, &self.header, offset, shape).map_err(StoreError::from)
    }
}

/// Maps `path` after checking that it still holds the array `expected` describes:
/// the header and the file's length before mapping, and again on the mapping itself
/// (the file may have been replaced in between).
fn map_checked(path: &Path, expected: &NpyHeader) -> Result<Mmap, StoreError> {
    let shown = path.display();
    let cannot_map = |e: &dyn fmt::Display| StoreError::Io(format!("cannot map '{shown}': {e}"));
    // A header that cannot be read keeps its kind (I/O, or a malformed file).
    let unreadable = |e: super::header::NpyError| {
        StoreError::from(e).map_message(|e| format!("cannot map '{shown}': {e}"))
    };
    let before = read_header(path).map_err(unreadable)?;
    check_unchanged(path, expected, &before)?;
    let file = std::fs::File::open(path).map_err(|e| cannot_map(&e))?;
    let mut options = MmapOptions::new();
    if populating_pays(expected.data_offset.saturating_add(expected.data_bytes())) {
        options.populate();
    }
    // SAFETY: the mapping is read-only and private to this process, and Rust code
    // only ever reads it as bytes. The caveat NumPy's memmaps share remains: if
    // another process truncates the file while it is mapped, reading a page past
    // the new end raises SIGBUS; writes by others change the values read. The
    // length is checked below, so reads stay inside the file as it is now.
    let mapping = unsafe { options.map(&file) }.map_err(|e| cannot_map(&e))?;
    let mapped = parse_header(&mapping).map_err(unreadable)?;
    check_unchanged(path, expected, &mapped)?;
    check_length(path, expected, mapping.len() as u64)?;
    Ok(mapping)
}

/// Checks that the file's header is still the one the script was compiled against.
fn check_unchanged(path: &Path, expected: &NpyHeader, found: &NpyHeader) -> Result<(), StoreError> {
    if found == expected {
        return Ok(());
    }
    Err(StoreError::Data(format!(
        "'{}' changed since the script was compiled: it now holds {} {:?}{}, not {} {:?}{}",
        path.display(),
        found.dtype,
        found.shape,
        fortran_text(found.fortran_order),
        expected.dtype,
        expected.shape,
        fortran_text(expected.fortran_order),
    )))
}

/// Checks that a file of `len` bytes holds the data `expected` announces.
fn check_length(path: &Path, expected: &NpyHeader, len: u64) -> Result<(), StoreError> {
    let needed = expected.data_offset.saturating_add(expected.data_bytes());
    if len < needed {
        return Err(StoreError::Data(format!(
            "'{}': the file is truncated: the header announces {} bytes of data but the file has {}",
            path.display(),
            expected.data_bytes(),
            len.saturating_sub(expected.data_offset)
        )));
    }
    Ok(())
}

/// Whether to populate the page tables when mapping (`MAP_POPULATE`): one pass in
/// the kernel costs less than a page fault per 64 KiB while kernels run (a 50M-element
/// float64 sum runs in half the time), but for a file larger than half the memory
/// it would read the whole file up front and evict what it read first.
fn populating_pays(len: u64) -> bool {
    memory_total_bytes().is_some_and(|total| len <= total / 2)
}

/// `MemTotal` of /proc/meminfo, in bytes.
fn memory_total_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

fn fortran_text(fortran_order: bool) -> &'static str {
    if fortran_order {
        " (Fortran order)"
    } else {
        ""
    }
}

impl StoreReader for MappedNpy {
    fn open(&self) -> Result<(), StoreError> {
        self.data().map(drop)
    }

    fn read_region(&self, offset: &[usize], shape: &[usize]) -> Result<ArrayData, StoreError> {
        MappedNpy::read_region(self, offset, shape)
    }

    fn label(&self) -> u32 {
        self.label
    }

    /// A C-order file's bytes are the array's in C order; a Fortran-order file is
    /// copied out instead.
    fn reads_in_place(&self) -> bool {
        !self.header.fortran_order
    }

    fn in_place_bytes(&self) -> Result<&[u8], StoreError> {
        self.data()
    }

    fn same_as(&self, other: &dyn StoreReader) -> bool {
        (other as &dyn std::any::Any).downcast_ref::<MappedNpy>() == Some(self)
    }
}

impl PartialEq for MappedNpy {
    fn eq(&self, other: &MappedNpy) -> bool {
        self.path == other.path && self.header == other.header && self.label == other.label
    }
}

impl fmt::Debug for MappedNpy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MappedNpy")
            .field("path", &self.path)
            .field("header", &self.header)
            .field("label", &self.label)
            .field("mapped", &self.mapping.get().is_some_and(Result::is_ok))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::npy::codec::{read_region, write_array};
    use ndarray::{ArrayD, IxDyn};

    #[test]
    fn copies_out_of_the_mapping_equal_reads_of_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.npy");
        let values = ArrayD::from_shape_fn(IxDyn(&[5, 7]), |i| (i[0] * 7 + i[1]) as i32 - 9);
        write_array(&path, &ArrayData::Int32(values)).unwrap();
        let mut header = read_header(&path).unwrap();
        let mapped = MappedNpy::new(path.clone(), header.clone(), 0);
        for (offset, shape) in [([0, 0], [5, 7]), ([1, 2], [3, 4]), ([4, 6], [1, 1])] {
            assert_eq!(
                mapped.read_region(&offset, &shape).unwrap(),
                read_region(&path, &header, &offset, &shape).unwrap()
            );
        }
        // The same bytes read as the Fortran-order (7, 5) array they also are.
        header.fortran_order = true;
        header.shape = vec![7, 5];
        let fortran = MappedNpy::new(path.clone(), header.clone(), 0);
        let changed = fortran.read_region(&[0, 0], &[7, 5]).unwrap_err();
        assert!(matches!(changed, StoreError::Data(_)), "{changed:?}");
        assert!(changed.message().contains("changed since"));
        assert_eq!(
            copy_region(&path, mapped.data().unwrap(), &header, &[2, 1], &[3, 2]).unwrap(),
            read_region(&path, &header, &[2, 1], &[3, 2]).unwrap()
        );
    }

    #[test]
    fn a_missing_or_short_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone.npy");
        let header = NpyHeader {
            dtype: crate::dtype::DType::Float64,
            shape: vec![4],
            fortran_order: false,
            data_offset: 128,
        };
        let missing = MappedNpy::new(path.clone(), header.clone(), 0);
        let error = missing.data().unwrap_err();
        assert!(matches!(error, StoreError::Io(_)), "{error:?}");
        assert!(error.message().starts_with("cannot map '"));
        let mut bytes = crate::storage::npy::header::encode_header(header.dtype, &header.shape);
        bytes.extend_from_slice(&[0; 24]);
        std::fs::write(&path, bytes).unwrap();
        let short = MappedNpy::new(path, header, 0);
        let error = short.data().unwrap_err();
        assert!(matches!(error, StoreError::Data(_)), "{error:?}");
        assert!(error.message().contains("truncated"));
    }
}
