//! A session driven in process: loads seen as of the statement that made them (or a
//! clear error), one bad variable not stopping the session, failed inputs leaving no
//! trace, and an input lowering only its own statements.

use super::*;

fn session_in(dir: &std::path::Path, check: impl FnOnce(&mut Session<'_>)) {
    let options = Options {
        base_dir: dir.to_path_buf(),
        ..Options::default()
    };
    let lower = lower_options(&options);
    let run_options = RunOptions {
        workers: 2,
        ..RunOptions::default()
    };
    let mut session = Session::new(options, &lower, run_options);
    check(&mut session);
}

fn ok(session: &mut Session<'_>, input: &str) -> String {
    session
        .statements_text(input)
        .unwrap_or_else(|error| panic!("`{input}` failed:\n{error}"))
}

fn err(session: &mut Session<'_>, input: &str) -> String {
    match session.statements_text(input) {
        Ok(shown) => panic!("`{input}` showed {shown:?} instead of failing"),
        Err(error) => error.render(),
    }
}

#[test]
fn a_load_is_never_shown_mixed_with_a_later_save() {
    let dir = tempfile::tempdir().expect("temp dir");
    session_in(dir.path(), |session| {
        ok(session, "save('a.npy', arange(6, chunks=2))");
        ok(session, "x = load('a.npy', chunks=2)");
        // Reads (and caches) the first chunk only.
        assert_eq!(ok(session, "x[:2]"), "array([0, 1])\n");
        ok(session, "save('a.npy', arange(6, chunks=2) * 10)");
        let error = err(session, "x");
        assert!(
            error.contains("a.npy` changed since it was loaded on line 2; load it again"),
            "{error}"
        );
        assert!(error.contains("x = load('a.npy', chunks=2)"), "{error}");
        assert!(error.contains("`x = load(...)` again"), "{error}");
        // Cached chunks of the old file answer for no one.
        assert_eq!(
            ok(session, "load('a.npy', chunks=2)[:2]"),
            "array([ 0, 10])\n"
        );
        assert!(err(session, "x[:2]").contains("changed since it was loaded"));
    });
}

#[test]
fn one_changed_file_fails_only_the_statements_that_use_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    session_in(dir.path(), |session| {
        ok(session, "save('a.npy', arange(4))");
        ok(session, "x = load('a.npy')");
        ok(session, "y = ones(2)");
        assert_eq!(ok(session, "x"), "array([0, 1, 2, 3])\n");
        std::fs::remove_file(dir.path().join("a.npy")).expect("remove");
        assert_eq!(ok(session, "1 + 1"), "2\n");
        assert_eq!(ok(session, "y * 2"), "array([2., 2.])\n");
        // Binding needs no data; using it does.
        ok(session, "z = x + 1");
        let error = err(session, "z");
        assert!(
            error.contains("a.npy` was removed since it was loaded on line 2"),
            "{error}"
        );
        assert_eq!(ok(session, "y.sum()"), "np.float64(2.0)\n");
        ok(session, "save('a.npy', arange(3) + 7)");
        ok(session, "x = load('a.npy')");
        assert_eq!(ok(session, "x"), "array([7, 8, 9])\n");
        // `z` still holds the old load.
        assert!(err(session, "z").contains("line 2"));
    });
}

#[test]
fn a_failed_input_leaves_no_trace() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut with_failure = String::new();
    session_in(dir.path(), |session| {
        ok(session, "a = random.rand(3)");
        let first = ok(session, "a");
        // The first statement lowers (and draws a random stream), the second fails.
        let error = err(session, "a = random.rand(3); b = nope");
        assert!(error.contains("cannot find `nope`"), "{error}");
        assert_eq!(ok(session, "a"), first);
        assert!(err(session, "b").contains("cannot find `b`"));
        ok(session, "c = random.rand(3)");
        with_failure = ok(session, "c");
    });
    // The failed input drew no stream: `c` is the second stream, as in a session
    // (or script) without it.
    session_in(dir.path(), |session| {
        ok(session, "a = random.rand(3)");
        ok(session, "c = random.rand(3)");
        assert_eq!(ok(session, "c"), with_failure);
    });
}

#[test]
fn an_input_tiles_only_what_its_outputs_need() {
    let dir = tempfile::tempdir().expect("temp dir");
    session_in(dir.path(), |session| {
        for index in 0..50 {
            ok(session, &format!("v{index} = ones(4, chunks=1) * {index}"));
        }
        assert_eq!(ok(session, "v7.sum()"), "np.float64(28.0)\n");
        let stats = session.last_stats.as_ref().expect("a run");
        // ones, the constant, multiply, and the sum: not the other 49 variables.
        assert!(stats.tileables <= 5, "{} tileables", stats.tileables);
    });
}

