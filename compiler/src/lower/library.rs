//! The declarative table of every version-1 library function, method and builtin:
//! its name, where it is reachable (`mt.`/`np.`/bare, `mt.random.`, builtins,
//! methods), NumPy's parameters with their defaults and passing conventions, whether
//! it takes `chunks=`, and which lowering builds it. Argument binding
//! ([`super::bind`]) reads only this table, so adding a function is one entry here
//! plus its builder.

use marsc_runtime::ops::{BinaryOp, ReduceOp, ScanOp, UnaryOp};

/// Index of a [`Signature`] in [`LIBRARY`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FuncId(u16);

impl FuncId {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn signature(self) -> &'static Signature {
        &LIBRARY[self.index()]
    }
}

/// A parameter's default when the call omits it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Default {
    Required,
    None,
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(&'static str),
    /// NumPy has the parameter but marsc does not implement it: it must be omitted
    /// or `None`.
    Unsupported,
}

/// How a parameter may be passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    PositionalOnly,
    Either,
    KeywordOnly,
    /// `*args`: collects the remaining positional arguments into a tuple.
    VarPositional,
    /// `**kwargs`: swallows unknown keywords (only `execute`, for Mars scripts that
    /// pass session options).
    VarKeyword,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Param {
    pub name: &'static str,
    pub default: Default,
    pub pass: Pass,
}

/// Where a function is reachable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Home {
    /// `mt.NAME`, `np.NAME` and bare `NAME`.
    Library,
    /// `mt.random.NAME`.
    Random,
    /// A Python builtin (`print`, `abs`, `len`), reachable bare only.
    Builtin,
    /// Only as a tensor method `x.NAME(...)`; the receiver is not among `params`.
    MethodOnly,
}

/// Which lowering builds a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    Unary(UnaryOp),
    Binary(BinaryOp),
    Reduce(ReduceOp),
    Scan(ScanOp),
    Tensor,
    Fill(FillKind),
    Full,
    FillLike(FillKind),
    FullLike,
    Arange,
    Linspace,
    Eye,
    Identity,
    Load,
    Save,
    Seed,
    Random(RandomKind),
    Where,
    Clip,
    Astype,
    MatMul,
    Dot,
    Outer,
    Transpose,
    TransposeMethod,
    Reshape,
    ReshapeMethod,
    Ravel,
    ExpandDims,
    Squeeze,
    SwapAxes,
    Concatenate,
    Stack,
    HStack,
    VStack,
    BroadcastTo,
    Rechunk,
    Execute,
    Copy,
    Print,
    Abs,
    Len,
}

/// The constant of `ones`/`zeros`/`empty` (`empty` is zeros: values are unspecified
/// in NumPy, and zeros keep results deterministic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FillKind {
    Ones,
    Zeros,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RandomKind {
    Rand,
    Randn,
    Random,
    Uniform,
    Normal,
    Randint,
}

pub(crate) struct Signature {
    pub name: &'static str,
    pub home: Home,
    /// Also callable as a method, with the receiver as the first parameter.
    pub method: bool,
    pub params: &'static [Param],
    /// Accepts `chunks=` / `chunk_size=`.
    pub chunks: bool,
    pub builtin: Builtin,
}

impl Signature {
    /// The parameters a call supplies: without the receiver for a method call.
    pub fn call_params(&self, as_method: bool) -> &'static [Param] {
        if as_method && self.home != Home::MethodOnly {
            &self.params[1..]
        } else {
            self.params
        }
    }
}

const fn req(name: &'static str) -> Param {
    Param {
        name,
        default: Default::Required,
        pass: Pass::Either,
    }
}

const fn pos(name: &'static str) -> Param {
    Param {
        name,
        default: Default::Required,
        pass: Pass::PositionalOnly,
    }
}

const fn opt(name: &'static str, default: Default) -> Param {
    Param {
        name,
        default,
        pass: Pass::Either,
    }
}

const fn kw(name: &'static str, default: Default) -> Param {
    Param {
        name,
        default,
        pass: Pass::KeywordOnly,
    }
}

