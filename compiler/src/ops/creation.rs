//! The creation ops (`full`, `arange`, `linspace`, `eye`, literals, random, `load`,
//! cached tensors): no inputs, and each chunk computes its own elements from its
//! global offset, so random values, `arange` steps and file regions never depend on
//! the chunking. Declared once here: the TileableGraph holds one as
//! [`TileOp::Create`](crate::tileable::TileOp::Create), tiling hands the same value
//! to every chunk of its step as [`ChunkOp::Create`](crate::chunk::ChunkOp::Create),
//! and everything a pass asks of a creation op is answered below:
//!
//! - names and dump parameters: [`Creation::name`] (the chunk dump's and the key's),
//!   [`Creation::tile_name`], [`Creation::tile_parameters`],
//!   [`Creation::chunk_parameters`];
//! - the content key: [`Creation::write_key`], [`Creation::own_key`];
//! - verification: [`Creation::verify`] (shape and dtype);
//! - run-time behaviour: [`Creation::may_fail`], [`Creation::fusion_class`],
//!   [`Creation::c_contiguous`];
//! - one chunk's runtime kernel: [`Creation::chunk_kernel`], through the planner's
//!   [`ChunkSite`].

use super::{expect_dtype, FusionClass};
use crate::error::{InternalError, Violation};
use marsc_runtime::chunk_kernel::{Kernel, LiteralSpec, LoadSpec, RandomSpec};
use marsc_runtime::kernels::cast_scalar;
use marsc_runtime::plan::ChunkId;
use marsc_runtime::random::RandomDist;
use marsc_runtime::storage::{KeySink, ReaderRef, SharedReaders, StoreRef};
use marsc_runtime::{DType, Scalar};
use std::sync::Arc;

/// One creation op with its parameters (the same in both IRs).
#[derive(Clone, Debug, PartialEq)]
pub enum Creation {
    /// Every element equal to the value (`ones`, `zeros`, `full`, `empty`, and Python
    /// scalars used as operands, which become 0-d `Full` nodes). Value has the node's dtype.
    Full(Scalar),
    /// `arange`: element i (global index along axis 0) is `start + i * delta` in the
    /// node's dtype, where (as NumPy computes it) `delta = (start + step) - start`.
    /// `start`/`step` have the node's dtype.
    Arange { start: Scalar, step: Scalar },
    /// `linspace` (NumPy's algorithm: `step = (stop - start) / div`, element
    /// `start + i * step`, the last element set to `stop` when `endpoint`); each
    /// chunk computes its own elements.
    Linspace {
        start: f64,
        stop: f64,
        num: usize,
        endpoint: bool,
    },
    /// `eye(N, M, k)`: ones on the k-th diagonal of a 2-D tensor; a chunk's row and
    /// column offsets place it.
    Eye { k: i64 },
    /// `tensor([...])`: literal data for the whole tensor in C order, each value of
    /// the node's dtype; a chunk takes its region.
    Literal(Arc<[Scalar]>),
    /// `random.*`: counter-based, the element with global flat index i is a function
    /// of (seed, stream, i).
    Random {
        dist: RandomDist,
        seed: u64,
        stream: u64,
    },
    /// `load(path)`: data from a store opened at compile time (its metadata is the
    /// node's shape and dtype; how it is read is the store's own); a chunk reads its
    /// region.
    Load { source: StoreRef },
    /// A tensor an earlier stage or REPL input computed, whose chunks are all in the
    /// session's cache under the step key `key` (staged execution cuts the history
    /// behind it: nothing before it is tiled or planned again). Its chunks are never
    /// computed, only handed in.
    Cached { key: u64 },
}

/// Most literals are short; longer ones are elided so dumps stay one line per node.
const LITERAL_SHOWN: usize = 8;

