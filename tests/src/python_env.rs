//! The Python that reads and writes Zarr stores and HDF5 files in the tests: a
//! virtual environment in `target/pyenv` with zarr-python, NumPy and (for the HDF5
//! tests) h5py from PyPI, made on first use (CI's `.ci/run` makes it before the
//! tests). Made once per test process; another process
//! making it at the same time waits on a lock file.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The packages the environment holds (zarr 3 needs Python 3.11; crc32c is the
/// checksum of sharded arrays' indexes).
const PACKAGES: &[&str] = &["zarr>=3.1,<4", "numpy>=2,<3", "crc32c"];

/// The environment's `python`, made on first use; an error says why it cannot be.
pub fn zarr_python() -> Result<PathBuf, String> {
    static PYTHON: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PYTHON.get_or_init(make_environment).clone()
}

/// The environment's `python`, or `None` after saying loudly why the caller's test
/// is skipped. With `MARSC_REQUIRE_ZARR=1` (CI) a missing environment fails instead.
pub fn zarr_python_or_skip(test: &str) -> Option<PathBuf> {
    match zarr_python() {
        Ok(python) => Some(python),
        Err(why) if std::env::var("MARSC_REQUIRE_ZARR").is_ok_and(|v| v == "1") => {
            panic!("{test}: the zarr-python environment is required (MARSC_REQUIRE_ZARR=1): {why}")
        }
        Err(why) => {
            eprintln!(
                "\n!!!! SKIPPED {test}: no Python environment with zarr-python: {why}\n\
                 !!!! (make it with `python3 -m venv target/pyenv && target/pyenv/bin/pip install zarr numpy crc32c`)\n"
            );
            None
        }
    }
}

/// h5py's version range, which `.ci/run` installs too.
const H5PY: &str = "h5py>=3.10,<4";

/// The environment's `python` with h5py installed into it on first use.
pub fn h5py_python() -> Result<PathBuf, String> {
    static PYTHON: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let python = zarr_python()?;
            if imports(&python, "h5py") {
                return Ok(python);
            }
            let lock_path = crate::repo_root().join("target/pyenv.lock");
            let lock = std::fs::File::create(&lock_path).map_err(|e| e.to_string())?;
            lock.lock()
                .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
            if !imports(&python, "h5py") {
                run(Command::new(&python).args([
                    "-m",
                    "pip",
                    "install",
                    "-q",
                    "--disable-pip-version-check",
                    H5PY,
                ]))
                .map_err(|e| format!("pip could not install h5py: {e}"))?;
            }
            if imports(&python, "h5py") {
                Ok(python)
            } else {
                Err(format!("{} cannot import h5py", python.display()))
            }
        })
        .clone()
}

/// The environment's `python` with h5py, or `None` after saying loudly why the
/// caller's test is skipped. With `MARSC_REQUIRE_HDF5=1` (CI) a missing h5py fails.
pub fn h5py_python_or_skip(test: &str) -> Option<PathBuf> {
    match h5py_python() {
        Ok(python) => Some(python),
        Err(why) if std::env::var("MARSC_REQUIRE_HDF5").is_ok_and(|v| v == "1") => {
            panic!("{test}: h5py is required (MARSC_REQUIRE_HDF5=1): {why}")
        }
        Err(why) => {
            eprintln!(
                "\n!!!! SKIPPED {test}: no Python environment with h5py: {why}\n\
                 !!!! (make it with `target/pyenv/bin/python -m pip install h5py`)\n"
            );
            None
        }
    }
}

fn imports(python: &std::path::Path, module: &str) -> bool {
    Command::new(python)
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn make_environment() -> Result<PathBuf, String> {
    let dir = crate::repo_root().join("target/pyenv");
    let python = dir.join("bin/python");
    if imports_zarr(&python) {
        return Ok(python);
    }
    std::fs::create_dir_all(crate::repo_root().join("target")).map_err(|e| e.to_string())?;
    let lock_path = crate::repo_root().join("target/pyenv.lock");
    let lock = std::fs::File::create(&lock_path).map_err(|e| e.to_string())?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
    if imports_zarr(&python) {
        return Ok(python);
    }
    if !python.exists() {
        run(Command::new("python3").args(["-m", "venv"]).arg(&dir))
            .map_err(|e| format!("`python3 -m venv` failed (Debian needs python3-venv): {e}"))?;
    }
    run(Command::new(&python)
        .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
        .args(PACKAGES))
    .map_err(|e| format!("pip could not install zarr: {e}"))?;
    if imports_zarr(&python) {
        Ok(python)
    } else {
        Err(format!(
            "{} cannot import zarr after installing it",
            python.display()
        ))
    }
}

fn imports_zarr(python: &std::path::Path) -> bool {
    python.exists()
        && Command::new(python)
            .args(["-c", "import zarr, numpy, crc32c"])
            .output()
            .is_ok_and(|o| o.status.success())
}

fn run(command: &mut Command) -> Result<(), String> {
    let output = command.output().map_err(|e| e.to_string())?;
    if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).trim().to_string())
    }
}
