//! The table itself: one entry per function, method and builtin.

use super::params::*;
use super::Decomposition as D;
use super::{
    Builtin, Counting, FillKind, Home, Param, Product, RandomKind, Selection, Signature, Sorting,
    Statistic,
};
use crate::lower::value::{UNIQUE_ALL_RESULT, UNIQUE_COUNTS_RESULT, UNIQUE_INVERSE_RESULT};
use marsc_runtime::ops::{BinaryOp, ReduceOp, ScanOp, UnaryOp};

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

/// `mt.linalg.NAME`: a solver or decomposition (`decompose.rs`).
const fn linalg(name: &'static str, params: &'static [Param], which: D) -> Signature {
    Signature {
        home: Home::Linalg,
        ..entry(name, params, Builtin::Linalg(which))
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
    creation("fromzarr", FROMZARR, F::FromZarr),
    creation("from_zarr", FROMZARR, F::FromZarr),
    // `chunks=` of `tozarr` is the store's chunk shape.
    creation("tozarr", TOZARR, F::ToZarr),
    creation("to_zarr", TOZARR, F::ToZarr),
    entry("savez", SAVEZ, F::Savez { compressed: false }),
    entry("savez_compressed", SAVEZ, F::Savez { compressed: true }),
    creation("fromfile", FROMFILE, F::FromFile),
    method("tofile", TOFILE, F::ToFile),
    creation("fromhdf5", FROMHDF5, F::FromHdf5),
    creation("from_hdf5", FROMHDF5, F::FromHdf5),
    // `chunks=` of `tohdf5` is the dataset's chunk shape.
    creation("tohdf5", TOHDF5, F::ToHdf5),
    creation("to_hdf5", TOHDF5, F::ToHdf5),
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
    random("standard_normal", SIZE_ONLY, RandomKind::StandardNormal),
    random("exponential", EXPONENTIAL, RandomKind::Exponential),
    random("permutation", ONE_X, RandomKind::Permutation),
    random("shuffle", ONE_X, RandomKind::Shuffle),
    random("choice", CHOICE, RandomKind::Choice),
    random("gamma", GAMMA, RandomKind::Gamma),
    random("beta", BETA, RandomKind::Beta),
    random("poisson", POISSON, RandomKind::Poisson),
    random("binomial", BINOMIAL, RandomKind::Binomial),
    Signature {
        chunks: false,
        ..random("RandomState", RANDOM_STATE, RandomKind::RandomState)
    },
    Signature {
        chunks: false,
        ..random("default_rng", RANDOM_STATE, RandomKind::DefaultRng)
    },
    Signature {
        home: Home::Generator,
        ..random("integers", INTEGERS, RandomKind::Integers)
    },
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
    // `real`/`imag` of a real tensor are the tensor and its zeros, as NumPy's.
    unary("real", U::Real),
    unary("imag", U::Imag),
    Signature {
        method: true,
        ..unary("conj", U::Conjugate)
    },
    Signature {
        method: true,
        ..unary("conjugate", U::Conjugate)
    },
    unary("angle", U::Angle),
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
    entry("tensordot", TENSORDOT, F::Product(Product::Tensordot)),
    entry("inner", POSITIONAL_PAIR, F::Product(Product::Inner)),
    entry("vdot", POSITIONAL_PAIR, F::Product(Product::Vdot)),
    entry("kron", KRON, F::Product(Product::Kron)),
    entry("einsum", EINSUM, F::Einsum),
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
    method("fetch", EXECUTE, F::Execute),
    // Mars's `to_numpy()` computes the tensor; marsc keeps it a tensor (it prints
    // as the ndarray would).
    method("to_numpy", EXECUTE, F::Execute),
    method("copy", ORDER_ONLY, F::Copy),
    method("item", NO_PARAMS, F::Item),
    method("tolist", NO_PARAMS, F::ToList),
    // ---- statistics and linalg (issue 20) ----
    entry("nansum", SUM, F::Statistic(Statistic::NanSum)),
    entry("nanprod", SUM, F::Statistic(Statistic::NanProd)),
    entry("nanmean", MEAN, F::Statistic(Statistic::NanMean)),
    entry("nanvar", VAR, F::Statistic(Statistic::NanVar)),
    entry("nanstd", VAR, F::Statistic(Statistic::NanStd)),
    entry("nanmax", MAX, F::Reduce(ReduceOp::NanMax)),
    entry("nanmin", MAX, F::Reduce(ReduceOp::NanMin)),
    entry("nanargmax", ARGMAX, F::Reduce(ReduceOp::NanArgMax)),
    entry("nanargmin", ARGMAX, F::Reduce(ReduceOp::NanArgMin)),
    entry("nancumsum", CUMSUM, F::Statistic(Statistic::NanCumSum)),
    entry("nancumprod", CUMSUM, F::Statistic(Statistic::NanCumProd)),
    entry("ptp", PTP, F::Statistic(Statistic::Ptp)),
    with_method("round", AROUND, F::Statistic(Statistic::Around)),
    entry("around", AROUND, F::Statistic(Statistic::Around)),
    entry("average", AVERAGE, F::Statistic(Statistic::Average)),
    entry("diff", DIFF, F::Statistic(Statistic::Diff)),
    entry("ediff1d", EDIFF1D, F::Statistic(Statistic::Ediff1d)),
    entry("isclose", ISCLOSE, F::Statistic(Statistic::IsClose)),
    entry("allclose", ISCLOSE, F::Statistic(Statistic::AllClose)),
    entry(
        "array_equal",
        ARRAY_EQUAL,
        F::Statistic(Statistic::ArrayEqual),
    ),
    entry("cov", COV, F::Statistic(Statistic::Cov)),
    entry("corrcoef", CORRCOEF, F::Statistic(Statistic::Corrcoef)),
    with_method("trace", TRACE, F::Statistic(Statistic::Trace)),
    entry("diag", DIAG, F::Statistic(Statistic::Diag)),
    with_method("diagonal", DIAGONAL, F::Statistic(Statistic::Diagonal)),
    entry("tril", TRIANGLE, F::Statistic(Statistic::Tril)),
    entry("triu", TRIANGLE, F::Statistic(Statistic::Triu)),
    Signature {
        home: Home::Linalg,
        ..entry("norm", NORM, F::Statistic(Statistic::Norm))
    },
    // ---- selection by a mask (issue 19) ----
    with_method("nonzero", ONE_ARRAY, F::Selection(Selection::Nonzero)),
    entry(
        "flatnonzero",
        ONE_ARRAY,
        F::Selection(Selection::FlatNonzero),
    ),
    entry("argwhere", ONE_ARRAY, F::Selection(Selection::ArgWhere)),
    entry("compress", COMPRESS, F::Selection(Selection::Compress)),
    method(
        "compress",
        COMPRESS_METHOD,
        F::Selection(Selection::CompressMethod),
    ),
    entry("extract", EXTRACT, F::Selection(Selection::Extract)),
    entry("take", TAKE, F::Selection(Selection::Take)),
    method("take", TAKE_METHOD, F::Selection(Selection::TakeMethod)),
    entry("isin", ISIN, F::Selection(Selection::IsIn)),
    entry("digitize", DIGITIZE, F::Selection(Selection::Digitize)),
    entry("choose", CHOOSE, F::Choose(false)),
    method("choose", CHOOSE_METHOD, F::Choose(true)),
    // ---- sorting (issue 19) ----
    entry("sort", SORT, F::Sorting(Sorting::Sort)),
    method("sort", SORT_METHOD, F::Sorting(Sorting::SortMethod)),
    with_method("argsort", SORT, F::Sorting(Sorting::Argsort)),
    entry("partition", PARTITION, F::Sorting(Sorting::Partition)),
    method(
        "partition",
        PARTITION_METHOD,
        F::Sorting(Sorting::PartitionMethod),
    ),
    with_method("argpartition", PARTITION, F::Sorting(Sorting::Argpartition)),
    with_method(
        "searchsorted",
        SEARCHSORTED,
        F::Sorting(Sorting::SearchSorted),
    ),
    entry("unique", UNIQUE, F::Sorting(Sorting::Unique)),
    entry(
        "unique_all",
        ONE_X,
        F::Sorting(Sorting::UniqueNamed(&UNIQUE_ALL_RESULT)),
    ),
    entry(
        "unique_counts",
        ONE_X,
        F::Sorting(Sorting::UniqueNamed(&UNIQUE_COUNTS_RESULT)),
    ),
    entry(
        "unique_inverse",
        ONE_X,
        F::Sorting(Sorting::UniqueNamed(&UNIQUE_INVERSE_RESULT)),
    ),
    entry("median", MEDIAN, F::Sorting(Sorting::Median)),
    entry("percentile", QUANTILE, F::Sorting(Sorting::Percentile)),
    entry("quantile", QUANTILE, F::Sorting(Sorting::Quantile)),
    entry("topk", TOPK, F::Sorting(Sorting::TopK)),
    // ---- mars ----
    Signature {
        home: Home::Mars,
        ..entry("execute", MARS_EXECUTE, F::MarsExecute)
    },
    // ---- linalg decompositions (issue 20) ----
    linalg("solve", LINALG_SOLVE, D::Solve),
    linalg("inv", LINALG_MATRIX, D::Inv),
    linalg("det", LINALG_MATRIX, D::Det),
    linalg("slogdet", LINALG_MATRIX, D::SlogDet),
    linalg("cholesky", LINALG_CHOLESKY, D::Cholesky),
    linalg("eigh", LINALG_EIGH, D::Eigh),
    linalg("matrix_power", LINALG_MATRIX_POWER, D::MatrixPower),
    linalg("qr", LINALG_QR, D::Qr),
    linalg("svd", LINALG_SVD, D::Svd),
    linalg("lstsq", LINALG_LSTSQ, D::Lstsq),
    linalg("pinv", LINALG_PINV, D::Pinv),
    linalg("matrix_rank", LINALG_MATRIX_RANK, D::MatrixRank),
    linalg("lu", LINALG_MATRIX, D::Lu),
    linalg(
        "solve_triangular",
        LINALG_SOLVE_TRIANGULAR,
        D::SolveTriangular,
    ),
    linalg("svd_compressed", LINALG_SVD_COMPRESSED, D::SvdCompressed),
    // ---- histograms (issue 19) ----
    entry("bincount", BINCOUNT, F::Histogram(Counting::Bincount)),
    entry("histogram", HISTOGRAM, F::Histogram(Counting::Histogram)),
    entry(
        "histogram_bin_edges",
        HISTOGRAM_BIN_EDGES,
        F::Histogram(Counting::BinEdges),
    ),
    // ---- Python builtins ----
    builtin("print", PRINT, F::Print),
    builtin("abs", ONE_OBJECT, F::Abs),
    builtin("len", ONE_OBJECT, F::Len),
    builtin("max", MAX_MIN_BUILTIN, F::PyMaxMin(true)),
    builtin("min", MAX_MIN_BUILTIN, F::PyMaxMin(false)),
    builtin("sum", SUM_BUILTIN, F::PySum),
    builtin("all", ONE_ITERABLE, F::PyAllAny(true)),
    builtin("any", ONE_ITERABLE, F::PyAllAny(false)),
    builtin("round", ROUND_BUILTIN, F::PyRound),
    builtin("pow", POW_BUILTIN, F::PyPow),
    builtin("divmod", DIVMOD_BUILTIN, F::PyDivmod),
    builtin("range", RANGE_BUILTIN, F::PyRange),
    builtin("enumerate", ENUMERATE_BUILTIN, F::PyEnumerate),
    builtin("zip", ZIP_BUILTIN, F::PyZip),
    builtin("list", SEQUENCE_BUILTIN, F::PySequence(true)),
    builtin("tuple", SEQUENCE_BUILTIN, F::PySequence(false)),
    builtin("repr", REPR_BUILTIN, F::PyText(true)),
    builtin("str", STR_BUILTIN, F::PyText(false)),
];
