//! NumPy's parameter lists, one constant per shape of signature, built from terse
//! constructors (`req`, `opt`, `kw`, ...) so the table reads like NumPy's docs.

use super::{Default, Param, Pass};

pub(super) const fn req(name: &'static str) -> Param {
    Param {
        name,
        default: Default::Required,
        pass: Pass::Either,
    }
}

pub(super) const fn pos(name: &'static str) -> Param {
    Param {
        name,
        default: Default::Required,
        pass: Pass::PositionalOnly,
    }
}

pub(super) const fn pos_opt(name: &'static str, default: Default) -> Param {
    Param {
        name,
        default,
        pass: Pass::PositionalOnly,
    }
}

pub(super) const fn opt(name: &'static str, default: Default) -> Param {
    Param {
        name,
        default,
        pass: Pass::Either,
    }
}

pub(super) const fn kw(name: &'static str, default: Default) -> Param {
    Param {
        name,
        default,
        pass: Pass::KeywordOnly,
    }
}

pub(super) const fn unsupported(name: &'static str) -> Param {
    opt(name, Default::Unsupported)
}

pub(super) const fn kw_unsupported(name: &'static str) -> Param {
    kw(name, Default::Unsupported)
}

pub(super) const fn var_positional(name: &'static str) -> Param {
    Param {
        name,
        default: Default::Required,
        pass: Pass::VarPositional,
    }
}

pub(super) const fn var_keyword(name: &'static str) -> Param {
    Param {
        name,
        default: Default::None,
        pass: Pass::VarKeyword,
    }
}

pub(super) const NONE: Default = Default::None;

