//! Runs a [`JitOp`] on one chunk: lays the chunk out in rows, walks the outer axes,
//! calls the compiled row function once per row, and wraps the result as chunk data
//! or as the same [`ReduceState`] the interpreter's `reduce_map` builds — or, for an
//! op with a save sink, writes the rows straight into the saved file's mapping.

use super::cache::compiled;
use super::call::{
    bytes_of, bytes_of_mut, prefetch, run_row, run_row_group, Operand, OutTarget, Output,
};
use super::error::JitError;
use super::key::CompiledKernel;
use super::key::{accumulator_dtype, KernelKey, Mode, Variant};
use super::layout::{root_shape, row_layout, row_layout_into, LeafGeometry, RowLayout};
use super::leaves::LeafInstance;
use super::{JitOp, SaveSink};
use crate::array::{try_filled, ArrayData};
use crate::chunk_value::ChunkValue;
use crate::dtype::DType;
use crate::kernels::reduce::{Partial, ReduceState};
use crate::kernels::FromScalar;
use crate::ops::ReduceOp;
use crate::plan::Recent;
use crate::scalar::Scalar;
use crate::storage::npy::codec::checked_region_byte_runs;
use crate::storage::npy::Reserved;
use crate::storage::StoreError;
use ndarray::{ArrayD, IxDyn};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::sync::Arc;

/// Computes one pass of the op into a buffer of its own: its chunk, or its reduction
/// tail's partial state.
pub(super) fn run_into_buffer(op: &JitOp, args: &[&ChunkValue]) -> Result<ChunkValue, JitError> {
    let buffers = buffer_args(op, args)?;
    let laid = laid_out(op, &buffers)?;
    let kernel = &laid.kernel;
    let graph = &kernel.key.graph;
    let root_dtype = graph.root_dtype();
    let (out_dtype, initial) = match graph.reduce {
        None => (root_dtype, Scalar::Int64(0)),
        Some(reduce) => {
            let dtype = accumulator_dtype(reduce, root_dtype)?;
            (dtype, identity(reduce, dtype))
        }
    };
    let mut out = TypedVec::filled(out_dtype, laid.out_len, initial)?;
    run_rows(
        kernel,
        op,
        &laid.layout,
        &buffers,
        &laid.bases,
        out_dtype,
        &OutTarget::buffer(out.bytes_mut()),
    )?;
    match (graph.reduce, &laid.reduce_axes) {
        (Some(reduce), Some(axes)) => {
            reduce_state(reduce, root_dtype, &laid.layout.shape, axes.clone(), out)
                .map(ChunkValue::State)
        }
        _ => out.into_array(&laid.layout.shape).map(ChunkValue::Array),
    }
}

/// How one chunk of a [`JitOp`] is walked: everything that depends on the op's kernel,
/// its reduction and its leaves' shapes and places, not on the values. The chunks of
/// a step are alike, so a worker computes this once per step, not once per chunk
/// (see [`laid_out`]).
struct Laid {
    /// What the entry was made for: [`layout_key`]'s words and the planned kernel
    /// (held, so that its address in the key cannot be reused by another kernel).
    key: Vec<usize>,
    planned: Arc<CompiledKernel>,
    layout: RowLayout,
    /// The kernel compiled for the layout's variant.
    kernel: Arc<CompiledKernel>,
    /// The reduced axes, sorted, for an op with a reduction tail.
    reduce_axes: Option<Vec<usize>>,
    /// Elements of the output buffer (the accumulator's, for a reduction).
    out_len: usize,
    /// Per leaf, the index of its first element ([`LeafGeometry::base`]).
    bases: Vec<usize>,
}

thread_local! {
    /// The layouts this thread computed last, with the key of each.
    static LAID: std::cell::RefCell<(Vec<usize>, Recent<std::rc::Rc<Laid>>)> =
        std::cell::RefCell::new((Vec::new(), Recent::default()));
}

