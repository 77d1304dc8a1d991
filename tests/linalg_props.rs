//! `mt.linalg`'s results do not depend on the chunking or the worker count: a random
//! tall matrix (small integers plus 10 on the leading diagonal, so it has full column
//! rank and is well conditioned), chunked at random along both axes and run on a
//! random number of workers, is factored in the same script as its one-chunk copy.
//! `solve` gathers its operands into one chunk, so its result must be bit for bit
//! the same; TSQR `qr`, `svd` and `lstsq` split the rows differently, so theirs agree
//! within 1e-9 (`|r|`, since signs are the factorization's choice, `s`, the
//! reconstructions and the least-squares solution). Stacked `qr`, `svd`, `pinv` and
//! `matrix_rank` run one kernel per matrix, so their factors are bit for bit the
//! same (`pinv` within 1e-12, through `einsum`), as are stacked `lu` and
//! `solve_triangular`. The products (`einsum`,
//! `tensordot`, `inner`, `kron`, complex `@`, `vdot` and `einsum`, the operand-list
//! form too) of these small integers are exact: bit for bit.

mod run_support;

use proptest::prelude::*;
use run_support::{options, random_splits, run_script_printing, tuple};

#[derive(Clone, Debug)]
struct Case {
    rows: usize,
    columns: usize,
    values: Vec<i8>,
    row_chunks: Vec<usize>,
    column_chunks: Vec<usize>,
    stack_chunks: Vec<usize>,
    workers: u32,
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..=4, 0usize..=9).prop_flat_map(|(columns, extra)| {
        let rows = columns + extra;
        (
            prop::collection::vec(-3i8..=3, rows * columns),
            random_splits(rows),
            random_splits(columns),
            random_splits(3),
            1u32..=4,
        )
            .prop_map(
                move |(values, row_chunks, column_chunks, stack_chunks, workers)| Case {
                    rows,
                    columns,
                    values,
                    row_chunks,
                    column_chunks,
                    stack_chunks,
                    workers,
                },
            )
    })
}