pub(super) const UNARY: &[Param] = &[
    pos("x"),
    unsupported("out"),
    kw_unsupported("where"),
    kw_unsupported("casting"),
    kw_unsupported("order"),
    kw_unsupported("dtype"),
    kw_unsupported("subok"),
    kw_unsupported("signature"),
];
pub(super) const BINARY: &[Param] = &[
    pos("x1"),
    pos("x2"),
    unsupported("out"),
    kw_unsupported("where"),
    kw_unsupported("casting"),
    kw_unsupported("order"),
    kw_unsupported("dtype"),
    kw_unsupported("subok"),
    kw_unsupported("signature"),
];
pub(super) const SUM: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    opt("dtype", NONE),
    unsupported("out"),
    opt("keepdims", Default::Bool(false)),
    unsupported("initial"),
    unsupported("where"),
];
pub(super) const MEAN: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    opt("dtype", NONE),
    unsupported("out"),
    opt("keepdims", Default::Bool(false)),
    kw_unsupported("where"),
];
pub(super) const MAX: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    unsupported("out"),
    opt("keepdims", Default::Bool(false)),
    unsupported("initial"),
    unsupported("where"),
];
pub(super) const VAR: &[Param] = &[
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
pub(super) const ARGMAX: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    unsupported("out"),
    kw("keepdims", Default::Bool(false)),
];
pub(super) const ALL: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    unsupported("out"),
    opt("keepdims", Default::Bool(false)),
    kw_unsupported("where"),
];
pub(super) const COUNT_NONZERO: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    kw("keepdims", Default::Bool(false)),
];
pub(super) const CUMSUM: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    opt("dtype", NONE),
    unsupported("out"),
];
pub(super) const FILL: &[Param] = &[
    req("shape"),
    opt("dtype", NONE),
    opt("order", Default::Str("C")),
];
pub(super) const FULL: &[Param] = &[
    req("shape"),
    req("fill_value"),
    opt("dtype", NONE),
    opt("order", Default::Str("C")),
];
pub(super) const FILL_LIKE: &[Param] = &[
    req("a"),
    opt("dtype", NONE),
    opt("order", Default::Str("K")),
    opt("subok", Default::Bool(true)),
    opt("shape", NONE),
];
pub(super) const FULL_LIKE: &[Param] = &[
    req("a"),
    req("fill_value"),
    opt("dtype", NONE),
    opt("order", Default::Str("K")),
    opt("subok", Default::Bool(true)),
    opt("shape", NONE),
];
pub(super) const TENSOR: &[Param] = &[
    req("object"),
    opt("dtype", NONE),
    kw("copy", Default::Bool(true)),
    kw("order", Default::Str("K")),
    kw_unsupported("ndmin"),
];
pub(super) const ARANGE: &[Param] = &[
    opt("start", NONE),
    opt("stop", NONE),
    opt("step", NONE),
    opt("dtype", NONE),
];
pub(super) const LINSPACE: &[Param] = &[
    req("start"),
    req("stop"),
    opt("num", Default::Int(50)),
    opt("endpoint", Default::Bool(true)),
    opt("retstep", Default::Bool(false)),
    opt("dtype", NONE),
    opt("axis", Default::Int(0)),
];
pub(super) const EYE: &[Param] = &[
    req("N"),
    opt("M", NONE),
    opt("k", Default::Int(0)),
    opt("dtype", NONE),
    opt("order", Default::Str("C")),
];
pub(super) const IDENTITY: &[Param] = &[req("n"), opt("dtype", NONE)];
pub(super) const LOAD: &[Param] = &[
    req("file"),
    opt("mmap_mode", NONE),
    opt("allow_pickle", Default::Bool(false)),
];
pub(super) const SAVE: &[Param] = &[
    req("file"),
    req("arr"),
    opt("allow_pickle", Default::Bool(true)),
];
/// Mars's `fromzarr(path, group=None, dataset=None, chunk_size=None)`.
pub(super) const FROMZARR: &[Param] = &[req("path"), opt("group", NONE), opt("dataset", NONE)];
/// Mars's `tozarr(path, x, group=None, dataset=None, **zarr_options)`: the options
/// marsc knows by name (`chunks=` is the store's chunk shape).
pub(super) const TOZARR: &[Param] = &[
    req("path"),
    req("x"),
    opt("group", NONE),
    opt("dataset", NONE),
    kw("mode", Default::Str("w")),
    kw("zarr_format", NONE),
    kw("compressor", Default::Str("default")),
    kw("shards", NONE),
    kw("fill_value", NONE),
    kw_unsupported("compressors"),
    kw_unsupported("filters"),
    kw_unsupported("serializer"),
    kw_unsupported("order"),
    kw_unsupported("dimension_separator"),
    kw_unsupported("chunk_key_encoding"),
    kw_unsupported("dimension_names"),
    kw_unsupported("attributes"),
    kw_unsupported("storage_options"),
];
/// Mars's `fromhdf5(hdf5_file, group=None, dataset=None, chunk_size=None)`.
pub(super) const FROMHDF5: &[Param] = &[req("hdf5_file"), opt("group", NONE), opt("dataset", NONE)];
/// Mars's `tohdf5(hdf5_file, x, group=None, dataset=None, **kwds)`: the options of
/// h5py's `create_dataset` marsc knows by name (`chunks=` is the dataset's chunk
/// shape).
pub(super) const TOHDF5: &[Param] = &[
    req("hdf5_file"),
    req("x"),
    opt("group", NONE),
    opt("dataset", NONE),
    kw("compression", NONE),
    kw("compression_opts", NONE),
    kw_unsupported("shuffle"),
    kw_unsupported("fletcher32"),
    kw_unsupported("maxshape"),
    kw_unsupported("fillvalue"),
    kw_unsupported("scaleoffset"),
    kw_unsupported("track_times"),
    kw_unsupported("dtype"),
];
/// NumPy's `fromfile(file, dtype=float, count=-1, sep='', offset=0, *, like=None)`.
pub(super) const FROMFILE: &[Param] = &[
    req("file"),
    opt("dtype", Default::Str("float64")),
    opt("count", Default::Int(-1)),
    opt("sep", Default::Str("")),
    opt("offset", Default::Int(0)),
    kw_unsupported("like"),
];
/// `ndarray.tofile(fid, sep='', format='%s')`.
pub(super) const TOFILE: &[Param] = &[
    req("fid"),
    opt("sep", Default::Str("")),
    opt("format", Default::Str("%s")),
];
/// NumPy's `savez(file, *args, **kwds)`.
pub(super) const SAVEZ: &[Param] = &[req("file"), var_positional("args"), var_keyword("kwds")];
pub(super) const SIZE_ONLY: &[Param] = &[opt("size", NONE)];
pub(super) const DIMS: &[Param] = &[var_positional("dims")];
pub(super) const UNIFORM: &[Param] = &[
    opt("low", Default::Float(0.0)),
    opt("high", Default::Float(1.0)),
    opt("size", NONE),
];
pub(super) const NORMAL: &[Param] = &[
    opt("loc", Default::Float(0.0)),
    opt("scale", Default::Float(1.0)),
    opt("size", NONE),
];
pub(super) const RANDINT: &[Param] = &[
    req("low"),
    opt("high", NONE),
    opt("size", NONE),
    opt("dtype", NONE),
];
pub(super) const SEED: &[Param] = &[opt("seed", NONE)];
pub(super) const EXPONENTIAL: &[Param] = &[opt("scale", Default::Float(1.0)), opt("size", NONE)];
pub(super) const ONE_X: &[Param] = &[pos("x")];
pub(super) const RANDOM_STATE: &[Param] = &[opt("seed", NONE)];
pub(super) const INTEGERS: &[Param] = &[
    req("low"),
    opt("high", NONE),
    opt("size", NONE),
    opt("dtype", NONE),
    opt("endpoint", Default::Bool(false)),
];
pub(super) const GAMMA: &[Param] = &[
    req("shape"),
    opt("scale", Default::Float(1.0)),
    opt("size", NONE),
];
pub(super) const BETA: &[Param] = &[req("a"), req("b"), opt("size", NONE)];
pub(super) const POISSON: &[Param] = &[opt("lam", Default::Float(1.0)), opt("size", NONE)];
pub(super) const BINOMIAL: &[Param] = &[req("n"), req("p"), opt("size", NONE)];
pub(super) const CHOICE: &[Param] = &[
    req("a"),
    opt("size", NONE),
    opt("replace", Default::Bool(true)),
    opt("p", NONE),
];
// `x` and `y` are optional only so that one-argument `where` gets its own message.
pub(super) const WHERE: &[Param] = &[pos("condition"), pos_opt("x", NONE), pos_opt("y", NONE)];
pub(super) const CLIP: &[Param] = &[
    req("a"),
    opt("a_min", NONE),
    opt("a_max", NONE),
    unsupported("out"),
    kw("min", NONE),
    kw("max", NONE),
];
pub(super) const CLIP_METHOD: &[Param] = &[opt("min", NONE), opt("max", NONE), unsupported("out")];
pub(super) const ASTYPE: &[Param] = &[
    req("dtype"),
    opt("order", Default::Str("K")),
    opt("casting", Default::Str("unsafe")),
    opt("subok", Default::Bool(true)),
    opt("copy", Default::Bool(true)),
];
pub(super) const MATMUL: &[Param] = &[pos("x1"), pos("x2"), unsupported("out")];
pub(super) const DOT: &[Param] = &[req("a"), req("b"), unsupported("out")];
pub(super) const TENSORDOT: &[Param] = &[req("a"), req("b"), opt("axes", Default::Int(2))];
pub(super) const POSITIONAL_PAIR: &[Param] = &[pos("a"), pos("b")];
pub(super) const KRON: &[Param] = &[req("a"), req("b")];
pub(super) const EINSUM: &[Param] = &[
    pos("subscripts"),
    var_positional("operands"),
    kw_unsupported("out"),
    kw("dtype", NONE),
    kw_unsupported("order"),
    kw_unsupported("casting"),
    kw("optimize", Default::Bool(false)),
];
pub(super) const TRANSPOSE: &[Param] = &[req("a"), opt("axes", NONE)];
pub(super) const AXES_VARARGS: &[Param] = &[var_positional("axes")];
pub(super) const RESHAPE: &[Param] = &[
    pos("a"),
    req("shape"),
    opt("order", Default::Str("C")),
    kw("copy", NONE),
];
pub(super) const RESHAPE_METHOD: &[Param] = &[
    var_positional("shape"),
    kw("order", Default::Str("C")),
    kw("copy", NONE),
];
pub(super) const RAVEL: &[Param] = &[req("a"), opt("order", Default::Str("C"))];
pub(super) const NO_PARAMS: &[Param] = &[];
pub(super) const ORDER_ONLY: &[Param] = &[opt("order", Default::Str("C"))];
pub(super) const EXPAND_DIMS: &[Param] = &[req("a"), req("axis")];
pub(super) const SQUEEZE: &[Param] = &[req("a"), opt("axis", NONE)];
pub(super) const SWAPAXES: &[Param] = &[req("a"), req("axis1"), req("axis2")];
pub(super) const CONCATENATE: &[Param] = &[
    pos("arrays"),
    opt("axis", Default::Int(0)),
    unsupported("out"),
    kw("dtype", NONE),
    kw("casting", Default::Str("same_kind")),
];
pub(super) const STACK: &[Param] = &[
    req("arrays"),
    opt("axis", Default::Int(0)),
    unsupported("out"),
    kw("dtype", NONE),
    kw("casting", Default::Str("same_kind")),
];
pub(super) const HSTACK: &[Param] = &[
    req("tup"),
    kw("dtype", NONE),
    kw("casting", Default::Str("same_kind")),
];
pub(super) const BROADCAST_TO: &[Param] = &[
    req("array"),
    req("shape"),
    opt("subok", Default::Bool(false)),
];
pub(super) const RECHUNK: &[Param] = &[req("chunks")];
pub(super) const EXECUTE: &[Param] = &[opt("session", NONE), var_keyword("kwargs")];
pub(super) const PRINT: &[Param] = &[
    var_positional("objects"),
    kw("sep", Default::Str(" ")),
    kw("end", Default::Str("\n")),
    kw_unsupported("file"),
    kw("flush", Default::Bool(false)),
];
pub(super) const ONE_OBJECT: &[Param] = &[pos("x")];
// Python's own builtins, with Python's parameter names.
pub(super) const MAX_MIN_BUILTIN: &[Param] = &[
    var_positional("args"),
    kw("key", Default::None),
    kw("default", Default::None),
];
pub(super) const SUM_BUILTIN: &[Param] = &[pos("iterable"), opt("start", Default::Int(0))];
pub(super) const ONE_ITERABLE: &[Param] = &[pos("iterable")];
pub(super) const ROUND_BUILTIN: &[Param] = &[req("number"), opt("ndigits", Default::None)];
pub(super) const POW_BUILTIN: &[Param] = &[req("base"), req("exp"), opt("mod", Default::None)];
pub(super) const DIVMOD_BUILTIN: &[Param] = &[pos("x"), pos("y")];
pub(super) const RANGE_BUILTIN: &[Param] = &[var_positional("args")];
pub(super) const ENUMERATE_BUILTIN: &[Param] = &[req("iterable"), opt("start", Default::Int(0))];
pub(super) const ZIP_BUILTIN: &[Param] = &[var_positional("iterables")];
pub(super) const SEQUENCE_BUILTIN: &[Param] = &[pos_opt("iterable", Default::None)];
pub(super) const REPR_BUILTIN: &[Param] = &[pos("obj")];
pub(super) const STR_BUILTIN: &[Param] = &[opt("object", Default::Str(""))];
// ---- statistics and linalg (issue 20) ----
pub(super) const PTP: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    unsupported("out"),
    opt("keepdims", Default::Bool(false)),
];
pub(super) const AROUND: &[Param] = &[
    req("a"),
    opt("decimals", Default::Int(0)),
    unsupported("out"),
];
pub(super) const AVERAGE: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    opt("weights", NONE),
    opt("returned", Default::Bool(false)),
    kw("keepdims", Default::Bool(false)),
];
pub(super) const DIFF: &[Param] = &[
    req("a"),
    opt("n", Default::Int(1)),
    opt("axis", Default::Int(-1)),
    opt("prepend", NONE),
    opt("append", NONE),
];
pub(super) const EDIFF1D: &[Param] = &[req("ary"), opt("to_end", NONE), opt("to_begin", NONE)];
pub(super) const ISCLOSE: &[Param] = &[
    req("a"),
    req("b"),
    opt("rtol", Default::Float(1e-5)),
    opt("atol", Default::Float(1e-8)),
    opt("equal_nan", Default::Bool(false)),
];
pub(super) const ARRAY_EQUAL: &[Param] =
    &[req("a1"), req("a2"), opt("equal_nan", Default::Bool(false))];
