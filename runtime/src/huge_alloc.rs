//! A global allocator that backs large buffers (4 MiB and up: chunk buffers, matmul
//! blocks, faer's packing space) with transparent huge pages, as NumPy does for its
//! arrays; everything smaller goes to the system allocator unchanged.
//!
//! Why: where THP is `madvise`-only, glibc's 4 KiB pages make every pass over a large
//! buffer pay a TLB miss per page, and on a VM with nested paging those misses made
//! reads 3-20x slower than the same reads from huge pages. A large block here is its
//! own anonymous mapping, aligned to 2 MiB and `madvise(MADV_HUGEPAGE)`d before any
//! byte is touched, so its first faults already bring in 2 MiB pages. A fresh mapping
//! is zero, so zeroed allocations cost no pass over the memory (as with `calloc`).
//! `madvise` is only advice: where THP is off the block is an ordinary mapping.
//! A few freed blocks are kept (at most [`CACHED_BLOCKS`], [`CACHED_BYTES`] in all)
//! and handed to the next allocation of the same mapped length (zeroed first if it
//! must be zero): chunks of one shape come and go all through a run, and a reused
//! block's pages are already faulted in, where a fresh one pays a fault and a clear
//! per page. On this VM that clear is far slower than a `memset` of the same bytes
//! (perf: `clear_page_erms` 6-18% of W5's CPU), presumably because the host backs a
//! freshly faulted guest page again. While a job under a memory limit runs
//! ([`release_promptly`]) nothing is kept, so freed chunks leave the resident set at
//! once, and glibc's mmap threshold is fixed for the same reason (see there); a
//! user's own `MALLOC_MMAP_THRESHOLD_` turns keeping off for the whole process.
//!
//! [`try_zeroed_vec`] is the zeroed allocation chunk data goes through
//! (`crate::array::try_filled`): `vec![0; n]` without the abort when memory runs out.
//!
//! Soundness: a block's path is a pure function of its layout ([`is_large`]), and
//! `GlobalAlloc` hands `dealloc` and `realloc` the layout the block was allocated
//! with, so a block is always returned to the allocator it came from, with the length
//! it was mapped with ([`mapped_len`]). Growth or shrinking across the threshold moves
//! the bytes into a block of the other kind; a large block that stays large is
//! resized in the kernel ([`remap_large`]: no copy, no fresh pages for what it held).
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::ptr;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Blocks this large or larger are mapped on their own with huge pages (NumPy's
/// threshold for `MADV_HUGEPAGE`).
pub const LARGE_BLOCK_BYTES: usize = 4 << 20;
/// The size and alignment of an x86-64 transparent huge page.
const HUGE_PAGE_BYTES: usize = 2 << 20;

/// Freed large blocks kept for reuse, and their total mapped length.
const CACHED_BLOCKS: usize = 16;
const CACHED_BYTES: usize = 128 << 20;

/// glibc's start-up setting of its mmap threshold: a user who sets it wants freed
/// buffers back in the system at once, and nothing is ever kept.
const RELEASE_PROMPTLY_VARIABLE: &str = "MALLOC_MMAP_THRESHOLD_";

/// Whether freed blocks may be kept: unknown until first asked, then the answer.
static KEEPING: AtomicU8 = AtomicU8::new(KEEPING_UNKNOWN);
const KEEPING_UNKNOWN: u8 = 0;
const KEEPING_ALLOWED: u8 = 1;
const KEEPING_FORBIDDEN: u8 = 2;

/// Whether a process whose `MALLOC_MMAP_THRESHOLD_` is `threshold` may keep freed
/// blocks.
fn keeping_allowed_with(threshold: Option<std::ffi::OsString>) -> bool {
    threshold.is_none()
}

/// How many [`KeepNothing`] guards are alive (jobs under a memory limit, compiles):
/// while any is, freed blocks are not kept.
static KEEPING_SUSPENDED: AtomicUsize = AtomicUsize::new(0);

/// Makes freed chunk buffers go back to the system at once until the guard is
/// dropped (a job under a memory limit holds one while it runs, so the resident set
/// stays near the limit; other jobs of the process share the policy meanwhile):
/// kept blocks are unmapped and no more are kept, and glibc's mmap threshold is
/// fixed at 1 MiB.
///
/// Why glibc's too: chunks are multi-megabyte buffers, allocated on one worker
/// thread and often freed on another. glibc serves a large buffer with its own
/// mapping only until the first such mapping is freed; then it raises its threshold
/// to that size, and later buffers come from per-thread arenas that fragment and
/// are rarely given back. With two workers, a standardize of 800 MB under an 80 MiB
/// limit peaked at 140 to 175 MiB of RSS while the chunks held never exceeded
/// 80 MiB. A fixed threshold (what `mallopt(M_MMAP_THRESHOLD)` sets, as the
/// `MALLOC_MMAP_THRESHOLD_` variable does at start-up) turns that dynamic behaviour
/// off. glibc has no way back to the dynamic threshold, so it stays fixed for the
/// rest of the process, which costs only a mapping per buffer of 1 to 4 MiB.
pub fn release_promptly() -> KeepNothing {
    let guard = keep_nothing();
    fix_glibc_mmap_threshold();
    FreeBlocks::lock().release_all();
    guard
}

/// Stops freed large blocks from being kept until the guard is dropped, without
/// touching glibc's threshold (see [`release_promptly`] for that). A compile holds
/// one: its passes build and drop arrays of many different lengths, which a kept
/// block of another length never serves, so keeping them only added up to
/// [`CACHED_BYTES`] to the peak resident set (at a million chunks, 178 MB instead of
/// about 140 MB; chunk buffers of a run, which come and go at one length, are
/// what keeping is for).
pub fn keep_nothing() -> KeepNothing {
    KEEPING_SUSPENDED.fetch_add(1, Ordering::SeqCst);
    KeepNothing(())
}

/// A claim that freed blocks are not kept, from [`keep_nothing`] or
/// [`release_promptly`]; dropping it ends the claim.
#[derive(Debug)]
pub struct KeepNothing(());

impl Drop for KeepNothing {
    fn drop(&mut self) {
        KEEPING_SUSPENDED.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Gives memory nobody uses back to the system: the kept large blocks, and with
/// glibc the free pages inside malloc's heaps (`malloc_trim`, which walks the free
/// lists: about a millisecond per 100 MB of heap). The compiler calls it after each
/// long pass, so one pass's scratch does not stay resident under the next pass's IR.
pub fn give_back_freed() {
    FreeBlocks::lock().release_all();
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `malloc_trim` only returns free memory of glibc's heaps to the
        // system (under glibc's own locks); it never touches memory in use.
        unsafe { libc::malloc_trim(0) };
    }
}

/// Fixes glibc's mmap threshold at 1 MiB, once per process.
fn fix_glibc_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static FIXED: std::sync::Once = std::sync::Once::new();
        FIXED.call_once(|| {
            // SAFETY: `mallopt` only changes glibc's malloc parameters (under its own
            // lock); a failure (0) leaves them as they were, costing only RSS slack.
            unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20) };
        });
    }
}