const fn unsupported(name: &'static str) -> Param {
    opt(name, Default::Unsupported)
}

const fn kw_unsupported(name: &'static str) -> Param {
    kw(name, Default::Unsupported)
}

const fn var_positional(name: &'static str) -> Param {
    Param {
        name,
        default: Default::Required,
        pass: Pass::VarPositional,
    }
}

const fn var_keyword(name: &'static str) -> Param {
    Param {
        name,
        default: Default::None,
        pass: Pass::VarKeyword,
    }
}

const NONE: Default = Default::None;

const UNARY: &[Param] = &[pos("x"), unsupported("out")];
const BINARY: &[Param] = &[pos("x1"), pos("x2"), unsupported("out")];
const SUM: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    opt("dtype", NONE),
    unsupported("out"),
    opt("keepdims", Default::Bool(false)),
    unsupported("initial"),
    unsupported("where"),
];
const MEAN: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    opt("dtype", NONE),
    unsupported("out"),
    opt("keepdims", Default::Bool(false)),
    kw_unsupported("where"),
];
const MAX: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    unsupported("out"),
    opt("keepdims", Default::Bool(false)),
    unsupported("initial"),
    unsupported("where"),
];
const VAR: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    opt("dtype", NONE),
    unsupported("out"),
    opt("ddof", Default::Int(0)),
    opt("keepdims", Default::Bool(false)),
    kw_unsupported("where"),
    kw_unsupported("mean"),
    kw_unsupported("correction"),
];
const ARGMAX: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    unsupported("out"),
    kw("keepdims", Default::Bool(false)),
];
const ALL: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    unsupported("out"),
    opt("keepdims", Default::Bool(false)),
    kw_unsupported("where"),
];
const COUNT_NONZERO: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    kw("keepdims", Default::Bool(false)),
];
const CUMSUM: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    opt("dtype", NONE),
    unsupported("out"),
];
const FILL: &[Param] = &[
    req("shape"),
    opt("dtype", NONE),
    opt("order", Default::Str("C")),
];
const FULL: &[Param] = &[
    req("shape"),
    req("fill_value"),
    opt("dtype", NONE),
    opt("order", Default::Str("C")),
];
const FILL_LIKE: &[Param] = &[
    req("a"),
    opt("dtype", NONE),
    opt("order", Default::Str("K")),
    opt("subok", Default::Bool(true)),
    opt("shape", NONE),
];
const FULL_LIKE: &[Param] = &[
    req("a"),
    req("fill_value"),
    opt("dtype", NONE),
    opt("order", Default::Str("K")),
    opt("subok", Default::Bool(true)),
    opt("shape", NONE),
];
const TENSOR: &[Param] = &[
    req("object"),
    opt("dtype", NONE),
    kw("copy", Default::Bool(true)),
    kw("order", Default::Str("K")),
    kw_unsupported("ndmin"),
];
const ARANGE: &[Param] = &[
    pos("start_or_stop"),
    opt("stop", NONE),
    opt("step", NONE),
    kw("dtype", NONE),
];
const LINSPACE: &[Param] = &[
    req("start"),
    req("stop"),
    opt("num", Default::Int(50)),
    opt("endpoint", Default::Bool(true)),
    opt("retstep", Default::Bool(false)),
    opt("dtype", NONE),
    opt("axis", Default::Int(0)),
];
const EYE: &[Param] = &[
    req("N"),
    opt("M", NONE),
    opt("k", Default::Int(0)),
    opt("dtype", NONE),
    opt("order", Default::Str("C")),
];
const IDENTITY: &[Param] = &[req("n"), opt("dtype", NONE)];
const LOAD: &[Param] = &[
    req("file"),
    unsupported("mmap_mode"),
    opt("allow_pickle", Default::Bool(false)),
];
const SAVE: &[Param] = &[
    req("file"),
    req("arr"),
    opt("allow_pickle", Default::Bool(true)),
];
const SIZE_ONLY: &[Param] = &[opt("size", NONE)];
const DIMS: &[Param] = &[var_positional("dims")];
const UNIFORM: &[Param] = &[
    opt("low", Default::Float(0.0)),
    opt("high", Default::Float(1.0)),
    opt("size", NONE),
];
const NORMAL: &[Param] = &[
    opt("loc", Default::Float(0.0)),
    opt("scale", Default::Float(1.0)),
    opt("size", NONE),
];
const RANDINT: &[Param] = &[
    req("low"),
    opt("high", NONE),
    opt("size", NONE),
    opt("dtype", NONE),
];
const SEED: &[Param] = &[opt("seed", NONE)];
const WHERE: &[Param] = &[pos("condition"), pos("x"), pos("y")];
const CLIP: &[Param] = &[
    req("a"),
    opt("a_min", NONE),
    opt("a_max", NONE),
    unsupported("out"),
    kw("min", NONE),
    kw("max", NONE),
];
const CLIP_METHOD: &[Param] = &[opt("min", NONE), opt("max", NONE), unsupported("out")];
const ASTYPE: &[Param] = &[
    req("dtype"),
    opt("order", Default::Str("K")),
    opt("casting", Default::Str("unsafe")),
    opt("subok", Default::Bool(true)),
    opt("copy", Default::Bool(true)),
];
const MATMUL: &[Param] = &[pos("x1"), pos("x2"), unsupported("out")];
const DOT: &[Param] = &[req("a"), req("b"), unsupported("out")];
const TRANSPOSE: &[Param] = &[req("a"), opt("axes", NONE)];
const AXES_VARARGS: &[Param] = &[var_positional("axes")];
const RESHAPE: &[Param] = &[
    pos("a"),
    req("shape"),
    opt("order", Default::Str("C")),
    kw("copy", NONE),
];
const RESHAPE_METHOD: &[Param] = &[
    var_positional("shape"),
    kw("order", Default::Str("C")),
    kw("copy", NONE),
];
const RAVEL: &[Param] = &[req("a"), opt("order", Default::Str("C"))];
const ORDER_ONLY: &[Param] = &[opt("order", Default::Str("C"))];
const EXPAND_DIMS: &[Param] = &[req("a"), req("axis")];
const SQUEEZE: &[Param] = &[req("a"), opt("axis", NONE)];
const SWAPAXES: &[Param] = &[req("a"), req("axis1"), req("axis2")];
const CONCATENATE: &[Param] = &[
    pos("arrays"),
    opt("axis", Default::Int(0)),
    unsupported("out"),
    kw("dtype", NONE),
    kw_unsupported("casting"),
];
const STACK: &[Param] = &[
    req("arrays"),
    opt("axis", Default::Int(0)),
    unsupported("out"),
    kw("dtype", NONE),
    kw_unsupported("casting"),
];
const HSTACK: &[Param] = &[req("tup"), kw("dtype", NONE), kw_unsupported("casting")];
const BROADCAST_TO: &[Param] = &[
    req("array"),
    req("shape"),
    opt("subok", Default::Bool(false)),
];
const RECHUNK: &[Param] = &[req("chunks")];
const EXECUTE: &[Param] = &[opt("session", NONE), var_keyword("kwargs")];
const PRINT: &[Param] = &[
    var_positional("objects"),
    kw("sep", Default::Str(" ")),
    kw("end", Default::Str("\n")),
    kw_unsupported("file"),
    kw("flush", Default::Bool(false)),
];
const ONE_OBJECT: &[Param] = &[pos("x")];