pub(super) const TRACE: &[Param] = &[
    req("a"),
    opt("offset", Default::Int(0)),
    opt("axis1", Default::Int(0)),
    opt("axis2", Default::Int(1)),
    opt("dtype", NONE),
    unsupported("out"),
];
pub(super) const DIAGONAL: &[Param] = &[
    req("a"),
    opt("offset", Default::Int(0)),
    opt("axis1", Default::Int(0)),
    opt("axis2", Default::Int(1)),
];
pub(super) const DIAG: &[Param] = &[req("v"), opt("k", Default::Int(0))];
pub(super) const TRIANGLE: &[Param] = &[req("m"), opt("k", Default::Int(0))];
pub(super) const COV: &[Param] = &[
    req("m"),
    opt("y", NONE),
    opt("rowvar", Default::Bool(true)),
    opt("bias", Default::Bool(false)),
    opt("ddof", NONE),
    opt("fweights", NONE),
    opt("aweights", NONE),
    kw("dtype", NONE),
];
pub(super) const CORRCOEF: &[Param] = &[
    req("x"),
    opt("y", NONE),
    opt("rowvar", Default::Bool(true)),
    unsupported("bias"),
    unsupported("ddof"),
    kw("dtype", NONE),
];
pub(super) const NORM: &[Param] = &[
    req("x"),
    opt("ord", NONE),
    opt("axis", NONE),
    opt("keepdims", Default::Bool(false)),
];

