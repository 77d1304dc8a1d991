//! Staged execution's seam in lowering: where the program needs a tensor's *value*
//! to go on (`if x.sum() > 0:`, `while err > tol:`, `float(t)`, `t.item()`,
//! `range(int(n))`), lowering hands what it has lowered so far to a [`Stager`],
//! which compiles and runs it as one stage and gives the value back; lowering then
//! goes on from there with a Python value.
//!
//! A stage is exactly a REPL input's run (the session's `Runner` is the stager):
//! the outputs lowered since the last stage (prints, saves, in program order) plus
//! one hidden print of the wanted tensor, pruned to what they need, planned against
//! the session's chunk cache (chunks an earlier stage computed are not computed
//! again) and run. A script lowered as a whole ([`super::lower_script`]) has no
//! stager: its first need of a value ends lowering with
//! [`LowerFailure::NeedsStages`](super::LowerFailure), and the job runs the script
//! as a session instead (`crate::job`).
//!
//! No stage runs once an error has been reported: the errors found up to the first
//! value the program needs are reported together, before anything runs, as a
//! script's are. After a failed stage (or such an error) lowering is *halted*: every
//! later statement is skipped, so nothing is reported twice or on false grounds.

use super::bind::Arg;
use super::value::{PyType, Value};
use super::Lowerer;
use crate::tileable::{Output, PrintItem, TileableId};
use marsc_grammar::Diagnostic;
use marsc_grammar::Span;
use marsc_runtime::{ArrayData, Scalar};
use std::cell::RefCell;
use std::rc::Rc;

/// Runs the stages of a program whose lowering needs tensor values.
pub trait Stager {
    /// Runs `lowering`: its program outputs but the last are the program's own
    /// (shown in order, as a run shows them); the last prints the tensor whose
    /// value is wanted, which is returned (all of it; only small tensors are
    /// asked for). `None` when the stage failed: the stager keeps the error, and
    /// lowering stops.
    fn run_stage(&mut self, lowering: super::incremental::SessionLowering) -> Option<Staged>;
}

/// What a stage gives back.
pub struct Staged {
    /// The wanted tensor's value.
    pub value: ArrayData,
    /// Per print handle of the stage's lowering: the step key its chunks are all
    /// cached under, if they are.
    pub cached: Vec<Option<u64>>,
}

/// A stager shared by a session and the lowering state it drives.
pub type SharedStager<'o> = Rc<RefCell<dyn Stager + 'o>>;

/// The most elements a staged value may have (`tolist()` of a bigger tensor would
/// be a Python list too long to hold as a compile-time value).
pub(super) const MAX_STAGED_ELEMENTS: usize = 1000;

