//! A save's temporary `.npy` file mapped writable and shared, once per save: each
//! chunk of the saved tensor writes its own region of it into the file's pages, from
//! whichever worker thread runs the chunk, with non-temporal stores from a buffer
//! small enough to stay in L1 ([`WritableNpy::stream_run`]: JIT kernels compute a
//! row into it a block at a time, interpreted regions convert their runs into it),
//! and no `pwrite` (which on tmpfs serialises writers on the inode lock).
//!
//! Two things make the raw writes sound:
//! - **Disjoint bytes.** The chunks of a tensor tile its shape with no overlap (a
//!   tiler invariant, checked by `chunk::verify`), so two regions never share an
//!   element, and the executor runs a chunk at most once at a time (a retry starts
//!   after the failed attempt returned; a killed worker stops between subtasks).
//!   Neighbouring regions may share a page, never a byte. Rust code never reads the
//!   mapping, so no reference to its bytes is ever aliased.
//! - **A mapping that outlives every writer.** It is created by the save's init
//!   chunk, which every region depends on, and is held in an `Arc` by the save's
//!   [`super::NpyWriter`], which every region kernel holds (through its
//!   [`crate::chunk_value::SaveFile`]); a writer clones
//!   the `Arc` for the duration of its writes. The file is never truncated while
//!   mapped: an init that runs again finds the mapping and keeps it.
//!
//! A store to a page the file system cannot allocate (a full disk or tmpfs) would be
//! a SIGBUS, so every region first *reserves* its pages with
//! `madvise(MADV_POPULATE_WRITE)`, which allocates them and reports that failure as
//! an error instead. Populating in the writer also allocates the pages in parallel
//! and costs less than a page fault per 4 KiB. A kernel without `MADV_POPULATE_WRITE`
//! (before Linux 5.14) gets no reservation: the save then falls back to `pwrite`.
#![allow(unsafe_code)]

use crate::storage::RunSlot;
use memmap2::{Advice, MmapOptions, MmapRaw};
use std::fs::File;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A run (or span of runs) this many bytes or longer is reserved on its own; shorter
/// runs are reserved as the one span from a region's first byte to its last.
const RUN_RESERVE_BYTES: usize = 64 * 1024;

/// A writable shared mapping of a whole `.npy` file being saved.
pub struct WritableNpy {
    map: MmapRaw,
    file: File,
    /// Byte offset of the element data in the file (and the mapping).
    data_offset: usize,
    data_len: usize,
    /// Set once `MADV_POPULATE_WRITE` turned out to be unsupported.
    cannot_populate: AtomicBool,
    /// Set once `fallocate` turned out to be unsupported by the file system.
    cannot_allocate: AtomicBool,
}

/// What reserving a region's pages found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reserved {
    /// Every page of the region exists: writes cannot fault for lack of space.
    Yes,
    /// Neither the kernel nor the file system can reserve pages: write with `pwrite`.
    Unsupported,
}

impl WritableNpy {
    /// Maps `file` (opened for reading and writing, already sized), whose element data
    /// is `data_len` bytes from byte `data_offset`.
    pub fn map(file: File, data_offset: u64, data_len: u64) -> std::io::Result<WritableNpy> {
        let too_large = || std::io::Error::other("the array is too large to map");
        let data_offset = usize::try_from(data_offset).map_err(|_| too_large())?;
        let data_len = usize::try_from(data_len).map_err(|_| too_large())?;
        let len = data_offset.checked_add(data_len).ok_or_else(too_large)?;
        let map = MmapOptions::new().len(len).map_raw(&file)?;
        Ok(WritableNpy {
            map,
            file,
            data_offset,
            data_len,
            cannot_populate: AtomicBool::new(false),
            cannot_allocate: AtomicBool::new(false),
        })
    }

    /// The element data's length in bytes.
    pub fn data_len(&self) -> usize {
        self.data_len
    }

    /// The address of the first element byte. Writing through it is sound only as
    /// the module documentation says: inside the data, and only a region's own bytes.
    pub fn data_ptr(&self) -> *mut u8 {
        self.map.as_mut_ptr().wrapping_add(self.data_offset)
    }

