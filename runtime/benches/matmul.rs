//! The float block product alone: `a @ b` on square float64 and float32 blocks through
//! `matmul_block` (faer, all cores) against ndarray's `dot` (matrixmultiply, one
//! core), the kernel marsc used before; and one W5 subtask, a run of four 1000³
//! products summed in place by `matmul_blocks`, on one core and on all.
//! GFLOP/s = 2 n³ (times the run length) / time
//! (`cargo bench -p marsc-runtime --bench matmul`). Blocks come from the marsc
//! binary's allocator (huge pages for 4 MiB and up).

use marsc_runtime::array::ArrayData;
use marsc_runtime::huge_alloc::HugePageAlloc;
use marsc_runtime::kernels::matmul::{matmul_block, matmul_blocks};
use ndarray::{Array2, ArrayD, IxDyn};

const SIZES: [usize; 3] = [256, 1000, 4000];

/// The marsc binary's allocator, so blocks get the huge pages they get there.
#[global_allocator]
static ALLOCATOR: HugePageAlloc = HugePageAlloc;

fn main() {
    divan::main();
}

fn square(n: usize, seed: f64) -> ArrayD<f64> {
    let values = (0..n * n).map(|i| (i as f64 * seed).sin()).collect();
    ArrayD::from_shape_vec(IxDyn(&[n, n]), values).expect("square shape")
}

fn flops(n: usize) -> divan::counter::ItemsCount {
    divan::counter::ItemsCount::new(2 * n * n * n)
}

#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn float64_block(bencher: divan::Bencher, n: usize) {
    let (a, b) = (
        ArrayData::Float64(square(n, 0.37)),
        ArrayData::Float64(square(n, 0.91)),
    );
    bencher
        .counter(flops(n))
        .bench(|| matmul_block(&a, &b).expect("square blocks multiply"));
}

#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn float32_block(bencher: divan::Bencher, n: usize) {
    let (a, b) = (
        ArrayData::Float32(square(n, 0.37).mapv(|v| v as f32)),
        ArrayData::Float32(square(n, 0.91).mapv(|v| v as f32)),
    );
    bencher
        .counter(flops(n))
        .bench(|| matmul_block(&a, &b).expect("square blocks multiply"));
}

#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn float64_ndarray_dot(bencher: divan::Bencher, n: usize) {
    let to_2d = |x: ArrayD<f64>| -> Array2<f64> { x.into_dimensionality().expect("2-D") };
    let (a, b) = (to_2d(square(n, 0.37)), to_2d(square(n, 0.91)));
    bencher.counter(flops(n)).bench(|| a.dot(&b));
}

/// A 4000 x 4000 product's share for one 1000 x 1000 output block under auto chunking.
#[divan::bench(args = [1, 2], sample_count = 5, sample_size = 1)]
fn float64_run_of_four(bencher: divan::Bencher, threads: usize) {
    let n = 1000;
    let blocks: Vec<ArrayData> = (0..8)
        .map(|i| ArrayData::Float64(square(n, 0.37 + i as f64 / 10.0)))
        .collect();
    let operands: Vec<&ArrayData> = blocks.iter().collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a bench thread pool");
    bencher
        .counter(divan::counter::ItemsCount::new(4 * 2 * n * n * n))
        .bench(|| pool.install(|| matmul_blocks(&operands).expect("a run of block products")));
}
