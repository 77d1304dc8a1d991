//! The concrete chunk kernel a plan carries: [`Kernel`] holds everything one chunk
//! operation needs for one chunk (its shape, offsets, local slice items, the pieces it
//! is assembled from, the files it touches), already resolved by the planner; what
//! flows between kernels ([`ChunkValue`]) and the step parameters the JIT reads too
//! are in [`crate::chunk_value`]. `impl ChunkKernel for Kernel` dispatches to the
//! interpreter kernels in [`crate::kernels`], and a [`Kernel::Jit`] op to the JIT.
//!
//! Parameters shared by every chunk of a step (axes, a literal's values, a file) are
//! held in `Arc`s so that planning a million chunks clones pointers, not vectors.

mod assemble;
mod io;

/// The values and step parameters the kernels share with the JIT, where the
/// compiler has always found them.
pub use crate::chunk_value::{
    ChunkValue, LiteralSpec, LoadSpec, RandomSpec, ReduceSpec, SaveFile, WrongValue,
};
pub use assemble::AssemblePiece;

use crate::array::ArrayData;
use crate::dtype::DType;
use crate::exec::ChunkKernel;
use crate::jit::JitError;
use crate::kernels::reduce::{
    read_state, reduce_combine, reduce_finish, reduce_map, write_state, ReduceState,
};
use crate::kernels::shape::SliceItem;
use crate::kernels::{self, matmul, scan, select, shape, sort, KernelError};
use crate::ops::{BinaryOp, Reduction, ScanOp, UnaryOp};
use crate::random::random_chunk;
use crate::scalar::Scalar;
use crate::spill_format::{read_array, write_array};
use crate::storage::StoreError;
use std::fmt;
use std::sync::Arc;

/// Why a chunk kernel failed: its computation (an error NumPy reports too, or
/// memory it could not have), its store, its compiled code, or arguments that do
/// not fit it (a planner bug). The text is what the user reads.
#[derive(Clone, Debug, PartialEq)]
pub enum ChunkError {
    /// An interpreter kernel's error ([`KernelError`]).
    Kernel(KernelError),
    /// Reading a loaded store or writing a saved one failed.
    Store(StoreError),
    /// A JIT kernel's error.
    Jit(JitError),
    /// The kernel got arguments it does not take: a marsc bug.
    Internal(String),
}