fn script(case: &Case) -> String {
    let values = case
        .values
        .iter()
        .map(i8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let (m, n) = (case.rows, case.columns);
    format!(
        "import mars.tensor as mt\n\
         a0 = mt.tensor([{values}]).reshape(({m}, {n})) + 10 * mt.eye({m}, {n})\n\
         a = a0.rechunk(({rows}, {columns}))\n\
         b0 = mt.arange({m}) * 0.5 - 1\n\
         b = b0.rechunk(({rows},))\n\
         s0 = a0[:{n}]\n\
         s = a[:{n}]\n\
         print(mt.all(mt.linalg.solve(s, b[:{n}]) == mt.linalg.solve(s0, b0[:{n}])))\n\
         print(mt.all(mt.linalg.inv(s) == mt.linalg.inv(s0)), mt.linalg.det(s) == mt.linalg.det(s0))\n\
         q, r = mt.linalg.qr(a)\n\
         q0, r0 = mt.linalg.qr(a0)\n\
         print(mt.allclose(mt.abs(r), mt.abs(r0), rtol=1e-9, atol=1e-9), mt.allclose(q @ r, a0, atol=1e-9))\n\
         print(mt.allclose(q.T @ q, mt.eye({n}), atol=1e-9), mt.all(mt.tril(r, -1) == 0))\n\
         u, sv, vh = mt.linalg.svd(a, full_matrices=False)\n\
         sv0 = mt.linalg.svd(a0, compute_uv=False)\n\
         print(mt.allclose(sv, sv0, rtol=1e-9, atol=1e-9), mt.allclose((u * sv) @ vh, a0, atol=1e-9))\n\
         x, res, rank, _ = mt.linalg.lstsq(a, b)\n\
         x0, res0, rank0, _ = mt.linalg.lstsq(a0, b0)\n\
         print(mt.allclose(x, x0, rtol=1e-9, atol=1e-9), res.shape == res0.shape, rank == rank0)\n\
         g = a0.T @ a0\n\
         print(mt.all(mt.einsum(\"ij,ik->jk\", a, a) == g), mt.all(mt.tensordot(a, a, axes=([0], [0])) == g))\n\
         print(mt.einsum(\"ij,ij->\", a, a) == (a0 * a0).sum(), mt.all(mt.inner(a.T, a.T) == g))\n\
         pl, ll, ul = mt.linalg.lu(s)\n\
         pl0, ll0, ul0 = mt.linalg.lu(s0)\n\
         print(mt.all(pl == pl0) & mt.all(ll == ll0) & mt.all(ul == ul0), mt.allclose(pl @ ll @ ul, s0, atol=1e-9))\n\
         print(mt.all(mt.kron(a, b[:2]) == mt.kron(a0, b0[:2])), mt.all(mt.einsum(\"ij,j,ij->i\", a, a[0], a) == mt.einsum(\"ij,j,ij->i\", a0, a0[0], a0)))\n\
         t0 = mt.stack([s0, s0.T, s0 * 2])\n\
         t = t0.rechunk(({stack}, {columns}, {columns}))\n\
         p0 = mt.einsum(\"...ij,...kj->...ik\", t0, t0)\n\
         p = p0.rechunk(({stack}, {columns}, {columns}))\n\
         print(mt.all(mt.linalg.inv(t) == mt.linalg.inv(t0)), mt.all(mt.linalg.det(t) == mt.linalg.det(t0)))\n\
         print(mt.all(mt.linalg.solve(t, b[:{n}]) == mt.linalg.solve(t0, b0[:{n}])), mt.all(mt.linalg.slogdet(t)[1] == mt.linalg.slogdet(t0)[1]))\n\
         print(mt.all(mt.linalg.cholesky(p) == mt.linalg.cholesky(p0)), mt.all(mt.linalg.eigh(p)[0] == mt.linalg.eigh(p0)[0]))\n\
         print(mt.allclose(mt.linalg.matrix_power(t, 3), mt.linalg.matrix_power(t0, 3), rtol=1e-12, atol=0), mt.all(mt.linalg.solve(p, t) == mt.linalg.solve(p0, t0)))\n\
         print(mt.all(mt.linalg.svd(t, compute_uv=False) == mt.linalg.svd(t0, compute_uv=False)), mt.all(mt.linalg.norm(t, 'nuc', axis=(0, 2)) == mt.linalg.norm(t0, 'nuc', axis=(0, 2))))\n\
         qc, rc = mt.linalg.qr(a, mode='complete')\n\
         print(mt.all(qc == mt.linalg.qr(a0, mode='complete')[0]) & mt.all(rc == mt.linalg.qr(a0, mode='complete')[1]), mt.all(mt.linalg.svd(a)[1] == mt.linalg.svd(a0)[1]))\n\
         uc, sc, vhc = mt.linalg.svd_compressed(a, {n}, seed=3)\n\
         print(mt.allclose(sc, sv0, rtol=1e-9, atol=0), mt.allclose((uc * sc) @ vhc, a0, atol=1e-9))\n\
         print(mt.all(mt.linalg.solve_triangular(s, b[:{n}], lower=True) == mt.linalg.solve_triangular(s0, b0[:{n}], lower=True)), mt.all(mt.linalg.solve_triangular(s, a[:{n}]) == mt.linalg.solve_triangular(s0, a0[:{n}])))\n\
         qs, rs = mt.linalg.qr(t)\n\
         qs0, rs0 = mt.linalg.qr(t0)\n\
         print(mt.all(qs == qs0) & mt.all(rs == rs0), mt.all(mt.linalg.qr(t, mode='complete')[0] == mt.linalg.qr(t0, mode='complete')[0]))\n\
         us, ss, vhs = mt.linalg.svd(t)\n\
         us0, ss0, vhs0 = mt.linalg.svd(t0)\n\
         print(mt.all(us == us0) & mt.all(ss == ss0) & mt.all(vhs == vhs0), mt.allclose(mt.linalg.pinv(t), mt.linalg.pinv(t0), rtol=1e-12, atol=0))\n\
         print(mt.all(mt.linalg.matrix_rank(t) == mt.linalg.matrix_rank(t0)), mt.allclose(mt.einsum('...ij,...j,...jk->...ik', us, ss, vhs), t0, atol=1e-9))\n\
         w0 = mt.stack([a0, -a0, a0 * 0.5])\n\
         w = w0.rechunk(({stack}, {rows}, {columns}))\n\
         qw, rw = mt.linalg.qr(w)\n\
         uw, sw, vhw = mt.linalg.svd(w, full_matrices=False)\n\
         print(mt.all(qw == mt.linalg.qr(w0)[0]) & mt.all(rw == mt.linalg.qr(w0)[1]), mt.all(sw == mt.linalg.svd(w0, full_matrices=False)[1]) & mt.all(uw == mt.linalg.svd(w0, full_matrices=False)[0]))\n\
         print(mt.allclose(mt.einsum('...ij,...jk->...ik', qw, rw), w0, atol=1e-9), mt.all(mt.linalg.matrix_rank(w) == {n}))\n\
         pt, lt, ut = mt.linalg.lu(t)\n\
         pt0, lt0, ut0 = mt.linalg.lu(t0)\n\
         print(mt.all(pt == pt0) & mt.all(lt == lt0) & mt.all(ut == ut0), mt.allclose(mt.einsum('...ij,...jk,...kl->...il', pt, lt, ut), t0, atol=1e-9))\n\
         print(mt.all(mt.linalg.solve_triangular(t, b[:{n}], lower=True) == mt.linalg.solve_triangular(t0, b0[:{n}], lower=True)), mt.all(mt.linalg.solve_triangular(t, p) == mt.linalg.solve_triangular(t0, p0)))\n\
         print(mt.all(t @ t == t0 @ t0), mt.all(mt.matmul(t, b[:{n}]) == mt.matmul(t0, b0[:{n}])))\n\
         z0 = a0 * (1 - 2j) + 1j\n\
         z = z0.rechunk(({rows}, {columns}))\n\
         print(mt.all(z.T @ z == z0.T @ z0), mt.all(mt.einsum('ij,ik->jk', z, a) == mt.einsum('ij,ik->jk', z0, a0)))\n\
         print(mt.vdot(z, z) == mt.vdot(z0, z0), mt.all(mt.einsum(a, [0, 1], a, [0, 2], [1, 2]) == g))\n",
        rows = tuple(&case.row_chunks),
        columns = tuple(&case.column_chunks),
        stack = tuple(&case.stack_chunks),
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn linalg_results_do_not_depend_on_chunking_or_workers(case in case()) {
        let text = script(&case);
        let (output, result) = run_script_printing(&text, &options(), case.workers);
        prop_assert!(result.is_ok(), "failed: {:?}\nscript:\n{}", result.err(), text);
        prop_assert!(!output.contains("False"), "output:\n{}script:\n{}", output, text);
        prop_assert_eq!(output.matches("True").count(), 56, "output:\n{}", output);
    }
}