/// Whether freed blocks may be kept now: not while a job needs prompt release, nor
/// ever in a process started with `MALLOC_MMAP_THRESHOLD_` (read from the
/// environment once; the read allocates only small strings, which the system
/// allocator serves). Kernels that keep scratch space between calls ask it too.
pub(crate) fn keeping_allowed() -> bool {
    if KEEPING_SUSPENDED.load(Ordering::Relaxed) > 0 {
        return false;
    }
    match KEEPING.load(Ordering::Relaxed) {
        KEEPING_ALLOWED => true,
        KEEPING_FORBIDDEN => false,
        _ => {
            let allowed = keeping_allowed_with(std::env::var_os(RELEASE_PROMPTLY_VARIABLE));
            let state = if allowed {
                KEEPING_ALLOWED
            } else {
                KEEPING_FORBIDDEN
            };
            KEEPING.store(state, Ordering::Relaxed);
            allowed
        }
    }
}

/// Freed large blocks as `(address, mapped length)`, the first `count` in use.
struct FreeBlocks {
    blocks: [(usize, usize); CACHED_BLOCKS],
    count: usize,
    bytes: usize,
}

/// `std`'s mutex neither allocates nor can be poisoned by the code it guards here
/// (which cannot panic), so the allocator may take it.
static FREE_BLOCKS: Mutex<FreeBlocks> = Mutex::new(FreeBlocks::EMPTY);

impl FreeBlocks {
    const EMPTY: FreeBlocks = FreeBlocks {
        blocks: [(0, 0); CACHED_BLOCKS],
        count: 0,
        bytes: 0,
    };

    fn lock() -> MutexGuard<'static, FreeBlocks> {
        FREE_BLOCKS.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Removes and returns a kept block of exactly `len` mapped bytes.
    fn take(&mut self, len: usize) -> Option<*mut u8> {
        let in_use = &self.blocks[..self.count];
        let index = in_use.iter().rposition(|&(_, kept)| kept == len)?;
        let (address, _) = self.blocks[index];
        self.blocks.copy_within(index + 1..self.count, index);
        self.count -= 1;
        self.bytes -= len;
        Some(address as *mut u8)
    }