    /// Allocates the pages under a region made of `runs` (byte offset into the data,
    /// byte length), all inside the data and in increasing order.
    pub fn reserve(&self, runs: &[(usize, usize)]) -> std::io::Result<Reserved> {
        let (Some(first), Some(last)) = (runs.first(), runs.last()) else {
            return Ok(Reserved::Yes);
        };
        let short = runs.len() > 1 && runs.iter().any(|&(_, len)| len < RUN_RESERVE_BYTES);
        let spans: Vec<(usize, usize)> = if short {
            vec![(first.0, last.0 + last.1 - first.0)]
        } else {
            runs.to_vec()
        };
        for (start, len) in spans {
            self.check_inside(start, len)?;
            if len > 0 && self.reserve_span(start, len)? == Reserved::Unsupported {
                return Ok(Reserved::Unsupported);
            }
        }
        Ok(Reserved::Yes)
    }

    /// Allocates the span's blocks with `fallocate` (on tmpfs the cheapest way to
    /// allocate pages, and on any file system the one that reports a full disk as
    /// `ENOSPC`), then maps its pages writable with `MADV_POPULATE_WRITE`, so the
    /// stores that follow neither fault nor find their space missing. Either alone
    /// reserves the span; `Unsupported` when neither can.
    fn reserve_span(&self, start: usize, len: usize) -> std::io::Result<Reserved> {
        let allocated = self.allocate(start, len)?;
        if self.cannot_populate.load(Ordering::Relaxed) {
            return Ok(allocated);
        }
        match self
            .map
            .advise_range(Advice::PopulateWrite, self.data_offset + start, len)
        {
            Ok(()) => Ok(Reserved::Yes),
            Err(error) if error.raw_os_error() == Some(libc::EINVAL) => {
                self.cannot_populate.store(true, Ordering::Relaxed);
                Ok(allocated)
            }
            Err(error) => Err(no_room(error)),
        }
    }

    /// Copies `bytes` to data bytes `start..start + bytes.len()` of a region whose
    /// pages are reserved, with non-temporal stores where the target has them: a
    /// saved file is not read again by this run, so its bytes need not pass through
    /// the cache, and a store that bypasses it does not first read the line it
    /// overwrites (which costs as much memory traffic as the store itself). Call
    /// [`WritableNpy::streams_done`] once the region's runs are written.
    pub fn stream_run(&self, start: usize, bytes: &[u8]) -> std::io::Result<()> {
        self.check_inside(start, bytes.len())?;
        // SAFETY: the target bytes lie inside the mapping (checked above), which
        // lives as long as `self`, and belong to one run of one region, written only
        // by the one kernel writing that region (see the module documentation); the
        // source is a separate, borrowed slice, so the two do not overlap.
        unsafe { stream_copy(bytes, self.data_ptr().add(start)) };
        Ok(())
    }

    /// Orders the non-temporal stores of [`WritableNpy::stream_run`] before any store
    /// that follows, so that whoever learns the region is written sees its bytes.
    pub fn streams_done(&self) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `sfence` only orders stores; SSE is part of every x86_64 target.
        unsafe {
            std::arch::x86_64::_mm_sfence()
        };
    }

    /// Allocates the file's blocks under data bytes `start..start + len`;
    /// `Unsupported` where the file system cannot.
    fn allocate(&self, start: usize, len: usize) -> std::io::Result<Reserved> {
        if self.cannot_allocate.load(Ordering::Relaxed) {
            return Ok(Reserved::Unsupported);
        }
        let too_large = || std::io::Error::other("the array is too large to allocate");
        let offset = libc::off_t::try_from(self.data_offset + start).map_err(|_| too_large())?;
        let len = libc::off_t::try_from(len).map_err(|_| too_large())?;
        // SAFETY: a plain system call on a file descriptor this struct owns; it
        // touches no memory of this process.
        let status = unsafe { libc::fallocate(self.file.as_raw_fd(), 0, offset, len) };
        if status == 0 {
            return Ok(Reserved::Yes);
        }
        let error = std::io::Error::last_os_error();
        match error.raw_os_error() {
            Some(libc::EOPNOTSUPP | libc::ENOSYS) => {
                self.cannot_allocate.store(true, Ordering::Relaxed);
                Ok(Reserved::Unsupported)
            }
            _ => Err(no_room(error)),
        }
    }

    fn check_inside(&self, start: usize, len: usize) -> std::io::Result<()> {
        match start.checked_add(len) {
            Some(end) if end <= self.data_len => Ok(()),
            _ => Err(std::io::Error::other(format!(
                "internal error: bytes {start}..{start}+{len} are outside the {} bytes of data",
                self.data_len
            ))),
        }
    }
}

