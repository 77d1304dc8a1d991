//! Run-time dispatch of the batch Philox bodies to an AVX-512 or AVX2 build of the
//! same generic code, with the portable build as the fallback. The only unsafe code of
//! the random module: calling a `#[target_feature]` function, which is sound only on a
//! CPU that has the features; every call checks them right before.
#![allow(unsafe_code)]

use super::batch::{blocks_body, uniform01_body};
use super::RandomKey;

/// One compiled build of the batch bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// The crate's baseline target (SSE2 on x86-64).
    Portable,
    /// AVX2: 256-bit vectors.
    Avx2,
    /// AVX-512 F + DQ: 512-bit vectors and u64 -> f64 conversion in vectors.
    Avx512,
}

impl Isa {
    /// Whether this CPU can run the build.
    pub fn is_supported(self) -> bool {
        match self {
            Isa::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512dq")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// Every build this CPU can run, fastest last.
    pub fn supported() -> Vec<Isa> {
        [Isa::Portable, Isa::Avx2, Isa::Avx512]
            .into_iter()
            .filter(|isa| isa.is_supported())
            .collect()
    }

    /// The fastest build this CPU can run (feature detection is cached by std).
    pub fn best() -> Isa {
        if Isa::Avx512.is_supported() {
            Isa::Avx512
        } else if Isa::Avx2.is_supported() {
            Isa::Avx2
        } else {
            Isa::Portable
        }
    }
}

/// `out[j] = key.uniform01(first + j)` with build `isa` (the portable one when the
/// CPU lacks its features).
pub fn uniform01(isa: Isa, key: RandomKey, first: u64, out: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    if isa.is_supported() {
        match isa {
            // SAFETY: the CPU has AVX-512 F and DQ (checked just above), the only
            // requirement of calling a function built with them.
            Isa::Avx512 => return unsafe { x86::uniform01_avx512(key, first, out) },
            // SAFETY: the CPU has AVX2 (checked just above).
            Isa::Avx2 => return unsafe { x86::uniform01_avx2(key, first, out) },
            Isa::Portable => {}
        }
    }
    let _ = isa;
    uniform01_body(key, first, out);
}

/// `out[j] = key.block(first + j, 0)` with build `isa` (the portable one when the CPU
/// lacks its features).
pub fn blocks(isa: Isa, key: RandomKey, first: u64, out: &mut [[u64; 2]]) {
    #[cfg(target_arch = "x86_64")]
    if isa.is_supported() {
        match isa {
            // SAFETY: the CPU has AVX-512 F and DQ (checked just above).
            Isa::Avx512 => return unsafe { x86::blocks_avx512(key, first, out) },
            // SAFETY: the CPU has AVX2 (checked just above).
            Isa::Avx2 => return unsafe { x86::blocks_avx2(key, first, out) },
            Isa::Portable => {}
        }
    }
    let _ = isa;
    blocks_body(key, first, out);
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::super::batch::{blocks_body, uniform01_body};
    use super::super::RandomKey;

    #[target_feature(enable = "avx512f,avx512dq")]
    pub(super) fn uniform01_avx512(key: RandomKey, first: u64, out: &mut [f64]) {
        uniform01_body(key, first, out);
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn uniform01_avx2(key: RandomKey, first: u64, out: &mut [f64]) {
        uniform01_body(key, first, out);
    }

    #[target_feature(enable = "avx512f,avx512dq")]
    pub(super) fn blocks_avx512(key: RandomKey, first: u64, out: &mut [[u64; 2]]) {
        blocks_body(key, first, out);
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn blocks_avx2(key: RandomKey, first: u64, out: &mut [[u64; 2]]) {
        blocks_body(key, first, out);
    }
}
