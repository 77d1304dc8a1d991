#!/usr/bin/env python3
"""Writes a script of N element-wise statements in one chain (`a = a + 1`, ...) to
stdout, to measure how compiling (fusion and the JIT) grows with a long chain.

    python3 bench/long_chain.py 50000 > /tmp/chain.mt
    cargo build --release -p marsc
    /usr/bin/time -v target/release/marsc /tmp/chain.mt          # run (JIT)
    /usr/bin/time -v target/release/marsc --no-jit /tmp/chain.mt # interpreter

`--mixed` cycles through four different operations instead of `+ 1`, so that the
chain's fused pieces are not all alike (no kernel-cache hits between them). The
script prints a sum, which NumPy gives for the same script.
"""
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
n = int(args[0]) if args else 8000
mixed = "--mixed" in sys.argv
lines = ["import mars.tensor as mt", "a = mt.ones(1000, chunks=250)"]
ops = ["a = a + 1", "a = a * 1.0001", "a = a - 0.5", "a = mt.sqrt(a * a)"]
for i in range(n):
    lines.append(ops[i % len(ops)] if mixed else "a = a + 1")
lines.append("print(a.sum())")
print("\n".join(lines))