/// Copies `src` to `dst`: the 16-byte-aligned middle with non-temporal stores on
/// x86_64 (plain copies for the unaligned ends), plainly elsewhere.
///
/// # Safety
/// `dst` must be valid for writes of `src.len()` bytes that nothing else accesses
/// during the call, and must not overlap `src`.
unsafe fn stream_copy(src: &[u8], dst: *mut u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let len = src.len();
        let head = dst.align_offset(16).min(len);
        std::ptr::copy_nonoverlapping(src.as_ptr(), dst, head);
        let mut at = head;
        while at + 16 <= len {
            let value = _mm_loadu_si128(src.as_ptr().add(at).cast::<__m128i>());
            _mm_stream_si128(dst.add(at).cast::<__m128i>(), value);
            at += 16;
        }
        std::ptr::copy_nonoverlapping(src.as_ptr().add(at), dst.add(at), len - at);
    }
    #[cfg(not(target_arch = "x86_64"))]
    std::ptr::copy_nonoverlapping(src.as_ptr(), dst, src.len());
}

/// A reservation failure, said as what it most likely is.
fn no_room(error: std::io::Error) -> std::io::Error {
    std::io::Error::other(format!(
        "the file system has no room for the data (reserving its pages failed: {error})"
    ))
}

/// The mapping of one save, created by its init and shared by its regions; empty
/// when the file could not be mapped (the regions then write with `pwrite`).
pub type MappingSlot = RunSlot<Arc<WritableNpy>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::array::ArrayData;
    use crate::storage::npy::codec::{
        create_npy, read_array, region_byte_runs, write_region_mapped,
    };
    use crate::DType;
    use ndarray::{ArrayD, IxDyn};

    fn mapped(path: &std::path::Path, dtype: DType, shape: &[usize]) -> WritableNpy {
        let data_offset = create_npy(path, dtype, shape).unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .unwrap();
        let len = shape.iter().product::<usize>() * dtype.itemsize();
        WritableNpy::map(file, data_offset, len as u64).unwrap()
    }

    #[test]
    fn column_chunks_written_into_the_mapping_read_back_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.npy");
        let mapping = mapped(&path, DType::Int32, &[3, 5]);
        // Three column chunks (widths 2, 2, 1), the middle one not contiguous in memory.
        for (column, width) in [(0, 2), (2, 2), (4, 1)] {
            let values = ArrayD::from_shape_fn(IxDyn(&[3, width]), |i| {
                (i[0] * 5 + column + i[1]) as i32 * 10
            });
            let data = if column == 2 {
                ArrayData::Int32(values.reversed_axes().as_standard_layout().t().to_owned())
            } else {
                ArrayData::Int32(values)
            };
            let written =
                write_region_mapped(&path, &mapping, &[3, 5], &[0, column], &data).unwrap();
            assert_eq!(written, Reserved::Yes);
        }
        drop(mapping);
        let expected = ArrayD::from_shape_fn(IxDyn(&[3, 5]), |i| (i[0] * 5 + i[1]) as i32 * 10);
        assert_eq!(read_array(&path).unwrap(), ArrayData::Int32(expected));
    }

    #[test]
    fn streamed_runs_land_whole_at_every_alignment_and_length() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.npy");
        let mapping = mapped(&path, DType::Bool, &[4096]);
        assert_eq!(mapping.reserve(&[(0, 4096)]).unwrap(), Reserved::Yes);
        let mut expected = vec![0u8; 4096];
        let mut at = 0;
        // Runs that start and end on and off 16-byte boundaries, with gaps between.
        for (k, len) in [0, 1, 15, 16, 17, 31, 33, 100, 1000, 2, 2047]
            .into_iter()
            .enumerate()
        {
            let bytes: Vec<u8> = (0..len).map(|i| (k * 31 + i) as u8 | 1).collect();
            mapping.stream_run(at, &bytes).unwrap();
            expected[at..at + len].copy_from_slice(&bytes);
            at += len + k;
        }
        mapping.streams_done();
        assert!(mapping.stream_run(4090, &[1; 7]).is_err());
        drop(mapping);
        let file = std::fs::read(&path).unwrap();
        assert_eq!(&file[file.len() - 4096..], &expected[..]);
    }

    #[test]
    fn bytes_outside_the_data_are_errors_not_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.npy");
        let mapping = mapped(&path, DType::Float64, &[4]);
        assert!(mapping.reserve(&[(24, 16)]).is_err());
        assert!(mapping.stream_run(32, &[0; 8]).is_err());
        assert!(mapping.stream_run(usize::MAX, &[0; 2]).is_err());
        assert_eq!(mapping.reserve(&[(0, 32)]).unwrap(), Reserved::Yes);
        assert_eq!(region_byte_runs(&[4], &[1], &[2], 8), vec![(8, 16)]);
    }
}