const fn entry(name: &'static str, params: &'static [Param], builtin: Builtin) -> Signature {
    Signature {
        name,
        home: Home::Library,
        method: false,
        params,
        chunks: false,
        builtin,
    }
}

/// A library function that is also a tensor method (`x.sum(...)`).
const fn with_method(name: &'static str, params: &'static [Param], builtin: Builtin) -> Signature {
    Signature {
        method: true,
        ..entry(name, params, builtin)
    }
}

/// A creation function: takes `chunks=`.
const fn creation(name: &'static str, params: &'static [Param], builtin: Builtin) -> Signature {
    Signature {
        chunks: true,
        ..entry(name, params, builtin)
    }
}

const fn random(name: &'static str, params: &'static [Param], kind: RandomKind) -> Signature {
    Signature {
        home: Home::Random,
        chunks: true,
        ..entry(name, params, Builtin::Random(kind))
    }
}

const fn method(name: &'static str, params: &'static [Param], builtin: Builtin) -> Signature {
    Signature {
        home: Home::MethodOnly,
        ..entry(name, params, builtin)
    }
}

const fn builtin(name: &'static str, params: &'static [Param], builtin: Builtin) -> Signature {
    Signature {
        home: Home::Builtin,
        ..entry(name, params, builtin)
    }
}

