//! f-strings (and `str.format`'s fields): each field's value converted (`!r`, `!s`,
//! `!a`) and formatted with its spec as Python does (`format_spec.rs`). A Python
//! value formats at compile time; a tensor's value is computed in a stage (staged
//! execution): a 0-d tensor formats as the NumPy scalar it is (a Python `int`,
//! `float` or `bool` to `format`), a larger one shows NumPy's `str()` and takes no
//! spec (NumPy's `TypeError`). Python's `repr()` and `str()` give the same texts.

use super::bind::BoundArgs;
use super::format_spec::{format_value, Formattable};
use super::pyfmt::{python_repr_with, python_str_with};
use super::value::Value;
use super::{LowerResult, Lowerer};
use marsc_grammar::ast::FPiece;
use marsc_grammar::{Diagnostic, Span};

impl Lowerer<'_> {
    /// The string an f-string makes; poison when a field's value could not be had.
    pub(super) fn fstring(&mut self, pieces: &[FPiece]) -> Value {
        let mut out = String::new();
        for piece in pieces {
            match piece {
                FPiece::Text(text) => out.push_str(text),
                FPiece::Field {
                    expr,
                    debug,
                    conversion,
                    spec,
                } => {
                    let value = self.eval(expr);
                    if value.is_poison() {
                        return Value::Poison;
                    }
                    if let Some(debug) = debug {
                        out.push_str(debug);
                    }
                    // `{x=}` shows the repr unless a conversion or a spec is given.
                    let conversion = match (conversion, debug) {
                        (None, Some(_)) if spec.is_empty() => Some('r'),
                        (conversion, _) => *conversion,
                    };
                    match self.format_field(&value, conversion, spec, expr.span) {
                        Ok(Some(text)) => out.push_str(&text),
                        Ok(None) => return Value::Poison,
                        Err(diagnostic) => return self.report(diagnostic),
                    }
                }
            }
        }
        Value::str(&out)
    }

    /// `format(conversion(value), spec)`; `None` when a stage could not run.
    pub(super) fn format_field(
        &mut self,
        value: &Value,
        conversion: Option<char>,
        spec: &str,
        span: Span,
    ) -> LowerResult<Option<String>> {
        let formatted = |result: Result<String, super::format_spec::FormatError>| {
            result
                .map(Some)
                .map_err(|message| Diagnostic::error(message, span))
        };
        match conversion {
            Some('r' | 'a') => {
                let Some(text) = python_repr_with(value, &mut |id| self.staged_repr(id, span))
                else {
                    return Ok(None);
                };
                return formatted(format_value(Formattable::Str(&text), spec));
            }
            Some(_) => {
                let Some(text) = self.python_str_of(value, span) else {
                    return Ok(None);
                };
                return formatted(format_value(Formattable::Str(&text), spec));
            }
            None => {}
        }
        let scalar = match value {
            Value::Tensor(id) if self.shape(*id).is_empty() => {
                match self.staged_scalar(*id, span) {
                    Some(scalar) => scalar,
                    None => return Ok(None),
                }
            }
            other => other.clone(),
        };
        match &scalar {
            Value::Int(v) => formatted(format_value(Formattable::Int(*v), spec)),
            Value::Float(v) => formatted(format_value(Formattable::Float(*v), spec)),
            Value::Bool(b) => formatted(format_value(Formattable::Bool(*b), spec)),
            Value::Str(s) => formatted(format_value(Formattable::Str(s), spec)),
            other if spec.is_empty() => Ok(self.python_str_of(other, span)),
            Value::Tensor(_) => Err(Diagnostic::error(
                "unsupported format string passed to numpy.ndarray.__format__",
                span,
            )
            .with_help(
                "format one element (`x[0]`) or a 0-d result (`x.sum()`), or drop the spec",
            )),
            other => Err(Diagnostic::error(
                format!(
                    "unsupported format string passed to {}.__format__",
                    other.type_name()
                ),
                span,
            )),
        }
    }

    /// Python's `repr(obj)` (`is_repr`) or `str(object='')`: the text of the
    /// conversions `!r` and `!s`, a tensor's NumPy `repr()` (as the REPL echoes it)
    /// or `str()` computed in a stage; poison when no stage could run.
    pub(super) fn text_builtin(&mut self, is_repr: bool, args: &BoundArgs) -> Value {
        let arg = args.get(if is_repr { "obj" } else { "object" });
        let span = arg.span;
        let text = match is_repr {
            true => python_repr_with(&arg.value, &mut |id| self.staged_repr(id, span)),
            false => self.python_str_of(&arg.value, span),
        };
        text.map_or(Value::Poison, |text| Value::str(&text))
    }

    /// Python's `str(value)`, a tensor's (and those a tuple holds) computed in a
    /// stage; `None` when no stage could run.
    fn python_str_of(&mut self, value: &Value, span: Span) -> Option<String> {
        match value {
            Value::Tensor(id) => self.staged_str(*id, span),
            other => python_str_with(other, &mut |id| self.staged_repr(id, span)),
        }
    }
}

