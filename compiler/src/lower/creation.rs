//! Creation functions: `tensor`/`array`, `ones`/`zeros`/`empty`/`full` and their
//! `*_like` forms, `arange`, `linspace`, `eye`/`identity` and `load` (whose `.npy`
//! header is read now, for the shape and dtype). Each takes `chunks=`.

use super::bind::{Arg, BoundArgs};
use super::convert::{
    bool_arg, count_arg, int_arg, layout_order_arg, optional_int_arg, shape_arg, str_arg,
};
use super::dtype_args::dtype_arg;
use super::library::FillKind;
use super::nodes::python_scalar;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::ops::Creation;
use crate::tileable::TileOp;
use marsc_grammar::Diagnostic;
use marsc_runtime::ops::UnaryOp;
use marsc_runtime::storage::{self, OpenOptions};
use marsc_runtime::{DType, Scalar};
use std::path::{Path, PathBuf};

impl Lowerer<'_> {
    /// `tensor(object, dtype=None)` / `array(...)`.
    pub(super) fn tensor_function(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let object = args.get("object");
        let dtype = dtype_arg(&args.get("dtype"))?;
        layout_order_arg(&args.get("order"))?;
        let chunks = args.chunks.as_ref();
        let id = match object.value {
            Value::Tensor(id) => {
                let id = match dtype {
                    Some(dtype) => self.cast(id, dtype, args.call_span)?,
                    None => id,
                };
                match chunks {
                    Some(_) => self.rechunk_to(id, chunks, args.call_span)?,
                    None => id,
                }
            }
            Value::Int(_)
            | Value::Float(_)
            | Value::Complex(..)
            | Value::Bool(_)
            | Value::Tuple(..)
            | Value::List(_) => self.literal_tensor(&object, dtype, chunks)?,
            ref other => {
                return Err(Diagnostic::error(
                    format!(
                        "`{}()` needs numbers or (nested) lists of numbers, got {}",
                        args.signature().name,
                        other.type_name()
                    ),
                    object.span,
                ))
            }
        };
        Ok(Value::Tensor(id))
    }

    /// `ones(shape)`, `zeros(shape)`, `empty(shape)`.
    pub(super) fn fill(&mut self, kind: FillKind, args: &BoundArgs) -> LowerResult<Value> {
        let shape = shape_arg(&args.get("shape"), "shape")?;
        let dtype = dtype_arg(&args.get("dtype"))?.unwrap_or(DType::Float64);
        layout_order_arg(&args.get("order"))?;
        let value = Scalar::from_i64(fill_constant(kind), dtype);
        let id = self.add_created(
            TileOp::Create(Creation::Full(value)),
            shape,
            dtype,
            args.chunks.as_ref(),
            args.call_span,
        )?;
        Ok(Value::Tensor(id))
    }

    /// `full(shape, fill_value, dtype=None)`.
    pub(super) fn full(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let shape = shape_arg(&args.get("shape"), "shape")?;
        let dtype = dtype_arg(&args.get("dtype"))?;
        layout_order_arg(&args.get("order"))?;
        let fill = args.get("fill_value");
        if is_array_fill(&fill.value) {
            let id = self.broadcast_fill(&fill, &shape, dtype, args.call_span)?;
            let id = self.rechunk_to(id, args.chunks.as_ref(), args.call_span)?;
            return Ok(Value::Tensor(id));
        }
        check_scalar_fill(&fill.value, fill.span)?;
        let value = python_scalar(&fill.value, dtype, fill.span)?;
        let id = self.add_created(
            TileOp::Create(Creation::Full(value)),
            shape,
            value.dtype(),
            args.chunks.as_ref(),
            args.call_span,
        )?;
        Ok(Value::Tensor(id))
    }

    /// `ones_like(a)`, `zeros_like(a)`, `empty_like(a)`, and `full_like(a, v)` when
    /// `kind` is `None`. Without `chunks=` the result keeps `a`'s chunks.
    pub(super) fn fill_like(
        &mut self,
        kind: Option<FillKind>,
        args: &BoundArgs,
    ) -> LowerResult<Value> {
        let prototype = self.tensor_of(&args.get("a"), None, "`a`")?;
        let dtype = dtype_arg(&args.get("dtype"))?.unwrap_or(self.dtype(prototype));
        layout_order_arg(&args.get("order"))?;
        let shape_given = args.get("shape");
        let shape = match shape_given.value {
            Value::None => self.shape(prototype).to_vec(),
            _ => shape_arg(&shape_given, "shape")?,
        };
        let span = args.call_span;
        let value = match kind {
            Some(kind) => Scalar::from_i64(fill_constant(kind), dtype),
            None => {
                let fill = args.get("fill_value");
                if is_array_fill(&fill.value) {
                    let id = self.broadcast_fill(&fill, &shape, Some(dtype), span)?;
                    let id = if args.chunks.is_none() && shape == self.shape(prototype) {
                        let nsplits = self.node(prototype).nsplits.clone();
                        self.rechunk_to_splits(id, nsplits, span)
                    } else {
                        self.rechunk_to(id, args.chunks.as_ref(), span)?
                    };
                    return Ok(Value::Tensor(id));
                }
                check_scalar_fill(&fill.value, fill.span)?;
                python_scalar(&fill.value, Some(dtype), fill.span)?
            }
        };
        let id = if args.chunks.is_none() && shape == self.shape(prototype) {
            let nsplits = self.node(prototype).nsplits.clone();
            self.add_with_splits(
                TileOp::Create(Creation::Full(value)),
                vec![],
                shape,
                dtype,
                nsplits,
                span,
            )
        } else {
            self.add_created(
                TileOp::Create(Creation::Full(value)),
                shape,
                dtype,
                args.chunks.as_ref(),
                span,
            )?
        };
        Ok(Value::Tensor(id))
    }

    /// `arange([start,] stop[, step], dtype=None)`.
    pub(super) fn arange(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        // NumPy's `arange(stop)`, `arange(start, stop[, step])`, or any of them by keyword.
        let first = args.get("start");
        let stop_arg = args.get("stop");
        let step_arg = args.get("step");
        let (start, stop) = match (&first.value, &stop_arg.value) {
            (Value::None, Value::None) => {
                return Err(
                    Diagnostic::error("`arange()` requires `stop`", args.call_span)
                        .with_help("write `arange(stop)` or `arange(start, stop, step)`"),
                )
            }
            (_, Value::None) => (Value::Int(0), first.clone()),
            (Value::None, _) => (Value::Int(0), stop_arg.clone()),
            _ => (first.value.clone(), stop_arg.clone()),
        };
        let step = match step_arg.value {
            Value::None => Value::Int(1),
            ref step => step.clone(),
        };
        for (value, span) in [
            (&start, first.span),
            (&stop.value, stop.span),
            (&step, step_arg.span),
        ] {
            if value.as_f64().is_none() {
                return Err(Diagnostic::error(
                    format!("`arange()` needs numbers, got {}", value.type_name()),
                    span,
                ));
            }
        }
        let is_float = [&start, &stop.value, &step]
            .iter()
            .any(|v| matches!(v, Value::Float(_)));
        let dtype = dtype_arg(&args.get("dtype"))?.unwrap_or(if is_float {
            DType::Float64
        } else {
            DType::Int64
        });
        if dtype == DType::Bool {
            return Err(Diagnostic::error(
                "not supported yet: `arange()` with dtype bool",
                args.call_span,
            ));
        }
        let len = arange_length(&start, &stop.value, &step)
            .map_err(|message| Diagnostic::error(message, step_arg.span))?;
        let op = TileOp::Create(Creation::Arange {
            start: python_scalar(&start, Some(dtype), first.span)?,
            step: python_scalar(&step, Some(dtype), step_arg.span)?,
        });
        let id = self.add_created(op, vec![len], dtype, args.chunks.as_ref(), args.call_span)?;
        Ok(Value::Tensor(id))
    }

    /// `linspace(start, stop, num=50, endpoint=True, dtype=None)`. A non-float64
    /// dtype is applied after computing in float64, flooring first for integers as
    /// NumPy does.
    pub(super) fn linspace(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let start = linspace_bound(&args.get("start"), "start")?;
        let stop = linspace_bound(&args.get("stop"), "stop")?;
        let num_arg = args.get("num");
        let num = int_arg(&num_arg, "num")?;
        let num = usize::try_from(num).map_err(|_| {
            Diagnostic::error(
                format!("Number of samples, {num}, must be non-negative."),
                num_arg.span,
            )
        })?;
        let endpoint = bool_arg(&args.get("endpoint"), "endpoint")?;
        let retstep = args.get("retstep");
        if bool_arg(&retstep, "retstep")? {
            return Err(Diagnostic::error(
                "not supported yet: `retstep=True` in `linspace()`",
                retstep.span,
            ));
        }
        let axis = args.get("axis");
        if int_arg(&axis, "axis")? != 0 {
            return Err(Diagnostic::error(
                "not supported yet: `axis=` in `linspace()` (start and stop are scalars)",
                axis.span,
            ));
        }
        let dtype = dtype_arg(&args.get("dtype"))?.unwrap_or(DType::Float64);
        let span = args.call_span;
        let op = TileOp::Create(Creation::Linspace {
            start,
            stop,
            num,
            endpoint,
        });
        let mut id = self.add_created(op, vec![num], DType::Float64, args.chunks.as_ref(), span)?;
        if dtype.is_int() {
            id = match self.unary(UnaryOp::Floor, id, span, span)? {
                Value::Tensor(floored) => floored,
                _ => unreachable!("a unary op on a tensor gives a tensor"),
            };
        }
        Ok(Value::Tensor(self.cast(id, dtype, span)?))
    }

    /// `eye(N, M=None, k=0, dtype=float)`, and `identity(n, dtype=None)`.
    pub(super) fn eye(&mut self, args: &BoundArgs, identity: bool) -> LowerResult<Value> {
        let (rows, columns, k) = if identity {
            let n = count_arg(&args.get("n"), "n")?;
            (n, n, 0)
        } else {
            let rows = count_arg(&args.get("N"), "N")?;
            let columns_arg = args.get("M");
            let columns = match optional_int_arg(&columns_arg, "M")? {
                None => rows,
                Some(_) => count_arg(&columns_arg, "M")?,
            };
            layout_order_arg(&args.get("order"))?;
            (rows, columns, int_arg(&args.get("k"), "k")?)
        };
        let dtype = dtype_arg(&args.get("dtype"))?.unwrap_or(DType::Float64);
        let id = self.add_created(
            TileOp::Create(Creation::Eye { k }),
            vec![rows, columns],
            dtype,
            args.chunks.as_ref(),
            args.call_span,
        )?;
        Ok(Value::Tensor(id))
    }

    /// `load(file, mmap_mode=)`: the store is opened now for the shape and dtype. A
    /// file the script saved earlier holds what that save writes when the load runs
    /// (as in Python, file effects follow program order), so the load is that tensor;
    /// its header now may be another array's, or missing.
    pub(super) fn load(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let file_arg = args.get("file");
        let file = str_arg(&file_arg, "file")?;
        let mmap = read_only_mmap_mode(&args.get("mmap_mode"))?;
        let path = self.user_path(file, None, file_arg.span)?;
        self.graph.files.push(path.clone());
        if let Some(saved) = self.saved_tensor(&path) {
            return Ok(Value::Tensor(match args.chunks.as_ref() {
                Some(chunks) => self.rechunk_to(saved, Some(chunks), args.call_span)?,
                None => saved,
            }));
        }
        if let Some(npz) = self.npz_load(&path, file, file_arg.span)? {
            return Ok(npz);
        }
        let source = storage::open(&path, &OpenOptions { mmap })
            .map_err(|e| Diagnostic::error(format!("cannot load `{file}`: {e}"), file_arg.span))?;
        let (shape, dtype) = (source.metadata().shape.clone(), source.metadata().dtype);
        let id = self.add_created(
            TileOp::Create(Creation::Load { source }),
            shape,
            dtype,
            args.chunks.as_ref(),
            args.call_span,
        )?;
        Ok(Value::Tensor(id))
    }

    /// The file a script names for `load`/`save` and the other file functions: the
    /// path as written, with `extension` appended when it does not end with it (as
    /// NumPy's `save` and `savez` do), resolved against `base_dir` and checked to be
    /// under `--root` (a compile-time error at `span` otherwise).
    pub(super) fn user_path(
        &self,
        written: &str,
        extension: Option<&str>,
        span: marsc_grammar::Span,
    ) -> LowerResult<PathBuf> {
        let mut path = self.resolve_path(Path::new(written));
        if let Some(extension) = extension.filter(|e| !written.ends_with(e)) {
            path.as_mut_os_string().push(extension);
        }
        super::root::check(self.options.root.as_deref(), written, &path, span)?;
        Ok(path)
    }

    /// A script path as the runtime will open it: relative paths are relative to
    /// `base_dir` (left as written when that is the working directory).
    pub(super) fn resolve_path(&self, path: &Path) -> PathBuf {
        let base = &self.options.base_dir;
        if path.is_absolute() || base.as_os_str().is_empty() || base == Path::new(".") {
            path.to_path_buf()
        } else {
            base.join(path)
        }
    }
}

