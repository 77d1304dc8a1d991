#!/usr/bin/env python3
"""Differential chunking fuzz: every oracle-checkable script (the run and staged cases
and the examples; not those that use `random` or print `nsplits`) run by marsc with
its `chunks=` values replaced by random ones, a random worker count and, half the
time, `--no-jit`, against NumPy's output for the original script
(tests/numpy_oracle.py). Numbers are compared with a relative tolerance of 2e-5 (the
contract allows float32 reductions to differ in the last digits), whitespace ignored
(NumPy pads a row to its widest number). A differing variant is kept in the work
directory; a run over 60 s is reported as HANG (usually a chunking too fine for the
script: a graph of tens of millions of chunks).

    cargo build --release -p marsc
    python3 bench/chunk_fuzz.py target/release/marsc 4 1 [WORKDIR]   # variants per script, seed

On 2026-11-28 (seeds 1-3, 698 variants): no value differs beyond float32 rounding.
"""
import glob, os, random, re, subprocess, sys, tempfile
if len(sys.argv) not in (4, 5):
    sys.exit('usage: chunk_fuzz.py MARSC VARIANTS_PER_SCRIPT SEED [WORKDIR]')
marsc, per, seed = os.path.abspath(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
work = sys.argv[4] if len(sys.argv) == 5 else tempfile.mkdtemp(prefix='chunk_fuzz_')
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
rng = random.Random(seed)
files = sorted(glob.glob(f'{root}/tests/cases/run/ok/*.mt') + glob.glob(f'{root}/tests/cases/staged/ok/*.mt') + glob.glob(f'{root}/examples/*.mt'))
num = re.compile(r'-?(?:\d+\.\d*|\.\d+|\d+)(?:e[-+]?\d+)?|nan|-?inf')
def close(a, b):
    a = re.sub(r'\s+', ' ', a).replace('[ ', '['); b = re.sub(r'\s+', ' ', b).replace('[ ', '[')
    ta, tb = num.split(a), num.split(b)
    if ta != tb: return False
    na, nb = num.findall(a), num.findall(b)
    if len(na) != len(nb): return False
    for x, y in zip(na, nb):
        if x == y: continue
        try: fx, fy = float(x), float(y)
        except ValueError: return False
        if abs(fx - fy) > 2e-5 * max(1.0, abs(fx), abs(fy)): return False
    return True
def variant(t):
    def rep(m):
        k = rng.random()
        if k < 0.3: v = str(rng.randint(1, 3))
        elif k < 0.6: v = str(rng.randint(1, 9))
        elif k < 0.8: v = str(rng.randint(2, 64))
        else: return m.group(0)
        return m.group(1) + v
    return re.sub(r'(chunks\s*=\s*)(\d+)\b', rep, t)
bad = 0; ran = 0
for f in files:
    text = open(f).read()
    if 'chunks' not in text or 'nsplits' in text or 'random' in text: continue
    d = os.path.dirname(f)
    o = subprocess.run(['python3', f'{root}/tests/numpy_oracle.py', f], capture_output=True, text=True, cwd=d, timeout=120)
    if o.returncode != 0: continue
    for i in range(per):
        v = variant(text); w = rng.choice([1, 2, 3, 4]); jit = rng.choice([[], ['--no-jit']])
        path = os.path.join(work, f'v_{os.path.basename(f)}')
        open(path, 'w').write(v)
        try:
            r = subprocess.run([marsc, '--workers', str(w), *jit, path], capture_output=True, text=True, cwd=d, timeout=60)
        except subprocess.TimeoutExpired:
            print('HANG', f, w); bad += 1; continue
        ran += 1
        if r.returncode != 0 or not close(r.stdout, o.stdout):
            bad += 1
            keep = os.path.join(work, f'bad_{bad}_{os.path.basename(f)}')
            open(keep, 'w').write(v)
            print('DIFF', f, 'workers', w, '->', keep, 'rc', r.returncode, r.stderr.strip()[:300])
print(f'ran {ran} variants, {bad} differ or hang (kept in {work})')