    /// Unmaps every kept block.
    fn release_all(&mut self) {
        for &(address, len) in &self.blocks[..self.count] {
            // SAFETY: a kept block is a mapping of exactly `len` bytes made by
            // `map_huge` that nobody uses; it is forgotten below.
            unsafe { libc::munmap(address as *mut libc::c_void, len) };
        }
        self.count = 0;
        self.bytes = 0;
    }

    /// Keeps a freed block if there is room; false if the caller must unmap it.
    fn keep(&mut self, block: *mut u8, len: usize) -> bool {
        if self.count == CACHED_BLOCKS || self.bytes + len > CACHED_BYTES {
            return false;
        }
        self.blocks[self.count] = (block as usize, len);
        self.count += 1;
        self.bytes += len;
        true
    }
}

/// The allocator; install it in a binary with
/// `#[global_allocator] static ALLOCATOR: HugePageAlloc = HugePageAlloc;`.
#[derive(Clone, Copy, Debug, Default)]
pub struct HugePageAlloc;

/// Whether a block of this layout is mapped with huge pages. Alignments above a huge
/// page (never asked for in practice) stay with the system allocator.
fn is_large(layout: Layout) -> bool {
    layout.size() >= LARGE_BLOCK_BYTES && layout.align() <= HUGE_PAGE_BYTES
}

/// The mapped length of a large block: its size rounded up to whole huge pages, so the
/// last page can be huge too. `None` only for sizes within 2 MiB of `usize::MAX`.
fn mapped_len(size: usize) -> Option<usize> {
    size.checked_next_multiple_of(HUGE_PAGE_BYTES)
}

/// A fresh zeroed mapping of `len` bytes (a multiple of 2 MiB) at a 2 MiB boundary,
/// advised to use huge pages, or null if the kernel refuses.
fn map_huge(len: usize) -> *mut u8 {
    let Some(block) = reserve_aligned(len, libc::PROT_READ | libc::PROT_WRITE) else {
        return ptr::null_mut();
    };
    // SAFETY: `[block, block + len)` is the mapping just made; advice changes no
    // byte of it. Advice the kernel declines (THP disabled) leaves an ordinary
    // mapping, so the result is not needed.
    unsafe { libc::madvise(block.cast(), len, libc::MADV_HUGEPAGE) };
    block
}