impl Lowerer<'_> {
    /// `template.format(*args, **kwargs)`: Python's `str.format` with the fields
    /// `{}`, `{0}`, `{name}`, each with its conversion and spec (attribute and index
    /// lookups in a field, and fields inside a spec, are "not supported yet").
    pub(super) fn str_format(
        &mut self,
        template: &str,
        args: &[marsc_grammar::ast::Arg],
        span: Span,
    ) -> Value {
        let mut positional = Vec::new();
        let mut keywords: Vec<(String, Value, Span)> = Vec::new();
        for arg in args {
            let value = self.eval(&arg.value);
            if value.is_poison() {
                return Value::Poison;
            }
            match &arg.name {
                Some(name) => keywords.push((name.name.clone(), value, arg.value.span)),
                None => positional.push((value, arg.value.span)),
            }
        }
        match self.fill_template(template, &positional, &keywords, span) {
            Ok(Some(text)) => Value::str(&text),
            Ok(None) => Value::Poison,
            Err(diagnostic) => self.report(diagnostic),
        }
    }

    fn fill_template(
        &mut self,
        template: &str,
        positional: &[(Value, Span)],
        keywords: &[(String, Value, Span)],
        span: Span,
    ) -> LowerResult<Option<String>> {
        let error = |message: String| Diagnostic::error(message, span);
        let mut out = String::new();
        let mut auto: Option<usize> = None;
        let mut manual = false;
        let mut rest = template;
        while let Some(at) = rest.find(['{', '}']) {
            out.push_str(&rest[..at]);
            let brace = rest.as_bytes()[at];
            let after = &rest[at + 1..];
            if after.as_bytes().first() == Some(&brace) {
                out.push(brace as char);
                rest = &after[1..];
                continue;
            }
            if brace == b'}' {
                return Err(error("Single '}' encountered in format string".into()));
            }
            let close = after
                .find('}')
                .ok_or_else(|| error("expected '}' before end of string".into()))?;
            let field = &after[..close];
            if field.contains('{') {
                return Err(error(
                    "not supported yet: a replacement field inside a format spec".into(),
                ));
            }
            let (head, spec) = field.split_once(':').unwrap_or((field, ""));
            let (name, conversion) = match head.split_once('!') {
                Some((name, c)) => match c {
                    "r" | "s" | "a" => (name, c.chars().next()),
                    _ => return Err(error("expected ':' after conversion specifier".into())),
                },
                None => (head, None),
            };
            if name.contains(['.', '[']) {
                return Err(error(format!(
                    "not supported yet: attribute or index lookups in a format field (`{{{name}}}`)"
                )));
            }
            let index = if name.is_empty() {
                if manual {
                    return Err(error(
                        "cannot switch from manual field specification to automatic field numbering"
                            .into(),
                    ));
                }
                let index = auto.map_or(0, |i| i + 1);
                auto = Some(index);
                Some(index)
            } else if let Ok(index) = name.parse::<usize>() {
                if auto.is_some() {
                    return Err(error(
                        "cannot switch from automatic field numbering to manual field specification"
                            .into(),
                    ));
                }
                manual = true;
                Some(index)
            } else {
                None
            };
            let value = if let Some(index) = index {
                positional
                    .get(index)
                    .map(|(v, s)| (v.clone(), *s))
                    .ok_or_else(|| {
                        error(format!(
                            "Replacement index {index} out of range for positional args tuple"
                        ))
                    })?
            } else {
                keywords
                    .iter()
                    .find(|(k, ..)| k == name)
                    .map(|(_, v, s)| (v.clone(), *s))
                    .ok_or_else(|| error(format!("KeyError: '{name}'")))?
            };
            match self.format_field(&value.0, conversion, spec, value.1)? {
                Some(text) => out.push_str(&text),
                None => return Ok(None),
            }
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        Ok(Some(out))
    }
}
