//! `random.*`: `seed(n)` sets the seed for the calls after it; every random tensor
//! gets `stream` = its call number in program order and `seed` = the current seed
//! (0 until a `seed()` call), so values are a pure function of the script.

use super::bind::{Arg, BoundArgs};
use super::convert::{float_arg, int_arg, shape_arg};
use super::dtype_args::dtype_arg;
use super::library::RandomKind;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::tileable::TileOp;
use marsc_grammar::Diagnostic;
use marsc_runtime::random::RandomDist;
use marsc_runtime::DType;

impl Lowerer<'_> {
    /// `random.seed(n)`.
    pub(super) fn seed(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let arg = args.get("seed");
        if arg.value == Value::None {
            return Err(Diagnostic::error(
                "not supported yet: `seed(None)` (a seed from the operating system)",
                arg.span,
            )
            .with_help("give an integer seed, e.g. `mt.random.seed(0)`"));
        }
        let seed = int_arg(&arg, "seed")?;
        if !(0..1 << 32).contains(&seed) {
            return Err(Diagnostic::error(
                "Seed must be between 0 and 2**32 - 1",
                arg.span,
            ));
        }
        self.seed = seed as u64;
        Ok(Value::None)
    }

    pub(super) fn random(&mut self, kind: RandomKind, args: &BoundArgs) -> LowerResult<Value> {
        let (dist, shape) = match kind {
            RandomKind::Rand | RandomKind::Randn => {
                let dims = args.get("dims");
                let shape = shape_arg(&dims, "dims")?;
                let dist = if kind == RandomKind::Rand {
                    RandomDist::Uniform01
                } else {
                    RandomDist::StandardNormal
                };
                (dist, shape)
            }
            RandomKind::Random => (RandomDist::Uniform01, size(&args.get("size"))?),
            RandomKind::Uniform => {
                let low = distribution_float(&args.get("low"), "low")?;
                let high = distribution_float(&args.get("high"), "high")?;
                // NumPy's `OverflowError`: values are `low + (high - low) * u`, so a
                // range that is not a finite float64 (or a NaN or infinite bound)
                // would give infinities or NaNs.
                if !(high - low).is_finite() {
                    return Err(
                        Diagnostic::error("Range exceeds valid bounds", args.call_span).with_help(
                            "`random.uniform` needs finite bounds whose difference \
                         `high - low` is a finite float64",
                        ),
                    );
                }
                (RandomDist::Uniform { low, high }, size(&args.get("size"))?)
            }
            RandomKind::Normal => {
                let loc = distribution_float(&args.get("loc"), "loc")?;
                let scale_arg = args.get("scale");
                let scale = distribution_float(&scale_arg, "scale")?;
                if scale < 0.0 {
                    return Err(Diagnostic::error("scale < 0", scale_arg.span));
                }
                (RandomDist::Normal { loc, scale }, size(&args.get("size"))?)
            }
            RandomKind::Randint => return self.randint(args),
        };
        let dtype = DType::Float64;
        self.add_random(dist, shape, dtype, args)
    }

    /// `randint(low, high=None, size=None, dtype=int)`: int64 in `[low, high)`, or
    /// `[0, low)` without `high`, cast to `dtype` (bool, int32 or int64) after.
    fn randint(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let low_arg = args.get("low");
        let high_arg = args.get("high");
        let low = distribution_int(&low_arg, "low")?;
        let dtype_given = args.get("dtype");
        let dtype = dtype_arg(&dtype_given)?.unwrap_or(DType::Int64);
        let (min, max) = match dtype {
            DType::Bool => (0, 1),
            DType::Int32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
            DType::Int64 => (i64::MIN, i64::MAX),
            DType::Float32 | DType::Float64 => {
                return Err(Diagnostic::error(
                    format!("Unsupported dtype {dtype} for randint"),
                    dtype_given.span,
                ))
            }
        };
        // NumPy's checks, in NumPy's order.
        let (low, high, high_span) = match high_arg.value {
            Value::None => {
                if low <= 0 {
                    return Err(Diagnostic::error("high <= 0", low_arg.span));
                }
                (0, low, low_arg.span)
            }
            _ => {
                if low < min {
                    return Err(Diagnostic::error(
                        format!("low is out of bounds for {dtype}"),
                        low_arg.span,
                    ));
                }
                (low, distribution_int(&high_arg, "high")?, high_arg.span)
            }
        };
        if i128::from(high) - 1 > i128::from(max) {
            return Err(Diagnostic::error(
                format!("high is out of bounds for {dtype}"),
                high_span,
            ));
        }
        if low >= high {
            return Err(Diagnostic::error("low >= high", high_span));
        }
        let shape = size(&args.get("size"))?;
        let value =
            self.add_random(RandomDist::Randint { low, high }, shape, DType::Int64, args)?;
        match value {
            Value::Tensor(id) => Ok(Value::Tensor(self.cast(id, dtype, args.call_span)?)),
            other => Ok(other),
        }
    }

    fn add_random(
        &mut self,
        dist: RandomDist,
        shape: Vec<usize>,
        dtype: DType,
        args: &BoundArgs,
    ) -> LowerResult<Value> {
        let op = TileOp::Random {
            dist,
            seed: self.seed,
            stream: self.random_calls,
        };
        self.random_calls += 1;
        let id = self.add_created(op, shape, dtype, args.chunks.as_ref(), args.call_span)?;
        Ok(Value::Tensor(id))
    }
}

/// `size=`: `None` (a single value, a 0-d tensor here), an int or a shape.
fn size(arg: &Arg) -> LowerResult<Vec<usize>> {
    match arg.value {
        Value::None => Ok(vec![]),
        _ => shape_arg(arg, "size"),
    }
}

/// NumPy takes arrays as distribution parameters too (one per element); version 1
/// takes Python numbers only.
fn refuse_array_parameter(arg: &Arg, name: &str) -> LowerResult<()> {
    if !matches!(
        arg.value,
        Value::Tensor(_) | Value::List(_) | Value::Tuple(_)
    ) {
        return Ok(());
    }
    let diagnostic = Diagnostic::error(
        format!(
            "not supported yet: {} as `{name}` (one parameter per element); only numbers",
            arg.value.a_type_name()
        ),
        arg.span,
    );
    Err(match name {
        "loc" | "scale" => diagnostic
            .with_help("draw standard normals and scale them: `loc + scale * mt.random.randn(n)`"),
        _ => diagnostic,
    })
}

fn distribution_float(arg: &Arg, name: &str) -> LowerResult<f64> {
    refuse_array_parameter(arg, name)?;
    float_arg(arg, name)
}

fn distribution_int(arg: &Arg, name: &str) -> LowerResult<i64> {
    refuse_array_parameter(arg, name)?;
    int_arg(arg, name)
}
