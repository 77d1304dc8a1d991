//! Float (and complex) block products through faer's matmul (pure Rust, safe API,
//! runtime dispatch to AVX-512 or AVX2+FMA microkernels), cut into output tiles that
//! rayon's global pool runs in parallel, so that one big block uses every core.
//!
//! The tiles are fixed in size (never sized by the thread count) and each is one
//! sequential faer call over the whole contracted axis, so every element is computed
//! the same way whatever the thread count (`tests.rs` checks 1, 2 and 3 threads bit for
//! bit). Tiling here, rather than one parallel faer call, also keeps faer's packed
//! operands cache-sized: faer sizes its blocks from the L3 the CPU reports, which on
//! this machine's VM is 480 MiB, and a single 4000-wide call ran at half speed.
//! Results may differ from NumPy's BLAS by reassociation, as any two BLAS do.

use faer::linalg::matmul::matmul;
use faer::traits::ComplexField;
use faer::{Accum, MatMut, MatRef, Par};
use ndarray::{Array2, ArrayView2, ArrayViewMut2, Axis, CowArray, Ix2};
use rayon::prelude::*;

/// Output rows per tile. Measured on W5 (4000 x 4000 float64, CPU seconds under load):
/// 96 rows 3.3 s, 128 3.1, 256 2.8, 512 2.5-2.6, 1024 2.6, 2000 2.5, one 4000-row
/// parallel faer call 3.1. 512 keeps that speed and still gives a 1000-row block two
/// tiles to spread.
const TILE_ROWS: usize = 512;
/// Output columns per tile (512, 1024, 2048 and 4000 measured within noise of each
/// other); a 512 x 1024 panel of `b` (faer's k step) is 4 MiB of float64.
const TILE_COLUMNS: usize = 1024;

/// Whether a block product may spread its tiles over rayon's current pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// Every tile on the calling thread.
    One,
    /// Tiles spread over the current rayon pool (the global one outside `install`).
    Pool,
}

/// `a @ b` for float matrices of any strides (an operand that is neither row- nor
/// column-contiguous is first copied to row-major).
pub fn float_product<T>(a: ArrayView2<'_, T>, b: ArrayView2<'_, T>, threads: Threads) -> Array2<T>
where
    T: ComplexField + Copy + Default,
{
    float_product_sum(&[(a, b)], (a.nrows(), b.ncols()), threads)
}

/// `sum_l a_l @ b_l` into one `shape` output: each tile accumulates the products in
/// the order given (faer's `Accum::Add`), so no partial product is ever materialised.
/// Operands must agree in shape (`(rows, k_l)` and `(k_l, columns)`); the caller checks.
pub fn float_product_sum<T>(
    pairs: &[(ArrayView2<'_, T>, ArrayView2<'_, T>)],
    (rows, columns): (usize, usize),
    threads: Threads,
) -> Array2<T>
where
    T: ComplexField + Copy + Default,
{
    // Safe code cannot hand faer uninitialised memory, so the output starts at zero
    // (the first product then overwrites it with `Accum::Replace`).
    let mut out = Array2::from_elem((rows, columns), T::default());
    let operands: Vec<_> = pairs
        .iter()
        .map(|(a, b)| (contiguous(a.view()), contiguous(b.view())))
        .collect();
    let Some(factors) = operands
        .iter()
        .map(|(a, b)| Some((as_faer(a)?, as_faer(b)?)))
        .collect::<Option<Vec<_>>>()
    else {
        return out;
    };
    let panels = out.axis_chunks_iter_mut(Axis(0), TILE_ROWS).enumerate();
    let run = |(index, panel): (usize, ArrayViewMut2<'_, T>)| {
        let panel_factors: Vec<_> = factors
            .iter()
            .map(|(lhs, rhs)| {
                let lhs = lhs.submatrix(index * TILE_ROWS, 0, panel.nrows(), lhs.ncols());
                (lhs, *rhs)
            })
            .collect();
        multiply_panel(panel, &panel_factors);
    };
    if threads == Threads::One || rows <= TILE_ROWS {
        panels.for_each(run);
    } else {
        panels.collect::<Vec<_>>().into_par_iter().for_each(run);
    }
    out
}

/// One row panel of the output, a tile of `TILE_COLUMNS` columns at a time, each tile
/// summing every product in order while it is hot in cache.
fn multiply_panel<T>(mut panel: ArrayViewMut2<'_, T>, factors: &[(MatRef<'_, T>, MatRef<'_, T>)])
where
    T: ComplexField + Copy,
{
    let (rows, columns) = panel.dim();
    let Some(slice) = panel.as_slice_mut() else {
        return;
    };
    let mut dst = MatMut::from_row_major_slice_mut(slice, rows, columns);
    for start in (0..columns).step_by(TILE_COLUMNS) {
        let width = TILE_COLUMNS.min(columns - start);
        for (term, (lhs, rhs)) in factors.iter().enumerate() {
            matmul(
                dst.as_mut().submatrix_mut(0, start, rows, width),
                if term == 0 {
                    Accum::Replace
                } else {
                    Accum::Add
                },
                *lhs,
                rhs.submatrix(0, start, rhs.nrows(), width),
                T::one_impl(),
                Par::Seq,
            );
        }
    }
}

/// The view itself when it is row- or column-contiguous, else a row-major copy.
fn contiguous<T: Copy>(view: ArrayView2<'_, T>) -> CowArray<'_, T, Ix2> {
    if view.is_standard_layout() || view.t().is_standard_layout() {
        CowArray::from(view)
    } else {
        CowArray::from(view.as_standard_layout().into_owned())
    }
}

/// A faer view of a contiguous array (`None` only if `contiguous` was bypassed).
fn as_faer<'a, T>(array: &'a CowArray<'_, T, Ix2>) -> Option<MatRef<'a, T>> {
    let (rows, columns) = array.dim();
    let slice = array.as_slice_memory_order()?;
    Some(if array.is_standard_layout() {
        MatRef::from_row_major_slice(slice, rows, columns)
    } else {
        MatRef::from_column_major_slice(slice, rows, columns)
    })
}

#[cfg(test)]
mod tests;
