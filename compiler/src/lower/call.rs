//! Calls: binds the arguments of a library function or method and hands them to
//! the lowering that builds it; also calls of Python's `int`/`float`/`bool`, of
//! NumPy scalar types (`mt.float32(2)`), and the `abs` and `len` builtins (the
//! other Python builtins are in [`super::builtins`]).

use super::bind::{bind, Arg, BoundArgs, CallArg};
use super::convert::layout_order_arg;
use super::fold::fold_unary;
use super::library::{Builtin, Home};
use super::nodes::python_scalar;
use super::value::{PyType, Value};
use super::{LowerResult, Lowerer};
use marsc_grammar::ast::UnaryOp as AstUnary;
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::ops::UnaryOp;
use marsc_runtime::DType;

impl Lowerer<'_> {
    pub(super) fn call(
        &mut self,
        callee: Value,
        callee_span: Span,
        receiver_span: Span,
        args: Vec<CallArg>,
        span: Span,
    ) -> LowerResult<Value> {
        match callee {
            Value::Function(id) => {
                let bound = bind(id, None, args, span)?;
                self.dispatch(bound)
            }
            Value::Method(tensor, id) => {
                let receiver = Arg {
                    value: Value::Tensor(tensor),
                    span: receiver_span,
                };
                let bound = bind(id, Some(receiver), args, span)?;
                self.dispatch(bound)
            }
            Value::StreamMethod(stream, id) => {
                let bound = bind(id, None, args, span)?;
                let outer = self.stream_override.replace(stream);
                let result = self.dispatch(bound);
                self.stream_override = outer;
                result
            }
            Value::PyType(PyType::Complex) => complex_builtin(args),
            Value::PyType(py_type) => {
                let arg = single_positional(py_type.name(), args)?;
                if let Some(Arg {
                    value: Value::Tensor(id),
                    span,
                }) = arg
                {
                    return self.convert_tensor(py_type, id, span);
                }
                convert_python(py_type, arg)
            }
            Value::ScalarType(dtype) => {
                let arg = single_positional(dtype.name(), args)?;
                self.make_scalar(dtype, arg, span)
            }
            other => Err(Diagnostic::error(
                format!("{} value is not callable", other.a_type_name()),
                callee_span,
            )),
        }
    }

    pub(super) fn dispatch(&mut self, args: BoundArgs) -> LowerResult<Value> {
        if args.any_poison() {
            return Ok(Value::Poison);
        }
        let signature = args.signature();
        let as_method = signature.home == Home::MethodOnly;
        match signature.builtin {
            Builtin::Unary(op) => self.unary_function(op, &args),
            Builtin::Binary(op) => self.binary_function(op, &args),
            Builtin::Reduce(op) => self.reduce(op, &args),
            Builtin::Scan(op) => self.scan(op, &args),
            Builtin::Tensor => self.tensor_function(&args),
            Builtin::Fill(kind) => self.fill(kind, &args),
            Builtin::Full => self.full(&args),
            Builtin::FillLike(kind) => self.fill_like(Some(kind), &args),
            Builtin::FullLike => self.fill_like(None, &args),
            Builtin::Arange => self.arange(&args),
            Builtin::Linspace => self.linspace(&args),
            Builtin::Eye => self.eye(&args, false),
            Builtin::Identity => self.eye(&args, true),
            Builtin::Load => self.load(&args),
            Builtin::Save => self.save(&args),
            Builtin::FromZarr => self.zarr_load(&args),
            Builtin::ToZarr => self.zarr_save(&args),
            Builtin::Savez { compressed } => self.savez(&args, compressed),
            Builtin::FromFile => self.fromfile(&args),
            Builtin::ToFile => self.tofile(&args),
            Builtin::FromHdf5 => self.hdf5_load(&args),
            Builtin::ToHdf5 => self.hdf5_save(&args),
            Builtin::Seed => self.seed(&args),
            Builtin::Random(kind) => self.random(kind, &args),
            Builtin::Where => self.where_function(&args),
            Builtin::Clip => self.clip(&args, as_method),
            Builtin::Astype => self.astype(&args),
            Builtin::MatMul => {
                let (a, b) = (args.get("x1"), args.get("x2"));
                self.matmul(&a, &b, args.call_span, args.call_span)
            }
            Builtin::Dot => self.dot(&args),
            Builtin::Outer => self.outer(&args),
            Builtin::Transpose => self.transpose_function(&args),
            Builtin::TransposeMethod => self.transpose_method(&args),
            Builtin::Reshape => self.reshape_function(&args),
            Builtin::ReshapeMethod => self.reshape_method(&args),
            Builtin::Ravel => self.ravel(&args, as_method),
            Builtin::ExpandDims => self.expand_dims(&args),
            Builtin::Squeeze => self.squeeze(&args),
            Builtin::SwapAxes => self.swapaxes(&args),
            Builtin::Concatenate => self.concatenate(&args),
            Builtin::Stack => self.stack(&args),
            Builtin::HStack => self.hstack(&args, false),
            Builtin::VStack => self.hstack(&args, true),
            Builtin::BroadcastTo => self.broadcast_to(&args),
            Builtin::Rechunk => self.rechunk(&args),
            Builtin::Execute => Ok(args.receiver().value),
            Builtin::Item => self.item_method(&args),
            Builtin::ToList => self.tolist_method(&args),
            // Tensors are never changed in place, so a copy is the tensor itself.
            Builtin::Copy => {
                layout_order_arg(&args.get("order"))?;
                Ok(args.receiver().value)
            }
            Builtin::Print => self.print(&args),
            Builtin::Abs => self.abs_builtin(&args),
            Builtin::Len => self.len_builtin(&args),
            Builtin::PyMaxMin(is_max) => self.max_min_builtin(is_max, &args),
            Builtin::PySum => self.sum_builtin(&args),
            Builtin::PyAllAny(is_all) => self.all_any_builtin(is_all, &args),
            Builtin::PyRound => self.round_builtin(&args),
            Builtin::PyPow => self.pow_builtin(&args),
            Builtin::PyDivmod => self.divmod_builtin(&args),
            Builtin::PyRange => self.range_builtin(&args),
            Builtin::PyEnumerate => self.enumerate_builtin(&args),
            Builtin::PyZip => self.zip_builtin(&args),
            Builtin::PySequence(is_list) => self.sequence_builtin(is_list, &args),
            Builtin::PyText(is_repr) => Ok(self.text_builtin(is_repr, &args)),
            Builtin::Statistic(stat) => self.statistic(stat, &args),
            Builtin::Selection(kind) => self.selection(kind, &args),
            Builtin::Sorting(kind) => self.sorting(kind, &args),
            Builtin::Product(kind) => self.product(kind, &args),
            Builtin::Einsum => self.einsum(&args),
            Builtin::Choose(as_method) => self.choose(&args, as_method),
            Builtin::MarsExecute => {
                // Mars gives the one tileable, or a tuple of them.
                let values: Vec<Value> = args.rest().iter().map(|a| a.value.clone()).collect();
                Ok(match values.as_slice() {
                    [one] => one.clone(),
                    _ => Value::tuple(values),
                })
            }
            Builtin::Linalg(which) => self.decompose(which, &args),
            Builtin::Histogram(which) => self.histogram_call(which, &args),
        }
    }

    /// Python's `abs`: folds on Python numbers, `absolute` on tensors.
    fn abs_builtin(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let arg = args.get("x");
        match &arg.value {
            Value::Tensor(id) => self.unary(UnaryOp::Absolute, *id, args.call_span, args.call_span),
            // Python's `abs(-0.0)` is `0.0`: the sign bit is cleared, not compared.
            Value::Float(v) => Ok(Value::Float(v.abs())),
            Value::Complex(re, im) => Ok(Value::Float(re.hypot(*im))),
            Value::Int(_) | Value::Bool(_) => {
                let negative = arg.value.as_f64().is_some_and(|v| v < 0.0);
                let op = if negative {
                    AstUnary::Neg
                } else {
                    AstUnary::Pos
                };
                fold_unary(op, &arg.value).map_err(|error| error.at(arg.span))
            }
            other => Err(Diagnostic::error(
                format!("bad operand type for abs(): '{}'", other.type_name()),
                arg.span,
            )),
        }
    }

    /// Python's `len`: of a tuple, list or string, or a tensor's first axis.
    fn len_builtin(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let arg = args.get("x");
        let length = match &arg.value {
            Value::Tuple(items, _) | Value::List(items) => items.len(),
            Value::Str(text) => text.chars().count(),
            Value::Tensor(id) => match self.shape(*id).first() {
                Some(&len) => len,
                None => {
                    return Err(Diagnostic::error("len() of unsized object", arg.span)
                        .with_help("a 0-d tensor has no length; use `.size`"))
                }
            },
            other => {
                return Err(Diagnostic::error(
                    format!("{} value has no len()", other.a_type_name()),
                    arg.span,
                ))
            }
        };
        Ok(Value::Int(length as i64))
    }

    /// `mt.float32(x)`: a 0-d tensor of that dtype, or `x` cast to it.
    fn make_scalar(&mut self, dtype: DType, arg: Option<Arg>, span: Span) -> LowerResult<Value> {
        let Some(arg) = arg else {
            let zero = python_scalar(&Value::Int(0), Some(dtype), span)?;
            return Ok(Value::Tensor(self.scalar_tensor(zero, span)));
        };
        let id = match &arg.value {
            Value::Tensor(id) => self.cast(*id, dtype, span)?,
            Value::Tuple(..) | Value::List(_) => self.literal_tensor(&arg, Some(dtype), None)?,
            _ => {
                let scalar = python_scalar(&arg.value, Some(dtype), arg.span)?;
                self.scalar_tensor(scalar, span)
            }
        };
        Ok(Value::Tensor(id))
    }
}