#[test]
fn a_failed_input_undoes_its_in_place_updates() {
    let dir = tempfile::tempdir().expect("temp dir");
    session_in(dir.path(), |session| {
        ok(session, "x = ones(3, chunks=1)");
        ok(session, "y = x");
        ok(session, "v = x[:2]");
        // `x += 1` lowers (updating the object `x` and `y` share), then `nope` fails.
        let error = err(session, "x += 1; nope");
        assert!(error.contains("cannot find `nope`"), "{error}");
        assert_eq!(ok(session, "y"), "array([1., 1., 1.])\n");
        assert_eq!(ok(session, "v"), "array([1., 1.])\n");
        ok(session, "x += 1");
        assert_eq!(ok(session, "y"), "array([2., 2., 2.])\n");
        assert_eq!(ok(session, "v"), "array([2., 2.])\n");
    });
}

#[test]
fn an_input_runs_under_the_memory_limit_and_its_own_cancel_token() {
    let dir = tempfile::tempdir().expect("temp dir");
    let options = Options {
        base_dir: dir.path().to_path_buf(),
        ..Options::default()
    };
    let lower = lower_options(&options);
    let run_options = RunOptions {
        workers: 2,
        memory_limit: Some(1 << 20),
        ..RunOptions::default()
    };
    let mut session = Session::new(options, &lower, run_options);
    // Unfused, the product's 1.28 MB input blocks cannot fit 1 MiB: refused before
    // anything runs, as a script's run is.
    session.options.fusion = crate::fuse::Fusion::Off;
    let error = err(
        &mut session,
        "(ones((400, 400), chunks=400) @ ones((400, 400))).sum()",
    );
    assert!(error.contains("more than --memory-limit"), "{error}");
    assert!(
        error.contains("this step does not fit in memory"),
        "{error}"
    );
    // Small blocks fit.
    assert_eq!(
        ok(
            &mut session,
            "(ones((400, 400), chunks=100) @ ones((400, 400), chunks=100)).sum()"
        ),
        "np.float64(64000000.0)\n"
    );
    // A token cancelled from elsewhere stops the input, and only that input.
    session.run_options.memory_limit = None;
    let token = CancelToken::new();
    let canceller = {
        let token = token.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            token.cancel();
        })
    };
    let error = session
        .statements_with("ones(2000000000, chunks=1000000).sum()", token)
        .expect_err("cancelled");
    canceller.join().expect("no panic");
    assert!(matches!(error.error, JobError::Cancelled), "{error:?}");
    assert_eq!(error.render(), "interrupted\n");
    assert_eq!(ok(&mut session, "arange(5).sum()"), "np.int64(10)\n");
}

#[test]
fn a_failed_save_points_at_the_save_as_a_scripts_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    session_in(dir.path(), |session| {
        ok(session, "x = ones((4, 4), chunks=2)");
        let error = err(session, "save('no/such/dir/x.npy', x)");
        assert!(error.contains("cannot save"), "{error}");
        assert!(error.contains("while saving this"), "{error}");
        assert!(
            error.contains("1 | save('no/such/dir/x.npy', x)"),
            "{error}"
        );
        // The same failure as JSON, located in the input as typed.
        let failure = session
            .statements("save('no/such/dir/y.npy', x)")
            .expect_err("fails");
        let json = failure.to_json();
        assert_eq!(json["kind"], "run_failed");
        assert_eq!(json["errors"][0]["line"], 1);
        assert_eq!(json["errors"][0]["column"], 1);
        assert_eq!(ok(session, "x.sum()"), "np.float64(16.0)\n");
    });
}

#[test]
fn a_def_persists_across_inputs_and_blocks_run_as_one_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    session_in(dir.path(), |session| {
        ok(session, "def double(x, k=2):\n    return x * k\n\n");
        ok(session, "total = 0\nfor i in range(4):\n    total += i\n\n");
        assert_eq!(ok(session, "total"), "6\n");
        assert_eq!(ok(session, "double(arange(3)).sum()"), "np.int64(6)\n");
        // A failed input leaves the names its block would have bound as they were.
        let error = err(session, "for j in range(2):\n    total = undefined\n\n");
        assert!(error.contains("undefined"), "{error}");
        assert_eq!(ok(session, "total"), "6\n");
        assert_eq!(ok(session, "double(1.5, k=4)"), "6.0\n");
    });
}

