//! What flows between chunk kernels, and the step-wide parameters that the
//! interpreter's kernels ([`crate::chunk_kernel::Kernel`]) and the JIT's
//! ([`crate::jit::JitOp`]) read alike: a chunk's value ([`ChunkValue`]: data, a
//! partial reduction, or a finished save step), a literal's values, a random
//! tensor's parameters, a store being loaded, a reduction's axes, a save's file.
//!
//! It sits below both kinds of kernel, so that neither imports the other for these
//! (the JIT runs chunks and builds its ops from them; the interpreter's `Kernel`
//! holds a JIT op). Parameters shared by every chunk of a step are held in `Arc`s.

use crate::array::ArrayData;
use crate::dtype::DType;
use crate::kernels::reduce::ReduceState;
use crate::ops::Reduction;
use crate::random::RandomDist;
use crate::scalar::Scalar;
use crate::storage::{self, ReaderRef, SaveFormat, StoreError, StoreRef, StoreWriter, WritableNpy};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A value exchanged between chunk kernels.
#[derive(Clone, Debug, PartialEq)]
pub enum ChunkValue {
    /// A chunk of tensor data.
    Array(ArrayData),
    /// A partial reduction, merged by later reduction kernels.
    State(ReduceState),
    /// A step with an effect and no data (the parts of a `save`).
    Done,
}

impl ChunkValue {
    /// The data, or an error naming what was found instead (a planner bug).
    pub fn array(&self) -> Result<&ArrayData, WrongValue> {
        match self {
            ChunkValue::Array(data) => Ok(data),
            other => Err(WrongValue {
                expected: "chunk data",
                found: other.kind(),
            }),
        }
    }

    /// The reduction state, or an error naming what was found instead.
    pub fn state(&self) -> Result<&ReduceState, WrongValue> {
        match self {
            ChunkValue::State(state) => Ok(state),
            other => Err(WrongValue {
                expected: "a reduction state",
                found: other.kind(),
            }),
        }
    }

    /// What kind of value this is, as [`WrongValue`] names it.
    fn kind(&self) -> &'static str {
        match self {
            ChunkValue::Array(_) => "chunk data",
            ChunkValue::State(_) => "a reduction state",
            ChunkValue::Done => "a finished save step",
        }
    }
}

/// A chunk value of another kind than the operation reading it takes: a planner
/// bug, reported as an internal error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrongValue {
    pub expected: &'static str,
    pub found: &'static str,
}

impl fmt::Display for WrongValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "internal error: expected {}, got {}",
            self.expected, self.found
        )
    }
}

impl std::error::Error for WrongValue {}

/// A literal tensor's values, shared by its chunks.
#[derive(Clone, Debug, PartialEq)]
pub struct LiteralSpec {
    /// Every value of the tensor, in C order.
    pub values: Arc<[Scalar]>,
    pub dtype: DType,
    /// The whole tensor's shape.
    pub shape: Vec<usize>,
}

/// A random tensor's parameters, shared by its chunks.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomSpec {
    pub dist: RandomDist,
    pub seed: u64,
    pub stream: u64,
    /// The whole tensor's shape.
    pub shape: Vec<usize>,
}

/// A store being loaded, shared by its chunks.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadSpec {
    /// The store, opened at compile time (its metadata).
    pub store: StoreRef,
    /// This run's reader of it, which chunks read their regions from (a mapped
    /// file's is shared by every load of the file).
    pub reader: ReaderRef,
}

/// The step-wide parameters of a reduction's map chunks.
#[derive(Clone, Debug, PartialEq)]
pub struct ReduceSpec {
    pub reduction: Reduction,
    pub axes: Vec<usize>,
    /// The whole input tensor's shape (arg reductions report global indices).
    pub input_shape: Vec<usize>,
}

/// One `save(path, x)`: where it goes, what it holds, and the format's writer,
/// shared by the save's init, regions and commit.
pub struct SaveFile {
    /// The file the user named.
    pub path: PathBuf,
    pub dtype: DType,
    pub shape: Vec<usize>,
    writer: Box<dyn StoreWriter>,
}

impl SaveFile {
    /// The save of an array of `dtype` and `shape` to `path` (a `.npy` file).
    pub fn new(path: &Path, dtype: DType, shape: &[usize]) -> SaveFile {
        SaveFile::with_format(path, &SaveFormat::Npy, dtype, shape)
    }

    /// The save of an array of `dtype` and `shape` to `path` in `format`.
    pub fn with_format(
        path: &Path,
        format: &SaveFormat,
        dtype: DType,
        shape: &[usize],
    ) -> SaveFile {
        SaveFile {
            path: path.to_path_buf(),
            dtype,
            shape: shape.to_vec(),
            writer: storage::writer(path, format, dtype, shape),
        }
    }

    /// The temporary file, once the init has created it and until the commit.
    pub fn temporary(&self) -> Option<PathBuf> {
        self.writer.temporary()
    }

    /// Removes the temporary file, if there is one (a run that failed or stopped).
    pub fn remove_temporary(&self) {
        self.writer.abort();
    }

    /// Creates the save's temporary file (see [`StoreWriter::create`]).
    pub fn create(&self) -> Result<(), StoreError> {
        self.writer.create()
    }

    /// Writes `data` as the region at `offset`.
    pub fn write_region(&self, offset: &[usize], data: &ArrayData) -> Result<(), StoreError> {
        self.writer.write_region(offset, data)
    }

    /// Moves the complete temporary file over the target.
    pub fn commit(&self) -> Result<(), StoreError> {
        self.writer.commit()
    }

    /// The temporary file's element bytes, mapped writable in C order, once the
    /// init has made them (JIT kernels compute saved chunks straight into them).
    pub fn mapping(&self) -> Option<Arc<WritableNpy>> {
        self.writer.mapping()
    }

    /// An error about this save, naming the user's file.
    pub fn error(&self, message: String) -> String {
        self.writer.error(message)
    }
}

impl PartialEq for SaveFile {
    fn eq(&self, other: &SaveFile) -> bool {
        self.path == other.path
            && self.dtype == other.dtype
            && self.shape == other.shape
            && self.writer.same_as(&*other.writer)
    }
}

impl std::fmt::Debug for SaveFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.writer, f)
    }
}