/// The layout of this chunk of `op`: one of the last few this thread computed when
/// their kernel, reduction and leaf geometries are the same (compared as a few words,
/// without building the geometry), else computed now and remembered.
fn laid_out(op: &JitOp, buffers: &[Cow<'_, ArrayData>]) -> Result<std::rc::Rc<Laid>, JitError> {
    LAID.with(|cell| {
        let (key, recent) = &mut *cell.borrow_mut();
        layout_key(op, buffers, key)?;
        if let Some(laid) =
            recent.find(|laid| Arc::ptr_eq(&laid.planned, &op.kernel) && laid.key == *key)
        {
            return Ok(std::rc::Rc::clone(laid));
        }
        let laid = std::rc::Rc::new(lay_out(op, buffers, key.clone())?);
        recent.insert(std::rc::Rc::clone(&laid));
        Ok(laid)
    })
}

/// Writes into `key` the words a chunk's layout depends on besides its planned
/// kernel: the reduced axes, then each leaf's kind, shape and (for a leaf read in
/// place from a larger array) that array's shape and the chunk's offset in it.
fn layout_key(
    op: &JitOp,
    buffers: &[Cow<'_, ArrayData>],
    key: &mut Vec<usize>,
) -> Result<(), JitError> {
    key.clear();
    match &op.reduce {
        Some(reduce) => {
            key.push(reduce.axes.len());
            key.extend_from_slice(&reduce.axes);
        }
        None => key.push(usize::MAX),
    }
    let mut next_buffer = buffers.iter();
    let dims = |key: &mut Vec<usize>, dims: &[usize]| {
        key.push(dims.len());
        key.extend_from_slice(dims);
    };
    for leaf in &op.leaves {
        match leaf {
            LeafInstance::Buffer => {
                let data = next_buffer
                    .next()
                    .ok_or_else(|| "internal error: too few JIT arguments".to_string())?;
                key.push(0);
                dims(key, data.shape());
            }
            LeafInstance::Constant { shape, .. } => {
                key.push(1);
                dims(key, shape);
            }
            LeafInstance::Indexed { shape, .. } => {
                key.push(2);
                dims(key, shape);
            }
            LeafInstance::Mapped {
                global_shape,
                offset,
                shape,
                ..
            } => {
                key.push(3);
                dims(key, global_shape);
                dims(key, offset);
                dims(key, shape);
            }
        }
    }
    Ok(())
}

/// Computes a chunk's [`Laid`] from its leaves' geometry.
fn lay_out(op: &JitOp, buffers: &[Cow<'_, ArrayData>], key: Vec<usize>) -> Result<Laid, JitError> {
    let geometry = geometry(op, buffers)?;
    let reduce_axes = op.reduce.as_ref().map(|reduce| sorted_axes(&reduce.axes));
    let layout = row_layout(&geometry, reduce_axes.as_deref())?.grouped(&op.kernel.key.graph);
    let kernel = kernel_for(&op.kernel, &layout)?;
    let out_len = match kernel.key.graph.reduce {
        None => layout.len(),
        Some(_) => keepdims_shape(&layout.shape, reduce_axes.as_deref())
            .iter()
            .product(),
    };
    Ok(Laid {
        key,
        planned: Arc::clone(&op.kernel),
        bases: geometry.iter().map(|leaf| leaf.base).collect(),
        layout,
        kernel,
        reduce_axes,
        out_len,
    })
}

/// Computes an element-wise chunk straight into its region of a save's mapped file.
/// Without a mapping that can reserve the region's pages, computes it into a buffer
/// and writes that as an interpreted region would.
pub(super) fn run_into_file(
    op: &JitOp,
    sink: &SaveSink,
    args: &[&ChunkValue],
) -> Result<ChunkValue, JitError> {
    let buffers = buffer_args(op, args)?;
    let geometry = geometry(op, &buffers)?;
    let shape = root_shape(&geometry)?;
    let file = &sink.file;
    if op.kernel.key.graph.reduce.is_some() || op.kernel.key.graph.root_dtype() != file.dtype {
        return Err("internal error: a JIT kernel saving a value of another kind".into());
    }
    let region =
        checked_region_byte_runs(&file.path, &file.shape, file.dtype, &sink.offset, &shape)
            .map_err(|e| StoreError::from(e).map_message(|e| file.error(e)))?;
    let mapping = match file.mapping() {
        Some(mapping) => {
            let reserved = mapping
                .reserve(&region)
                .map_err(|e| StoreError::Io(file.error(e.to_string())))?;
            (reserved == Reserved::Yes).then_some(mapping)
        }
        None => None,
    };
    let Some(mapping) = mapping else {
        let data = run_into_buffer(op, args)?;
        file.write_region(&sink.offset, data.array()?)?;
        return Ok(ChunkValue::Done);
    };
    let out = LeafGeometry::within(&file.shape, &sink.offset, &shape);
    let layout = row_layout_into(&geometry, &out)?;
    let kernel = kernel_for(&op.kernel, &layout)?;
    let bases: Vec<usize> = geometry.iter().map(|leaf| leaf.base).collect();
    run_rows(
        &kernel,
        op,
        &layout,
        &buffers,
        &bases,
        file.dtype,
        &OutTarget::file(&mapping),
    )?;
    mapping.streams_done();
    Ok(ChunkValue::Done)
}

fn sorted_axes(axes: &[usize]) -> Vec<usize> {
    let mut axes = axes.to_vec();
    axes.sort_unstable();
    axes.dedup();
    axes
}

/// The kernel compiled for this chunk's variant (the planned one, unless the chunk's
/// shapes call for another).
fn kernel_for(
    planned: &Arc<CompiledKernel>,
    layout: &RowLayout,
) -> Result<Arc<CompiledKernel>, JitError> {
    if planned.key.variant == layout.variant {
        return Ok(planned.clone());
    }
    compiled(&KernelKey {
        graph: planned.key.graph.clone(),
        variant: layout.variant.clone(),
    })
}

/// A chunk's arguments (kernels read one to three: no allocation for them).
type Buffers<'a> = SmallVec<[Cow<'a, ArrayData>; 4]>;

/// The argument chunks as C-contiguous data.
fn buffer_args<'a>(op: &JitOp, args: &[&'a ChunkValue]) -> Result<Buffers<'a>, JitError> {
    let wanted = op
        .leaves
        .iter()
        .filter(|leaf| matches!(leaf, LeafInstance::Buffer))
        .count();
    if args.len() != wanted {
        return Err(format!(
            "internal error: a JIT kernel reading {wanted} chunks got {} arguments",
            args.len()
        )
        .into());
    }
    args.iter()
        .map(|value| {
            let data = value.array()?;
            Ok(if is_standard(data) {
                Cow::Borrowed(data)
            } else {
                Cow::Owned(standard(data))
            })
        })
        .collect()
}

