//! Samplers that need a variable number of random words per element — `gamma`,
//! `beta`, `poisson`, `binomial` — on the counter-based generator: each element
//! reads its own words in order (block `draw` of the element's counter, two words a
//! block), so its value is still a pure function of (seed, stream, index) and never
//! depends on the chunking.
//!
//! The algorithms are NumPy's where NumPy's are simple enough to be exact here:
//! Marsaglia and Tsang's squeeze for gamma (with `u^(1/shape)` boosting below 1),
//! beta as `X / (X + Y)` of two gammas, Knuth's multiplication for Poisson below a
//! mean of 10 and Hörmann's PTRS above (NumPy's `random_poisson_ptrs`), and for
//! binomial the inversion NumPy uses for small means, reached for large ones by
//! splitting on a beta-distributed order statistic (Devroye, *Non-Uniform Random
//! Variate Generation*, X.4): exact, with O(log n) beta draws.

use super::{normal_from_block, unit_interval, RandomKey};

/// The words of one element, read in order.
pub struct Words {
    key: RandomKey,
    index: u64,
    /// The next word: block `next / 2`, word `next % 2`.
    next: u32,
    block: [u64; 2],
}

impl Words {
    pub fn new(key: RandomKey, index: u64) -> Words {
        Words {
            key,
            index,
            next: 0,
            block: [0, 0],
        }
    }

    /// The element's next 64 random bits. Past its 512 words (256 blocks; never
    /// reached by these samplers but with astronomically small probability) it
    /// starts over.
    pub fn word(&mut self) -> u64 {
        let position = self.next % 512;
        if position.is_multiple_of(2) {
            self.block = self.key.block(self.index, (position / 2) as u8);
        }
        self.next = self.next.wrapping_add(1);
        self.block[(position % 2) as usize]
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        unit_interval(self.word())
    }

    /// Standard normal (Box–Muller of two words).
    pub fn normal(&mut self) -> f64 {
        let first = self.word();
        let second = self.word();
        normal_from_block([first, second])
    }
}

/// Gamma with shape `shape` and scale 1 (Marsaglia and Tsang, 2000).
pub fn standard_gamma(words: &mut Words, shape: f64) -> f64 {
    if shape <= 0.0 {
        return 0.0;
    }
    if shape < 1.0 {
        // Gamma(a) = Gamma(a + 1) * U^(1/a).
        let boost = (1.0 - words.uniform()).powf(1.0 / shape);
        return standard_gamma(words, shape + 1.0) * boost;
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let (mut x, mut v);
        loop {
            x = words.normal();
            v = 1.0 + c * x;
            if v > 0.0 {
                break;
            }
        }
        v = v * v * v;
        let u = 1.0 - words.uniform();
        if u < 1.0 - 0.0331 * (x * x) * (x * x) {
            return d * v;
        }
        if u.ln() < 0.5 * x * x + d * (1.0 - v + v.ln()) {
            return d * v;
        }
    }
}

/// Beta(a, b) as `X / (X + Y)` of two gammas.
pub fn beta(words: &mut Words, a: f64, b: f64) -> f64 {
    let x = standard_gamma(words, a);
    let y = standard_gamma(words, b);
    if x + y == 0.0 {
        // Both underflowed (tiny shapes): the mass sits at 0 or 1 as a / (a + b) says.
        return if words.uniform() < a / (a + b) {
            1.0
        } else {
            0.0
        };
    }
    x / (x + y)
}

/// Poisson with mean `lam`.
pub fn poisson(words: &mut Words, lam: f64) -> i64 {
    if lam <= 0.0 {
        return 0;
    }
    if lam < 10.0 {
        // Knuth: count uniforms until their product falls below e^-lam.
        let limit = (-lam).exp();
        let mut product = 1.0;
        let mut count = 0i64;
        loop {
            product *= 1.0 - words.uniform();
            if product <= limit {
                return count;
            }
            count += 1;
        }
    }
    // Hörmann's transformed rejection with squeeze (PTRS), as NumPy's.
    let slam = lam.sqrt();
    let loglam = lam.ln();
    let b = 0.931 + 2.53 * slam;
    let a = -0.059 + 0.02483 * b;
    let invalpha = 1.1239 + 1.1328 / (b - 3.4);
    let vr = 0.9277 - 3.6224 / (b - 2.0);
    loop {
        let u = words.uniform() - 0.5;
        let v = words.uniform();
        let us = 0.5 - u.abs();
        let k = ((2.0 * a / us + b) * u + lam + 0.43).floor();
        if us >= 0.07 && v <= vr {
            return k as i64;
        }
        if k < 0.0 || (us < 0.013 && v > us) {
            continue;
        }
        if v.ln() + invalpha.ln() - (a / (us * us) + b).ln()
            <= -lam + k * loglam - log_gamma(k + 1.0)
        {
            return k as i64;
        }
    }
}

