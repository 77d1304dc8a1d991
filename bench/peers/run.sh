#!/usr/bin/env bash
# marsc vs NumPy, numexpr and dask.array, side by side in one run (see README.md).
# Usage: bench/peers/run.sh [--quick] [--repeat N] [--workers N]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${MARSC_PEERS_VENV:-$root/target/peers-venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet numpy numexpr "dask[array]" scipy
fi
cargo build --release --quiet -p marsc --manifest-path "$root/Cargo.toml"
exec "$venv/bin/python" "$here/peers.py" --marsc "$root/target/release/marsc" "$@"
