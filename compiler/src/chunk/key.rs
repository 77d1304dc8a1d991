//! Stable keys. A step's key is an xxh3-64 hash of its operation, parameters, dtype,
//! layout and its input steps' keys, written field by field in a fixed little-endian
//! encoding, so the same script gives the same keys on every machine and every run
//! (Rust's `Hash` is neither stable across releases nor defined for floats). A
//! chunk's key is its step's key plus its index, as MEP 0002 suggests: keys are
//! computed once per step, never per chunk. Keys name values, not positions in the
//! graph: two steps computing the same thing from the same inputs (`x + 1` written
//! twice) get the same key, so a later pass may share their chunks.

use super::{ChunkOp, Layout};
use crate::tileable::IndexItem;
use marsc_runtime::kernels::histogram::{Binning, Edges, SingleDenom};
use marsc_runtime::storage::KeySink;
use marsc_runtime::DType;
use std::fmt;
use std::path::Path;
use xxhash_rust::xxh3::Xxh3;

/// The key of one chunk: its step's key and its index in the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChunkKey {
    pub step: u64,
    pub index: u32,
}

impl fmt::Display for ChunkKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}-{}", self.step, self.index)
    }
}

/// Writes values into an xxh3 state in a fixed encoding.
struct KeyHasher(Xxh3);

/// A store writes its identity (see `marsc_runtime::storage::Store::write_key`)
/// with the hasher's own encoding.
impl KeySink for KeyHasher {
    fn path(&mut self, path: &Path) {
        KeyHasher::path(self, path);
    }

    fn u64(&mut self, value: u64) {
        KeyHasher::u64(self, value);
    }

    fn tag(&mut self, tag: u8) {
        KeyHasher::tag(self, tag);
    }
}

impl KeyHasher {
    fn u64(&mut self, value: u64) {
        self.0.update(&value.to_le_bytes());
    }

    fn usize(&mut self, value: usize) {
        self.u64(value as u64);
    }

    fn i64(&mut self, value: i64) {
        self.0.update(&value.to_le_bytes());
    }

    fn f64(&mut self, value: f64) {
        self.u64(value.to_bits());
    }

    fn tag(&mut self, tag: u8) {
        self.0.update(&[tag]);
    }

    fn usizes(&mut self, values: &[usize]) {
        self.usize(values.len());
        for &value in values {
            self.usize(value);
        }
    }

    fn path(&mut self, path: &Path) {
        let text = path.to_string_lossy();
        self.usize(text.len());
        self.0.update(text.as_bytes());
    }

    fn dtype(&mut self, dtype: DType) {
        self.tag(dtype.code());
    }

    fn binning(&mut self, binning: &Binning) {
        match binning {
            Binning::Integers { length } => {
                self.tag(0);
                self.usize(*length);
            }
            Binning::Uniform {
                first,
                last,
                denom,
                edges,
            } => {
                self.tag(1);
                for value in [*first, *last, *denom].iter().chain(edges.iter()) {
                    self.f64(*value);
                }
                self.usize(edges.len());
            }
            Binning::Edges(Edges::Int(edges)) => {
                self.tag(2);
                self.usize(edges.len());
                edges.iter().for_each(|&e| self.i64(e));
            }
            Binning::Edges(Edges::Float(edges)) => {
                self.tag(3);
                self.usize(edges.len());
                edges.iter().for_each(|&e| self.f64(e));
            }
            Binning::UniformSingle {
                first,
                last,
                denom,
                edges,
            } => {
                self.tag(4);
                self.u64(first.to_bits().into());
                self.u64(last.to_bits().into());
                match denom {
                    SingleDenom::Single(d) => {
                        self.tag(0);
                        self.u64(d.to_bits().into());
                    }
                    SingleDenom::Double(d) => {
                        self.tag(1);
                        self.f64(*d);
                    }
                }
                self.usize(edges.len());
                edges.iter().for_each(|&e| self.u64(e.to_bits().into()));
            }
        }
    }

    fn index_items(&mut self, items: &[IndexItem]) {
        self.usize(items.len());
        for item in items {
            match *item {
                IndexItem::Int(i) => {
                    self.tag(0);
                    self.usize(i);
                }
                IndexItem::Slice { start, step, len } => {
                    self.tag(1);
                    self.i64(start);
                    self.i64(step);
                    self.usize(len);
                }
                IndexItem::NewAxis => self.tag(2),
            }
        }
    }

