//! `random.*`: `seed(n)` sets the seed for the calls after it; every random tensor
//! gets `stream` = its call number in program order and `seed` = the current seed
//! (0 until a `seed()` call), so values are a pure function of the script.

use super::bind::{Arg, BoundArgs};
use super::convert::{float_arg, int_arg, shape_arg};
use super::dtype_args::dtype_arg;
use super::library::RandomKind;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::ops::Creation;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::random::RandomDist;
use marsc_runtime::DType;

impl Lowerer<'_> {
    /// `random.seed(n)` (and `rs.seed(n)` of a `RandomState`, which starts its
    /// sequence again).
    pub(super) fn seed(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let seed = self.seed_value(&args.get("seed"))?;
        match &self.stream_override {
            Some(stream) => {
                stream.seed.set(seed);
                stream.draws.set(0);
            }
            // As NumPy's `seed`: the module's draws start over, so seeding again
            // repeats them.
            None => {
                self.seed = seed;
                self.random_calls = 0;
            }
        }
        Ok(Value::None)
    }

    /// `random.RandomState(seed)` and `random.default_rng(seed)`.
    fn random_state(&mut self, args: &BoundArgs, generator: bool) -> LowerResult<Value> {
        let seed_arg = args.get("seed");
        let seed = if generator {
            // A Generator's seed goes through NumPy's SeedSequence: any int >= 0.
            if seed_arg.value == Value::None {
                return Err(Diagnostic::error(
                    "not supported yet: `default_rng()` without a seed (a seed from the \
                     operating system)",
                    args.call_span,
                )
                .with_help("give an integer seed, e.g. `mt.random.default_rng(0)`"));
            }
            let seed = int_arg(&seed_arg, "seed")?;
            if seed < 0 {
                return Err(Diagnostic::error(
                    "expected non-negative integer",
                    seed_arg.span,
                ));
            }
            // Apart from every RandomState seed (those are below 2**32).
            (seed as u64) | 1 << 63
        } else {
            self.seed_value(&seed_arg)?
        };
        Ok(Value::RandomState(std::rc::Rc::new(
            super::value::RandomStream {
                seed: std::cell::Cell::new(seed),
                draws: std::cell::Cell::new(0),
                generator,
            },
        )))
    }

    /// A seed as NumPy's legacy generator takes it: an int in [0, 2**32).
    pub(super) fn seed_value(&self, arg: &Arg) -> LowerResult<u64> {
        if arg.value == Value::None {
            return Err(Diagnostic::error(
                "not supported yet: `seed(None)` (a seed from the operating system)",
                arg.span,
            )
            .with_help("give an integer seed, e.g. `mt.random.seed(0)`"));
        }
        let seed = int_arg(arg, "seed")?;
        if !(0..1 << 32).contains(&seed) {
            return Err(Diagnostic::error(
                "Seed must be between 0 and 2**32 - 1",
                arg.span,
            ));
        }
        Ok(seed as u64)
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
            RandomKind::Randint => return self.randint(args, false),
            RandomKind::StandardNormal => (RandomDist::StandardNormal, size(&args.get("size"))?),
            RandomKind::Exponential => return self.exponential(args),
            RandomKind::Permutation | RandomKind::Shuffle => return self.permutation(args),
            RandomKind::Choice => return self.choice(args),
            RandomKind::RandomState => return self.random_state(args, false),
            RandomKind::DefaultRng => return self.random_state(args, true),
            RandomKind::Integers => return self.randint(args, true),
            RandomKind::Gamma => {
                let shape_arg = args.get("shape");
                let shape = distribution_float(&shape_arg, "shape")?;
                if shape < 0.0 || shape.is_nan() {
                    return Err(Diagnostic::error("shape < 0", shape_arg.span));
                }
                let scale_arg = args.get("scale");
                let scale = distribution_float(&scale_arg, "scale")?;
                if scale < 0.0 || scale.is_nan() {
                    return Err(Diagnostic::error("scale < 0", scale_arg.span));
                }
                (RandomDist::Gamma { shape, scale }, size(&args.get("size"))?)
            }
            RandomKind::Beta => {
                let a_arg = args.get("a");
                let a = distribution_float(&a_arg, "a")?;
                if a <= 0.0 || a.is_nan() {
                    return Err(Diagnostic::error("a <= 0", a_arg.span));
                }
                let b_arg = args.get("b");
                let b = distribution_float(&b_arg, "b")?;
                if b <= 0.0 || b.is_nan() {
                    return Err(Diagnostic::error("b <= 0", b_arg.span));
                }
                (RandomDist::Beta { a, b }, size(&args.get("size"))?)
            }
            RandomKind::Poisson => {
                let lam_arg = args.get("lam");
                let lam = distribution_float(&lam_arg, "lam")?;
                if lam < 0.0 || lam.is_nan() {
                    return Err(Diagnostic::error("lam < 0", lam_arg.span));
                }
                // NumPy's bound: the mean plus ten deviations must fit in int64.
                if lam > 9.223372006484771e18 {
                    return Err(Diagnostic::error("lam value too large", lam_arg.span));
                }
                (RandomDist::Poisson { lam }, size(&args.get("size"))?)
            }
            RandomKind::Binomial => {
                let n_arg = args.get("n");
                let n = distribution_int(&n_arg, "n")?;
                if n < 0 {
                    return Err(Diagnostic::error("n < 0", n_arg.span));
                }
                let p_arg = args.get("p");
                let p = distribution_float(&p_arg, "p")?;
                if p.is_nan() {
                    return Err(Diagnostic::error("p is nan", p_arg.span));
                }
                if p < 0.0 {
                    return Err(Diagnostic::error("p < 0", p_arg.span));
                }
                if p > 1.0 {
                    return Err(Diagnostic::error("p > 1", p_arg.span));
                }
                (RandomDist::Binomial { n, p }, size(&args.get("size"))?)
            }
        };
        self.add_random(dist, shape, args)
    }

    /// `randint(low, high=None, size=None, dtype=int)`: int64 in `[low, high)`, or
    /// `[0, low)` without `high`, cast to `dtype` (bool, int32 or int64) after; and a
    /// Generator's `integers(..., endpoint=False)` (`endpoint=True` includes `high`).
    fn randint(&mut self, args: &BoundArgs, generator: bool) -> LowerResult<Value> {
        let endpoint = generator && super::convert::bool_arg(&args.get("endpoint"), "endpoint")?;
        let low_arg = args.get("low");
        let high_arg = args.get("high");
        let low = distribution_int(&low_arg, "low")?;
        let dtype_given = args.get("dtype");
        let dtype = dtype_arg(&dtype_given)?.unwrap_or(DType::Int64);
        let (min, max) = match dtype {
            DType::Bool => (0, 1),
            // Draws are int64 (uint64 draws above 2**63 are not supported yet).
            int => match int.int_range() {
                Some((low, high)) => (
                    i64::try_from(low).unwrap_or(i64::MIN),
                    i64::try_from(high).unwrap_or(i64::MAX),
                ),
                None => {
                    return Err(Diagnostic::error(
                        format!("Unsupported dtype {dtype} for randint"),
                        dtype_given.span,
                    ))
                }
            },
        };
        // NumPy's checks, in NumPy's order.
        let (low, high, high_span) = match high_arg.value {
            Value::None if endpoint => {
                if low < 0 {
                    return Err(Diagnostic::error("high < 0", low_arg.span));
                }
                (0, low, low_arg.span)
            }
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
        // `endpoint=True` draws from `[low, high]`, that is `[low, high + 1)`.
        let high = if endpoint {
            if low > high {
                return Err(Diagnostic::error("low > high", high_span));
            }
            high.checked_add(1).ok_or_else(|| {
                Diagnostic::error(
                    "not supported yet: `endpoint=True` with `high` the largest int64",
                    high_span,
                )
            })?
        } else {
            high
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
        let value = self.add_random(RandomDist::Randint { low, high }, shape, args)?;
        match value {
            Value::Tensor(id) => Ok(Value::Tensor(self.cast(id, dtype, args.call_span)?)),
            other => Ok(other),
        }
    }

    fn add_random(
        &mut self,
        dist: RandomDist,
        shape: Vec<usize>,
        args: &BoundArgs,
    ) -> LowerResult<Value> {
        let id = self.random_tensor(dist, shape, args.chunks.as_ref(), args.call_span)?;
        Ok(Value::Tensor(id))
    }

    /// A tensor of `dist`'s values (of its dtype) on the next random stream.
    fn random_tensor(
        &mut self,
        dist: RandomDist,
        shape: Vec<usize>,
        chunks: Option<&Arg>,
        span: Span,
    ) -> LowerResult<TileableId> {
        let (seed, stream) = match &self.stream_override {
            // A RandomState's draws are streams of their own, apart from the module's.
            Some(state) => {
                let draw = state.draws.get();
                state.draws.set(draw + 1);
                (state.seed.get(), RANDOM_STATE_STREAMS | draw)
            }
            None => {
                self.random_calls += 1;
                (self.seed, self.random_calls - 1)
            }
        };
        let op = TileOp::Create(Creation::Random { dist, seed, stream });
        self.add_created(op, shape, dist.dtype(), chunks, span)
    }

    /// Standard normal draws of `shape` for a library function taking `seed=`
    /// (`linalg.svd_compressed`): with a seed, the first draw of `RandomState(seed)`;
    /// without, the module's next stream, as `random.standard_normal` would give.
    pub(super) fn standard_normal_draws(
        &mut self,
        shape: Vec<usize>,
        seed: Option<u64>,
        span: Span,
    ) -> LowerResult<TileableId> {
        let Some(seed) = seed else {
            return self.random_tensor(RandomDist::StandardNormal, shape, None, span);
        };
        let op = TileOp::Create(Creation::Random {
            dist: RandomDist::StandardNormal,
            seed,
            stream: RANDOM_STATE_STREAMS,
        });
        self.add_created(op, shape, RandomDist::StandardNormal.dtype(), None, span)
    }

    /// Uniform draws in [0, 1) of `shape`, chunked as the call's `chunks=` says.
    fn uniform_draws(&mut self, shape: Vec<usize>, args: &BoundArgs) -> LowerResult<TileableId> {
        let chunks = args.chunks.as_ref();
        self.random_tensor(RandomDist::Uniform01, shape, chunks, args.call_span)
    }

    /// `exponential(scale=1.0, size=None)`: `-scale * log(1 - u)` of uniform `u` in
    /// [0, 1) (NumPy's inversion), element-wise, so it fuses with what uses it.
    fn exponential(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let scale_arg = args.get("scale");
        let scale = distribution_float(&scale_arg, "scale")?;
        if scale < 0.0 {
            return Err(Diagnostic::error("scale < 0", scale_arg.span));
        }
        let u = self.uniform_draws(size(&args.get("size"))?, args)?;
        Ok(Value::Tensor(self.exponential_of(u, scale, span)?))
    }

    /// Exponential draws of `scale` from uniform draws `u` in `[0, 1)`:
    /// `-scale * log1p(-u)`, as NumPy's legacy generator computes them.
    fn exponential_of(&mut self, u: TileableId, scale: f64, span: Span) -> LowerResult<TileableId> {
        let negated = self.apply("negative", vec![Value::Tensor(u)], span)?;
        let log = self.apply("log1p", vec![Value::Tensor(negated)], span)?;
        self.apply(
            "multiply",
            vec![Value::Tensor(log), Value::Float(-scale)],
            span,
        )
    }

    /// A random permutation of `0..n`: the positions that sort `n` uniform keys (a
    /// distributed sort when they span several chunks); `None` when no stage could
    /// run.
    fn random_order(
        &mut self,
        n: usize,
        chunks: Option<&Arg>,
        span: Span,
    ) -> LowerResult<Option<TileableId>> {
        let keys = self.random_tensor(RandomDist::Uniform01, vec![n], chunks, span)?;
        self.sorted(keys, 0, true, span)
    }

    /// `0..n` in the order of sequential sampling without replacement with
    /// probabilities proportional to `weights` (each next item drawn from those
    /// left): the positions that sort the keys `E_i / w_i` of exponential `E_i`
    /// (Efraimidis and Spirakis); zero weights give infinite (or NaN) keys, last.
    fn weighted_order(
        &mut self,
        weights: &[f64],
        chunks: Option<&Arg>,
        weights_span: Span,
        span: Span,
    ) -> LowerResult<Option<TileableId>> {
        let u = self.random_tensor(RandomDist::Uniform01, vec![weights.len()], chunks, span)?;
        let exponential = self.exponential_of(u, 1.0, span)?;
        let weights = self.literal_tensor(
            &Arg {
                value: Value::sequence(weights.iter().copied().map(Value::Float).collect(), true),
                span: weights_span,
            },
            Some(DType::Float64),
            None,
        )?;
        let keys = self.apply(
            "divide",
            vec![Value::Tensor(exponential), Value::Tensor(weights)],
            span,
        )?;
        self.sorted(keys, 0, true, span)
    }

    /// `permutation(x)` (an int: a permutation of `arange(x)`; a tensor: a copy with
    /// its first axis shuffled) and `shuffle(x)` (the same, which `views.rs` writes
    /// back into `x`).
    fn permutation(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let x_arg = args.get("x");
        let shuffle = matches!(
            args.signature().builtin,
            super::library::Builtin::Random(RandomKind::Shuffle)
        );
        if let (Value::Int(n), false) = (&x_arg.value, shuffle) {
            if *n < 0 {
                return Err(Diagnostic::error(
                    "negative dimensions are not allowed",
                    x_arg.span,
                ));
            }
            let order = self.random_order(*n as usize, args.chunks.as_ref(), span)?;
            return Ok(order.map_or(Value::Poison, Value::Tensor));
        }
        let x = match &x_arg.value {
            Value::Tensor(id) => *id,
            _ if shuffle => {
                return Err(Diagnostic::error(
                    format!(
                        "not supported yet: shuffling {} in place (shuffle a tensor)",
                        x_arg.value.a_type_name()
                    ),
                    x_arg.span,
                ))
            }
            _ => self.tensor_of(&x_arg, None, "`x`")?,
        };
        let shape = self.shape(x).to_vec();
        let Some(&n) = shape.first() else {
            let message = if shuffle {
                "not supported yet: shuffling a 0-d tensor"
            } else {
                "x must be an integer or at least 1-dimensional"
            };
            return Err(Diagnostic::error(message, x_arg.span));
        };
        let Some(order) = self.random_order(n, args.chunks.as_ref(), span)? else {
            return Ok(Value::Poison);
        };
        let taken = self.take_along(x, order, 0, 0, span)?;
        Ok(taken.map_or(Value::Poison, Value::Tensor))
    }

    /// `choice(a, size=None, replace=True, p=None)`: positions drawn uniformly
    /// (`randint`), by `p` (NumPy's inversion: the uniform draws searched in the
    /// normalized cumulative `p`), or without replacement (the first `size` of a
    /// random permutation); an int `a` is `arange(a)`, a 1-D tensor is indexed.
    fn choice(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let a_arg = args.get("a");
        let (population, n) = match &a_arg.value {
            Value::Int(n) => {
                if *n <= 0 {
                    return Err(Diagnostic::error(
                        "a must be a positive integer unless no samples are taken",
                        a_arg.span,
                    ));
                }
                (None, *n as usize)
            }
            _ => {
                let a = self.tensor_of(&a_arg, None, "`a`")?;
                match self.shape(a) {
                    [n] => (Some(a), *n),
                    _ => {
                        return Err(Diagnostic::error(
                            "a must be 1-dimensional or an integer",
                            a_arg.span,
                        ))
                    }
                }
            }
        };
        if n == 0 {
            return Err(Diagnostic::error(
                "a cannot be empty unless no samples are taken",
                a_arg.span,
            ));
        }
        let shape = size(&args.get("size"))?;
        let count: usize = shape.iter().product();
        let replace_arg = args.get("replace");
        let replace = super::convert::bool_arg(&replace_arg, "replace")?;
        let p_arg = args.get("p");
        let p = match &p_arg.value {
            Value::None => None,
            _ => Some(self.choice_probabilities(&p_arg, n)?),
        };
        let indices = if !replace {
            if count > n {
                return Err(Diagnostic::error(
                    "Cannot take a larger sample than population when 'replace=False'",
                    replace_arg.span,
                ));
            }
            let order = match &p {
                None => self.random_order(n, args.chunks.as_ref(), span)?,
                Some(weights) => {
                    if weights.iter().filter(|&&w| w > 0.0).count() < count {
                        return Err(Diagnostic::error(
                            "Fewer non-zero entries in p than size",
                            p_arg.span,
                        ));
                    }
                    self.weighted_order(weights, args.chunks.as_ref(), p_arg.span, span)?
                }
            };
            let Some(order) = order else {
                return Ok(Value::Poison);
            };
            let first = self.index_tensor(
                order,
                &[super::indexing::Item::Slice {
                    parts: [None, Some((Value::Int(count as i64), span)), None],
                    span,
                }],
                span,
            )?;
            let Value::Tensor(first) = first else {
                return Ok(Value::Poison);
            };
            let dims: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
            self.reshape_tensor(first, &dims, span, span)?
        } else if let Some(weights) = p {
            let cdf = normalized_cdf(&weights);
            let u = self.uniform_draws(shape, args)?;
            let edges = self.literal_tensor(
                &Arg {
                    value: Value::sequence(cdf.into_iter().map(Value::Float).collect(), true),
                    span: p_arg.span,
                },
                Some(DType::Float64),
                None,
            )?;
            let found = self.apply_args(
                "searchsorted",
                vec![
                    (
                        None,
                        Arg {
                            value: Value::Tensor(edges),
                            span,
                        },
                    ),
                    (
                        None,
                        Arg {
                            value: Value::Tensor(u),
                            span,
                        },
                    ),
                    (
                        Some("side"),
                        Arg {
                            value: Value::str("right"),
                            span,
                        },
                    ),
                ],
                span,
            )?;
            // `u < 1 == cdf[-1]`, so every position is below n.
            found
        } else {
            self.random_tensor(
                RandomDist::Randint {
                    low: 0,
                    high: n as i64,
                },
                shape,
                args.chunks.as_ref(),
                span,
            )?
        };
        let Some(population) = population else {
            return Ok(Value::Tensor(indices));
        };
        let taken = self.take_along(population, indices, 0, 0, span)?;
        Ok(taken.map_or(Value::Poison, Value::Tensor))
    }

    /// `p=` of `choice`: `n` non-negative probabilities summing to 1 (NumPy's
    /// checks). A tensor `p` is read in a stage.
    fn choice_probabilities(&mut self, p_arg: &Arg, n: usize) -> LowerResult<Vec<f64>> {
        let values: Vec<f64> = match &p_arg.value {
            Value::Tensor(id) => {
                if self.shape(*id).len() != 1 {
                    return Err(Diagnostic::error("p must be 1-dimensional", p_arg.span));
                }
                if self.shape(*id)[0] > super::stage::MAX_STAGED_ELEMENTS {
                    return Err(Diagnostic::error(
                        format!(
                            "not supported yet: a `p` tensor of more than {} elements",
                            super::stage::MAX_STAGED_ELEMENTS
                        ),
                        p_arg.span,
                    ));
                }
                let id = self.cast(*id, DType::Float64, p_arg.span)?;
                let Some(data) = self.stage_value(id, p_arg.span) else {
                    return Ok(vec![1.0; n]);
                };
                (0..data.len())
                    .filter_map(|i| data.get_flat(i))
                    .map(|scalar| scalar.as_f64())
                    .collect()
            }
            Value::List(items) | Value::Tuple(items, _) => items
                .iter()
                .map(|item| {
                    float_arg(
                        &Arg {
                            value: item.clone(),
                            span: p_arg.span,
                        },
                        "p",
                    )
                })
                .collect::<LowerResult<_>>()?,
            _ => return Err(Diagnostic::error("p must be 1-dimensional", p_arg.span)),
        };
        if values.len() != n {
            return Err(Diagnostic::error("a and p must have same size", p_arg.span));
        }
        if values.iter().any(|v| v.is_nan()) {
            return Err(Diagnostic::error("probabilities contain NaN", p_arg.span));
        }
        if values.iter().any(|&v| v < 0.0) {
            return Err(Diagnostic::error(
                "probabilities are not non-negative",
                p_arg.span,
            ));
        }
        let total: f64 = values.iter().sum();
        // NumPy's tolerance: sqrt of float64's epsilon.
        if (total - 1.0).abs() > f64::EPSILON.sqrt() {
            return Err(Diagnostic::error(
                "probabilities do not sum to 1",
                p_arg.span,
            ));
        }
        Ok(values)
    }
}

/// The cumulative sums of `p` normalized by the last, as NumPy's legacy `choice`
/// computes them.
fn normalized_cdf(p: &[f64]) -> Vec<f64> {
    let mut cdf = Vec::with_capacity(p.len());
    let mut running = 0.0;
    for v in p {
        running += v;
        cdf.push(running);
    }
    cdf.into_iter().map(|c| c / running).collect()
}

/// The stream numbers of `RandomState` draws start here (the module's count up
/// from 0).
const RANDOM_STATE_STREAMS: u64 = 1 << 62;

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
        Value::Tensor(_) | Value::List(_) | Value::Tuple(..)
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