/// Python's `complex(real=0, imag=0)` of Python numbers: `real + imag * 1j`, each
/// part a complex itself if it is one (`complex(1, 2j)` is `(-1+0j)`).
fn complex_builtin(args: Vec<CallArg>) -> LowerResult<Value> {
    if args.len() > 2 {
        return Err(Diagnostic::error(
            "`complex()` takes at most 2 arguments",
            args[2].span,
        ));
    }
    let mut parts = [(0.0, 0.0); 2];
    for (part, arg) in parts.iter_mut().zip(&args) {
        if let Some((keyword, span)) = &arg.keyword {
            return Err(Diagnostic::error(
                format!("not supported yet: `complex()` with the keyword argument `{keyword}`"),
                *span,
            ));
        }
        *part = match &arg.value {
            Value::Poison => return Ok(Value::Poison),
            Value::Complex(re, im) => (*re, *im),
            Value::Tensor(_) => {
                return Err(Diagnostic::error(
                    "not supported yet: `complex()` of a tensor (use `t.astype(complex)`)",
                    arg.span,
                ))
            }
            other => match other.as_f64() {
                Some(v) => (v, 0.0),
                None => {
                    return Err(Diagnostic::error(
                        format!(
                            "complex() argument must be a string or a number, not {}",
                            other.type_name()
                        ),
                        arg.span,
                    ))
                }
            },
        };
    }
    // CPython adds the other part only where an argument is complex, so that
    // `complex(1, -0.0)` keeps its negative zero.
    let is_complex = |i: usize| matches!(args.get(i).map(|a| &a.value), Some(Value::Complex(..)));
    let [(mut re, real_im), (imag_re, imag_im)] = parts;
    let mut im = imag_re;
    if is_complex(1) {
        re -= imag_im;
    }
    if is_complex(0) {
        im = if args.len() > 1 {
            im + real_im
        } else {
            real_im
        };
    }
    Ok(Value::Complex(re, im))
}