#[test]
fn a_while_on_a_tensor_runs_in_stages_within_an_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    session_in(dir.path(), |session| {
        ok(session, "x = arange(4.0, chunks=2)");
        let shown = ok(
            session,
            "while x.sum() < 50:\n    x = x * 2\n    print(x.sum())\n\n",
        );
        assert_eq!(shown, "12.0\n24.0\n48.0\n96.0\n");
        let stats = session.last_stats().expect("ran").clone();
        assert_eq!(stats.stages, 5, "{stats:?}");
        // The loop's tensors are cached whole: a stage tiles only its own step,
        // not the history of the loop.
        assert!(stats.tileables < 40, "{stats:?}");
        assert_eq!(ok(session, "x"), "array([ 0., 16., 32., 48.])\n");
        assert_eq!(ok(session, "float(x[1]) + 1"), "17.0\n");
        assert_eq!(ok(session, "x[1:3].tolist()"), "[16.0, 32.0]\n");
        assert_eq!(ok(session, "16 in x, 17 in x"), "(True, False)\n");
    });
}

#[test]
fn a_failing_stage_shows_what_ran_before_it_and_leaves_the_session_as_it_was() {
    let dir = tempfile::tempdir().expect("temp dir");
    session_in(dir.path(), |session| {
        ok(session, "n = arange(3)");
        let failure = session
            .statements("print('a', n.sum())\nk = n ** (n - 5)\nif k.sum() > 0:\n    m = 1\n\n")
            .expect_err("fails in its stage");
        let printed: String = failure.shown.iter().map(Printed::text).collect();
        assert_eq!(printed, "a 3\n");
        let error = failure.render();
        assert!(
            error.contains("Integers to negative integer powers"),
            "{error}"
        );
        assert!(error.contains("2 | k = n ** (n - 5)"), "{error}");
        // The failed input bound nothing.
        assert!(err(session, "k").contains("cannot find `k`"));
        assert_eq!(ok(session, "n.sum() > 2 and 'yes'"), "'yes'\n");
    });
}

#[test]
fn emit_never_runs_a_stage() {
    let dir = tempfile::tempdir().expect("temp dir");
    session_in(dir.path(), |session| {
        ok(session, "x = arange(3.0)");
        let error = session
            .lower_trial("if x.sum() > 1: print(1)")
            .err()
            .expect("a trial cannot run stages");
        assert!(
            error
                .render()
                .contains("showing a script that runs in stages"),
            "{}",
            error.render()
        );
        // The session goes on, and a real input runs the stage.
        assert_eq!(ok(session, "if x.sum() > 1: print('big')"), "big\n");
    });
}

#[test]
fn selections_and_tuples_of_tensors_echo_as_numpy_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    session_in(dir.path(), |session| {
        ok(session, "x = arange(10, chunks=3)");
        assert_eq!(ok(session, "x[x % 4 == 1]"), "array([1, 5, 9])\n");
        assert_eq!(ok(session, "nonzero(x > 7)"), "(array([8, 9]),)\n");
        assert_eq!(
            ok(session, "(x.sum(), [x[:2]])"),
            "(np.int64(45), [array([0, 1])])\n"
        );
        // A selection is a copy: updating it leaves x as it was.
        ok(session, "y = x[x > 5]");
        ok(session, "y += 100");
        assert_eq!(
            ok(session, "x[6:].sum(), y.sum()"),
            "(np.int64(30), np.int64(430))\n"
        );
    });
}

#[test]
fn named_tuples_echo_as_numpy_does_and_complete_their_fields() {
    let dir = tempfile::tempdir().expect("temp dir");
    session_in(dir.path(), |session| {
        assert_eq!(
            ok(session, "mt.linalg.slogdet(mt.eye(2))"),
            "SlogdetResult(sign=np.float64(1.0), logabsdet=np.float64(0.0))\n"
        );
        ok(
            session,
            "r = mt.linalg.slogdet(mt.stack([mt.eye(2), 2 * mt.eye(2)]))",
        );
        assert_eq!(
            ok(session, "r"),
            "SlogdetResult(sign=array([1., 1.]), logabsdet=array([0.        , 1.38629436]))\n"
        );
        assert_eq!(
            ok(session, "r.logabsdet"),
            "array([0.        , 1.38629436])\n"
        );
        let fields = session
            .scope()
            .into_iter()
            .find(|(name, _)| name == "r")
            .map(|(_, members)| members);
        assert_eq!(fields, Some(Members::Fields(&["sign", "logabsdet"])));
        // A field it lacks is an error naming the closest one; the session goes on.
        let error = err(session, "r.logabsdt");
        assert!(error.contains("did you mean `logabsdet`?"), "{error}");
        assert_eq!(ok(session, "len(r), r[0]"), "(2, array([1., 1.]))\n");
    });
}
