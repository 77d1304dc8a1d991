//! The only unsafe code of the JIT: viewing chunk buffers as bytes, calling a compiled
//! row function, the callbacks through which compiled code reads indexed leaves, and
//! prefetching the next row of a mapped file.
//! Every call checks, in safe code right before it, that each buffer the function
//! will touch holds the bytes the row needs.
//!
//! Indexed leaves never cost a call per element: outside pairwise sums, `run_row`
//! fills each one a block of [`FILL_BLOCK`] elements at a time into scratch memory and
//! calls the compiled function once per block, which reads the scratch like a buffer;
//! pairwise sums fill their own <= 128-element base cases through `leaf_fill`.
#![allow(unsafe_code)]

use super::error::JitError;
use super::graph::SLOTS_PER_LEAF;
use super::key::CompiledKernel;
use super::key::{uses_pairwise, Mode};
use super::leaves::{LeafBlock, LeafInstance};
use crate::dtype::DType;
use crate::storage::{StoreError, WritableNpy};
use std::cell::RefCell;
use std::marker::PhantomData;

/// Elements per scratch block of an indexed leaf: small enough that every leaf's
/// block stays in L1 while the kernel reads it, large enough that the per-block call
/// costs nothing next to the block's work.
pub(super) const FILL_BLOCK: usize = 512;

/// Elements per block of a row streamed into a save's file: the block (16 KiB of
/// float64) stays in L1 between the kernel's stores and the streaming copy.
const STREAM_BLOCK: usize = 2048;

/// A file mapping's page: the hardware prefetcher stops at its boundaries.
const PAGE: usize = 4096;

/// At most this many bytes of a row are prefetched (16 pages): past them the
/// hardware prefetcher is already streaming the row.
const PREFETCH_SPAN: usize = 16 * PAGE;

/// Asks the CPU to start loading `bytes[offset..offset + len]` (its first
/// [`PREFETCH_SPAN`] bytes), one hint per page. Called on the next row of a mapped
/// leaf while the current one runs: a mapping of a file has 4 KiB pages, and without
/// the hint every page of a row begins with a page walk and a memory miss the kernel
/// waits for (a row-wise sum of squares over a mapped 8000 x 8000 float64 file ran
/// 18% faster with it, as fast as over huge pages). A hint never faults.
#[inline]
pub(super) fn prefetch(bytes: &[u8], offset: usize, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let end = offset
            .saturating_add(len.min(PREFETCH_SPAN))
            .min(bytes.len());
        let mut at = offset;
        while at < end {
            // SAFETY: `at < bytes.len()`, so the address is inside the slice; a
            // prefetch only hints the cache and never reads or faults.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bytes.as_ptr().add(at).cast()) };
            at += PAGE;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (bytes, offset, len);
}

/// Plain element types whose every byte pattern the JIT may read, and whose values
/// it writes as the matching Cranelift type (bools only as 0 or 1).
pub(super) trait Pod: Copy {}
impl Pod for bool {}
impl Pod for i8 {}
impl Pod for i16 {}
impl Pod for i32 {}
impl Pod for i64 {}
impl Pod for u8 {}
impl Pod for u16 {}
impl Pod for u32 {}
impl Pod for u64 {}
impl Pod for half::f16 {}
impl Pod for f32 {}
impl Pod for f64 {}

/// The bytes of a slice of elements.
pub(super) fn bytes_of<T: Pod>(values: &[T]) -> &[u8] {
    // SAFETY: `T` is one of the five element types (sealed by `Pod`), which have no
    // padding; the byte view covers exactly the slice's memory and shares its lifetime.
    unsafe { std::slice::from_raw_parts(values.as_ptr().cast(), std::mem::size_of_val(values)) }
}

/// The mutable bytes of a slice of elements.
pub(super) fn bytes_of_mut<T: Pod>(values: &mut [T]) -> &mut [u8] {
    let len = std::mem::size_of_val(values);
    // SAFETY: as in `bytes_of`; the only writer through this view is JIT code, which
    // stores values of the slice's own type (bools as 0 or 1, from compares and
    // logical ops), so the slice stays valid for `T`.
    unsafe { std::slice::from_raw_parts_mut(values.as_mut_ptr().cast(), len) }
}

/// What one leaf reads during a row.
#[derive(Clone, Copy)]
pub(super) enum Operand<'a> {
    /// A buffer read from `bytes[offset..offset + needed]`.
    Buffer {
        bytes: &'a [u8],
        offset: usize,
        needed: usize,
    },
    /// A constant's bits.
    Value(u64),
    /// An indexed leaf read at chunk-local indices starting at `base`.
    Source(&'a LeafInstance, u64),
}

/// The memory a kernel's rows write into: an exclusive buffer, or the data of a
/// save's mapped file, shared with the threads writing the save's other regions.
pub(super) struct OutTarget<'a> {
    start: *mut u8,
    len: usize,
    /// The save's mapping, whose rows are computed into a cache-sized block and
    /// streamed into the file (see [`WritableNpy::stream_run`]).
    mapping: Option<&'a WritableNpy>,
    _borrow: PhantomData<&'a mut [u8]>,
}