impl fmt::Display for ChunkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChunkError::Kernel(error) => write!(f, "{error}"),
            ChunkError::Store(error) => write!(f, "{error}"),
            ChunkError::Jit(error) => write!(f, "{error}"),
            ChunkError::Internal(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for ChunkError {}

impl From<KernelError> for ChunkError {
    fn from(error: KernelError) -> ChunkError {
        ChunkError::Kernel(error)
    }
}

impl From<StoreError> for ChunkError {
    fn from(error: StoreError) -> ChunkError {
        ChunkError::Store(error)
    }
}

impl From<JitError> for ChunkError {
    fn from(error: JitError) -> ChunkError {
        ChunkError::Jit(error)
    }
}

/// A kernel's arguments that do not fit it (an argument missing, a wrong count).
impl From<String> for ChunkError {
    fn from(message: String) -> ChunkError {
        ChunkError::Internal(message)
    }
}

impl From<&str> for ChunkError {
    fn from(message: &str) -> ChunkError {
        ChunkError::Internal(message.to_string())
    }
}

impl From<WrongValue> for ChunkError {
    fn from(error: WrongValue) -> ChunkError {
        ChunkError::Internal(error.to_string())
    }
}

/// One chunk operation with every parameter it needs for one chunk.
#[derive(Clone, Debug, PartialEq)]
pub enum Kernel {
    // ---- creation: no arguments ----
    Full {
        shape: Vec<usize>,
        value: Scalar,
    },
    /// Elements `offset..offset + len` of an arange in the dtype of `start`.
    Arange {
        start: Scalar,
        step: Scalar,
        offset: usize,
        len: usize,
    },
    Linspace {
        start: f64,
        stop: f64,
        num: usize,
        endpoint: bool,
        dtype: DType,
        offset: usize,
        len: usize,
    },
    Eye {
        shape: [usize; 2],
        row_offset: usize,
        col_offset: usize,
        k: i64,
        dtype: DType,
    },
    /// The chunk of `shape` at `offset` of a literal tensor.
    Literal {
        spec: Arc<LiteralSpec>,
        offset: Vec<usize>,
        shape: Vec<usize>,
    },
    /// The chunk of `shape` at `offset` of a random tensor.
    Random {
        spec: Arc<RandomSpec>,
        offset: Vec<usize>,
        shape: Vec<usize>,
    },
    /// The chunk of `shape` at `offset` of a loaded store.
    Load {
        spec: Arc<LoadSpec>,
        offset: Vec<usize>,
        shape: Vec<usize>,
    },

    // ---- element-wise ----
    Unary(UnaryOp),
    Binary {
        op: BinaryOp,
        common: DType,
    },
    /// Arguments `[cond, x, y]`.
    Where,
    /// Converts the argument to the dtype.
    Cast(DType),

    // ---- reductions ----
    /// Reduces a data chunk over the spec's axes; `offset` places the input chunk
    /// in its tensor.
    ReduceMap {
        spec: Arc<ReduceSpec>,
        offset: Vec<usize>,
    },
    /// Merges the states given as arguments, in order.
    ReduceCombine(Reduction),
    ReduceFinish {
        reduction: Reduction,
        keepdims: bool,
    },

    // ---- scans ----
    ScanTotal {
        op: ScanOp,
        axis: usize,
    },
    /// Arguments `[previous carry?, total]`.
    ScanCarry(ScanOp),
    /// Arguments `[chunk, carry?]`.
    ScanChunk {
        op: ScanOp,
        axis: usize,
    },

    // ---- linear algebra ----
    /// Arguments `[a_0, b_0, a_1, b_1, ...]`: the sum of the block products, in order.
    MatMulBlock,
    /// The sum of every argument.
    SumBlocks,

    // ---- shape relabels ----
    Transpose(Arc<[usize]>),
    ExpandDims(Arc<[usize]>),
    Squeeze(Arc<[usize]>),
    BroadcastTo(Vec<usize>),
    Slice(Vec<SliceItem>),
    Reshape(Vec<usize>),
    /// The argument unchanged.
    Alias,
    /// A chunk of `shape` made of one region of each argument.
    Assemble {
        shape: Vec<usize>,
        pieces: Vec<AssemblePiece>,
    },

    // ---- selection by a boolean mask ----
    /// The number of true elements of the mask argument (a one-element int64 array).
    CountTrue,
    /// Arguments `[x, mask]`: the slabs of `x` where the mask (over axes
    /// `axis..axis + mask.ndim`) is true, `len` of them.
    Compress {
        axis: usize,
        len: usize,
    },
    /// Per block of an axis of length `len` starting at `starts`: how many of the
    /// argument's indices fall in it, then the out-of-bounds count and first value.
    IndexBlocks {
        starts: Arc<[usize]>,
        len: usize,
    },
    /// Arguments `[idx, block...]`: the slabs of the blocks (chunks along `axis`,
    /// starting at `starts`, of an axis of length `len`) that the indices name.
    Gather {
        axis: usize,
        starts: Vec<usize>,
        len: usize,
    },

    // ---- sorting ----
    /// The argument sorted along `axis` (stably); with `arg`, the positions along
    /// the whole axis that sort it (the chunk starts at `offset` on that axis).
    Sort {
        axis: usize,
        arg: bool,
        offset: i64,
    },
    /// Arguments `[x, pivots]`: the 1-D chunk grouped stably by the sort's part of
    /// each element (with `arg`, its positions from `offset` in that order).
    Bucket {
        arg: bool,
        offset: i64,
    },
    /// Arguments `[a, v]`: per element of `v`, NumPy's `searchsorted` of it in the
    /// sorted 1-D chunk `a`, as int64 of shape `[1, *v.shape]`.
    SearchSorted {
        right: bool,
    },
    /// Arguments: sorted 1-D pieces, then (with `arg`) their positions in the whole
    /// array: the pieces merged, or their positions in merged order.
    MergeSorted {
        arg: bool,
    },

    // ---- saving ----
    /// Creates the temporary file of a save (arguments: an earlier save to the same
    /// path, only for ordering).
    SaveInit(Arc<SaveFile>),
    /// Arguments `[data, init]`: writes the data at `offset`.
    SaveRegion {
        file: Arc<SaveFile>,
        offset: Vec<usize>,
    },
    /// Moves the finished temporary file to its path (arguments: every region).
    SaveCommit(Arc<SaveFile>),

    // ---- compiled ----
    /// A fused group compiled by the JIT (arguments: its buffer leaves, in order).
    Jit(Box<crate::jit::JitOp>),

    // ---- dense linear algebra (issue 20) ----
    /// A solver or factorization kernel; `index` is the chunk's index in its step.
    Linalg {
        op: crate::kernels::linalg::LinalgOp,
        index: usize,
    },

    // ---- histograms (issue 19) ----
    /// Arguments `[values]` or `[values, weights]`: the row of per-bin counts (or
    /// weight sums) of the chunk.
    BinCounts(Arc<kernels::histogram::Binning>),

    // ---- assignment through an integer index (issue 19) ----
    /// Arguments `[x, idx, values, idx, values, ...]`: x's chunk (starting at
    /// `start` along `axis`, of length `len`) with the positions the indices name
    /// replaced by the values' slabs.
    Scatter {
        axis: usize,
        start: usize,
        len: usize,
    },
}

impl Kernel {
    /// Whether the two kernels compute the same thing, comparing the specs a step's
    /// chunks share (`Arc`s) by identity: cheap whatever a spec holds (a literal's
    /// values, a file's readers). Equal specs of two steps are not found equal, which
    /// only costs sharing ([`crate::plan::SharedOps`]).
    pub fn same_as(&self, other: &Kernel) -> bool {
        use Kernel::*;
        match (self, other) {
            (
                Literal {
                    spec: a,
                    offset: oa,
                    shape: sa,
                },
                Literal {
                    spec: b,
                    offset: ob,
                    shape: sb,
                },
            ) => Arc::ptr_eq(a, b) && oa == ob && sa == sb,
            (
                Random {
                    spec: a,
                    offset: oa,
                    shape: sa,
                },
                Random {
                    spec: b,
                    offset: ob,
                    shape: sb,
                },
            ) => Arc::ptr_eq(a, b) && oa == ob && sa == sb,
            (
                Load {
                    spec: a,
                    offset: oa,
                    shape: sa,
                },
                Load {
                    spec: b,
                    offset: ob,
                    shape: sb,
                },
            ) => Arc::ptr_eq(a, b) && oa == ob && sa == sb,
            (
                ReduceMap {
                    spec: a,
                    offset: oa,
                },
                ReduceMap {
                    spec: b,
                    offset: ob,
                },
            ) => Arc::ptr_eq(a, b) && oa == ob,
            (IndexBlocks { starts: a, len: la }, IndexBlocks { starts: b, len: lb }) => {
                Arc::ptr_eq(a, b) && la == lb
            }
            (SaveInit(a), SaveInit(b)) | (SaveCommit(a), SaveCommit(b)) => Arc::ptr_eq(a, b),
            (
                SaveRegion {
                    file: a,
                    offset: oa,
                },
                SaveRegion {
                    file: b,
                    offset: ob,
                },
            ) => Arc::ptr_eq(a, b) && oa == ob,
            (BinCounts(a), BinCounts(b)) => Arc::ptr_eq(a, b),
            (Jit(a), Jit(b)) => std::ptr::eq(a.as_ref(), b.as_ref()),
            // No spec shared by reference: field by field.
            _ => self == other,
        }
    }

    /// A short name for traces and messages.
    pub fn name(&self) -> &'static str {
        match self {
            Kernel::Full { .. } => "full",
            Kernel::Arange { .. } => "arange",
            Kernel::Linspace { .. } => "linspace",
            Kernel::Eye { .. } => "eye",
            Kernel::Literal { .. } => "literal",
            Kernel::Random { .. } => "random",
            Kernel::Load { .. } => "load",
            Kernel::Unary(op) => op.name(),
            Kernel::Binary { op, .. } => op.name(),
            Kernel::Where => "where",
            Kernel::Cast(_) => "astype",
            Kernel::ReduceMap { .. } => "reduce.map",
            Kernel::ReduceCombine(_) => "reduce.combine",
            Kernel::ReduceFinish { .. } => "reduce.finish",
            Kernel::ScanTotal { .. } => "scan.total",
            Kernel::ScanCarry(_) => "scan.carry",
            Kernel::ScanChunk { .. } => "scan.chunk",
            Kernel::MatMulBlock => "matmul.block",
            Kernel::SumBlocks => "matmul.sum",
            Kernel::Transpose(_) => "transpose",
            Kernel::ExpandDims(_) => "expand_dims",
            Kernel::Squeeze(_) => "squeeze",
            Kernel::BroadcastTo(_) => "broadcast_to",
            Kernel::Slice(_) => "slice",
            Kernel::Reshape(_) => "reshape",
            Kernel::Alias => "alias",
            Kernel::Assemble { .. } => "assemble",
            Kernel::CountTrue => "count_true",
            Kernel::Compress { .. } => "compress",
            Kernel::IndexBlocks { .. } => "index_blocks",
            Kernel::Gather { .. } => "gather",
            Kernel::Sort { .. } => "sort",
            Kernel::SearchSorted { .. } => "searchsorted",
            Kernel::Bucket { .. } => "bucket",
            Kernel::MergeSorted { .. } => "merge_sorted",
            Kernel::BinCounts(_) => "bin_counts",
            Kernel::Scatter { .. } => "scatter",
            Kernel::SaveInit(_) => "save.init",
            Kernel::SaveRegion { .. } => "save.region",
            Kernel::SaveCommit(_) => "save.commit",
            Kernel::Jit(_) => "jit",
            Kernel::Linalg { op, .. } => op.name(),
        }
    }

    /// Runs the kernel on its arguments.
    pub fn compute(&self, args: &[&ChunkValue]) -> Result<ChunkValue, ChunkError> {
        match self {
            Kernel::Jit(op) => Ok(crate::jit::run_jit(op, args)?),
            Kernel::ReduceMap { .. } | Kernel::ReduceCombine(_) => {
                self.reduce_state(args).map(ChunkValue::State)
            }
            Kernel::Load { .. }
            | Kernel::SaveInit(_)
            | Kernel::SaveRegion { .. }
            | Kernel::SaveCommit(_) => io::run_file_kernel(self, args),
            _ => self.array_result(args).map(ChunkValue::Array),
        }
    }

    fn reduce_state(&self, args: &[&ChunkValue]) -> Result<ReduceState, ChunkError> {
        match self {
            Kernel::ReduceMap { spec, offset } => reduce_map(
                spec.reduction,
                arg(args, 0)?,
                &spec.axes,
                &spec.input_shape,
                offset,
            )
            .map_err(ChunkError::from),
            Kernel::ReduceCombine(reduction) => {
                let parts = args
                    .iter()
                    .map(|value| value.state())
                    .collect::<Result<Vec<_>, _>>()?;
                reduce_combine(*reduction, &parts).map_err(ChunkError::from)
            }
            other => {
                Err(format!("internal error: {} is not a reduction step", other.name()).into())
            }
        }
    }

    fn array_result(&self, args: &[&ChunkValue]) -> Result<ArrayData, ChunkError> {
        match self {
            Kernel::Full { .. }
            | Kernel::Arange { .. }
            | Kernel::Linspace { .. }
            | Kernel::Eye { .. }
            | Kernel::Literal { .. }
            | Kernel::Random { .. } => self.creation().map_err(ChunkError::from),
            Kernel::Unary(op) => kernels::unary(*op, arg(args, 0)?).map_err(ChunkError::from),
            Kernel::Binary { op, common } => {
                kernels::binary(*op, *common, arg(args, 0)?, arg(args, 1)?)
                    .map_err(ChunkError::from)
            }
            Kernel::Where => kernels::where_(arg(args, 0)?, arg(args, 1)?, arg(args, 2)?)
                .map_err(ChunkError::from),
            Kernel::Cast(dtype) => Ok(kernels::cast(arg(args, 0)?, *dtype)),
            Kernel::Transpose(axes) => {
                shape::transpose(arg(args, 0)?, axes).map_err(ChunkError::from)
            }
            Kernel::ExpandDims(axes) => {
                shape::expand_dims(arg(args, 0)?, axes).map_err(ChunkError::from)
            }
            Kernel::Squeeze(axes) => shape::squeeze(arg(args, 0)?, axes).map_err(ChunkError::from),
            Kernel::BroadcastTo(to) => {
                shape::broadcast_to(arg(args, 0)?, to).map_err(ChunkError::from)
            }
            Kernel::Slice(items) => shape::slice(arg(args, 0)?, items).map_err(ChunkError::from),
            Kernel::Reshape(to) => shape::reshape(arg(args, 0)?, to).map_err(ChunkError::from),
            Kernel::Alias => Ok(one(args)?.array()?.clone()),
            Kernel::CountTrue => select::count_true(arg(args, 0)?).map_err(ChunkError::from),
            Kernel::Compress { axis, len } => {
                select::compress(arg(args, 0)?, arg(args, 1)?, *axis, *len)
                    .map_err(ChunkError::from)
            }
            Kernel::IndexBlocks { starts, len } => {
                select::index_blocks(arg(args, 0)?, starts, *len).map_err(ChunkError::from)
            }
            Kernel::Gather { axis, starts, len } => {
                let blocks = arrays(args.get(1..).unwrap_or_default())?;
                select::gather(arg(args, 0)?, &blocks, starts, *axis, *len)
                    .map_err(ChunkError::from)
            }
            Kernel::Sort {
                axis,
                arg: by_index,
                offset,
            } => sort::sort(arg(args, 0)?, *axis, *by_index, *offset).map_err(ChunkError::from),
            Kernel::Bucket {
                arg: by_index,
                offset,
            } => sort::bucket(arg(args, 0)?, arg(args, 1)?, *by_index, *offset)
                .map_err(ChunkError::from),
            Kernel::SearchSorted { right } => {
                sort::search_sorted(arg(args, 0)?, arg(args, 1)?, *right).map_err(ChunkError::from)
            }
            Kernel::MergeSorted { arg: by_index } => {
                let all = arrays(args)?;
                if *by_index {
                    let (values, indices) = all.split_at(all.len() / 2);
                    sort::merge_sorted(values, Some(indices)).map_err(ChunkError::from)
                } else {
                    sort::merge_sorted(&all, None).map_err(ChunkError::from)
                }
            }
            Kernel::BinCounts(binning) => {
                let weights = args.get(1).map(|w| w.array()).transpose()?;
                kernels::histogram::bin_counts(binning, arg(args, 0)?, weights)
                    .map_err(ChunkError::from)
            }
            Kernel::Scatter { axis, start, len } => {
                let rest = arrays(args.get(1..).unwrap_or_default())?;
                let pairs: Vec<(&ArrayData, &ArrayData)> =
                    rest.chunks_exact(2).map(|p| (p[0], p[1])).collect();
                if rest.len() % 2 != 0 {
                    return Err("internal error: a scatter's index has no values".into());
                }
                kernels::scatter::scatter(arg(args, 0)?, &pairs, *axis, *start, *len)
                    .map_err(ChunkError::from)
            }
            _ => self.combining(args),
        }
    }

    fn creation(&self) -> Result<ArrayData, KernelError> {
        match self {
            Kernel::Full { shape, value } => kernels::full(shape, *value),
            Kernel::Arange {
                start,
                step,
                offset,
                len,
            } => kernels::arange(*start, *step, *offset, *len),
            Kernel::Linspace {
                start,
                stop,
                num,
                endpoint,
                dtype,
                offset,
                len,
            } => kernels::linspace(*start, *stop, *num, *endpoint, *dtype, *offset, *len),
            Kernel::Eye {
                shape,
                row_offset,
                col_offset,
                k,
                dtype,
            } => kernels::eye(*shape, *row_offset, *col_offset, *k, *dtype),
            Kernel::Literal {
                spec,
                offset,
                shape,
            } => literal_region(spec, offset, shape),
            Kernel::Random {
                spec,
                offset,
                shape,
            } => random_chunk(
                spec.dist,
                spec.seed,
                spec.stream,
                &spec.shape,
                offset,
                shape,
            ),
            other => Err(KernelError(format!(
                "internal error: {} is not a creation kernel",
                other.name()
            ))),
        }
    }

    /// Kernels that combine chunks (reduction finish, scans, matmul, assembly);
    /// anything else reaching here is a planner bug.
    fn combining(&self, args: &[&ChunkValue]) -> Result<ArrayData, ChunkError> {
        match self {
            Kernel::ReduceFinish {
                reduction,
                keepdims,
            } => {
                reduce_finish(*reduction, one(args)?.state()?, *keepdims).map_err(ChunkError::from)
            }
            Kernel::ScanTotal { op, axis } => {
                scan::scan_total(*op, arg(args, 0)?, *axis).map_err(ChunkError::from)
            }
            Kernel::ScanCarry(op) => {
                let (previous, total) = match args {
                    [total] => (None, total.array()?),
                    [previous, total] => (Some(previous.array()?), total.array()?),
                    _ => return Err(arity_error("scan.carry", args.len())),
                };
                scan::scan_carry(*op, previous, total).map_err(ChunkError::from)
            }
            Kernel::ScanChunk { op, axis } => {
                let carry = match args {
                    [_] => None,
                    [_, carry] => Some(carry.array()?),
                    _ => return Err(arity_error("scan.chunk", args.len())),
                };
                scan::scan_chunk(*op, arg(args, 0)?, *axis, carry).map_err(ChunkError::from)
            }
            Kernel::MatMulBlock => matmul::matmul_blocks(&arrays(args)?).map_err(ChunkError::from),
            Kernel::SumBlocks => matmul::add_blocks(&arrays(args)?).map_err(ChunkError::from),
            Kernel::Linalg { op, index } => {
                kernels::linalg::linalg(*op, *index, &arrays(args)?).map_err(ChunkError::from)
            }
            Kernel::Assemble { shape, pieces } => {
                assemble::assemble(shape, pieces, &arrays(args)?).map_err(ChunkError::from)
            }
            other => Err(format!(
                "internal error: the {} kernel does not produce data",
                other.name()
            )
            .into()),
        }
    }
}

