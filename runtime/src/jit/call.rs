//! The only unsafe code of the JIT: viewing chunk buffers as bytes, calling a compiled
//! row function, and the callback through which compiled code reads indexed leaves.
//! Every call checks, in safe code right before it, that each buffer the function
//! will touch holds the bytes the row needs.
#![allow(unsafe_code)]

use super::cache::CompiledKernel;
use super::graph::SLOTS_PER_LEAF;
use super::leaves::IndexedSource;

/// Plain element types whose every byte pattern the JIT may read, and whose values
/// it writes as the matching Cranelift type (bools only as 0 or 1).
pub(super) trait Pod: Copy {}
impl Pod for bool {}
impl Pod for i32 {}
impl Pod for i64 {}
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
pub(super) enum Operand<'a> {
    /// A buffer read from `bytes[offset..offset + needed]`.
    Buffer {
        bytes: &'a [u8],
        offset: usize,
        needed: usize,
    },
    /// A constant's bits.
    Value(u64),
    /// An indexed source read at global indices starting at `base`.
    Source(&'a IndexedSource, u64),
}

/// Where a row writes: `bytes[offset..offset + needed]`.
pub(super) struct Output<'a> {
    pub bytes: &'a mut [u8],
    pub offset: usize,
    pub needed: usize,
}

/// Runs `kernel` over one row of `n` elements.
pub(super) fn run_row(
    kernel: &CompiledKernel,
    operands: &[Operand<'_>],
    output: Output<'_>,
    n: usize,
    slots: &mut Vec<u64>,
) -> Result<(), String> {
    let leaves = kernel.key.variant.broadcast.len();
    if operands.len() != leaves {
        return Err(format!(
            "internal error: a JIT kernel with {leaves} leaves got {} operands",
            operands.len()
        ));
    }
    slots.clear();
    for operand in operands {
        let (first, third) = match *operand {
            Operand::Buffer {
                bytes,
                offset,
                needed,
            } => {
                check_span(bytes.len(), offset, needed)?;
                (bytes[offset..].as_ptr() as u64, 0)
            }
            Operand::Value(bits) => (bits, 0),
            Operand::Source(source, base) => (base, source as *const IndexedSource as u64),
        };
        slots.extend([first, 0, third]);
    }
    debug_assert_eq!(slots.len(), leaves * SLOTS_PER_LEAF);
    check_span(output.bytes.len(), output.offset, output.needed)?;
    let out = output.bytes[output.offset..].as_mut_ptr();
    // SAFETY: `kernel.address` is the entry of a function Cranelift compiled with the
    // signature `extern "C" fn(*const u64, *mut u8, u64)` (see `cache::compile`), and
    // its code is never freed. The slots array holds SLOTS_PER_LEAF words per leaf as
    // the function expects; every buffer pointer was checked above to have the bytes
    // the row reads (the caller computes `needed` from n, the strides and the dtype)
    // and the output span the bytes it writes. The borrows keep all of them alive and
    // the output exclusive for the duration of the call.
    unsafe {
        let function: extern "C" fn(*const u64, *mut u8, u64) =
            std::mem::transmute::<usize, extern "C" fn(*const u64, *mut u8, u64)>(kernel.address);
        function(slots.as_ptr(), out, n as u64);
    }
    Ok(())
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
    // from a `&IndexedSource` that outlives the call.
    let source = unsafe { &*(source as *const IndexedSource) };
    source.bits_at(index)
}

/// The address of the indexed-leaf callback, for the JIT's symbol table.
pub(super) fn leaf_value_address() -> usize {
    leaf_value as *const () as usize
}