    fn op(&mut self, op: &ChunkOp) {
        // The op's name distinguishes every variant (and unary/binary/scan kinds).
        let name = op.name();
        self.usize(name.len());
        self.0.update(name.as_bytes());
        match op {
            ChunkOp::Create(op) => op.write_key(self),
            ChunkOp::Elementwise(op) => op.write_key(self),
            ChunkOp::Reduce(stage) => stage.write_key(self),
            ChunkOp::MatMulBlock { partial } | ChunkOp::SumBlocks { partial } => {
                self.tag(*partial as u8)
            }
            ChunkOp::Shape(op) => op.write_key(self),
            ChunkOp::Slice { items } => self.index_items(items),
            ChunkOp::SaveInit {
                path,
                shape,
                format,
            } => {
                self.path(path);
                self.usizes(shape);
                format.write_key(self);
            }
            ChunkOp::SaveRegion { path } | ChunkOp::SaveCommit { path } => self.path(path),
            ChunkOp::Alias | ChunkOp::Assemble | ChunkOp::Corners | ChunkOp::CountTrue => {}
            ChunkOp::Compress { axis } | ChunkOp::Gather { axis } | ChunkOp::Scatter { axis } => {
                self.usize(*axis)
            }
            ChunkOp::IndexBlocks { splits } => self.usizes(splits),
            ChunkOp::Sort(stage) => stage.write_key(self),
            ChunkOp::BinCounts(binning) => self.binning(binning),
            ChunkOp::Linalg(_) => {}
        }
    }
}

/// The key of a step from everything that determines its chunks' values.
pub fn step_key(op: &ChunkOp, dtype: DType, layout: &Layout, input_keys: &[u64]) -> u64 {
    let mut hasher = KeyHasher(Xxh3::new());
    hasher.op(op);
    hasher.dtype(dtype);
    hasher.usize(layout.ndim());
    for splits in layout.nsplits() {
        hasher.usizes(splits);
    }
    hasher.usize(input_keys.len());
    for &key in input_keys {
        hasher.u64(key);
    }
    hasher.0.digest()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{Creation, ElementwiseOp};
    use marsc_runtime::ops::{BinaryOp, UnaryOp};
    use marsc_runtime::Scalar;

    #[test]
    fn keys_are_pinned() {
        // Pinned so an accidental change to the encoding (which would change every
        // key on every machine) is noticed.
        let layout = Layout::new(vec![vec![2, 2]]);
        let full = step_key(
            &ChunkOp::Create(Creation::Full(Scalar::Float64(1.0))),
            DType::Float64,
            &layout,
            &[],
        );
        assert_eq!(format!("{full:016x}"), "c06808b8724dfe5e");
        assert_eq!(
            full,
            step_key(
                &ChunkOp::Create(Creation::Full(Scalar::Float64(1.0))),
                DType::Float64,
                &layout,
                &[]
            )
        );
        let other = step_key(
            &ChunkOp::Create(Creation::Full(Scalar::Float64(2.0))),
            DType::Float64,
            &layout,
            &[],
        );
        assert_ne!(full, other);
        let neg = step_key(
            &ChunkOp::Elementwise(ElementwiseOp::Unary(UnaryOp::Negative)),
            DType::Float64,
            &layout,
            &[full],
        );
        let neg_other = step_key(
            &ChunkOp::Elementwise(ElementwiseOp::Unary(UnaryOp::Negative)),
            DType::Float64,
            &layout,
            &[other],
        );
        assert_ne!(neg, neg_other);
        let rechunked = Layout::new(vec![vec![4]]);
        assert_ne!(
            full,
            step_key(
                &ChunkOp::Create(Creation::Full(Scalar::Float64(1.0))),
                DType::Float64,
                &rechunked,
                &[]
            )
        );
    }

    /// The element-wise steps keep the keys they had as variants of their own
    /// (those of `tests/cases/chunk/ok/elementwise_mixed.mt`'s snapshot): the REPL's
    /// cache holds chunks by key.
    #[test]
    fn elementwise_keys_are_pinned() {
        let key = |op: ElementwiseOp, dtype: DType, nsplits: Vec<Vec<usize>>, inputs: &[u64]| {
            format!(
                "{:016x}",
                step_key(
                    &ChunkOp::Elementwise(op),
                    dtype,
                    &Layout::new(nsplits),
                    inputs
                )
            )
        };
        let add = ElementwiseOp::Binary {
            op: BinaryOp::Add,
            common: DType::Float64,
        };
        let pair: [u64; 2] = [0x7e759ce66340fd3c, 0x3cd795bf549bcafd];
        assert_eq!(
            key(add, DType::Float64, vec![vec![2, 1, 1]], &pair),
            "e5f6039b5ba4c3a2"
        );
        let grid = || vec![vec![1; 4], vec![2, 1, 1, 2]];
        assert_eq!(
            key(
                ElementwiseOp::Unary(UnaryOp::Sqrt),
                DType::Float64,
                grid(),
                &[0x35903fc7c850da43]
            ),
            "bdac7094ea742009"
        );
        let where_inputs: [u64; 3] = [0xaebbace4b8e9ae36, 0xb26f943431cdd78d, 0x852fc38dfe8f379d];
        assert_eq!(
            key(ElementwiseOp::Where, DType::Float64, grid(), &where_inputs),
            "58ef4c835e96efe9"
        );
        assert_eq!(
            key(
                ElementwiseOp::Cast,
                DType::Float32,
                grid(),
                &[0x58ef4c835e96efe9]
            ),
            "69302baad7c0565a"
        );
    }
}