impl ChunkKernel for Kernel {
    type Value = ChunkValue;
    type Error = ChunkError;

    fn run(&self, args: &[&ChunkValue]) -> Result<ChunkValue, ChunkError> {
        self.compute(args)
    }

    /// A save's steps share its writer's state (the temporary file it created),
    /// which lives in one process.
    fn runs_at_home(&self) -> bool {
        match self {
            Kernel::SaveInit(_) | Kernel::SaveRegion { .. } | Kernel::SaveCommit(_) => true,
            Kernel::Jit(op) => op.sink.is_some(),
            _ => false,
        }
    }

    fn nbytes(value: &ChunkValue) -> usize {
        match value {
            ChunkValue::Array(data) => data.nbytes(),
            ChunkValue::State(state) => state.nbytes(),
            ChunkValue::Done => 0,
        }
    }

    fn spill(value: &ChunkValue, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match value {
            ChunkValue::Array(data) => {
                out.write_all(&[SPILLED_ARRAY])?;
                write_array(data, out)
            }
            ChunkValue::State(state) => {
                out.write_all(&[SPILLED_STATE])?;
                write_state(state, out)
            }
            ChunkValue::Done => out.write_all(&[SPILLED_DONE]),
        }
    }

    fn unspill(input: &mut dyn std::io::Read) -> std::io::Result<ChunkValue> {
        let mut kind = [0u8; 1];
        input.read_exact(&mut kind)?;
        match kind[0] {
            SPILLED_ARRAY => read_array(input).map(ChunkValue::Array),
            SPILLED_STATE => read_state(input).map(ChunkValue::State),
            SPILLED_DONE => Ok(ChunkValue::Done),
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "unknown kind of spilled chunk",
            )),
        }
    }
}

