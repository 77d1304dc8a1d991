//! The declarative table of every version-1 library function, method and builtin:
//! its name, where it is reachable (`mt.`/`np.`/bare, `mt.random.`, builtins,
//! methods), NumPy's parameters with their defaults and passing conventions, whether
//! it takes `chunks=`, and which lowering builds it. Argument binding
//! ([`super::bind`]) reads only this table, so adding a function is one entry here
//! plus its builder.

mod params;
mod table;

pub(crate) use super::decompose::Decomposition;
pub(crate) use super::histogram::Counting;
pub(crate) use super::products::Product;
pub(crate) use super::select::Selection;
pub(crate) use super::sort::Sorting;
pub(crate) use super::statistics::Statistic;
pub(crate) use table::LIBRARY;

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
    /// `mt.linalg.NAME`.
    Linalg,
    /// `mars.NAME` (`mars.execute`).
    Mars,
    /// Only as a method of a `default_rng` Generator (`rng.integers`).
    Generator,
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
    /// `fromzarr`/`from_zarr`.
    FromZarr,
    /// `tozarr`/`to_zarr`.
    ToZarr,
    /// `savez`, `savez_compressed`.
    Savez {
        compressed: bool,
    },
    /// `fromfile`.
    FromFile,
    /// `x.tofile(...)`.
    ToFile,
    /// `fromhdf5`/`from_hdf5`.
    FromHdf5,
    /// `tohdf5`/`to_hdf5`.
    ToHdf5,
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
    /// `t.item()`: the Python scalar of a one-element tensor (staged).
    Item,
    /// `t.tolist()`: the tensor's values as nested Python lists (staged).
    ToList,
    Copy,
    Print,
    Abs,
    Len,
    /// Python's `max`/`min` (`builtins.rs`); `true` for `max`.
    PyMaxMin(bool),
    PySum,
    /// Python's `all`/`any`; `true` for `all`.
    PyAllAny(bool),
    PyRound,
    PyPow,
    PyDivmod,
    PyRange,
    PyEnumerate,
    PyZip,
    /// Python's `list`/`tuple`; `true` for `list`.
    PySequence(bool),
    /// Python's `repr`/`str` (`fstring.rs`); `true` for `repr`.
    PyText(bool),
    /// Statistics and linear algebra of issue 20 (`statistics.rs`).
    Statistic(Statistic),
    /// Selection by a mask (`select.rs`).
    Selection(Selection),
    /// `mt.linalg`'s solvers and decompositions (`decompose.rs`).
    Linalg(Decomposition),
    /// Sorting and what is built on it (`sort.rs`).
    Sorting(Sorting),
    /// Products of two tensors built on `matmul` (`products.rs`).
    Product(Product),
    /// `einsum(subscripts, *operands)` (`products.rs`).
    Einsum,
    /// `choose(a, choices, mode='raise')`; `true` for the method `a.choose(...)`
    /// (`choose.rs`).
    Choose(bool),
    /// `mars.execute(*tensors)`: its arguments, computed with the rest of the script.
    MarsExecute,
    /// `bincount`, `histogram`, `histogram_bin_edges` (`histogram.rs`).
    Histogram(Counting),
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
    /// `standard_normal(size=None)`.
    StandardNormal,
    /// `exponential(scale=1.0, size=None)`.
    Exponential,
    /// `permutation(x)`.
    Permutation,
    /// `shuffle(x)`: in place (`views.rs` writes the shuffled value back).
    Shuffle,
    /// `choice(a, size=None, replace=True, p=None)`.
    Choice,
    /// `gamma(shape, scale=1.0, size=None)`.
    Gamma,
    /// `beta(a, b, size=None)`.
    Beta,
    /// `poisson(lam=1.0, size=None)`.
    Poisson,
    /// `binomial(n, p, size=None)`.
    Binomial,
    /// `default_rng(seed=None)`: a Generator object.
    DefaultRng,
    /// `rng.integers(low, high=None, size=None, dtype=int64, endpoint=False)`.
    Integers,
    /// `RandomState(seed=None)`: a generator object.
    RandomState,
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