// ---- selection by a mask (issue 19) ----
pub(super) const ONE_ARRAY: &[Param] = &[req("a")];
pub(super) const COMPRESS: &[Param] = &[
    req("condition"),
    req("a"),
    opt("axis", NONE),
    unsupported("out"),
];
pub(super) const COMPRESS_METHOD: &[Param] =
    &[req("condition"), opt("axis", NONE), unsupported("out")];
pub(super) const EXTRACT: &[Param] = &[req("condition"), req("arr")];
pub(super) const TAKE: &[Param] = &[
    req("a"),
    req("indices"),
    opt("axis", NONE),
    unsupported("out"),
    unsupported("mode"),
];
pub(super) const TAKE_METHOD: &[Param] = &[
    req("indices"),
    opt("axis", NONE),
    unsupported("out"),
    unsupported("mode"),
];
pub(super) const CHOOSE: &[Param] = &[
    req("a"),
    req("choices"),
    unsupported("out"),
    opt("mode", Default::Str("raise")),
];
/// `a.choose(*choices, out=None, mode='raise')`: NumPy's method takes the choices as
/// one sequence or as several positional arguments.
pub(super) const CHOOSE_METHOD: &[Param] = &[
    var_positional("choices"),
    kw_unsupported("out"),
    kw("mode", Default::Str("raise")),
];
pub(super) const DIGITIZE: &[Param] = &[req("x"), req("bins"), opt("right", Default::Bool(false))];
pub(super) const ISIN: &[Param] = &[
    req("element"),
    req("test_elements"),
    opt("assume_unique", Default::Bool(false)),
    opt("invert", Default::Bool(false)),
    kw_unsupported("kind"),
];
pub(super) const MARS_EXECUTE: &[Param] = &[var_positional("tileables"), kw_unsupported("session")];
// ---- sorting (issue 19) ----
pub(super) const SORT: &[Param] = &[
    req("a"),
    opt("axis", Default::Int(-1)),
    opt("kind", NONE),
    unsupported("order"),
    kw("stable", NONE),
];
pub(super) const SORT_METHOD: &[Param] = &[
    opt("axis", Default::Int(-1)),
    opt("kind", NONE),
    unsupported("order"),
    kw("stable", NONE),
];
pub(super) const PARTITION: &[Param] = &[
    req("a"),
    req("kth"),
    opt("axis", Default::Int(-1)),
    opt("kind", Default::Str("introselect")),
    unsupported("order"),
];
pub(super) const PARTITION_METHOD: &[Param] = &[
    req("kth"),
    opt("axis", Default::Int(-1)),
    opt("kind", Default::Str("introselect")),
    unsupported("order"),
];
pub(super) const SEARCHSORTED: &[Param] = &[
    req("a"),
    req("v"),
    opt("side", Default::Str("left")),
    unsupported("sorter"),
];
pub(super) const UNIQUE: &[Param] = &[
    req("ar"),
    opt("return_index", Default::Bool(false)),
    opt("return_inverse", Default::Bool(false)),
    opt("return_counts", Default::Bool(false)),
    opt("axis", NONE),
    kw("equal_nan", Default::Bool(true)),
];
pub(super) const MEDIAN: &[Param] = &[
    req("a"),
    opt("axis", NONE),
    unsupported("out"),
    opt("overwrite_input", Default::Bool(false)),
    opt("keepdims", Default::Bool(false)),
];
pub(super) const QUANTILE: &[Param] = &[
    req("a"),
    req("q"),
    opt("axis", NONE),
    unsupported("out"),
    opt("overwrite_input", Default::Bool(false)),
    opt("method", Default::Str("linear")),
    opt("keepdims", Default::Bool(false)),
    kw_unsupported("weights"),
    kw_unsupported("interpolation"),
];
pub(super) const TOPK: &[Param] = &[
    req("a"),
    req("k"),
    opt("axis", Default::Int(-1)),
    opt("largest", Default::Bool(true)),
    opt("sorted", Default::Bool(true)),
    unsupported("order"),
    opt("parallel_kind", Default::Str("auto")),
    unsupported("psrs_kinds"),
    opt("return_index", Default::Bool(false)),
];
// ---- linalg decompositions (issue 20) ----
pub(super) const LINALG_SOLVE: &[Param] = &[pos("a"), pos("b")];
pub(super) const LINALG_MATRIX: &[Param] = &[pos("a")];
pub(super) const LINALG_CHOLESKY: &[Param] = &[pos("a"), kw("upper", Default::Bool(false))];
pub(super) const LINALG_EIGH: &[Param] = &[req("a"), opt("UPLO", Default::Str("L"))];
pub(super) const LINALG_MATRIX_POWER: &[Param] = &[req("a"), req("n")];
pub(super) const LINALG_QR: &[Param] = &[req("a"), opt("mode", Default::Str("reduced"))];
pub(super) const LINALG_SVD: &[Param] = &[
    req("a"),
    opt("full_matrices", Default::Bool(true)),
    opt("compute_uv", Default::Bool(true)),
    opt("hermitian", Default::Bool(false)),
];
pub(super) const LINALG_LSTSQ: &[Param] = &[req("a"), req("b"), opt("rcond", NONE)];
// NumPy 2's `rtol` of `pinv` defaults to a marker meaning `rcond=1e-15`.
pub(super) const LINALG_PINV: &[Param] = &[
    req("a"),
    opt("rcond", NONE),
    opt("hermitian", Default::Bool(false)),
    kw("rtol", Default::Float(1e-15)),
];
pub(super) const LINALG_MATRIX_RANK: &[Param] = &[
    req("A"),
    opt("tol", NONE),
    opt("hermitian", Default::Bool(false)),
    kw("rtol", NONE),
];
// Mars's signature (SciPy's puts `trans` before `lower`).
pub(super) const LINALG_SOLVE_TRIANGULAR: &[Param] = &[
    req("a"),
    req("b"),
    opt("lower", Default::Bool(false)),
    unsupported("sparse"),
];
// dask.array's signature.
pub(super) const LINALG_SVD_COMPRESSED: &[Param] = &[
    req("a"),
    req("k"),
    opt("iterator", Default::Str("power")),
    opt("n_power_iter", Default::Int(0)),
    opt("n_oversamples", Default::Int(10)),
    opt("seed", NONE),
    opt("compute", Default::Bool(false)),
    opt("coerce_signs", Default::Bool(true)),
];
// ---- histograms (issue 19) ----
pub(super) const BINCOUNT: &[Param] = &[
    pos("x"),
    opt("weights", NONE),
    opt("minlength", Default::Int(0)),
];
pub(super) const HISTOGRAM: &[Param] = &[
    req("a"),
    opt("bins", Default::Int(10)),
    opt("range", NONE),
    opt("density", NONE),
    opt("weights", NONE),
];
pub(super) const HISTOGRAM_BIN_EDGES: &[Param] = &[
    req("a"),
    opt("bins", Default::Int(10)),
    opt("range", NONE),
    opt("weights", NONE),
];
