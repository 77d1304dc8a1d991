#!/usr/bin/env bash
# marsc vs NumPy, numexpr and dask.array, side by side in one run (see README.md).
# Usage: bench/peers/run.sh [--quick] [--repeat N] [--workers N]
#        bench/peers/run.sh zarr [--repeat N] [--workers N] [--memory-limit SIZE] ...
#          (issue 23: a 2 GB blosc-lz4 Zarr array, marsc vs dask.array + zarr-python)
# MARSC_BIN=path/to/marsc skips the release build and times that binary.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${MARSC_PEERS_VENV:-$root/target/peers-venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet numpy numexpr "dask[array]" scipy "zarr>=3.1,<4"
fi
if ! "$venv/bin/python" -c "import zarr" 2>/dev/null; then
    # A virtualenv made before the Zarr benchmark.
    "$venv/bin/pip" install --quiet "zarr>=3.1,<4"
fi
marsc="${MARSC_BIN:-}"
if [ -z "$marsc" ]; then
    cargo build --release --quiet -p marsc --manifest-path "$root/Cargo.toml"
    marsc="$root/target/release/marsc"
fi
if [ "${1:-}" = zarr ]; then
    shift
    exec "$venv/bin/python" "$here/zarr_bench.py" --marsc "$marsc" "$@"
fi
exec "$venv/bin/python" "$here/peers.py" --marsc "$marsc" "$@"
