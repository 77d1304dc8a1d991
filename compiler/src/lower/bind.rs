//! Binds a call's positional and keyword arguments to a [`Signature`]'s parameters
//! the way Python does, with Python's errors for too many, missing, unknown and
//! duplicate arguments, and pulls out `chunks=` / `chunk_size=` for the functions
//! that take it.

use super::library::{Default, FuncId, Param, Pass, Signature};
use super::names::closest;
use super::value::Value;
use marsc_grammar::{Diagnostic, Span};

/// An evaluated argument with the span of its source text.
#[derive(Clone, Debug)]
pub(crate) struct Arg {
    pub value: Value,
    pub span: Span,
}

/// An argument of a call as written, after evaluation.
pub(crate) struct CallArg {
    pub keyword: Option<(String, Span)>,
    pub value: Value,
    pub span: Span,
}

/// The arguments of one call, one slot per parameter of the signature.
pub(crate) struct BoundArgs {
    pub func: FuncId,
    pub call_span: Span,
    slots: Vec<Option<Arg>>,
    /// `chunks=` or `chunk_size=`, for functions that take it.
    pub chunks: Option<Arg>,
    /// The tensor a method was called on.
    receiver: Option<Arg>,
    /// The individual arguments a `*args` parameter collected.
    rest: Vec<Arg>,
    /// The keyword arguments a `**kwargs` parameter collected, in call order.
    keywords: Vec<(String, Span, Arg)>,
}

impl BoundArgs {
    pub fn signature(&self) -> &'static Signature {
        self.func.signature()
    }

    fn position(&self, name: &str) -> usize {
        self.signature()
            .params
            .iter()
            .position(|p| p.name == name)
            .unwrap_or_else(|| panic!("`{}` has no parameter `{name}`", self.signature().name))
    }

    /// The arguments the call gave (the receiver first), in parameter order.
    pub fn given_args(&self) -> impl Iterator<Item = &Arg> {
        self.receiver
            .iter()
            .chain(self.slots.iter().flatten())
            .chain(self.rest.iter())
    }

    /// The argument the call gave for `name`, if any.
    pub fn given(&self, name: &str) -> Option<&Arg> {
        self.slots[self.position(name)].as_ref()
    }

    /// The argument for `name`, or its default (spanning the whole call).
    pub fn get(&self, name: &str) -> Arg {
        let index = self.position(name);
        if let Some(arg) = &self.slots[index] {
            return arg.clone();
        }
        let value = match self.signature().params[index].default {
            Default::Int(v) => Value::Int(v),
            Default::Float(v) => Value::Float(v),
            Default::Bool(v) => Value::Bool(v),
            Default::Str(text) => Value::str(text),
            Default::Required | Default::None | Default::Unsupported => Value::None,
        };
        Arg {
            value,
            span: self.call_span,
        }
    }

    /// The tensor a method-only builtin was called on.
    pub fn receiver(&self) -> Arg {
        self.receiver
            .clone()
            .expect("method-only builtins are reached through a receiver")
    }

    /// The arguments collected by the `*args` parameter, each with its own span.
    pub fn rest(&self) -> &[Arg] {
        &self.rest
    }

    /// The keyword arguments a `**kwargs` parameter collected: name, its span, value.
    pub fn keywords(&self) -> &[(String, Span, Arg)] {
        &self.keywords
    }

    /// True when any argument is poisoned (an error was already reported for it).
    pub fn any_poison(&self) -> bool {
        self.slots
            .iter()
            .chain(std::iter::once(&self.chunks))
            .flatten()
            .any(|arg| arg.value.is_poison())
    }
}

/// Binds `args` (and the method receiver, if any) to `func`'s parameters.
pub(crate) fn bind(
    func: FuncId,
    receiver: Option<Arg>,
    args: Vec<CallArg>,
    call_span: Span,
) -> Result<BoundArgs, Diagnostic> {
    let signature = func.signature();
    let params = signature.call_params(receiver.is_some());
    let offset = signature.params.len() - params.len();
    let mut bound = BoundArgs {
        func,
        call_span,
        slots: vec![None; signature.params.len()],
        chunks: None,
        receiver: receiver.clone(),
        rest: Vec::new(),
        keywords: Vec::new(),
    };
    if offset == 1 {
        bound.slots[0] = receiver;
    }
    let mut positionals = Vec::new();
    let mut keywords = Vec::new();
    for arg in args {
        match arg.keyword {
            Some((name, name_span)) => keywords.push((name, name_span, arg.value, arg.span)),
            None if !keywords.is_empty() => {
                return Err(Diagnostic::error(
                    "positional argument follows keyword argument",
                    arg.span,
                ))
            }
            None => positionals.push(Arg {
                value: arg.value,
                span: arg.span,
            }),
        }
    }
    bind_positionals(&mut bound, params, offset, positionals)?;
    for (name, name_span, value, span) in keywords {
        bind_keyword(
            &mut bound,
            params,
            offset,
            &name,
            name_span,
            Arg { value, span },
        )?;
    }
    check_complete(&bound, params, offset)?;
    Ok(bound)
}