impl Creation {
    /// The short name in the chunk dump, and the name its step key starts with.
    pub fn name(&self) -> &'static str {
        match self {
            Creation::Full(_) => "full",
            Creation::Arange { .. } => "arange",
            Creation::Linspace { .. } => "linspace",
            Creation::Eye { .. } => "eye",
            Creation::Literal(_) => "literal",
            Creation::Random { .. } => "random",
            Creation::Load { .. } => "load",
            Creation::Cached { .. } => "cached",
        }
    }

    /// The name in the tileable dump: [`Creation::name`], except that a random op
    /// names its function (`random.normal`).
    pub fn tile_name(&self) -> String {
        match self {
            Creation::Random { dist, .. } => format!("random.{}", random_name(dist)),
            _ => self.name().into(),
        }
    }

    /// The parameters in the tileable dump, as `name=value` texts in a fixed order
    /// (a literal shows its first values).
    pub fn tile_parameters(&self) -> Vec<String> {
        match self {
            Creation::Literal(values) => {
                let mut shown: Vec<String> = values
                    .iter()
                    .take(LITERAL_SHOWN)
                    .map(|v| v.to_string())
                    .collect();
                if values.len() > LITERAL_SHOWN {
                    shown.push(format!("... {} values", values.len()));
                }
                vec![format!("[{}]", shown.join(", "))]
            }
            Creation::Random { dist, seed, stream } => {
                let mut parameters = match dist {
                    RandomDist::Uniform01 | RandomDist::StandardNormal => vec![],
                    RandomDist::Uniform { low, high } => {
                        vec![format!("low={low:?}"), format!("high={high:?}")]
                    }
                    RandomDist::Normal { loc, scale } => {
                        vec![format!("loc={loc:?}"), format!("scale={scale:?}")]
                    }
                    RandomDist::Randint { low, high } => {
                        vec![format!("low={low}"), format!("high={high}")]
                    }
                    RandomDist::Gamma { shape, scale } => {
                        vec![format!("shape={shape:?}"), format!("scale={scale:?}")]
                    }
                    RandomDist::Beta { a, b } => vec![format!("a={a:?}"), format!("b={b:?}")],
                    RandomDist::Poisson { lam } => vec![format!("lam={lam:?}")],
                    RandomDist::Binomial { n, p } => vec![format!("n={n}"), format!("p={p:?}")],
                };
                parameters.push(format!("seed={seed}"));
                parameters.push(format!("stream={stream}"));
                parameters
            }
            _ => self.common_parameters(),
        }
    }

    /// The parameters in the chunk dump (a literal shows its length, a random op its
    /// distribution).
    pub fn chunk_parameters(&self) -> Vec<String> {
        match self {
            Creation::Literal(values) => vec![format!("{} values", values.len())],
            Creation::Random { dist, seed, stream } => vec![
                format!("dist={}", random_text(dist)),
                format!("seed={seed}"),
                format!("stream={stream}"),
            ],
            _ => self.common_parameters(),
        }
    }

    /// The parameters both dumps show alike.
    fn common_parameters(&self) -> Vec<String> {
        match self {
            Creation::Full(value) => vec![format!("value={value}")],
            Creation::Arange { start, step } => {
                vec![format!("start={start}"), format!("step={step}")]
            }
            Creation::Linspace {
                start,
                stop,
                num,
                endpoint,
            } => vec![
                format!("start={start:?}"),
                format!("stop={stop:?}"),
                format!("num={num}"),
                format!("endpoint={}", if *endpoint { "True" } else { "False" }),
            ],
            Creation::Eye { k } => vec![format!("k={k}")],
            Creation::Load { source } => source.dump_parameters(),
            Creation::Cached { key } => vec![format!("key={key:016x}")],
            Creation::Literal(_) | Creation::Random { .. } => vec![],
        }
    }

    /// Writes the op's parameters into its step's content key (`chunk/key.rs`
    /// writes the name before them, then the dtype, layout and inputs' keys).
    pub fn write_key(&self, key: &mut dyn KeySink) {
        match self {
            Creation::Full(value) => write_scalar(key, *value),
            Creation::Arange { start, step } => {
                write_scalar(key, *start);
                write_scalar(key, *step);
            }
            Creation::Linspace {
                start,
                stop,
                num,
                endpoint,
            } => {
                key.u64(start.to_bits());
                key.u64(stop.to_bits());
                key.u64(*num as u64);
                key.tag(*endpoint as u8);
            }
            Creation::Eye { k } => key.u64(*k as u64),
            Creation::Literal(values) => {
                key.u64(values.len() as u64);
                for value in values.iter() {
                    write_scalar(key, *value);
                }
            }
            Creation::Random { dist, seed, stream } => {
                write_random(key, *dist);
                key.u64(*seed);
                key.u64(*stream);
            }
            Creation::Load { source } => source.write_key(key),
            Creation::Cached { key: cached } => key.u64(*cached),
        }
    }

    /// The step key the op's chunks keep instead of one computed from their
    /// contents: a cached tensor's is the key its chunks are cached under.
    pub fn own_key(&self) -> Option<u64> {
        match self {
            Creation::Cached { key } => Some(*key),
            _ => None,
        }
    }

    /// Checks a node of this op against its `shape` and `dtype` (the TileableGraph
    /// verifier's rules: shape first, then dtype).
    pub fn verify(&self, shape: &[usize], dtype: DType) -> Result<(), Violation> {
        match self {
            Creation::Arange { .. } if shape.len() != 1 => return Err("arange is not 1-D".into()),
            Creation::Linspace { num, .. } if shape != [*num] => {
                return Err(format!("shape {shape:?}, expected {:?}", [*num]).into())
            }
            Creation::Eye { .. } if shape.len() != 2 => return Err("eye is not 2-D".into()),
            Creation::Literal(values) => {
                let size: usize = shape.iter().product();
                if values.len() != size {
                    return Err(
                        format!("{} literal values for {size} elements", values.len()).into(),
                    );
                }
            }
            _ => {}
        }
        let scalar = |s: &Scalar| expect_dtype("a constant", s.dtype(), dtype);
        match self {
            Creation::Full(value) => scalar(value),
            Creation::Arange { start, step } => scalar(start).and(scalar(step)),
            Creation::Literal(values) => values.iter().try_for_each(scalar),
            Creation::Linspace { .. } => expect_dtype("linspace", dtype, DType::Float64),
            Creation::Random { dist, .. } => expect_dtype("a random tensor", dtype, dist.dtype()),
            Creation::Eye { .. } | Creation::Load { .. } | Creation::Cached { .. } => Ok(()),
        }
    }

    /// Whether a chunk of it can fail on valid input when it runs (`dtype` is its
    /// step's): a load whose reads can fail, a boolean `arange` (NumPy's error past
    /// two elements).
    pub fn may_fail(&self, dtype: DType) -> bool {
        match self {
            Creation::Load { source } => !source.reads_cannot_fail(),
            Creation::Arange { .. } => dtype.is_bool(),
            _ => false,
        }
    }

    /// A creation op is a leaf: it neither contracts nor gathers.
    pub fn fusion_class(&self) -> FusionClass {
        FusionClass::Plain
    }

    /// Whether NumPy's array for it is C-contiguous (a loaded one is when its store
    /// says so; a cached tensor was computed, so it is).
    pub fn c_contiguous(&self) -> bool {
        match self {
            Creation::Load { source } => source.metadata().c_contiguous,
            _ => true,
        }
    }

    /// The runtime kernel computing one chunk, placed by its global offset (the
    /// planner's `plan/kernel.rs` asks once per chunk); an internal error for a
    /// cached tensor (its chunks are handed in, never computed) or an `eye` chunk
    /// that is not 2-D.
    pub fn chunk_kernel(&self, site: &mut dyn ChunkSite) -> Result<Kernel, InternalError> {
        let dtype = site.dtype();
        Ok(match self {
            Creation::Full(value) => Kernel::Full {
                shape: site.shape(),
                value: in_dtype(*value, dtype),
            },
            Creation::Arange { start, step } => {
                let (offset, len) = site.first_axis();
                Kernel::Arange {
                    start: in_dtype(*start, dtype),
                    step: in_dtype(*step, dtype),
                    offset,
                    len,
                }
            }
            Creation::Linspace {
                start,
                stop,
                num,
                endpoint,
            } => {
                let (offset, len) = site.first_axis();
                Kernel::Linspace {
                    start: *start,
                    stop: *stop,
                    num: *num,
                    endpoint: *endpoint,
                    dtype,
                    offset,
                    len,
                }
            }
            Creation::Eye { k } => {
                let (offset, shape) = (site.offset(), site.shape());
                match (offset.as_slice(), shape.as_slice()) {
                    (&[row_offset, col_offset], &[rows, cols]) => Kernel::Eye {
                        shape: [rows, cols],
                        row_offset,
                        col_offset,
                        k: *k,
                        dtype,
                    },
                    _ => {
                        return Err(InternalError::new(
                            "plan",
                            format!("internal error: eye chunk {} is not 2-D", site.chunk()),
                        ))
                    }
                }
            }
            Creation::Literal(values) => {
                if site.shared().literal.is_none() {
                    let spec = LiteralSpec {
                        values: values.clone(),
                        dtype,
                        shape: site.tensor_shape().to_vec(),
                    };
                    site.shared().literal = Some(Arc::new(spec));
                }
                Kernel::Literal {
                    spec: site.shared().literal.clone().expect("built above"),
                    offset: site.offset(),
                    shape: site.shape(),
                }
            }
            Creation::Random { dist, seed, stream } => {
                if site.shared().random.is_none() {
                    let spec = RandomSpec {
                        dist: *dist,
                        seed: *seed,
                        stream: *stream,
                        shape: site.tensor_shape().to_vec(),
                    };
                    site.shared().random = Some(Arc::new(spec));
                }
                Kernel::Random {
                    spec: site.shared().random.clone().expect("built above"),
                    offset: site.offset(),
                    shape: site.shape(),
                }
            }
            Creation::Load { source } => {
                if site.shared().load.is_none() {
                    let label = site.tileable();
                    let reader = source.reader(label, site.readers());
                    let spec = LoadSpec {
                        store: source.clone(),
                        reader: ReaderRef(reader),
                    };
                    site.shared().load = Some(Arc::new(spec));
                }
                Kernel::Load {
                    spec: site.shared().load.clone().expect("built above"),
                    offset: site.offset(),
                    shape: site.shape(),
                }
            }
            Creation::Cached { .. } => {
                return Err(InternalError::new(
                    "plan",
                    format!(
                        "chunk {} of a cached tensor is not in the session's cache",
                        site.chunk().0
                    ),
                ))
            }
        })
    }
}