/// The first byte of a spilled [`ChunkValue`], saying which kind follows.
const SPILLED_ARRAY: u8 = 0;
const SPILLED_STATE: u8 = 1;
const SPILLED_DONE: u8 = 2;

fn arity_error(kernel: &str, count: usize) -> ChunkError {
    ChunkError::Internal(format!("internal error: {kernel} got {count} arguments"))
}

/// Argument `index` as data.
fn arg<'a>(args: &[&'a ChunkValue], index: usize) -> Result<&'a ArrayData, ChunkError> {
    Ok(args
        .get(index)
        .ok_or_else(|| format!("internal error: missing argument {index}"))?
        .array()?)
}

fn one<'a>(args: &[&'a ChunkValue]) -> Result<&'a ChunkValue, ChunkError> {
    match args {
        [only] => Ok(only),
        _ => Err(arity_error("a one-argument kernel", args.len())),
    }
}

fn arrays<'a>(args: &[&'a ChunkValue]) -> Result<Vec<&'a ArrayData>, ChunkError> {
    args.iter()
        .map(|value| value.array().map_err(ChunkError::from))
        .collect()
}

/// The values of a literal in the chunk of `shape` at `offset`, in C order.
fn literal_region(
    spec: &LiteralSpec,
    offset: &[usize],
    shape: &[usize],
) -> Result<ArrayData, KernelError> {
    let whole: usize = spec.shape.iter().product();
    let inside = offset.len() == spec.shape.len()
        && shape.len() == spec.shape.len()
        && (0..shape.len()).all(|axis| offset[axis] + shape[axis] <= spec.shape[axis]);
    if spec.values.len() != whole || !inside {
        return Err(KernelError(format!(
            "internal error: the chunk {shape:?} at {offset:?} of a literal of shape {:?} \
             with {} values",
            spec.shape,
            spec.values.len()
        )));
    }
    let mut picked = Vec::with_capacity(shape.iter().product());
    assemble::for_each_run(&spec.shape, offset, shape, |start, len| {
        picked.extend_from_slice(&spec.values[start..start + len]);
    });
    kernels::literal(shape, &picked, spec.dtype)
}

#[cfg(test)]
mod tests;