/// A fresh anonymous mapping of `len` bytes (a multiple of 2 MiB) with protection
/// `prot`, at a 2 MiB boundary; `None` if the kernel refuses.
fn reserve_aligned(len: usize, prot: libc::c_int) -> Option<*mut u8> {
    let reserve = len.checked_add(HUGE_PAGE_BYTES)?;
    // SAFETY: an anonymous private mapping at an address the kernel chooses aliases no
    // existing memory; its result is checked before use.
    let raw = unsafe {
        libc::mmap(
            ptr::null_mut(),
            reserve,
            prot,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return None;
    }
    let start = raw as usize;
    let aligned = start.next_multiple_of(HUGE_PAGE_BYTES);
    let (head, tail) = (aligned - start, reserve - len - (aligned - start));
    // SAFETY: the head `[start, aligned)` and the tail `[aligned + len, start +
    // reserve)` lie inside the mapping just made, which nothing else has seen yet;
    // both are page-aligned (mmap returns page-aligned addresses and every length
    // here is a multiple of 4 KiB). Failing to trim leaves unused address space
    // mapped, which is harmless, so the results are not needed.
    unsafe {
        if head > 0 {
            libc::munmap(raw, head);
        }
        if tail > 0 {
            libc::munmap((aligned + len) as *mut libc::c_void, tail);
        }
    }
    Some(aligned as *mut u8)
}

/// Element types whose all-zero bytes are a valid value (the chunk dtypes).
pub trait ZeroIsValid: Copy + private::Sealed {
    /// The value whose bytes are all zero.
    const ZERO_BITS: Self;
    /// Whether the value's bytes are all zero (`-0.0` is not).
    fn is_zero_bits(self) -> bool;
}
impl ZeroIsValid for bool {
    const ZERO_BITS: bool = false;
    fn is_zero_bits(self) -> bool {
        !self
    }
}
macro_rules! zero_is_valid_int {
    ($($t:ty),*) => {$(
        impl ZeroIsValid for $t {
            const ZERO_BITS: $t = 0;
            fn is_zero_bits(self) -> bool {
                self == 0
            }
        }
    )*};
}
zero_is_valid_int!(i8, i16, i32, i64, u8, u16, u32, u64);
impl ZeroIsValid for half::f16 {
    const ZERO_BITS: half::f16 = half::f16::ZERO;
    fn is_zero_bits(self) -> bool {
        self.to_bits() == 0
    }
}
impl ZeroIsValid for f32 {
    const ZERO_BITS: f32 = 0.0;
    fn is_zero_bits(self) -> bool {
        self.to_bits() == 0
    }
}
impl ZeroIsValid for f64 {
    const ZERO_BITS: f64 = 0.0;
    fn is_zero_bits(self) -> bool {
        self.to_bits() == 0
    }
}
impl<T: crate::complex::Part + ZeroIsValid> ZeroIsValid for crate::complex::Cx<T> {
    const ZERO_BITS: crate::complex::Cx<T> =
        crate::complex::Cx(num_complex::Complex::new(T::ZERO_BITS, T::ZERO_BITS));
    fn is_zero_bits(self) -> bool {
        self.0.re.is_zero_bits() && self.0.im.is_zero_bits()
    }
}

mod private {
    pub trait Sealed {}
    impl Sealed for bool {}
    impl Sealed for i8 {}
    impl Sealed for i16 {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
    impl Sealed for half::f16 {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
    impl<T> Sealed for crate::complex::Cx<T> {}
}

/// `len` zeros from the global allocator's zeroed path (a fresh mapping costs no pass
/// over the memory, as `vec![0; len]`), or `None` where `vec!` would abort the
/// process: the memory cannot be had, or `len` elements do not fit a layout.
pub fn try_zeroed_vec<T: ZeroIsValid>(len: usize) -> Option<Vec<T>> {
    let layout = Layout::array::<T>(len).ok()?;
    if layout.size() == 0 {
        // No chunk dtype is zero-sized, so this is `len == 0`.
        return Some(Vec::new());
    }
    // SAFETY: the layout's size is not zero.
    let block = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if block.is_null() {
        return None;
    }
    // SAFETY: `block` comes from the global allocator with the layout of exactly
    // `len` elements of `T` (so `T`'s alignment, and the size a `Vec` of capacity
    // `len` deallocates with); its bytes are zero, a valid `T` (`ZeroIsValid`), so
    // all `len` elements are initialised; nothing else holds the block.
    Some(unsafe { Vec::from_raw_parts(block, len, len) })
}

// SAFETY: a large block is a mapping of `mapped_len(size)` bytes at a 2 MiB boundary
// (so aligned for any alignment `is_large` accepts), held by exactly one owner: the
// caller between `alloc` and `dealloc`, else `FREE_BLOCKS` (which hands a block out
// once, to a request of the same mapped length) until it is unmapped. Small blocks are
// the system allocator's, unchanged. Which kind a block is depends on its layout only
// (see the module doc).
unsafe impl GlobalAlloc for HugePageAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !is_large(layout) {
            // SAFETY: the caller's contract for `alloc` is the system allocator's.
            return unsafe { System.alloc(layout) };
        }
        let Some(len) = mapped_len(layout.size()) else {
            return ptr::null_mut();
        };
        let reused = FreeBlocks::lock().take(len);
        reused.unwrap_or_else(|| map_huge(len))
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !is_large(layout) {
            // SAFETY: as in `alloc`.
            return unsafe { System.alloc_zeroed(layout) };
        }
        let Some(len) = mapped_len(layout.size()) else {
            return ptr::null_mut();
        };
        let Some(reused) = FreeBlocks::lock().take(len) else {
            // A fresh anonymous mapping reads as zeros.
            return map_huge(len);
        };
        // SAFETY: a kept block is valid for `len >= layout.size()` bytes and now
        // belongs to this caller alone.
        unsafe { ptr::write_bytes(reused, 0, layout.size()) };
        reused
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        if !is_large(layout) {
            // SAFETY: a small layout's block came from `System` with this layout.
            return unsafe { System.dealloc(block, layout) };
        }
        let Some(len) = mapped_len(layout.size()) else {
            return;
        };
        if keeping_allowed() && FreeBlocks::lock().keep(block, len) {
            return;
        }
        // SAFETY: a large layout's block is a mapping of exactly `len` bytes made by
        // `map_huge`, which the caller no longer uses and which was not kept. Nothing
        // can be done about a failed unmap in a deallocator; the range stays reserved.
        unsafe { libc::munmap(block.cast(), len) };
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size`, rounded up to `layout.align()`,
        // does not overflow `isize`, and the alignment is a valid one already.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (is_large(layout), is_large(new_layout)) {
            (false, false) => {
                // SAFETY: both layouts are the system allocator's; the caller's
                // contract for `realloc` is its contract.
                unsafe { System.realloc(block, layout, new_size) }
            }
            (true, true) if mapped_len(layout.size()) == mapped_len(new_size) => block,
            (true, true) => {
                let (Some(old_len), Some(new_len)) =
                    (mapped_len(layout.size()), mapped_len(new_size))
                else {
                    return ptr::null_mut();
                };
                // SAFETY: `block` is a mapping of exactly `old_len` bytes made here
                // (`map_huge` or an earlier remap), which the caller hands over.
                match unsafe { remap_large(block, old_len, new_len) } {
                    Some(moved) => moved,
                    // SAFETY: as for this function; the block is still intact.
                    None => unsafe { self.copy_into_new(block, layout, new_layout) },
                }
            }
            // SAFETY: as for this function.
            _ => unsafe { self.copy_into_new(block, layout, new_layout) },
        }
    }
}

impl HugePageAlloc {
    /// `realloc` by copying: a new block of `new_layout`, the shorter prefix copied,
    /// the old block freed (null, and the old block intact, if allocating fails).
    ///
    /// # Safety
    /// `block` was allocated here with `layout`, and `new_layout.size()` is non-zero.
    unsafe fn copy_into_new(&self, block: *mut u8, layout: Layout, new_layout: Layout) -> *mut u8 {
        // SAFETY: the caller guarantees `new_layout.size()` is non-zero.
        let moved = unsafe { self.alloc(new_layout) };
        if !moved.is_null() {
            // SAFETY: both blocks are valid for the shorter of the two sizes and are
            // distinct allocations, so they do not overlap; the old block is not used
            // again after it is returned.
            unsafe {
                ptr::copy_nonoverlapping(block, moved, layout.size().min(new_layout.size()));
                self.dealloc(block, layout);
            }
        }
        moved
    }
}

/// Resizes a large block without copying a byte: shrinking unmaps the tail; growing
/// extends the mapping in place when the address space after it is free, else moves
/// its pages (`mremap`, page tables only) to a fresh range aligned to 2 MiB, so the
/// block stays eligible for huge pages. A vector doubling from 4 MiB to 256 MiB would
/// otherwise copy every byte once more and fault in (the kernel clearing) a fresh
/// page for each, while the old and new blocks both count in the resident set.
/// `None` (the block untouched) when the kernel refuses; the caller then copies.
///
/// # Safety
/// `block` is a mapping of exactly `old_len` bytes made by this allocator, owned by
/// the caller; `old_len` and `new_len` are multiples of 2 MiB.
#[cfg(target_os = "linux")]
unsafe fn remap_large(block: *mut u8, old_len: usize, new_len: usize) -> Option<*mut u8> {
    if new_len < old_len {
        // SAFETY: the tail `[block + new_len, block + old_len)` is part of the
        // caller's mapping and page-aligned; the caller keeps only the head.
        let failed = unsafe { libc::munmap(block.add(new_len).cast(), old_len - new_len) } != 0;
        return (!failed).then_some(block);
    }
    // SAFETY: without MREMAP_MAYMOVE the mapping only grows where it is, into
    // address space nobody holds, or the call fails and changes nothing.
    let grown = unsafe { libc::mremap(block.cast(), old_len, new_len, 0) };
    if grown != libc::MAP_FAILED {
        return Some(block);
    }
    let target = reserve_aligned(new_len, libc::PROT_NONE)?;
    // SAFETY: `target` is a reservation of `new_len` bytes made just above that
    // nothing else knows of; MREMAP_FIXED replaces it with the block's pages, and
    // the old range is unmapped by the move (the caller gets the new address).
    let moved = unsafe {
        libc::mremap(
            block.cast(),
            old_len,
            new_len,
            libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
            target.cast::<libc::c_void>(),
        )
    };
    if moved == libc::MAP_FAILED {
        // SAFETY: the reservation is still ours and unused.
        unsafe { libc::munmap(target.cast(), new_len) };
        return None;
    }
    // The moved mapping keeps its flags, `MADV_HUGEPAGE` among them, and so does
    // its grown tail (the test checks `THPeligible` after each move).
    Some(moved.cast())
}

#[cfg(not(target_os = "linux"))]
unsafe fn remap_large(_block: *mut u8, _old_len: usize, _new_len: usize) -> Option<*mut u8> {
    None
}

#[cfg(test)]
mod tests;