impl Lowerer<'_> {
    /// The whole value of tensor `id`, computed in a stage; `None` when no stage can
    /// run (an error was reported, a stage failed, or the script is lowered as a
    /// whole and must now run in stages), after which lowering is halted.
    pub(super) fn stage_value(&mut self, id: TileableId, span: Span) -> Option<ArrayData> {
        if self.halted {
            return None;
        }
        if !self.diagnostics.is_empty() {
            // The errors so far are reported before anything runs.
            self.halted = true;
            return None;
        }
        let Some(stager) = self.stager.clone() else {
            self.needs_stages.get_or_insert(span);
            self.halted = true;
            return None;
        };
        self.graph.outputs.push(Output::Print {
            items: vec![PrintItem::Tensor(id)],
            sep: String::new(),
            end: String::new(),
            span,
        });
        let value = match self.take_lowering() {
            Ok(lowering) => {
                let handles = lowering.handles.clone();
                let staged = stager.borrow_mut().run_stage(lowering);
                staged.map(|staged| {
                    self.materialize(&handles, &staged.cached);
                    staged.value
                })
            }
            Err(diagnostics) => {
                self.diagnostics.extend(diagnostics);
                None
            }
        };
        if value.is_none() {
            self.halted = true;
        }
        value
    }

    /// Python's `bool(value)`: a one-element tensor's truth is its value's, computed
    /// in a stage; NumPy's error for a tensor of another size (known from its
    /// shape); `None` for poison, or when no stage could run.
    pub(super) fn truth(&mut self, value: &Value, span: Span) -> super::LowerResult<Option<bool>> {
        match value {
            Value::Poison => Ok(None),
            Value::Tensor(id) => {
                if let Some(error) = super::builtins::truth_error(self.size(*id), span) {
                    return Err(error);
                }
                Ok(self
                    .staged_scalar(*id, span)
                    .and_then(|v| super::fold::truthy(&v)))
            }
            other => Ok(super::fold::truthy(other)),
        }
    }

    /// The Python scalar a size-1 tensor's value is (`t.item()`): a `bool`, an
    /// `int` or a `float` by its dtype. `None` as [`stage_value`](Self::stage_value).
    pub(super) fn staged_scalar(&mut self, id: TileableId, span: Span) -> Option<Value> {
        let data = self.stage_value(id, span)?;
        let scalar = data.get_flat(0)?;
        self.python_value(scalar, span)
    }

    /// `python_scalar`, or `None` with a diagnostic for a uint64 beyond int64 (a
    /// Python int marsc cannot hold yet).
    fn python_value(&mut self, scalar: Scalar, span: Span) -> Option<Value> {
        let value = python_scalar(scalar);
        if value.is_none() {
            self.diagnostics.push(Diagnostic::error(
                format!(
                    "not supported yet: the uint64 value {scalar} as a Python int (beyond int64)"
                ),
                span,
            ));
        }
        value
    }

    /// `int(t)`, `float(t)`, `bool(t)` of a tensor the shape allows: Python's
    /// conversion of its scalar.
    pub(super) fn convert_staged(
        &mut self,
        py_type: PyType,
        id: TileableId,
        span: Span,
    ) -> super::LowerResult<Value> {
        match self.staged_scalar(id, span) {
            Some(value) => super::call::convert_python(py_type, Some(Arg { value, span })),
            None => Ok(Value::Poison),
        }
    }

    /// NumPy's `repr()` of tensor `id` (as the REPL echoes it: a 0-d tensor as a
    /// NumPy scalar), computed in a stage; `None` as [`stage_value`](Self::stage_value).
    pub(super) fn staged_repr(&mut self, id: TileableId, span: Span) -> Option<String> {
        self.staged_text(id, span, true)
    }

    /// NumPy's `str()` of tensor `id` (a 0-d tensor's as its scalar's), computed in
    /// a stage; `None` as [`stage_value`](Self::stage_value).
    pub(super) fn staged_str(&mut self, id: TileableId, span: Span) -> Option<String> {
        self.staged_text(id, span, false)
    }

    /// `repr()` or `str()` of tensor `id`: a stage fetches it (only its corners when
    /// printing would summarize it).
    fn staged_text(&mut self, id: TileableId, span: Span, repr: bool) -> Option<String> {
        use marsc_runtime::format::{format_corners, format_scalar, repr_corners, repr_scalar};
        let shape = self.shape(id).to_vec();
        let data = self.stage_value(id, span)?;
        Some(match (shape.is_empty(), repr) {
            (true, true) => repr_scalar(data.get_flat(0)?),
            (true, false) => format_scalar(data.get_flat(0)?),
            (false, true) => repr_corners(&data, &shape),
            (false, false) => format_corners(&data, &shape),
        })
    }

    /// `t.tolist()`: nested Python lists of the tensor's scalars (a 0-d tensor's
    /// is its scalar), as NumPy gives.
    pub(super) fn staged_list(&mut self, id: TileableId, span: Span) -> Option<Value> {
        let shape = self.shape(id).to_vec();
        let data = self.stage_value(id, span)?;
        let scalars = (0..data.len())
            .filter_map(|i| data.get_flat(i))
            .map(|scalar| self.python_value(scalar, span))
            .collect::<Option<Vec<Value>>>()?;
        Some(nest(&shape, &scalars))
    }
}

/// A tensor element as the Python scalar NumPy's `item()` gives; `None` for a uint64
/// beyond int64 (marsc's Python ints are 64-bit).
pub(super) fn python_scalar(scalar: Scalar) -> Option<Value> {
    Some(match scalar {
        Scalar::Bool(b) => Value::Bool(b),
        Scalar::Float16(v) => Value::Float(v.to_f64()),
        Scalar::Float32(v) => Value::Float(v as f64),
        Scalar::Float64(v) => Value::Float(v),
        Scalar::Complex64(v) => Value::Complex(v.re().into(), v.im().into()),
        Scalar::Complex128(v) => Value::Complex(v.re(), v.im()),
        int => Value::Int(i64::try_from(int.as_i128()?).ok()?),
    })
}

/// C-order `items` as nested lists of `shape`.
fn nest(shape: &[usize], items: &[Value]) -> Value {
    match shape.split_first() {
        None => items.first().cloned().unwrap_or(Value::None),
        Some((&n, rest)) => {
            let stride: usize = rest.iter().product();
            let rows = (0..n)
                .map(|i| nest(rest, &items[i * stride..(i + 1) * stride]))
                .collect();
            Value::sequence(rows, true)
        }
    }
}