const fn unary(name: &'static str, op: UnaryOp) -> Signature {
    entry(name, UNARY, Builtin::Unary(op))
}

const fn binary(name: &'static str, op: BinaryOp) -> Signature {
    entry(name, BINARY, Builtin::Binary(op))
}

use BinaryOp as B;
use Builtin as F;
use UnaryOp as U;

/// Every function, method and builtin. Lookups scan this table by name and home;
/// within one home a name appears once.
pub(crate) static LIBRARY: &[Signature] = &[
    // ---- creation ----
    creation("tensor", TENSOR, F::Tensor),
    creation("array", TENSOR, F::Tensor),
    creation("asarray", TENSOR, F::Tensor),
    creation("ones", FILL, F::Fill(FillKind::Ones)),
    creation("zeros", FILL, F::Fill(FillKind::Zeros)),
    creation("empty", FILL, F::Fill(FillKind::Zeros)),
    creation("full", FULL, F::Full),
    creation("ones_like", FILL_LIKE, F::FillLike(FillKind::Ones)),
    creation("zeros_like", FILL_LIKE, F::FillLike(FillKind::Zeros)),
    creation("empty_like", FILL_LIKE, F::FillLike(FillKind::Zeros)),
    creation("full_like", FULL_LIKE, F::FullLike),
    creation("arange", ARANGE, F::Arange),
    creation("linspace", LINSPACE, F::Linspace),
    creation("eye", EYE, F::Eye),
    creation("identity", IDENTITY, F::Identity),
    creation("load", LOAD, F::Load),
    entry("save", SAVE, F::Save),
    // ---- random ----
    Signature {
        home: Home::Random,
        ..entry("seed", SEED, F::Seed)
    },
    random("rand", DIMS, RandomKind::Rand),
    random("randn", DIMS, RandomKind::Randn),
    random("random", SIZE_ONLY, RandomKind::Random),
    random("random_sample", SIZE_ONLY, RandomKind::Random),
    random("uniform", UNIFORM, RandomKind::Uniform),
    random("normal", NORMAL, RandomKind::Normal),
    random("randint", RANDINT, RandomKind::Randint),
    // ---- element-wise unary ----
    unary("negative", U::Negative),
    unary("positive", U::Positive),
    unary("absolute", U::Absolute),
    unary("abs", U::Absolute),
    unary("sqrt", U::Sqrt),
    unary("square", U::Square),
    unary("exp", U::Exp),
    unary("expm1", U::Expm1),
    unary("log", U::Log),
    unary("log1p", U::Log1p),
    unary("log2", U::Log2),
    unary("log10", U::Log10),
    unary("sin", U::Sin),
    unary("cos", U::Cos),
    unary("tan", U::Tan),
    unary("arcsin", U::Arcsin),
    unary("arccos", U::Arccos),
    unary("arctan", U::Arctan),
    unary("sinh", U::Sinh),
    unary("cosh", U::Cosh),
    unary("tanh", U::Tanh),
    unary("floor", U::Floor),
    unary("ceil", U::Ceil),
    unary("trunc", U::Trunc),
    unary("rint", U::Rint),
    unary("sign", U::Sign),
    unary("reciprocal", U::Reciprocal),
    unary("isnan", U::IsNan),
    unary("isinf", U::IsInf),
    unary("isfinite", U::IsFinite),
    unary("logical_not", U::LogicalNot),
    unary("invert", U::Invert),
    unary("bitwise_not", U::Invert),
    // ---- element-wise binary ----
    binary("add", B::Add),
    binary("subtract", B::Subtract),
    binary("multiply", B::Multiply),
    binary("divide", B::Divide),
    binary("true_divide", B::Divide),
    binary("floor_divide", B::FloorDivide),
    binary("remainder", B::Remainder),
    binary("mod", B::Remainder),
    binary("power", B::Power),
    binary("maximum", B::Maximum),
    binary("minimum", B::Minimum),
    binary("fmax", B::Fmax),
    binary("fmin", B::Fmin),
    binary("arctan2", B::Arctan2),
    binary("hypot", B::Hypot),
    binary("equal", B::Equal),
    binary("not_equal", B::NotEqual),
    binary("less", B::Less),
    binary("less_equal", B::LessEqual),
    binary("greater", B::Greater),
    binary("greater_equal", B::GreaterEqual),
    binary("logical_and", B::LogicalAnd),
    binary("logical_or", B::LogicalOr),
    binary("logical_xor", B::LogicalXor),
    binary("bitwise_and", B::BitwiseAnd),
    binary("bitwise_or", B::BitwiseOr),
    binary("bitwise_xor", B::BitwiseXor),
    // ---- other element-wise ----
    entry("where", WHERE, F::Where),
    entry("clip", CLIP, F::Clip),
    method("clip", CLIP_METHOD, F::Clip),
    method("astype", ASTYPE, F::Astype),
    // ---- reductions and scans ----
    with_method("sum", SUM, F::Reduce(ReduceOp::Sum)),
    with_method("prod", SUM, F::Reduce(ReduceOp::Prod)),
    with_method("mean", MEAN, F::Reduce(ReduceOp::Mean)),
    with_method("max", MAX, F::Reduce(ReduceOp::Max)),
    entry("amax", MAX, F::Reduce(ReduceOp::Max)),
    with_method("min", MAX, F::Reduce(ReduceOp::Min)),
    entry("amin", MAX, F::Reduce(ReduceOp::Min)),
    with_method("var", VAR, F::Reduce(ReduceOp::Var)),
    with_method("std", VAR, F::Reduce(ReduceOp::Std)),
    with_method("argmax", ARGMAX, F::Reduce(ReduceOp::ArgMax)),
    with_method("argmin", ARGMAX, F::Reduce(ReduceOp::ArgMin)),
    with_method("all", ALL, F::Reduce(ReduceOp::All)),
    with_method("any", ALL, F::Reduce(ReduceOp::Any)),
    entry(
        "count_nonzero",
        COUNT_NONZERO,
        F::Reduce(ReduceOp::CountNonzero),
    ),
    with_method("cumsum", CUMSUM, F::Scan(ScanOp::CumSum)),
    with_method("cumprod", CUMSUM, F::Scan(ScanOp::CumProd)),
    // ---- linear algebra ----
    entry("matmul", MATMUL, F::MatMul),
    with_method("dot", DOT, F::Dot),
    entry("outer", DOT, F::Outer),
    entry("transpose", TRANSPOSE, F::Transpose),
    method("transpose", AXES_VARARGS, F::TransposeMethod),
    // ---- shape ----
    entry("reshape", RESHAPE, F::Reshape),
    method("reshape", RESHAPE_METHOD, F::ReshapeMethod),
    with_method("ravel", RAVEL, F::Ravel),
    method("flatten", ORDER_ONLY, F::Ravel),
    entry("expand_dims", EXPAND_DIMS, F::ExpandDims),
    with_method("squeeze", SQUEEZE, F::Squeeze),
    with_method("swapaxes", SWAPAXES, F::SwapAxes),
    entry("concatenate", CONCATENATE, F::Concatenate),
    entry("stack", STACK, F::Stack),
    entry("hstack", HSTACK, F::HStack),
    entry("vstack", HSTACK, F::VStack),
    entry("broadcast_to", BROADCAST_TO, F::BroadcastTo),
    // ---- chunking and Mars compatibility ----
    method("rechunk", RECHUNK, F::Rechunk),
    method("execute", EXECUTE, F::Execute),
    method("copy", ORDER_ONLY, F::Copy),
    // ---- Python builtins ----
    builtin("print", PRINT, F::Print),
    builtin("abs", ONE_OBJECT, F::Abs),
    builtin("len", ONE_OBJECT, F::Len),
];