/// `load(mmap_mode=)`: `None` reads each chunk's region of the file; `'r'` (or its
/// NumPy alias `'readonly'`) maps the file read-only and reads it in place. The
/// writable modes would let a script change the file, which marsc does not do.
fn read_only_mmap_mode(arg: &Arg) -> LowerResult<bool> {
    match &arg.value {
        Value::None => Ok(false),
        Value::Str(mode) if matches!(mode.as_ref(), "r" | "readonly") => Ok(true),
        Value::Str(mode)
            if matches!(
                mode.as_ref(),
                "r+" | "readwrite" | "c" | "copyonwrite" | "w+" | "write"
            ) =>
        {
            Err(Diagnostic::error(
                format!(
                    "not supported yet: mmap_mode='{mode}'; marsc maps files read-only: use mmap_mode='r'"
                ),
                arg.span,
            ))
        }
        Value::Str(mode) => Err(Diagnostic::error(
            format!("mode must be one of 'r', 'r+', 'w+' or 'c' (got '{mode}'); marsc supports mmap_mode='r'"),
            arg.span,
        )),
        _ => Err(Diagnostic::error(
            "`mmap_mode` must be None or a string; marsc supports mmap_mode='r'",
            arg.span,
        )),
    }
}

fn fill_constant(kind: FillKind) -> i64 {
    match kind {
        FillKind::Ones => 1,
        FillKind::Zeros => 0,
    }
}