/// The argument of a one-argument conversion (`int(x)`, `mt.float32(x)`), if any.
fn single_positional(name: &str, args: Vec<CallArg>) -> LowerResult<Option<Arg>> {
    let mut args = args.into_iter();
    let first = args.next();
    if let Some(extra) = args.next() {
        return Err(Diagnostic::error(
            format!("`{name}()` takes at most 1 argument"),
            extra.span,
        ));
    }
    match first {
        Some(CallArg {
            keyword: Some((keyword, keyword_span)),
            ..
        }) => Err(Diagnostic::error(
            format!("`{name}()` got an unexpected keyword argument `{keyword}`"),
            keyword_span,
        )),
        Some(arg) => Ok(Some(Arg {
            value: arg.value,
            span: arg.span,
        })),
        None => Ok(None),
    }
}

/// `int(x)`, `float(x)`, `bool(x)` of a Python value.
pub(super) fn convert_python(py_type: PyType, arg: Option<Arg>) -> LowerResult<Value> {
    let Some(arg) = arg else {
        return Ok(match py_type {
            PyType::Int => Value::Int(0),
            PyType::Float => Value::Float(0.0),
            PyType::Bool => Value::Bool(false),
            PyType::Complex => Value::Complex(0.0, 0.0),
        });
    };
    let fail = |message: String| Diagnostic::error(message, arg.span);
    if arg.value.is_poison() {
        return Ok(Value::Poison);
    }
    if let Value::Tensor(_) = arg.value {
        return Err(fail(format!(
            "not supported yet: `{}()` of a tensor (its value is known only at run time)",
            py_type.name()
        )));
    }
    if py_type == PyType::Bool {
        return super::fold::truthy(&arg.value)
            .map(Value::Bool)
            .ok_or_else(|| fail("this value has no truth value".into()));
    }
    let number = match &arg.value {
        Value::Str(text) => parse_number(text.trim(), py_type).ok_or_else(|| {
            fail(format!(
                "invalid literal for {}(): '{text}'",
                py_type.name()
            ))
        })?,
        other => other.clone(),
    };
    match (py_type, number) {
        (PyType::Float, value) => value.as_f64().map(Value::Float).ok_or_else(|| {
            fail(format!(
                "float() argument must be a string or a real number, not {}",
                arg.value.type_name()
            ))
        }),
        (_, Value::Int(v)) => Ok(Value::Int(v)),
        (_, Value::Bool(b)) => Ok(Value::Int(b as i64)),
        (_, Value::Float(v)) if v.is_nan() => {
            Err(fail("cannot convert float NaN to integer".into()))
        }
        (_, Value::Float(v)) if v.is_infinite() => {
            Err(fail("cannot convert float infinity to integer".into()))
        }
        (_, Value::Float(v)) if v.trunc().abs() < 9.2e18 => Ok(Value::Int(v.trunc() as i64)),
        (_, Value::Float(_)) => Err(fail(
            "not supported yet: integers outside the int64 range".into(),
        )),
        (_, other) => Err(fail(format!(
            "int() argument must be a string or a real number, not {}",
            other.type_name()
        ))),
    }
}

fn parse_number(text: &str, py_type: PyType) -> Option<Value> {
    let cleaned = text.replace('_', "");
    match py_type {
        PyType::Int => cleaned.parse::<i64>().ok().map(Value::Int),
        _ => match cleaned.to_ascii_lowercase().as_str() {
            "inf" | "+inf" | "infinity" => Some(Value::Float(f64::INFINITY)),
            "-inf" | "-infinity" => Some(Value::Float(f64::NEG_INFINITY)),
            "nan" | "+nan" | "-nan" => Some(Value::Float(f64::NAN)),
            _ => cleaned.parse::<f64>().ok().map(Value::Float),
        },
    }
}