/// One chunk of a creation step as the planner sees it (`plan/kernel.rs`
/// implements it): where the chunk lies, and what every chunk of its step shares.
pub trait ChunkSite {
    /// The chunk (for error messages).
    fn chunk(&self) -> ChunkId;
    /// The step's dtype.
    fn dtype(&self) -> DType;
    /// The whole tensor's shape.
    fn tensor_shape(&self) -> &[usize];
    /// The step's tileable (a store's readers are labelled with it).
    fn tileable(&self) -> u32;
    /// The chunk's offset in the whole tensor.
    fn offset(&mut self) -> Vec<usize>;
    /// The chunk's shape.
    fn shape(&mut self) -> Vec<usize>;
    /// The offset and length of a 1-D chunk along axis 0 (`(0, 1)` for a 0-d one).
    fn first_axis(&mut self) -> (usize, usize);
    /// What the step's chunks share, built by its first chunk.
    fn shared(&mut self) -> &mut CreationShared;
    /// The readers every load of a store shares during one run.
    fn readers(&mut self) -> &mut SharedReaders;
}

/// What every chunk of one creation step shares (its parameters, built once per
/// step and handed to each chunk's kernel through an `Arc`).
#[derive(Default)]
pub struct CreationShared {
    literal: Option<Arc<LiteralSpec>>,
    random: Option<Arc<RandomSpec>>,
    load: Option<Arc<LoadSpec>>,
}