/// `linspace`'s `start` or `stop`: a number (NumPy also takes arrays, making one
/// sequence per element along a new axis).
fn linspace_bound(arg: &Arg, name: &str) -> LowerResult<f64> {
    if is_array_fill(&arg.value) {
        return Err(Diagnostic::error(
            format!(
                "not supported yet: {} as `{name}` of `linspace()` (one sequence per element); only numbers",
                arg.value.a_type_name()
            ),
            arg.span,
        ));
    }
    super::convert::float_arg(arg, name)
}

/// A fill value NumPy broadcasts into the new array rather than repeating.
fn is_array_fill(value: &Value) -> bool {
    matches!(value, Value::Tensor(_) | Value::List(_) | Value::Tuple(..))
}

fn check_scalar_fill(value: &Value, span: marsc_grammar::Span) -> LowerResult<()> {
    match value {
        Value::Int(_) | Value::Float(_) | Value::Complex(..) | Value::Bool(_) => Ok(()),
        other => Err(Diagnostic::error(
            format!(
                "not supported yet: a fill value that is {} (only numbers, tensors and lists)",
                other.a_type_name()
            ),
            span,
        )),
    }
}

/// The number of elements of `arange(start, stop, step)`, computed as NumPy does:
/// exactly for integers, `ceil((stop - start) / step)` in floating point otherwise.
fn arange_length(start: &Value, stop: &Value, step: &Value) -> Result<usize, String> {
    let as_int = |v: &Value| match v {
        Value::Int(i) => Some(*i as i128),
        Value::Bool(b) => Some(*b as i128),
        _ => None,
    };
    let length = match (as_int(start), as_int(stop), as_int(step)) {
        (Some(_), Some(_), Some(0)) => return Err("division by zero: `step` is 0".into()),
        (Some(a), Some(b), Some(s)) => {
            let span = b - a;
            let n = span / s + i128::from(span % s != 0 && (span < 0) == (s < 0));
            n.max(0) as f64
        }
        _ => {
            let (a, b, s) = (
                start.as_f64().unwrap_or(0.0),
                stop.as_f64().unwrap_or(0.0),
                step.as_f64().unwrap_or(0.0),
            );
            if s == 0.0 {
                return Err("division by zero: `step` is 0".into());
            }
            let n = ((b - a) / s).ceil();
            if n.is_nan() {
                return Err("arange: cannot compute length".into());
            }
            // An infinite length falls through to the size check below, as in NumPy.
            n.max(0.0)
        }
    };
    if length > (1u64 << 62) as f64 {
        return Err("Maximum allowed size exceeded".into());
    }
    Ok(length as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arange_lengths_match_numpy() {
        // len(np.arange(...)) from NumPy 2.4.
        let int = Value::Int;
        let float = Value::Float;
        let cases = [
            ((int(0), int(10), int(3)), 4),
            ((int(10), int(0), int(-3)), 4),
            ((int(0), int(10), int(-1)), 0),
            ((int(5), int(5), int(1)), 0),
            ((float(0.0), float(1.0), float(0.1)), 10),
            ((int(1), float(2.5), float(0.5)), 3),
            ((float(0.5), int(0), int(1)), 0),
            ((int(-7), int(7), int(2)), 7),
        ];
        for ((start, stop, step), expected) in cases {
            assert_eq!(
                arange_length(&start, &stop, &step),
                Ok(expected),
                "{start:?} {stop:?} {step:?}"
            );
        }
        assert!(arange_length(&int(0), &int(3), &int(0)).is_err());
    }
}