impl<'a> OutTarget<'a> {
    /// A buffer this kernel owns for the call.
    pub fn buffer(bytes: &'a mut [u8]) -> OutTarget<'a> {
        OutTarget {
            start: bytes.as_mut_ptr(),
            len: bytes.len(),
            mapping: None,
            _borrow: PhantomData,
        }
    }

    /// The element data of a save's mapping, of which the kernel writes only the
    /// region of its own chunk (see `storage/npy/writable.rs`).
    pub fn file(mapping: &'a WritableNpy) -> OutTarget<'a> {
        OutTarget {
            start: mapping.data_ptr(),
            len: mapping.data_len(),
            mapping: Some(mapping),
            _borrow: PhantomData,
        }
    }
}

/// Where a row writes: bytes `offset..offset + needed` of the target.
pub(super) struct Output<'t, 'a> {
    pub target: &'t OutTarget<'a>,
    pub offset: usize,
    pub needed: usize,
}

/// Runs `kernel` over one row of `n` elements.
pub(super) fn run_row(
    kernel: &CompiledKernel,
    operands: &[Operand<'_>],
    output: Output<'_, '_>,
    n: usize,
    slots: &mut Vec<u64>,
) -> Result<(), JitError> {
    let leaves = kernel.key.variant.broadcast.len();
    if operands.len() != leaves {
        return Err(format!(
            "internal error: a JIT kernel with {leaves} leaves got {} operands",
            operands.len()
        )
        .into());
    }
    for operand in operands {
        if let Operand::Buffer {
            bytes,
            offset,
            needed,
        } = *operand
        {
            check_span(bytes.len(), offset, needed)?;
        }
    }
    check_span(output.target.len, output.offset, output.needed)?;
    // In bounds: `check_span` above.
    let out = output.target.start.wrapping_add(output.offset);
    let has_source = operands
        .iter()
        .any(|operand| matches!(operand, Operand::Source(..)));
    // Most rows read no indexed leaf: they skip building the per-leaf flags.
    let prefilled: Vec<bool> = if n == 0 || !has_source || uses_pairwise(&kernel.key) {
        Vec::new()
    } else {
        operands
            .iter()
            .zip(&kernel.key.variant.broadcast)
            .map(|(operand, &broadcast)| matches!(operand, Operand::Source(..)) && !broadcast)
            .collect()
    };
    // A row of a save's file is computed a block at a time into a cache-sized buffer
    // and streamed into the file from there.
    let streamed = output
        .target
        .mapping
        .filter(|_| n > 0 && kernel.key.variant.mode == Mode::Store);
    let any_prefilled = prefilled.contains(&true);
    if !any_prefilled && streamed.is_none() {
        fill_slots(operands, None, slots);
        call(kernel, slots, out, n);
        return Ok(());
    }
    let dtypes = &kernel.leaf_dtypes;
    for (operand, &dtype) in operands.iter().zip(dtypes) {
        if let Operand::Source(leaf, _) = operand {
            if leaf.indexed_dtype() != Some(dtype) {
                return Err(format!(
                    "internal error: an indexed leaf of {:?} in a kernel expecting {dtype}",
                    leaf.indexed_dtype()
                )
                .into());
            }
        }
    }
    // The output advances with the row except for a fold, which keeps one accumulator.
    let out_step = match kernel.key.variant.mode {
        Mode::FoldRow => 0,
        _ => output.needed / n,
    };
    let block_len = n.min(if any_prefilled {
        FILL_BLOCK
    } else {
        STREAM_BLOCK
    });
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        if any_prefilled {
            scratch.resize(leaves * block_len, 0);
        }
        // The scratch is not resized below, so its blocks stay where they are.
        let scratch_addresses: Vec<Option<u64>> = if any_prefilled {
            scratch
                .chunks(block_len)
                .zip(&prefilled)
                .map(|(block, &prefill)| prefill.then_some(block.as_ptr() as u64))
                .collect()
        } else {
            vec![None; leaves]
        };
        // Reused across rows; an error below drops it, and the next row allocates anew.
        let mut staging_words = STAGING.take();
        if streamed.is_some() {
            staging_words.resize((block_len * out_step).div_ceil(8), 0);
        }
        let staging = bytes_of_mut(&mut staging_words[..]);
        let mut start = 0;
        while start < n {
            let len = (n - start).min(block_len);
            if any_prefilled {
                for ((operand, block), &prefill) in operands
                    .iter()
                    .zip(scratch.chunks_mut(block_len))
                    .zip(&prefilled)
                {
                    if let (Operand::Source(source, base), true) = (operand, prefill) {
                        fill_words(source, base.wrapping_add(start as u64), &mut block[..len]);
                    }
                }
            }
            let block = RowBlock {
                start,
                dtypes,
                broadcast: &kernel.key.variant.broadcast,
                scratch: &scratch_addresses,
            };
            fill_slots(operands, Some(block), slots);
            match streamed {
                Some(mapping) => {
                    // The staging buffer holds `block_len` steps, and len <= block_len.
                    call(kernel, slots, staging.as_mut_ptr(), len);
                    let at = output.offset + start * out_step;
                    mapping
                        .stream_run(at, &staging[..len * out_step])
                        .map_err(|e| JitError::Store(StoreError::Io(e.to_string())))?;
                }
                None => {
                    // The pointer stays inside the output span: start < n, and the
                    // span holds n steps (checked above).
                    call(kernel, slots, out.wrapping_add(start * out_step), len);
                }
            }
            start += len;
        }
        STAGING.set(staging_words);
        Ok(())
    })
}

/// Runs a kernel compiled for grouped rows (`Variant::rows` of them per call) over
/// that many rows of `n` elements, leaf k's rows `strides[k]` bytes apart, all folding
/// into the one output row.
pub(super) fn run_row_group(
    kernel: &CompiledKernel,
    operands: &[Operand<'_>],
    strides: &[usize],
    output: Output<'_, '_>,
    n: usize,
    slots: &mut Vec<u64>,
) -> Result<(), JitError> {
    let leaves = kernel.key.variant.broadcast.len();
    if operands.len() != leaves || strides.len() != leaves {
        return Err(format!(
            "internal error: a JIT kernel with {leaves} leaves got {} operands",
            operands.len()
        )
        .into());
    }
    let last_row = kernel.key.variant.rows.saturating_sub(1);
    for (operand, &stride) in operands.iter().zip(strides) {
        match *operand {
            Operand::Buffer {
                bytes,
                offset,
                needed,
            } => {
                // The rows in between lie between the first and the last.
                check_span(bytes.len(), offset, needed)?;
                let last = last_row
                    .checked_mul(stride)
                    .and_then(|skip| skip.checked_add(offset))
                    .ok_or("internal error: a JIT row group beyond the address space")?;
                check_span(bytes.len(), last, needed)?;
            }
            Operand::Value(_) => {}
            Operand::Source(..) => {
                return Err("internal error: an indexed leaf in grouped JIT rows".into())
            }
        }
    }
    check_span(output.target.len, output.offset, output.needed)?;
    fill_slots(operands, None, slots);
    for (k, &stride) in strides.iter().enumerate() {
        slots[k * SLOTS_PER_LEAF + 1] = stride as u64;
    }
    // In bounds: `check_span` above.
    let out = output.target.start.wrapping_add(output.offset);
    call(kernel, slots, out, n);
    Ok(())
}

thread_local! {
    /// The indexed leaves' scratch blocks, reused across rows (one worker per thread).
    static SCRATCH: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
    /// A streamed row's block, computed here before it is copied into the file.
    static STAGING: RefCell<Vec<i64>> = const { RefCell::new(Vec::new()) };
}

/// Where a block of a row starts and what its leaves read there.
struct RowBlock<'a> {
    start: usize,
    dtypes: &'a [DType],
    broadcast: &'a [bool],
    /// Per leaf, the scratch block holding a prefilled indexed leaf's values.
    scratch: &'a [Option<u64>],
}

/// The argument slots for a row, or for a block of it: buffers advanced to the
/// block's start and prefilled indexed leaves pointing at their scratch block.
fn fill_slots(operands: &[Operand<'_>], block: Option<RowBlock<'_>>, slots: &mut Vec<u64>) {
    slots.clear();
    for (k, operand) in operands.iter().enumerate() {
        let (first, third) = match (*operand, &block) {
            (Operand::Buffer { bytes, offset, .. }, Some(block)) if !block.broadcast[k] => {
                let advance = block.start * block.dtypes[k].itemsize();
                (
                    (bytes[offset..].as_ptr() as u64).wrapping_add(advance as u64),
                    0,
                )
            }
            (Operand::Buffer { bytes, offset, .. }, _) => (bytes[offset..].as_ptr() as u64, 0),
            (Operand::Value(bits), _) => (bits, 0),
            (Operand::Source(source, base), block) => {
                match block.as_ref().and_then(|block| block.scratch[k]) {
                    Some(address) => (address, 0),
                    None => (base, source as *const LeafInstance as u64),
                }
            }
        };
        slots.extend([first, 0, third]);
    }
}

/// Writes an indexed leaf's elements `first..first + words.len()` into `words`, each
/// in the leaf's dtype, packed from the start of the words' memory.
fn fill_words(source: &LeafInstance, first: u64, words: &mut [u64]) {
    let len = words.len();
    let address = words.as_mut_ptr();
    // SAFETY: `words` is an exclusive, 8-aligned region of `len` u64s, which holds
    // `len` elements of any of the five dtypes (at most 8 bytes each); the typed
    // views live only during the fill, while the borrow of `words` is held.
    unsafe { fill_raw(source, first, len, address.cast()) }
}

/// Fills `len` elements of `source` from global index `first` at `out`.
///
/// # Safety
/// `out` must be 8-aligned, valid for writes of `8 * len` bytes and not aliased.
unsafe fn fill_raw(source: &LeafInstance, first: u64, len: usize, out: *mut u8) {
    let Some(dtype) = source.indexed_dtype() else {
        return;
    };
    let block = match dtype {
        DType::Bool => LeafBlock::Bool(std::slice::from_raw_parts_mut(out.cast(), len)),
        DType::Int32 => LeafBlock::Int32(std::slice::from_raw_parts_mut(out.cast(), len)),
        DType::Int64 => LeafBlock::Int64(std::slice::from_raw_parts_mut(out.cast(), len)),
        DType::Float32 => LeafBlock::Float32(std::slice::from_raw_parts_mut(out.cast(), len)),
        DType::Float64 => LeafBlock::Float64(std::slice::from_raw_parts_mut(out.cast(), len)),
        // Indexed leaves of other dtypes are never JIT leaves (`jit_rewrite::select::indexed_dtype`).
        _ => return,
    };
    source.fill_local(first, block);
}

fn call(kernel: &CompiledKernel, slots: &[u64], out: *mut u8, n: usize) {
    debug_assert_eq!(
        slots.len(),
        kernel.key.variant.broadcast.len() * SLOTS_PER_LEAF
    );
    // SAFETY: `kernel.address` is the entry of a function Cranelift compiled with the
    // signature `extern "C" fn(*const u64, *mut u8, u64)` (see `cache::compile`), and
    // its code is never freed. The slots array holds SLOTS_PER_LEAF words per leaf as
    // the function expects; every buffer pointer was checked by `run_row` to have the
    // bytes the row reads (the caller computes `needed` from n, the strides and the
    // dtype) and the output span the bytes it writes (a grouped call's first and last
    // rows, at slot 1's stride, by `run_row_group`); a block's pointers are the row's
    // advanced by the block's start, its scratch holds the block's elements, and a
    // streamed block's output is `run_row`'s own staging buffer of the block. The
    // borrows keep all of them alive. The output span is either an exclusively
    // borrowed buffer, or bytes of a save's mapping that belong to this chunk's
    // region alone (regions are disjoint and each is written by one kernel run at a
    // time; the caller reserved their pages, so a store cannot fault for lack of
    // space; see `storage/npy/writable.rs`), so no other access races with the writes.
    unsafe {
        let function: extern "C" fn(*const u64, *mut u8, u64) =
            std::mem::transmute::<usize, extern "C" fn(*const u64, *mut u8, u64)>(kernel.address);
        function(slots.as_ptr(), out, n as u64);
    }
}

fn check_span(len: usize, offset: usize, needed: usize) -> Result<(), String> {
    match offset.checked_add(needed) {
        Some(end) if end <= len && offset < len.max(1) => Ok(()),
        _ => Err(format!(
            "internal error: a JIT row needs bytes {offset}..{offset}+{needed} of a \
             buffer of {len}"
        )),
    }
}

extern "C" fn leaf_value(source: u64, index: u64) -> u64 {
    // SAFETY: JIT code passes back exactly the pointer `run_row` put in the slots, taken
    // from a `&LeafInstance` that outlives the call.
    let source = unsafe { &*(source as *const LeafInstance) };
    source.bits_at_local(index)
}

/// The address of the indexed-leaf callback, for the JIT's symbol table.
pub(super) fn leaf_value_address() -> usize {
    leaf_value as *const () as usize
}

/// Elements in a compiled pairwise base case's fill block (NumPy's PW_BLOCKSIZE).
pub(super) const FILL_SLOT_ELEMENTS: usize = 128;

extern "C" fn leaf_fill(source: u64, first: u64, len: u64, out: u64) -> u64 {
    let len = (len as usize).min(FILL_SLOT_ELEMENTS);
    // SAFETY: JIT code passes back the pointer `run_row` put in the slots, taken from
    // a `&LeafInstance` that outlives the call, and `out` is the address of its own
    // 16-aligned stack slot of FILL_SLOT_ELEMENTS * 8 bytes (see `codegen`), written
    // by nothing else during the call; `len` is clamped to the slot.
    unsafe {
        let source = &*(source as *const LeafInstance);
        fill_raw(source, first, len, out as *mut u8);
    }
    0
}

/// The address of the block-fill callback, for the JIT's symbol table.
pub(super) fn leaf_fill_address() -> usize {
    leaf_fill as *const () as usize
}
