//! Float block products through faer's matmul (pure Rust, safe API, runtime dispatch
//! to AVX-512 or AVX2+FMA microkernels), run on rayon's global pool so that one big
//! block uses every core.
//!
//! Results do not depend on the thread count: faer's x86 kernel walks the contracted
//! axis in fixed steps of 512 whatever the threading, and threads only split the output
//! into tiles (`tests.rs` checks 1 against 2 threads bit for bit). They may differ from
//! ndarray's `dot` or NumPy's BLAS by reassociation, as any two BLAS do.

use faer::linalg::matmul::matmul;
use faer::traits::ComplexField;
use faer::{Accum, MatMut, MatRef, Par};
use ndarray::{Array2, ArrayView2, CowArray, Ix2};

/// How many threads one block product may use; `Threads::ALL` is rayon's global pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threads(pub usize);

impl Threads {
    pub const ALL: Threads = Threads(0);

    fn par(self) -> Par {
        match self.0 {
            1 => Par::Seq,
            // `Par::rayon(0)` sizes itself to the global pool.
            n => Par::rayon(n),
        }
    }
}

/// `a @ b` for float matrices of any strides (an operand that is neither row- nor
/// column-contiguous is first copied to row-major).
pub fn float_product<T>(a: ArrayView2<'_, T>, b: ArrayView2<'_, T>, threads: Threads) -> Array2<T>
where
    T: ComplexField + Copy + Default,
{
    let (rows, columns) = (a.nrows(), b.ncols());
    // Safe code cannot hand faer uninitialised memory, so the output starts at zero
    // (`Accum::Replace` then overwrites it without reading it).
    let mut out = Array2::from_elem((rows, columns), T::default());
    let (a, b) = (contiguous(a), contiguous(b));
    if let (Some(lhs), Some(rhs), Some(slice)) = (as_faer(&a), as_faer(&b), out.as_slice_mut()) {
        let dst = MatMut::from_row_major_slice_mut(slice, rows, columns);
        matmul(dst, Accum::Replace, lhs, rhs, T::one_impl(), threads.par());
    }
    out
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