fn is_standard(data: &ArrayData) -> bool {
    crate::with_array!(data, a => a.is_standard_layout())
}

fn standard(data: &ArrayData) -> ArrayData {
    crate::with_array!(data, a => crate::kernels::Element::into_data(
        a.as_standard_layout().into_owned()
    ))
}

fn geometry(op: &JitOp, buffers: &[Cow<'_, ArrayData>]) -> Result<Vec<LeafGeometry>, JitError> {
    let mut next_buffer = buffers.iter();
    op.leaves
        .iter()
        .map(|leaf| {
            LeafGeometry::of_leaf(leaf, || {
                next_buffer
                    .next()
                    .map(|data| data.shape())
                    .ok_or_else(|| JitError::from("internal error: too few JIT arguments"))
            })
        })
        .collect()
}

fn buffer_bytes(data: &ArrayData) -> &[u8] {
    match data {
        ArrayData::Bool(a) => a.as_slice().map_or(&[], bytes_of),
        ArrayData::Int8(a) => a.as_slice().map_or(&[], bytes_of),
        ArrayData::Int16(a) => a.as_slice().map_or(&[], bytes_of),
        ArrayData::Int32(a) => a.as_slice().map_or(&[], bytes_of),
        ArrayData::Int64(a) => a.as_slice().map_or(&[], bytes_of),
        ArrayData::UInt8(a) => a.as_slice().map_or(&[], bytes_of),
        ArrayData::UInt16(a) => a.as_slice().map_or(&[], bytes_of),
        ArrayData::UInt32(a) => a.as_slice().map_or(&[], bytes_of),
        ArrayData::UInt64(a) => a.as_slice().map_or(&[], bytes_of),
        ArrayData::Float16(a) => a.as_slice().map_or(&[], bytes_of),
        ArrayData::Float32(a) => a.as_slice().map_or(&[], bytes_of),
        ArrayData::Float64(a) => a.as_slice().map_or(&[], bytes_of),
        // Complex runs interpreted (`jit_rewrite::select::interpreted_only`): no kernel reads it.
        ArrayData::Complex64(_) | ArrayData::Complex128(_) => &[],
    }
}

/// Walks every row, calling the kernel once per row (none for an empty chunk).
#[allow(clippy::too_many_arguments)]
fn run_rows(
    kernel: &CompiledKernel,
    op: &JitOp,
    layout: &RowLayout,
    buffers: &[Cow<'_, ArrayData>],
    bases: &[usize],
    out_dtype: DType,
    out: &OutTarget<'_>,
) -> Result<(), JitError> {
    if layout.is_empty() {
        return Ok(());
    }
    let leaf_dtypes = &kernel.leaf_dtypes;
    if leaf_dtypes.len() != op.leaves.len() || bases.len() != op.leaves.len() {
        return Err("internal error: JIT leaves do not match the kernel".into());
    }
    let mut buffer_of_leaf: SmallVec<[Option<&[u8]>; 4]> = SmallVec::new();
    let mut next = buffers.iter();
    for (leaf, &dtype) in op.leaves.iter().zip(leaf_dtypes) {
        buffer_of_leaf.push(match leaf {
            LeafInstance::Buffer => {
                let data = next.next().ok_or("internal error: too few JIT arguments")?;
                if data.dtype() != dtype {
                    return Err(format!(
                        "internal error: a JIT kernel expected {dtype} data, got {}",
                        data.dtype()
                    )
                    .into());
                }
                Some(buffer_bytes(data))
            }
            LeafInstance::Mapped {
                file,
                dtype: stored,
                ..
            } => {
                if *stored != dtype {
                    return Err(format!(
                        "internal error: a JIT kernel expected {dtype} data, got {stored}"
                    )
                    .into());
                }
                Some(file.in_place_bytes()?)
            }
            _ => None,
        });
    }
    let outer = layout.extents.len() - 1;
    let n = layout.row_len();
    let out_itemsize = out_dtype.itemsize();
    let out_needed = match kernel.key.variant.mode {
        Mode::FoldRow => out_itemsize,
        _ => n * out_itemsize,
    };
    let mut index: SmallVec<[usize; 4]> = smallvec::smallvec![0; outer];
    let mut slots = Vec::new();
    let mut operands: SmallVec<[Operand<'_>; 4]> = SmallVec::new();
    let group = GroupedRows::new(kernel, layout, leaf_dtypes, op)?;
    let position = |k: usize, index: &[usize]| {
        bases[k]
            + (0..outer)
                .map(|axis| index[axis] * layout.leaf_strides[k][axis])
                .sum::<usize>()
    };
    // The mapped leaves that read a row's worth of elements: their next row is
    // prefetched while the current one runs (see `call::prefetch`).
    let mapped: SmallVec<[usize; 4]> = (0..op.leaves.len())
        .filter(|&k| {
            matches!(op.leaves[k], LeafInstance::Mapped { .. }) && !kernel.key.variant.broadcast[k]
        })
        .collect();
    let mut next: SmallVec<[usize; 4]> = SmallVec::new();
    loop {
        operands.clear();
        for (k, leaf) in op.leaves.iter().enumerate() {
            let position = position(k, &index);
            let broadcast = kernel.key.variant.broadcast[k];
            operands.push(match leaf {
                LeafInstance::Buffer | LeafInstance::Mapped { .. } => {
                    let itemsize = leaf_dtypes[k].itemsize();
                    Operand::Buffer {
                        bytes: buffer_of_leaf[k].unwrap_or(&[]),
                        offset: position * itemsize,
                        needed: if broadcast { itemsize } else { n * itemsize },
                    }
                }
                LeafInstance::Constant { value, .. } => {
                    Operand::Value(super::leaves::scalar_bits(*value))
                }
                LeafInstance::Indexed { .. } => Operand::Source(leaf, position as u64),
            });
        }
        let out_position: usize = layout.out_base
            + (0..outer)
                .map(|axis| index[axis] * layout.out_strides[axis])
                .sum::<usize>();
        let output = Output {
            target: out,
            offset: out_position * out_itemsize,
            needed: out_needed,
        };
        let grouped = group
            .as_ref()
            .filter(|group| index[group.axis] + layout.variant.rows <= layout.extents[group.axis]);
        if !mapped.is_empty() {
            next.clear();
            next.extend_from_slice(&index);
            if let Some(group) = grouped {
                next[group.axis] += layout.variant.rows - 1;
            }
            if advance(&mut next, &layout.extents[..outer]) {
                for &k in &mapped {
                    let itemsize = leaf_dtypes[k].itemsize();
                    let bytes = buffer_of_leaf[k].unwrap_or(&[]);
                    prefetch(bytes, position(k, &next) * itemsize, n * itemsize);
                }
            }
        }
        match &group {
            Some(group) if grouped.is_some() => {
                run_row_group(kernel, &operands, &group.strides, output, n, &mut slots)?;
                index[group.axis] += layout.variant.rows - 1;
            }
            Some(group) => run_row(group.single(kernel)?, &operands, output, n, &mut slots)?,
            None => run_row(kernel, &operands, output, n, &mut slots)?,
        }
        if !advance(&mut index, &layout.extents[..outer]) {
            return Ok(());
        }
    }
}

/// How a kernel compiled for grouped rows (`Variant::rows` > 1) walks its chunk.
struct GroupedRows {
    /// The axis of the layout's extents whose rows one call takes together.
    axis: usize,
    /// Per leaf, the bytes between its rows along `axis` (0 for constants).
    strides: Vec<usize>,
    /// The one-row kernel, for the rows left over when `rows` does not divide the
    /// axis (compiled at the first such row).
    single: std::cell::OnceCell<Arc<CompiledKernel>>,
}

impl GroupedRows {
    fn new(
        kernel: &CompiledKernel,
        layout: &RowLayout,
        leaf_dtypes: &[DType],
        op: &JitOp,
    ) -> Result<Option<GroupedRows>, JitError> {
        let Some(axis) = layout.group_axis() else {
            return Ok(None);
        };
        if kernel.key.variant != layout.variant {
            return Err("internal error: a JIT kernel not compiled for its rows".into());
        }
        let strides = op
            .leaves
            .iter()
            .enumerate()
            .map(|(k, leaf)| match leaf {
                LeafInstance::Buffer | LeafInstance::Mapped { .. } => {
                    layout.leaf_strides[k][axis] * leaf_dtypes[k].itemsize()
                }
                _ => 0,
            })
            .collect();
        Ok(Some(GroupedRows {
            axis,
            strides,
            single: std::cell::OnceCell::new(),
        }))
    }

    fn single(&self, grouped: &CompiledKernel) -> Result<&CompiledKernel, JitError> {
        if let Some(kernel) = self.single.get() {
            return Ok(kernel.as_ref());
        }
        let kernel = compiled(&KernelKey {
            graph: grouped.key.graph.clone(),
            variant: Variant {
                rows: 1,
                ..grouped.key.variant.clone()
            },
        })?;
        Ok(self.single.get_or_init(|| kernel).as_ref())
    }
}

/// The next multi-index in C order; false after the last.
fn advance(index: &mut [usize], extents: &[usize]) -> bool {
    for axis in (0..index.len()).rev() {
        index[axis] += 1;
        if index[axis] < extents[axis] {
            return true;
        }
        index[axis] = 0;
    }
    false
}

/// `shape` with every axis in `axes` of length 1.
pub(crate) fn keepdims_shape(shape: &[usize], axes: Option<&[usize]>) -> Vec<usize> {
    (0..shape.len())
        .map(|axis| {
            if axes.is_some_and(|axes| axes.contains(&axis)) {
                1
            } else {
                shape[axis]
            }
        })
        .collect()
}

/// The value a reduction's accumulator starts from.
fn identity(op: ReduceOp, dtype: DType) -> Scalar {
    let value = match (op, dtype) {
        (ReduceOp::Prod, _) | (ReduceOp::All, _) => Scalar::Int64(1),
        (ReduceOp::Max, DType::Float16 | DType::Float32 | DType::Float64) => {
            Scalar::Float64(f64::NEG_INFINITY)
        }
        (ReduceOp::Min, DType::Float16 | DType::Float32 | DType::Float64) => {
            Scalar::Float64(f64::INFINITY)
        }
        (ReduceOp::Max | ReduceOp::Min, DType::UInt64) => {
            Scalar::UInt64(if op == ReduceOp::Max { 0 } else { u64::MAX })
        }
        (ReduceOp::Max | ReduceOp::Min, int) if int.is_int() => {
            let (low, high) = int.int_range().unwrap_or((0, 0));
            let bound = if op == ReduceOp::Max { low } else { high };
            Scalar::Int64(i64::try_from(bound).unwrap_or(0))
        }
        (ReduceOp::Min, DType::Bool) => Scalar::Bool(true),
        _ => Scalar::Int64(0),
    };
    crate::kernels::cast_scalar(value, dtype)
}

fn reduce_state(
    op: ReduceOp,
    input_dtype: DType,
    shape: &[usize],
    axes: Vec<usize>,
    out: TypedVec,
) -> Result<ReduceState, JitError> {
    let keepdims = keepdims_shape(shape, Some(&axes));
    let count: usize = axes.iter().map(|&axis| shape[axis]).product();
    let out = if count == 0 && matches!(op, ReduceOp::Max | ReduceOp::Min) {
        // The interpreter leaves the default value in a state that saw nothing.
        TypedVec::filled(input_dtype, out.len(), Scalar::Int64(0))?
    } else {
        out
    };
    let partial = match op {
        ReduceOp::Sum | ReduceOp::Prod | ReduceOp::Mean => {
            Partial::Total(out.into_array(&keepdims)?)
        }
        ReduceOp::Max | ReduceOp::Min => Partial::Extreme(out.into_array(&keepdims)?),
        ReduceOp::All | ReduceOp::Any => match out.into_array(&keepdims)? {
            ArrayData::Bool(truth) => Partial::Truth(truth),
            _ => return Err("internal error: all/any accumulated in a non-bool".into()),
        },
        ReduceOp::CountNonzero => match out.into_array(&keepdims)? {
            ArrayData::Int64(count) => Partial::Count(count),
            _ => return Err("internal error: count_nonzero accumulated in a non-int64".into()),
        },
        other => {
            return Err(JitError::NotSupported(format!(
                "not supported yet: {} in JIT kernels",
                other.name()
            )))
        }
    };
    Ok(ReduceState::from_parts(
        op,
        input_dtype,
        axes,
        keepdims,
        count,
        partial,
    ))
}

/// An output being written by JIT code, one vector per dtype.
enum TypedVec {
    Bool(Vec<bool>),
    Int8(Vec<i8>),
    Int16(Vec<i16>),
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    UInt8(Vec<u8>),
    UInt16(Vec<u16>),
    UInt32(Vec<u32>),
    UInt64(Vec<u64>),
    Float16(Vec<half::f16>),
    Float32(Vec<f32>),
    Float64(Vec<f64>),
}

impl TypedVec {
    /// `len` values of `dtype` set to `value`, or an error when the memory cannot be
    /// had (the chunk's expression is then reported, not the process aborted).
    fn filled(dtype: DType, len: usize, value: Scalar) -> Result<TypedVec, JitError> {
        let failed = |error: crate::array::AllocError| JitError::from(error);
        Ok(match dtype {
            DType::Bool => {
                TypedVec::Bool(try_filled(len, bool::from_scalar(value)).map_err(failed)?)
            }
            DType::Int8 => TypedVec::Int8(try_filled(len, i8::from_scalar(value)).map_err(failed)?),
            DType::Int16 => {
                TypedVec::Int16(try_filled(len, i16::from_scalar(value)).map_err(failed)?)
            }
            DType::Int32 => {
                TypedVec::Int32(try_filled(len, i32::from_scalar(value)).map_err(failed)?)
            }
            DType::Int64 => {
                TypedVec::Int64(try_filled(len, i64::from_scalar(value)).map_err(failed)?)
            }
            DType::UInt8 => {
                TypedVec::UInt8(try_filled(len, u8::from_scalar(value)).map_err(failed)?)
            }
            DType::UInt16 => {
                TypedVec::UInt16(try_filled(len, u16::from_scalar(value)).map_err(failed)?)
            }
            DType::UInt32 => {
                TypedVec::UInt32(try_filled(len, u32::from_scalar(value)).map_err(failed)?)
            }
            DType::UInt64 => {
                TypedVec::UInt64(try_filled(len, u64::from_scalar(value)).map_err(failed)?)
            }
            DType::Float16 => {
                TypedVec::Float16(try_filled(len, half::f16::from_scalar(value)).map_err(failed)?)
            }
            DType::Float32 => {
                TypedVec::Float32(try_filled(len, f32::from_scalar(value)).map_err(failed)?)
            }
            DType::Float64 => {
                TypedVec::Float64(try_filled(len, f64::from_scalar(value)).map_err(failed)?)
            }
            DType::Complex64 | DType::Complex128 => {
                return Err(format!(
                    "internal error: a JIT kernel writes {dtype}, which runs interpreted"
                )
                .into())
            }
        })
    }

    fn len(&self) -> usize {
        match self {
            TypedVec::Bool(v) => v.len(),
            TypedVec::Int8(v) => v.len(),
            TypedVec::Int16(v) => v.len(),
            TypedVec::Int32(v) => v.len(),
            TypedVec::Int64(v) => v.len(),
            TypedVec::UInt8(v) => v.len(),
            TypedVec::UInt16(v) => v.len(),
            TypedVec::UInt32(v) => v.len(),
            TypedVec::UInt64(v) => v.len(),
            TypedVec::Float16(v) => v.len(),
            TypedVec::Float32(v) => v.len(),
            TypedVec::Float64(v) => v.len(),
        }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        match self {
            TypedVec::Bool(v) => bytes_of_mut(v),
            TypedVec::Int8(v) => bytes_of_mut(v),
            TypedVec::Int16(v) => bytes_of_mut(v),
            TypedVec::Int32(v) => bytes_of_mut(v),
            TypedVec::Int64(v) => bytes_of_mut(v),
            TypedVec::UInt8(v) => bytes_of_mut(v),
            TypedVec::UInt16(v) => bytes_of_mut(v),
            TypedVec::UInt32(v) => bytes_of_mut(v),
            TypedVec::UInt64(v) => bytes_of_mut(v),
            TypedVec::Float16(v) => bytes_of_mut(v),
            TypedVec::Float32(v) => bytes_of_mut(v),
            TypedVec::Float64(v) => bytes_of_mut(v),
        }
    }

    fn into_array(self, shape: &[usize]) -> Result<ArrayData, JitError> {
        fn build<T>(shape: &[usize], values: Vec<T>) -> Result<ArrayD<T>, String> {
            ArrayD::from_shape_vec(IxDyn(shape), values)
                .map_err(|error| format!("internal error: JIT output shape: {error}"))
        }
        Ok(match self {
            TypedVec::Bool(v) => ArrayData::Bool(build(shape, v)?),
            TypedVec::Int8(v) => ArrayData::Int8(build(shape, v)?),
            TypedVec::Int16(v) => ArrayData::Int16(build(shape, v)?),
            TypedVec::Int32(v) => ArrayData::Int32(build(shape, v)?),
            TypedVec::Int64(v) => ArrayData::Int64(build(shape, v)?),
            TypedVec::UInt8(v) => ArrayData::UInt8(build(shape, v)?),
            TypedVec::UInt16(v) => ArrayData::UInt16(build(shape, v)?),
            TypedVec::UInt32(v) => ArrayData::UInt32(build(shape, v)?),
            TypedVec::UInt64(v) => ArrayData::UInt64(build(shape, v)?),
            TypedVec::Float16(v) => ArrayData::Float16(build(shape, v)?),
            TypedVec::Float32(v) => ArrayData::Float32(build(shape, v)?),
            TypedVec::Float64(v) => ArrayData::Float64(build(shape, v)?),
        })
    }
}