/// The value as a constant of `dtype`.
fn in_dtype(value: Scalar, dtype: DType) -> Scalar {
    if value.dtype() == dtype {
        value
    } else {
        cast_scalar(value, dtype)
    }
}

/// The name of a random function (`random.normal`'s `normal`).
fn random_name(dist: &RandomDist) -> &'static str {
    match dist {
        RandomDist::Uniform01 => "random",
        RandomDist::Uniform { .. } => "uniform",
        RandomDist::StandardNormal => "randn",
        RandomDist::Normal { .. } => "normal",
        RandomDist::Randint { .. } => "randint",
        RandomDist::Gamma { .. } => "gamma",
        RandomDist::Beta { .. } => "beta",
        RandomDist::Poisson { .. } => "poisson",
        RandomDist::Binomial { .. } => "binomial",
    }
}

/// A distribution with its parameters, as the chunk dump shows it.
fn random_text(dist: &RandomDist) -> String {
    match dist {
        RandomDist::Uniform01 => "uniform01".into(),
        RandomDist::Uniform { low, high } => format!("uniform({low:?}, {high:?})"),
        RandomDist::StandardNormal => "standard_normal".into(),
        RandomDist::Normal { loc, scale } => format!("normal({loc:?}, {scale:?})"),
        RandomDist::Randint { low, high } => format!("randint({low}, {high})"),
        RandomDist::Gamma { shape, scale } => format!("gamma({shape:?}, {scale:?})"),
        RandomDist::Beta { a, b } => format!("beta({a:?}, {b:?})"),
        RandomDist::Poisson { lam } => format!("poisson({lam:?})"),
        RandomDist::Binomial { n, p } => format!("binomial({n}, {p:?})"),
    }
}