/// The entry named `name` reachable from `home`.
pub(crate) fn find(name: &str, home: Home) -> Option<FuncId> {
    LIBRARY
        .iter()
        .position(|s| s.home == home && s.name == name)
        .map(|i| FuncId(i as u16))
}

/// The entry for the method `x.name(...)`.
pub(crate) fn find_method(name: &str) -> Option<FuncId> {
    LIBRARY
        .iter()
        .position(|s| s.name == name && (s.method || s.home == Home::MethodOnly))
        .map(|i| FuncId(i as u16))
}

/// Names reachable from `home` (for "did you mean" suggestions).
pub(crate) fn names(home: Home) -> impl Iterator<Item = &'static str> {
    LIBRARY
        .iter()
        .filter(move |s| s.home == home)
        .map(|s| s.name)
}

/// Names callable as methods.
pub(crate) fn method_names() -> impl Iterator<Item = &'static str> {
    LIBRARY
        .iter()
        .filter(|s| s.method || s.home == Home::MethodOnly)
        .map(|s| s.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_per_home() {
        for (i, a) in LIBRARY.iter().enumerate() {
            for b in &LIBRARY[i + 1..] {
                assert!(
                    !(a.name == b.name && a.home == b.home),
                    "`{}` appears twice",
                    a.name
                );
                let both_methods = (a.method || a.home == Home::MethodOnly)
                    && (b.method || b.home == Home::MethodOnly);
                assert!(
                    !(a.name == b.name && both_methods),
                    "method `{}` twice",
                    a.name
                );
            }
        }
    }

    #[test]
    fn every_spec_function_is_reachable() {
        let library = [
            "tensor",
            "array",
            "ones",
            "zeros",
            "full",
            "empty",
            "ones_like",
            "zeros_like",
            "full_like",
            "arange",
            "linspace",
            "eye",
            "identity",
            "load",
            "negative",
            "positive",
            "abs",
            "absolute",
            "sqrt",
            "square",
            "exp",
            "expm1",
            "log",
            "log1p",
            "log2",
            "log10",
            "sin",
            "cos",
            "tan",
            "arcsin",
            "arccos",
            "arctan",
            "sinh",
            "cosh",
            "tanh",
            "floor",
            "ceil",
            "trunc",
            "rint",
            "sign",
            "reciprocal",
            "isnan",
            "isinf",
            "isfinite",
            "logical_not",
            "invert",
            "add",
            "subtract",
            "multiply",
            "divide",
            "true_divide",
            "floor_divide",
            "mod",
            "remainder",
            "power",
            "maximum",
            "minimum",
            "fmax",
            "fmin",
            "arctan2",
            "hypot",
            "equal",
            "not_equal",
            "less",
            "less_equal",
            "greater",
            "greater_equal",
            "logical_and",
            "logical_or",
            "logical_xor",
            "bitwise_and",
            "bitwise_or",
            "bitwise_xor",
            "where",
            "clip",
            "sum",
            "prod",
            "mean",
            "max",
            "amax",
            "min",
            "amin",
            "std",
            "var",
            "argmax",
            "argmin",
            "all",
            "any",
            "count_nonzero",
            "cumsum",
            "cumprod",
            "matmul",
            "dot",
            "outer",
            "transpose",
            "reshape",
            "ravel",
            "expand_dims",
            "squeeze",
            "swapaxes",
            "concatenate",
            "stack",
            "hstack",
            "vstack",
            "broadcast_to",
            "save",
        ];
        for name in library {
            assert!(find(name, Home::Library).is_some(), "{name}");
        }
        for name in [
            "seed", "rand", "randn", "random", "uniform", "normal", "randint",
        ] {
            assert!(find(name, Home::Random).is_some(), "{name}");
        }
        for name in [
            "astype",
            "rechunk",
            "execute",
            "sum",
            "reshape",
            "transpose",
            "T",
        ] {
            assert_eq!(find_method(name).is_some(), name != "T", "{name}");
        }
    }
}
