//! `random`'s sampling functions (`permutation`, `shuffle`, `choice` with and without
//! replacement and with `p=`, `exponential`, `standard_normal`, `gamma`, `beta`,
//! `poisson`, `binomial`, and the same as methods of a `RandomState`) keep the
//! counter-based property: a tensor's values do not depend on its chunking or the
//! worker count (a property test prints them under a random chunking and compares
//! with one chunk), and they have the distributions NumPy's have (statistical checks
//! on large samples, with bounds many standard errors wide so they do not flake).

mod run_support;

use proptest::prelude::*;
use run_support::{outcome, random_splits, tuple};

/// The script with every random tensor chunked as `chunks` (`None`: one chunk).
fn script(seed: u32, n: usize, chunks: Option<&[usize]>) -> String {
    // One tuple of chunk lengths for the one axis.
    let lengths = match chunks {
        Some(chunks) => tuple(chunks),
        None => n.to_string(),
    };
    let spec = format!("({lengths},)");
    let half = n / 2;
    let triangle = n * (n + 1) / 2;
    format!(
        "import mars.tensor as mt\n\
         mt.random.seed({seed})\n\
         p = mt.random.permutation({n}, chunks={spec})\n\
         print(p, (mt.sort(p) == mt.arange({n})).all())\n\
         x = mt.arange({n} * 2).reshape({n}, 2).rechunk(({lengths}, 1))\n\
         y = x\n\
         mt.random.shuffle(x)\n\
         print(y, (mt.sort(x[:, 0]) == mt.arange({n}) * 2).all(), (x[:, 1] == x[:, 0] + 1).all())\n\
         print(mt.random.choice(7, size={n}, chunks={spec}))\n\
         print(mt.random.choice([1.5, 2.5, 3.5], size={n}, p=[0.2, 0.3, 0.5], chunks={spec}))\n\
         u = mt.random.choice(mt.arange({n}) * 3, size={half}, replace=False, chunks={spec})\n\
         print(u, mt.unique(u).size == {half})\n\
         v = mt.random.choice({n}, size={half}, replace=False, p=mt.arange(1, {n} + 1) / {triangle}, chunks={spec})\n\
         print(v, mt.unique(v).size == {half})\n\
         print(mt.random.exponential(1.5, size={n}, chunks={spec}))\n\
         print(mt.random.standard_normal(size={n}, chunks={spec}))\n\
         print(mt.random.gamma(0.7, 2.0, size={n}, chunks={spec}), mt.random.beta(2.0, 3.0, size={n}, chunks={spec}))\n\
         print(mt.random.poisson(4.5, size={n}, chunks={spec}), mt.random.poisson(80.0, size={n}, chunks={spec}))\n\
         print(mt.random.binomial(20, 0.3, size={n}, chunks={spec}), mt.random.binomial(100000, 0.4, size={n}, chunks={spec}))\n\
         rs = mt.random.RandomState({seed})\n\
         print(rs.rand({n}, chunks={spec}), rs.poisson(3.0, size={n}, chunks={spec}), rs.permutation({n}, chunks={spec}))\n\
         rng = mt.random.default_rng({seed})\n\
         print(rng.random({n}, chunks={spec}), rng.integers(-3, 3, size={n}, endpoint=True, chunks={spec}), rng.choice({n}, {half}, replace=False, chunks={spec}))\n"
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn samples_do_not_depend_on_chunking_or_workers(
        (n, chunks) in (2usize..=40).prop_flat_map(|n| (Just(n), random_splits(n))),
        seed in 0u32..1000,
        workers in 1u32..=4,
    ) {
        let reference = outcome(&script(seed, n, None), 1);
        prop_assert!(!reference.contains("--- error"), "the reference failed:\n{}", reference);
        prop_assert!(!reference.contains("False"), "{}", reference);
        let chunked = script(seed, n, Some(&chunks));
        prop_assert_eq!(outcome(&chunked, workers), reference, "script:\n{}", chunked);
    }
}

#[test]
fn samples_have_numpys_distributions() {
    // n = 400,000: a mean's standard error is about 0.0016 times the deviation.
    let text = "import mars.tensor as mt\n\
        mt.random.seed(7)\n\
        e = mt.random.exponential(2.0, size=400000, chunks=70000)\n\
        print(abs(float(e.mean()) - 2.0) < 0.02, abs(float(e.var()) - 4.0) < 0.15, float(e.min()) >= 0)\n\
        s = mt.random.standard_normal(size=400000, chunks=90000)\n\
        print(abs(float(s.mean())) < 0.01, abs(float(s.std()) - 1.0) < 0.01)\n\
        c = mt.random.choice(4, size=400000, chunks=60000)\n\
        print(all(abs(float((c == k).mean()) - 0.25) < 0.005 for k in range(4)))\n\
        w = mt.random.choice([10, 20, 30], size=400000, p=[0.1, 0.6, 0.3], chunks=60000)\n\
        print(abs(float((w == 10).mean()) - 0.1) < 0.005, abs(float((w == 20).mean()) - 0.6) < 0.005)\n\
        print(int((mt.random.choice([1, 2], size=1000, p=[0.0, 1.0]) == 1).sum()) == 0)\n\
        p = mt.random.permutation(100000, chunks=30000)\n\
        print(abs(float((p[1:] > p[:-1]).mean()) - 0.5) < 0.01)\n\
        g = mt.random.gamma(2.5, 2.0, size=400000, chunks=70000)\n\
        print(abs(float(g.mean()) - 5.0) < 0.04, abs(float(g.var()) - 10.0) < 0.3)\n\
        b = mt.random.beta(2.0, 5.0, size=400000, chunks=90000)\n\
        print(abs(float(b.mean()) - 2.0 / 7.0) < 0.003, float(b.min()) >= 0.0, float(b.max()) <= 1.0)\n\
        q = mt.random.poisson(250.0, size=400000, chunks=90000)\n\
        print(abs(float(q.mean()) - 250.0) < 0.2, abs(float(q.var()) - 250.0) < 5)\n\
        k = mt.random.binomial(1000, 0.3, size=400000, chunks=90000)\n\
        print(abs(float(k.mean()) - 300.0) < 0.3, abs(float(k.var()) - 210.0) < 5, int(k.min()) >= 0)\n\
        wp = mt.concatenate([mt.zeros(100), mt.ones(450), 3 * mt.ones(450)])\n\
        wp = wp / wp.sum()\n\
        heavy = 0\n\
        for i in range(20):\n    d = mt.random.choice(1000, size=100, replace=False, p=wp, chunks=300)\n    heavy = heavy + (d >= 550).sum()\n    assert int(mt.unique(d).size) == 100 and int((d < 100).sum()) == 0\n\
        print(abs(float(heavy) / 2000 - 0.738) < 0.04)\n";
    let output = outcome(text, 2);
    assert!(!output.contains("--- error"), "{output}");
    assert_eq!(output.matches("True").count(), 21, "{output}");
    assert!(!output.contains("False"), "{output}");
}

#[test]
fn seeding_the_module_again_repeats_its_draws() {
    // As NumPy's `random.seed` (its output here, `True True False False`): the
    // module's draws start over, so the same seed repeats them and another does not.
    let text = "import mars.tensor as mt\n\
        mt.random.seed(5)\n\
        a = mt.random.rand(3)\n\
        b = mt.random.rand(3)\n\
        mt.random.seed(5)\n\
        c = mt.random.rand(3)\n\
        d = mt.random.rand(3)\n\
        mt.random.seed(6)\n\
        e = mt.random.rand(3)\n\
        print(bool((a == c).all()), bool((b == d).all()), bool((a == b).all()), bool((a == e).all()))\n";
    let output = outcome(text, 2);
    assert_eq!(output, "True True False False\n", "{output}");
}

#[test]
fn a_random_state_draws_from_its_own_seed_and_sequence() {
    // Two objects with one seed agree whatever else draws in between; `seed`
    // starts an object's sequence again; `shuffle` of one works in place.
    let text = "import mars.tensor as mt\n\
        rs = mt.random.RandomState(11)\n\
        a = rs.rand(5)\n\
        b = rs.normal(2.0, 3.0, size=4)\n\
        noise = mt.random.rand(7) + mt.random.RandomState(12).rand(7)\n\
        other = mt.random.RandomState(11)\n\
        print(bool((other.rand(5) == a).all()), bool((other.normal(2.0, 3.0, size=4) == b).all()))\n\
        rs.seed(11)\n\
        print(bool((rs.rand(5) == a).all()), bool((mt.random.RandomState(12).rand(5) == a).all()))\n\
        x = mt.arange(50)\n\
        rs.shuffle(x)\n\
        print(bool((mt.sort(x) == mt.arange(50)).all()), bool((x == mt.arange(50)).all()))\n";
    let output = outcome(text, 2);
    assert_eq!(output, "True True\nTrue False\nTrue False\n", "{output}");
}

#[test]
fn a_default_rng_generator_draws_from_its_own_seed_and_has_numpys_methods() {
    // Two Generators with one seed agree; RandomState(seed) and default_rng(seed)
    // are different streams; `integers` is [low, high) or, with endpoint, [low, high].
    let text = "import mars.tensor as mt\n\
        rng = mt.random.default_rng(5)\n\
        a = rng.random(6)\n\
        i = rng.integers(2, 5, size=20000)\n\
        j = rng.integers(2, 5, size=20000, endpoint=True)\n\
        other = mt.random.default_rng(5)\n\
        print(bool((other.random(6) == a).all()), bool((mt.random.RandomState(5).random(6) == a).all()))\n\
        print(int(i.min()), int(i.max()), int(j.min()), int(j.max()), i.dtype)\n\
        x = mt.arange(30)\n\
        rng.shuffle(x)\n\
        print(bool((mt.sort(x) == mt.arange(30)).all()), rng)\n";
    let output = outcome(text, 2);
    assert_eq!(
        output, "True False\n2 4 2 5 int64\nTrue Generator(Philox)\n",
        "{output}"
    );
}