/// A constant in the key's encoding: its dtype's code, then its value's bits.
fn write_scalar(key: &mut dyn KeySink, value: Scalar) {
    key.tag(value.dtype().code());
    match value {
        Scalar::Bool(v) => key.tag(v as u8),
        Scalar::Float16(v) => key.u64(v.to_bits().into()),
        Scalar::Float32(v) => key.u64(v.to_bits().into()),
        Scalar::Float64(v) => key.u64(v.to_bits()),
        Scalar::Complex64(v) => {
            key.u64(v.re().to_bits().into());
            key.u64(v.im().to_bits().into());
        }
        Scalar::Complex128(v) => {
            key.u64(v.re().to_bits());
            key.u64(v.im().to_bits());
        }
        // The dtype is written above, so the value's bits are enough.
        int => key.u64(marsc_runtime::jit::leaves::scalar_bits(int)),
    }
}

/// A distribution in the key's encoding: a tag per kind, then its parameters.
fn write_random(key: &mut dyn KeySink, dist: RandomDist) {
    let f64 = |key: &mut dyn KeySink, value: f64| key.u64(value.to_bits());
    match dist {
        RandomDist::Uniform01 => key.tag(0),
        RandomDist::Uniform { low, high } => {
            key.tag(1);
            f64(key, low);
            f64(key, high);
        }
        RandomDist::StandardNormal => key.tag(2),
        RandomDist::Normal { loc, scale } => {
            key.tag(3);
            f64(key, loc);
            f64(key, scale);
        }
        RandomDist::Randint { low, high } => {
            key.tag(4);
            key.u64(low as u64);
            key.u64(high as u64);
        }
        RandomDist::Gamma { shape, scale } => {
            key.tag(5);
            f64(key, shape);
            f64(key, scale);
        }
        RandomDist::Beta { a, b } => {
            key.tag(6);
            f64(key, a);
            f64(key, b);
        }
        RandomDist::Poisson { lam } => {
            key.tag(7);
            f64(key, lam);
        }
        RandomDist::Binomial { n, p } => {
            key.tag(8);
            key.u64(n as u64);
            f64(key, p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk of a 2-D step with chunks of (2, 3), at grid position `at`.
    struct Site {
        shape: Vec<usize>,
        at: Vec<usize>,
        dtype: DType,
        shared: CreationShared,
        readers: SharedReaders,
    }

    impl Site {
        fn new(shape: &[usize], dtype: DType) -> Site {
            Site {
                shape: shape.to_vec(),
                at: vec![0; shape.len()],
                dtype,
                shared: CreationShared::default(),
                readers: SharedReaders::default(),
            }
        }
    }

    const CHUNK: [usize; 2] = [2, 3];

    impl ChunkSite for Site {
        fn chunk(&self) -> ChunkId {
            ChunkId(7)
        }
        fn dtype(&self) -> DType {
            self.dtype
        }
        fn tensor_shape(&self) -> &[usize] {
            &self.shape
        }
        fn tileable(&self) -> u32 {
            0
        }
        fn offset(&mut self) -> Vec<usize> {
            (self.at.iter().zip(CHUNK)).map(|(p, c)| p * c).collect()
        }
        fn shape(&mut self) -> Vec<usize> {
            CHUNK[..self.shape.len()].to_vec()
        }
        fn first_axis(&mut self) -> (usize, usize) {
            (self.at[0] * CHUNK[0], CHUNK[0])
        }
        fn shared(&mut self) -> &mut CreationShared {
            &mut self.shared
        }
        fn readers(&mut self) -> &mut SharedReaders {
            &mut self.readers
        }
    }

    #[test]
    fn names_in_both_dumps() {
        let random = Creation::Random {
            dist: RandomDist::Normal {
                loc: 0.0,
                scale: 2.0,
            },
            seed: 3,
            stream: 1,
        };
        assert_eq!(random.name(), "random");
        assert_eq!(random.tile_name(), "random.normal");
        assert_eq!(
            random.tile_parameters(),
            ["loc=0.0", "scale=2.0", "seed=3", "stream=1"]
        );
        assert_eq!(
            random.chunk_parameters(),
            ["dist=normal(0.0, 2.0)", "seed=3", "stream=1"]
        );
        let literal = Creation::Literal((0..10).map(Scalar::Int64).collect());
        assert_eq!(literal.tile_name(), "literal");
        assert_eq!(
            literal.tile_parameters(),
            ["[0i64, 1i64, 2i64, 3i64, 4i64, 5i64, 6i64, 7i64, ... 10 values]"]
        );
        assert_eq!(literal.chunk_parameters(), ["10 values"]);
        let linspace = Creation::Linspace {
            start: 0.0,
            stop: 1.0,
            num: 5,
            endpoint: false,
        };
        let text = ["start=0.0", "stop=1.0", "num=5", "endpoint=False"];
        assert_eq!(linspace.tile_parameters(), text);
        assert_eq!(linspace.chunk_parameters(), text);
    }

    #[test]
    fn verify_checks_shape_before_dtype() {
        let arange = Creation::Arange {
            start: Scalar::Int64(0),
            step: Scalar::Int64(1),
        };
        assert_eq!(arange.verify(&[4], DType::Int64), Ok(()));
        assert_eq!(
            arange.verify(&[2, 2], DType::Float64),
            Err("arange is not 1-D".into())
        );
        assert_eq!(
            arange.verify(&[4], DType::Float64),
            Err("a constant is int64, expected float64".into())
        );
        let literal = Creation::Literal(Arc::from([Scalar::Bool(true)]));
        assert_eq!(
            literal.verify(&[2], DType::Bool),
            Err("1 literal values for 2 elements".into())
        );
        let linspace = Creation::Linspace {
            start: 0.0,
            stop: 1.0,
            num: 3,
            endpoint: true,
        };
        assert_eq!(
            linspace.verify(&[4], DType::Float64),
            Err("shape [4], expected [3]".into())
        );
        let random = Creation::Random {
            dist: RandomDist::Uniform01,
            seed: 0,
            stream: 0,
        };
        assert_eq!(
            random.verify(&[3], DType::Int64),
            Err("a random tensor is int64, expected float64".into())
        );
    }

    #[test]
    fn only_a_boolean_arange_may_fail_of_the_computed_ops() {
        let arange = Creation::Arange {
            start: Scalar::Bool(false),
            step: Scalar::Bool(true),
        };
        assert!(arange.may_fail(DType::Bool));
        assert!(!arange.may_fail(DType::Int64));
        assert!(!Creation::Eye { k: 1 }.may_fail(DType::Float64));
        assert_eq!(arange.fusion_class(), FusionClass::Plain);
    }

    #[test]
    fn a_chunk_is_placed_by_its_offset() {
        let mut site = Site::new(&[4, 6], DType::Float32);
        site.at = vec![1, 1];
        let full = Creation::Full(Scalar::Float64(2.0));
        assert_eq!(
            full.chunk_kernel(&mut site),
            Ok(Kernel::Full {
                shape: vec![2, 3],
                value: Scalar::Float32(2.0),
            })
        );
        assert_eq!(
            Creation::Eye { k: -1 }.chunk_kernel(&mut site),
            Ok(Kernel::Eye {
                shape: [2, 3],
                row_offset: 2,
                col_offset: 3,
                k: -1,
                dtype: DType::Float32,
            })
        );
        let mut line = Site::new(&[6], DType::Int64);
        line.at = vec![2];
        let arange = Creation::Arange {
            start: Scalar::Int64(5),
            step: Scalar::Int64(-1),
        };
        assert_eq!(
            arange.chunk_kernel(&mut line),
            Ok(Kernel::Arange {
                start: Scalar::Int64(5),
                step: Scalar::Int64(-1),
                offset: 4,
                len: 2,
            })
        );
        assert_eq!(
            Creation::Eye { k: 0 }.chunk_kernel(&mut line),
            Err(InternalError::new(
                "plan",
                "internal error: eye chunk c7 is not 2-D"
            ))
        );
        assert_eq!(
            Creation::Cached { key: 1 }.chunk_kernel(&mut line),
            Err(InternalError::new(
                "plan",
                "chunk 7 of a cached tensor is not in the session's cache"
            ))
        );
    }

    #[test]
    fn the_chunks_of_a_step_share_its_spec() {
        let mut site = Site::new(&[4, 6], DType::Int64);
        let literal = Creation::Literal((0..24).map(Scalar::Int64).collect());
        let first = literal.chunk_kernel(&mut site).unwrap();
        site.at = vec![1, 0];
        let second = literal.chunk_kernel(&mut site).unwrap();
        let (
            Kernel::Literal {
                spec: a, offset: o, ..
            },
            Kernel::Literal {
                spec: b,
                offset: p,
                shape,
            },
        ) = (first, second)
        else {
            panic!("not literal kernels");
        };
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.shape, [4, 6]);
        assert_eq!((o, p, shape), (vec![0, 0], vec![2, 0], vec![2, 3]));
    }

    /// Keys of different parameters differ; equal ops write equal bytes.
    #[test]
    fn keys_tell_parameters_apart() {
        let key = |op: Creation| {
            let mut bytes = super::super::KeyBytes::default();
            op.write_key(&mut bytes);
            bytes.0
        };
        let ops = [
            Creation::Full(Scalar::Float64(1.0)),
            Creation::Full(Scalar::Float32(1.0)),
            Creation::Full(Scalar::Int64(1)),
            Creation::Eye { k: 1 },
            Creation::Eye { k: -1 },
            Creation::Random {
                dist: RandomDist::Randint { low: 0, high: 5 },
                seed: 1,
                stream: 2,
            },
            Creation::Random {
                dist: RandomDist::Randint { low: 0, high: 6 },
                seed: 1,
                stream: 2,
            },
        ];
        for (i, a) in ops.iter().enumerate() {
            assert_eq!(key(a.clone()), key(a.clone()));
            for b in &ops[i + 1..] {
                assert_ne!(key(a.clone()), key(b.clone()), "{a:?} and {b:?}");
            }
        }
        // A float64 constant: its dtype's code, then its bits.
        let mut expected = vec![DType::Float64.code()];
        expected.extend(1.0f64.to_bits().to_le_bytes());
        assert_eq!(key(Creation::Full(Scalar::Float64(1.0))), expected);
    }
}
