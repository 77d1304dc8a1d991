#!/usr/bin/env bash
# Bounded memory on real programs: a sum and a standardize ((x - x.mean()) / x.std(),
# saved) over an array ten times larger than --memory-limit, with x loaded from a
# .npy file and with x from random.rand, each run under `/usr/bin/time -v` with and
# without the limit. Checks every answer against NumPy and prints peak RSS, the
# limit, spilled_bytes and seconds per run.
#
# Usage: bench/memory.sh [ELEMENTS] [LIMIT] [CHUNK_BYTES]
#   defaults: 100000000 float64 elements (800 MB), 80MiB, 8MiB
# Env: MARSC (the binary; default target/release/marsc, built if missing),
#      WORKERS (default 2), KEEP=1 keeps the work directory.
set -euo pipefail

elements=${1:-100000000}
limit=${2:-80MiB}
chunk_bytes=${3:-8MiB}
workers=${WORKERS:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
marsc=${MARSC:-$root/target/release/marsc}
if [[ ! -x $marsc ]]; then
    (cd "$root" && cargo build --release -p marsc)
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/marsc-memory-bench.XXXXXX")
if [[ ${KEEP:-0} != 1 ]]; then
    trap 'rm -rf "$work"' EXIT
fi
cd "$work"

# Chunks as the auto chunker would cut them under --chunk-bytes, but explicit so
# that the rand-based runs draw exactly the numbers x.npy holds.
chunk=$(python3 -c "import re,sys;s=sys.argv[1];u={'':1,'KiB':1<<10,'MiB':1<<20,'GiB':1<<30};m=re.fullmatch(r'(\d+)([KMG]iB)?',s);print(int(m[1])*u[m[2] or '']//8)" "$chunk_bytes")
source_x="mt.random.seed(7)
x = mt.random.rand($elements, chunks=$chunk)"
load_x="x = mt.load(\"x.npy\", chunks=$chunk)"

printf 'import mars.tensor as mt\n%s\nmt.save("x.npy", x)\n' "$source_x" > make.mt
# The fixed overhead: the process itself, its workers and the plan of a tiny job.
printf 'import mars.tensor as mt\nprint(mt.ones(3).sum())\n' > baseline.mt
for from in load rand; do
    if [[ $from == load ]]; then x_line=$load_x; else x_line=$source_x; fi
    printf 'import mars.tensor as mt\n%s\nprint(x.sum())\n' "$x_line" > "sum_$from.mt"
    printf 'import mars.tensor as mt\n%s\nmt.save("z_%s.npy", (x - x.mean()) / x.std())\n' \
        "$x_line" "$from" > "standardize_$from.mt"
done

run() { # NAME SCRIPT [ARGS...]: one timed run, its figures appended to figures.tsv
    local name=$1 script=$2
    shift 2
    /usr/bin/time -v "$marsc" --quiet --workers "$workers" --chunk-bytes "$chunk_bytes" \
        --stats-json "$name.json" "$@" "$script" > "$name.out" 2> "$name.time"
    python3 - "$name" "$limit" "$@" >> figures.tsv <<'EOF'
import json, re, sys
name, limit, args = sys.argv[1], sys.argv[2], sys.argv[3:]
stats = json.load(open(f"{name}.json"))
time = open(f"{name}.time").read()
rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", time)[1])
wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", time)[1]
seconds = sum(float(p) * 60**i for i, p in enumerate(reversed(wall.split(":"))))
shown_limit = limit if "--memory-limit" in args else "none"
print(f"{name}\t{shown_limit}\t{rss_kb / 1024:.0f}\t{stats['peak_live_bytes'] / 2**20:.0f}"
      f"\t{stats['spilled_bytes'] / 2**20:.0f}\t{seconds:.1f}\t{stats['run_seconds']:.1f}")
EOF
}

"$marsc" --quiet --workers "$workers" --chunk-bytes "$chunk_bytes" make.mt
printf 'run\tlimit\tpeak_rss_MiB\tpeak_live_MiB\tspilled_MiB\twall_s\trun_s\n' > figures.tsv
run baseline baseline.mt --memory-limit "$limit"
for from in load rand; do
    for job in sum standardize; do
        run "${job}_${from}_limited" "${job}_$from.mt" --memory-limit "$limit"
        mv -f "z_$from.npy" "z_${from}_limited.npy" 2> /dev/null || true
        run "${job}_${from}_unlimited" "${job}_$from.mt"
    done
done

column -t -s $'\t' figures.tsv
echo "array: $elements float64 ($((elements * 8 / 1000000)) MB), limit $limit, chunks $chunk_bytes, $workers workers"

python3 - <<'EOF'
import numpy as np, sys
x = np.load("x.npy", mmap_mode="r")
expected_sum = float(np.sum(x, dtype=np.float64))
failures = 0
for from_ in ("load", "rand"):
    for kind in ("limited", "unlimited"):
        got = float(open(f"sum_{from_}_{kind}.out").read())
        ok = abs(got - expected_sum) <= 1e-9 * abs(expected_sum)
        failures += not ok
        print(f"sum_{from_}_{kind}: {got!r} vs NumPy {expected_sum!r}: {'ok' if ok else 'WRONG'}")
mean, std = float(np.mean(x)), float(np.std(x))
for from_ in ("load", "rand"):
    for kind in ("limited", "unlimited"):
        path = f"z_{from_}_limited.npy" if kind == "limited" else f"z_{from_}.npy"
        z = np.load(path, mmap_mode="r")
        worst = 0.0
        for start in range(0, len(x), 1 << 24):
            part = slice(start, start + (1 << 24))
            want = (np.asarray(x[part]) - mean) / std
            worst = max(worst, float(np.max(np.abs(np.asarray(z[part]) - want))))
        ok = z.shape == x.shape and z.dtype == np.float64 and worst <= 1e-9
        failures += not ok
        print(f"standardize_{from_}_{kind}: max |z - NumPy| = {worst:.3g}: {'ok' if ok else 'WRONG'}")
sys.exit(1 if failures else 0)
EOF