/// Binomial(n, p).
pub fn binomial(words: &mut Words, n: i64, p: f64) -> i64 {
    if n <= 0 || p <= 0.0 {
        return 0;
    }
    if p >= 1.0 {
        return n;
    }
    if p > 0.5 {
        return n - binomial(words, n, 1.0 - p);
    }
    let (mut n, mut p, mut base) = (n, p, 0i64);
    // Split until the mean is small: the a-th smallest of n uniforms is
    // Beta(a, n + 1 - a); those below it are Binomial(a - 1, p / y), those above
    // Binomial(n - a, (p - y) / (1 - y)).
    while n as f64 * p > 30.0 {
        let a = 1 + n / 2;
        let y = beta(words, a as f64, (n + 1 - a) as f64);
        if y >= p {
            n = a - 1;
            p /= y;
        } else {
            base += a;
            n -= a;
            p = (p - y) / (1.0 - y);
        }
        if p <= 0.0 || n <= 0 {
            return base;
        }
        if p >= 1.0 {
            return base + n;
        }
    }
    base + binomial_inversion(words, n, p)
}

/// NumPy's inversion for a small mean: walk the probabilities from 0.
fn binomial_inversion(words: &mut Words, n: i64, p: f64) -> i64 {
    let q = 1.0 - p;
    let qn = (n as f64 * q.ln()).exp();
    let np = n as f64 * p;
    let bound = n.min((np + 10.0 * (np * q + 1.0).sqrt()) as i64);
    let mut x = 0i64;
    let mut px = qn;
    let mut u = words.uniform();
    while u > px {
        x += 1;
        if x > bound {
            x = 0;
            px = qn;
            u = words.uniform();
        } else {
            u -= px;
            px = ((n - x + 1) as f64 * p * px) / (x as f64 * q);
        }
    }
    x
}

/// ln Γ(x) for x ≥ 1 (NumPy's `random_loggam`: Stirling's series after shifting x
/// up to 7).
pub fn log_gamma(x: f64) -> f64 {
    const A: [f64; 10] = [
        8.333333333333333e-02,
        -2.777777777777778e-03,
        7.936507936507937e-04,
        -5.952380952380952e-04,
        8.417508417508418e-04,
        -1.917526917526918e-03,
        6.41025641025641e-03,
        -2.955065359477124e-02,
        1.796443723688307e-01,
        -1.39243221690590e+00,
    ];
    if x == 1.0 || x == 2.0 {
        return 0.0;
    }
    let shift = if x < 7.0 { (7.0 - x.floor()) as i32 } else { 0 };
    let mut x0 = x + f64::from(shift);
    let x2 = 1.0 / (x0 * x0);
    let xp = std::f64::consts::TAU;
    let mut gl0 = A[9];
    for coefficient in A[..9].iter().rev() {
        gl0 = gl0 * x2 + coefficient;
    }
    let mut gl = gl0 / x0 + 0.5 * xp.ln() + (x0 - 0.5) * x0.ln() - x0;
    for _ in 0..shift {
        x0 -= 1.0;
        gl -= x0.ln();
    }
    gl
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draws<T>(n: u64, mut one: impl FnMut(&mut Words) -> T) -> Vec<T> {
        let key = RandomKey { seed: 5, stream: 3 };
        (0..n).map(|i| one(&mut Words::new(key, i))).collect()
    }

    fn mean_var(values: &[f64]) -> (f64, f64) {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
        (mean, var)
    }

    #[test]
    fn log_gamma_matches_factorials() {
        let mut factorial = 1.0f64;
        for k in 1..30 {
            factorial *= k as f64;
            let expected = factorial.ln();
            assert!((log_gamma(k as f64 + 1.0) - expected).abs() < 1e-10 * expected.max(1.0));
        }
    }

    #[test]
    fn moments_are_the_distributions() {
        // 200,000 draws: a mean's standard error is 0.0022 standard deviations.
        let n = 200_000;
        for shape in [0.3, 1.0, 2.5, 40.0] {
            let (mean, var) = mean_var(&draws(n, |w| standard_gamma(w, shape)));
            assert!(
                (mean - shape).abs() < 0.02 * shape.sqrt().max(0.3),
                "gamma {shape}: {mean}"
            );
            assert!(
                (var - shape).abs() < 0.05 * shape.max(0.3),
                "gamma {shape}: var {var}"
            );
        }
        let (mean, _) = mean_var(&draws(n, |w| beta(w, 2.0, 5.0)));
        assert!((mean - 2.0 / 7.0).abs() < 0.003, "beta: {mean}");
        for lam in [0.5, 4.0, 12.0, 300.0] {
            let values: Vec<f64> = draws(n, |w| poisson(w, lam) as f64);
            let (mean, var) = mean_var(&values);
            assert!(
                (mean - lam).abs() < 0.02 * lam.sqrt().max(1.0),
                "poisson {lam}: {mean}"
            );
            assert!(
                (var - lam).abs() < 0.05 * lam.max(1.0),
                "poisson {lam}: var {var}"
            );
        }
        for (trials, p) in [(10, 0.3), (1000, 0.5), (100_000, 0.02), (50, 0.9)] {
            let values: Vec<f64> = draws(n, |w| binomial(w, trials, p) as f64);
            assert!(values.iter().all(|&v| (0.0..=trials as f64).contains(&v)));
            let (mean, var) = mean_var(&values);
            let expected = trials as f64 * p;
            let spread = expected * (1.0 - p);
            assert!(
                (mean - expected).abs() < 0.02 * spread.sqrt().max(1.0),
                "binomial {trials} {p}: {mean}"
            );
            assert!(
                (var - spread).abs() < 0.05 * spread.max(1.0),
                "binomial {trials} {p}: var {var}"
            );
        }
    }
}
