//! Names a NumPy user may reach for that version 1 does not have: NumPy functions
//! and `random` functions beyond the library, array methods beyond the tensor
//! methods, Mars's top-level functions, `str` methods, and Python builtins beyond
//! the language. Naming one gets "not supported yet" instead of "cannot find" or
//! "no attribute". Besides the hand-picked lists here, every public name of NumPy's
//! modules and of `ndarray` counts ([`super::numpy_names`]).

use super::numpy_names::{NDARRAY, NUMPY, NUMPY_RANDOM, STR};

/// NumPy functions and modules a script might reach for that are not in version 1
/// of the library: naming them gets "not supported yet" rather than "not found".
const NOT_YET_IN_LIBRARY: &[&str] = &[
    "copy",
    "astype",
    "fft",
    "tile",
    "repeat",
    "split",
    "array_split",
    "cross",
    "meshgrid",
    "roll",
    "flip",
    "fliplr",
    "flipud",
    "rot90",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "pad",
    "gradient",
    "interp",
    "searchsorted",
    "put",
    "copyto",
    "savetxt",
    "loadtxt",
    "genfromtxt",
    "frombuffer",
    "logspace",
    "geomspace",
    "mgrid",
    "ogrid",
    "indices",
    "polyfit",
    "polyval",
    "convolve",
    "correlate",
    "datetime64",
    "matrix",
    "ma",
    "char",
    "exp2",
    "cbrt",
    "degrees",
    "radians",
    "deg2rad",
    "rad2deg",
    "logaddexp",
    "copysign",
    "nextafter",
    "ldexp",
    "frexp",
    "modf",
    "gcd",
    "lcm",
    "left_shift",
    "right_shift",
    "isreal",
    "iscomplex",
    // Mars-only members of `mars.tensor`.
    "ExecutableTuple",
    "fromtiledb",
    "totiledb",
];

/// `random` functions outside version 1.
const NOT_YET_IN_RANDOM: &[&str] = &[
    "standard_exponential",
    "lognormal",
    "multinomial",
    "multivariate_normal",
    "random_integers",
    "bytes",
    "RandomState",
    "Generator",
    "get_state",
    "set_state",
];

/// Methods and attributes of NumPy arrays (and a few of Mars tensors) that
/// version 1 does not have.
const NOT_YET_TENSOR_MEMBERS: &[&str] = &[
    "repeat",
    "put",
    "diagonal",
    "trace",
    "ptp",
    "fill",
    "item",
    "tolist",
    "tobytes",
    "dump",
    "dumps",
    "view",
    "resize",
    "byteswap",
    "flat",
    "mT",
    "strides",
    "data",
    "base",
    "flags",
    "ctypes",
    "to_numpy",
    "tiles",
    "todense",
    "tosparse",
    "map_chunk",
];

/// Python builtins that are not part of the language (no loops, no containers
/// beyond tuples and lists, no I/O besides `print`).
const NOT_YET_BUILTIN: &[&str] = &[
    "dict",
    "set",
    "map",
    "filter",
    "sorted",
    "reversed",
    "format",
    "open",
    "input",
    "isinstance",
    "type",
    "iter",
    "next",
    "getattr",
    "setattr",
    "hasattr",
    "exec",
    "eval",
    "globals",
    "locals",
    "vars",
    "id",
    "hash",
    "chr",
    "ord",
    "hex",
    "oct",
    "bin",
    "bytes",
];

/// The "not supported yet" message for a NumPy name outside version 1, if it is one.
/// `prefix` is the module as written before the name (`numpy.`, or empty when bare).
pub(crate) fn not_yet_in_library(name: &str, prefix: &str) -> Option<String> {
    // Bare, only the hand-picked names: `size` or `test` may well be a misspelt
    // variable of the script's own, better met by "cannot find" and a suggestion.
    let numpy_name = !prefix.is_empty() && NUMPY.contains(&name);
    (NOT_YET_IN_LIBRARY.contains(&name) || numpy_name).then(|| not_in_version_1(prefix, name))
}

/// Members of the top-level `mars` package besides `tensor`.
const NOT_YET_IN_MARS: &[&str] = &[
    "fetch",
    "new_session",
    "get_default_session",
    "stop_server",
    "new_cluster",
    "remote",
    "dataframe",
    "learn",
    "lib",
    "session",
    "deploy",
    "services",
    "config",
    "options",
];

/// The "not supported yet" message for `mars.NAME`.
pub(crate) fn not_yet_in_mars(name: &str) -> Option<String> {
    NOT_YET_IN_MARS.contains(&name).then(|| {
        format!("not supported yet: `mars.{name}` (marsc has only `mars.tensor`; a script runs as one job, so `.execute()` on a tensor is enough)")
    })
}

/// The "not supported yet" message for a method of a Python `str`.
pub(crate) fn not_yet_str_member(name: &str) -> Option<String> {
    STR.contains(&name).then(|| {
        format!("not supported yet: the string method `str.{name}` (print several values with `print(a, b)` instead)")
    })
}

/// `numpy.linalg`'s public names (NumPy 2.4) beside `norm`.
const NUMPY_LINALG: &[&str] = &[
    "LinAlgError",
    "cholesky",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "multi_dot",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "tensorinv",
    "tensorsolve",
    "trace",
    "vecdot",
    "vector_norm",
    "svd_compressed",
];

/// The same for `linalg.NAME`.
pub(crate) fn not_yet_in_linalg(name: &str, prefix: &str) -> Option<String> {
    if matches!(name, "eig" | "eigvals") {
        // NumPy's result dtype depends on the values: float64 when every eigenvalue is
        // real, complex128 otherwise.
        return Some(format!(
            "not supported yet: `{prefix}{name}` returns complex eigenvalues unless all \
             their imaginary parts are zero (its dtype depends on the values), and marsc \
             has no complex linear algebra yet; for a symmetric matrix use `{prefix}eigh`"
        ));
    }
    NUMPY_LINALG
        .contains(&name)
        .then(|| not_in_version_1(prefix, name))
}

/// The same for `random.NAME`.
pub(crate) fn not_yet_in_random(name: &str, prefix: &str) -> Option<String> {
    (NOT_YET_IN_RANDOM.contains(&name) || NUMPY_RANDOM.contains(&name))
        .then(|| not_in_version_1(prefix, name))
}

fn not_in_version_1(prefix: &str, name: &str) -> String {
    format!("not supported yet: `{prefix}{name}` is not in marsc's library (version 1)")
}

/// The "not supported yet" message for a Python builtin outside the language.
pub(crate) fn not_yet_builtin(name: &str) -> Option<String> {
    NOT_YET_BUILTIN
        .contains(&name)
        .then(|| format!("not supported yet: Python's `{name}()` is not part of the language"))
}

/// The "not supported yet" message for a NumPy array method or attribute outside
/// version 1.
pub(crate) fn not_yet_tensor_member(name: &str) -> Option<String> {
    (NOT_YET_TENSOR_MEMBERS.contains(&name) || NDARRAY.contains(&name)).then(|| {
        format!("not supported yet: the tensor method or attribute `{name}` is not in marsc's library (version 1)")
    })
}