fn bind_positionals(
    bound: &mut BoundArgs,
    params: &[Param],
    offset: usize,
    positionals: Vec<Arg>,
) -> Result<(), Diagnostic> {
    let mut arguments = positionals.into_iter().peekable();
    for (i, param) in params.iter().enumerate() {
        match param.pass {
            Pass::PositionalOnly | Pass::Either => match arguments.next() {
                Some(arg) => bound.slots[offset + i] = Some(arg),
                None => return Ok(()),
            },
            Pass::VarPositional => {
                let rest: Vec<Arg> = arguments.by_ref().collect();
                let span = match (rest.first(), rest.last()) {
                    (Some(first), Some(last)) => first.span.to(last.span),
                    _ => bound.call_span,
                };
                let values = rest.iter().map(|a| a.value.clone()).collect();
                bound.slots[offset + i] = Some(Arg {
                    value: Value::sequence(values, false),
                    span,
                });
                bound.rest = rest;
            }
            Pass::KeywordOnly | Pass::VarKeyword => {}
        }
    }
    let given = arguments.len();
    match arguments.next() {
        None => Ok(()),
        Some(extra) => Err(too_many_positionals(
            bound.signature(),
            params,
            extra.span,
            given,
        )),
    }
}

fn too_many_positionals(
    signature: &Signature,
    params: &[Param],
    span: Span,
    extra: usize,
) -> Diagnostic {
    let positional = params
        .iter()
        .filter(|p| matches!(p.pass, Pass::PositionalOnly | Pass::Either));
    let most = positional.clone().count();
    let least = positional
        .filter(|p| p.default == Default::Required)
        .count();
    let takes = match (least == most, most) {
        (true, 0) => "no positional arguments".to_string(),
        (true, 1) => "1 positional argument".to_string(),
        (true, n) => format!("{n} positional arguments"),
        (false, _) => format!("from {least} to {most} positional arguments"),
    };
    let given = most + extra;
    let verb = if given == 1 { "was" } else { "were" };
    Diagnostic::error(
        format!(
            "`{}()` takes {takes} but {given} {verb} given",
            signature.name
        ),
        span,
    )
    .with_label("unexpected argument")
}

fn bind_keyword(
    bound: &mut BoundArgs,
    params: &[Param],
    offset: usize,
    name: &str,
    name_span: Span,
    arg: Arg,
) -> Result<(), Diagnostic> {
    let signature = bound.signature();
    let function = signature.name;
    // `rechunk` takes the spec as its own parameter, under either name.
    let takes_chunks_param = params.iter().any(|p| p.name == "chunks");
    let name = if takes_chunks_param && name == "chunk_size" {
        "chunks"
    } else {
        name
    };
    if (name == "chunks" || name == "chunk_size") && !takes_chunks_param {
        if !signature.chunks {
            return Err(Diagnostic::error(
                format!("`{function}()` got an unexpected keyword argument `{name}`"),
                name_span,
            )
            .with_help(
                "`chunks=` is taken by creation, random and `load` functions; \
                 to change a tensor's chunks use `x.rechunk(...)`",
            ));
        }
        if bound.chunks.is_some() {
            return Err(Diagnostic::error(
                format!("`{function}()` got more than one chunk specification"),
                arg.span,
            )
            .with_help("`chunks=` and `chunk_size=` are synonyms; give only one"));
        }
        bound.chunks = Some(arg);
        return Ok(());
    }
    let found = params
        .iter()
        .position(|p| p.name == name && !matches!(p.pass, Pass::VarPositional | Pass::VarKeyword));
    let Some(index) = found else {
        if params.iter().any(|p| p.pass == Pass::VarKeyword) {
            bound.keywords.push((name.to_string(), name_span, arg));
            return Ok(());
        }
        let mut diagnostic = Diagnostic::error(
            format!("`{function}()` got an unexpected keyword argument `{name}`"),
            name_span,
        );
        let known = params
            .iter()
            .filter(|p| matches!(p.pass, Pass::Either | Pass::KeywordOnly))
            .map(|p| p.name)
            .chain(signature.chunks.then_some("chunks"));
        if let Some(suggestion) = closest(name, known) {
            diagnostic = diagnostic.with_help(format!("did you mean `{suggestion}`?"));
        }
        return Err(diagnostic);
    };
    if params[index].pass == Pass::PositionalOnly {
        return Err(Diagnostic::error(
            format!("`{function}()` takes `{name}` only as a positional argument"),
            name_span,
        ));
    }
    let slot = &mut bound.slots[offset + index];
    if slot.is_some() {
        return Err(Diagnostic::error(
            format!("`{function}()` got multiple values for argument `{name}`"),
            arg.span,
        ));
    }
    *slot = Some(arg);
    Ok(())
}

fn check_complete(bound: &BoundArgs, params: &[Param], offset: usize) -> Result<(), Diagnostic> {
    let function = bound.signature().name;
    for (i, param) in params.iter().enumerate() {
        let slot = &bound.slots[offset + i];
        match (param.default, slot) {
            (Default::Required, None) if param.pass != Pass::VarPositional => {
                return Err(Diagnostic::error(
                    format!("`{function}()` missing required argument `{}`", param.name),
                    bound.call_span,
                ));
            }
            (Default::Unsupported, Some(arg)) if arg.value != Value::None => {
                return Err(Diagnostic::error(
                    format!(
                        "not supported yet: the `{}` argument of `{function}()`",
                        param.name
                    ),
                    arg.span,
                ));
            }
            _ => {}
        }
    }
    Ok(())
}
