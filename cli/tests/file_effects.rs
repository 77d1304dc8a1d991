//! File effects of the `marsc` binary, as Python + NumPy has them: loads and saves of
//! one file follow program order (under any spelling of its name), a save fails on
//! a read-only file and leaves it alone, writes through a symlink, keeps a replaced
//! file's permissions and takes any file name the file system does; `--stats-json`
//! and `--trace` never overwrite the script, its files or each other; arrays of more
//! than 64 dimensions are refused as NumPy refuses them.

use std::os::unix::fs::{symlink, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A directory holding one script, `script.mt`, that marsc runs from.
struct Job {
    dir: tempfile::TempDir,
}

impl Job {
    fn new(script: &str) -> Job {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("script.mt"), script).expect("write script");
        Job { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_marsc"));
        command
            .args(args)
            .arg("script.mt")
            .current_dir(self.dir.path());
        command
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("marsc runs")
    }

    /// Runs and expects success; returns stdout.
    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8 output")
    }

    /// The directory's entries other than the script, sorted.
    fn left(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|name| name != "script.mt")
            .collect();
        names.sort();
        names
    }
}

/// A C-order little-endian int64 `.npy` file holding `values`.
fn write_int64(path: &Path, values: &[i64]) {
    let mut header = format!(
        "{{'descr': '<i8', 'fortran_order': False, 'shape': ({},), }}",
        values.len()
    );
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    for value in values {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    std::fs::write(path, bytes).expect("write .npy");
}

fn is_root() -> bool {
    std::fs::metadata("/proc/self").is_ok_and(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
}

#[test]
fn a_load_after_a_save_of_the_same_file_reads_what_was_saved() {
    // NumPy prints [0 1 2 3 4], then [0. 2. 4.] and 2.0 (checked with numpy 2.4).
    let job = Job::new(
        "import mars.tensor as mt\n\
         mt.save(\"a.npy\", mt.arange(5, chunks=2))\n\
         print(mt.load(\"a.npy\"))\n\
         mt.save(\"sub/../a\", mt.arange(3.0) * 2)\n\
         print(mt.load(\"link.npy\", chunks=1))\n\
         print(mt.load(\"./a.npy\").mean())\n",
    );
    std::fs::create_dir(job.path("sub")).expect("mkdir");
    symlink("a.npy", job.path("link.npy")).expect("symlink");
    // First a file only the script creates, then one whose old contents differ.
    for old in [None, Some(&[7_i64, 7, 7][..])] {
        if let Some(values) = old {
            write_int64(&job.path("a.npy"), values);
        }
        assert_eq!(
            job.ok(&["--workers", "3"]),
            "[0 1 2 3 4]\n[0. 2. 4.]\n2.0\n"
        );
        assert_eq!(job.left(), ["a.npy", "link.npy", "sub"]);
    }
}

#[test]
fn a_save_after_a_load_of_the_same_file_never_disturbs_the_load() {
    const N: i64 = 20_000;
    let values: Vec<i64> = (0..N).collect();
    let job = Job::new(
        "import mars.tensor as mt\n\
         x = mt.load(\"data.npy\", chunks=500)\n\
         print(mt.cumsum(x)[-1])\n\
         y = mt.load(\"data.npy\", chunks=700, mmap_mode='r')\n\
         print((y * 2).sum())\n\
         mt.save(\"data.npy\", mt.ones(3, chunks=1) / 2)\n",
    );
    let expected = format!("{}\n{}\n", N * (N - 1) / 2, N * (N - 1));
    for run in 0..30 {
        write_int64(&job.path("data.npy"), &values);
        let workers = ["2", "3", "4"][run % 3];
        assert_eq!(
            job.ok(&["--workers", workers, "--order", "bfs"]),
            expected,
            "run {run}"
        );
    }
    // The save happened too: the file holds float64 [0.5 0.5 0.5].
    let saved = std::fs::read(job.path("data.npy")).expect("read");
    assert_eq!(&saved[saved.len() - 8..], &0.5_f64.to_le_bytes());
    assert_eq!(job.left(), ["data.npy"]);
}

#[test]
fn two_saves_of_one_file_under_two_names_keep_the_last() {
    let job = Job::new(
        "import mars.tensor as mt\n\
         mt.save(\"a.npy\", mt.ones((400, 400), chunks=50).cumsum(axis=0))\n\
         mt.save(\"./sub/../a.npy\", mt.arange(3))\n",
    );
    std::fs::create_dir(job.path("sub")).expect("mkdir");
    for _ in 0..5 {
        job.ok(&["--workers", "3", "--order", "bfs"]);
        let saved = std::fs::read(job.path("a.npy")).expect("read");
        assert_eq!(saved.len(), 128 + 24, "the file holds arange(3)");
    }
}

/// Runs `marsc` as an unprivileged user when the tests run as root (for whom
/// permission checks always pass), so the check NumPy's `open` makes is tested.
fn as_unprivileged(job: &Job, args: &[&str]) -> Output {
    let mut command = job.command(args);
    if is_root() {
        let open = std::fs::Permissions::from_mode(0o777);
        std::fs::set_permissions(job.dir.path(), open).expect("chmod dir");
        command.uid(65534).gid(65534);
    }
    command.output().expect("marsc runs")
}

#[test]
fn a_read_only_file_is_not_replaced() {
    let job = Job::new("import mars.tensor as mt\nmt.save(\"ro.npy\", mt.arange(4))\n");
    let target = job.path("ro.npy");
    write_int64(&target, &[9, 9]);
    let before = std::fs::read(&target).expect("read");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let out = as_unprivileged(&job, &["--workers", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(stderr.contains("Permission denied"), "{stderr}");
    assert!(stderr.contains("ro.npy"), "{stderr}");
    assert_eq!(std::fs::read(&target).expect("read"), before);
    let mode = std::fs::metadata(&target)
        .expect("stat")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o444);
    assert_eq!(job.left(), ["ro.npy"]);
}

#[test]
fn a_replaced_file_keeps_its_permissions() {
    // As `np.save`, which rewrites the file in place: a 0640 file stays 0640, and a
    // 0444 file that root (who may write it) saves over stays 0444.
    let job = Job::new("import mars.tensor as mt\nmt.save(\"kept.npy\", mt.arange(4))\n");
    let target = job.path("kept.npy");
    let modes: &[u32] = if is_root() { &[0o640, 0o444] } else { &[0o640] };
    for &mode in modes {
        write_int64(&target, &[1]);
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode)).expect("chmod");
        job.ok(&[]);
        let found = std::fs::metadata(&target)
            .expect("stat")
            .permissions()
            .mode();
        assert_eq!(found & 0o777, mode, "mode {mode:o}");
        assert_eq!(std::fs::read(&target).expect("read").len(), 128 + 32);
    }
}

#[test]
fn a_symlinked_output_is_written_through() {
    let job = Job::new(
        "import mars.tensor as mt\n\
         mt.save(\"link.npy\", mt.arange(4, chunks=3))\n\
         mt.save(\"dangling.npy\", mt.arange(2))\n",
    );
    std::fs::create_dir(job.path("real")).expect("mkdir");
    write_int64(&job.path("real/target.npy"), &[5]);
    symlink("real/target.npy", job.path("link.npy")).expect("symlink");
    symlink("real/new.npy", job.path("dangling.npy")).expect("symlink");
    job.ok(&["--workers", "2"]);
    for (link, len) in [("link.npy", 4), ("dangling.npy", 2)] {
        let meta = std::fs::symlink_metadata(job.path(link)).expect("lstat");
        assert!(meta.file_type().is_symlink(), "{link} is still a link");
        let data = std::fs::read(job.path(link)).expect("read through");
        assert_eq!(data.len(), 128 + 8 * len, "{link}");
    }
    let mut real: Vec<_> = std::fs::read_dir(job.path("real"))
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .collect();
    real.sort();
    assert_eq!(real, ["new.npy", "target.npy"]);
}

#[test]
fn file_names_up_to_the_limit_save() {
    // NAME_MAX is 255 bytes; the temporary name must fit too.
    for len in [236, 250, 255] {
        let name = format!("{}.npy", "n".repeat(len - 4));
        let job = Job::new(&format!(
            "import mars.tensor as mt\nmt.save(\"{name}\", mt.arange(3))\nprint(mt.load(\"{name}\"))\n"
        ));
        assert_eq!(job.ok(&[]), "[0 1 2]\n", "{len} bytes");
        assert_eq!(job.left(), [name], "{len} bytes");
    }
}

#[test]
fn reports_never_overwrite_the_script_its_files_or_each_other() {
    let job = Job::new(
        "import mars.tensor as mt\n\
         x = mt.load(\"in.npy\")\n\
         mt.save(\"out\", x + 1)\n\
         print(x.sum())\n",
    );
    write_int64(&job.path("in.npy"), &[1, 2]);
    symlink("in.npy", job.path("in-link.npy")).expect("symlink");
    let cases: &[(&[&str], &str)] = &[
        (&["--stats-json", "script.mt"], "script"),
        (&["--trace", "./script.mt"], "script"),
        (&["--stats-json", "in-link.npy"], "in.npy"),
        (&["--trace", "out.npy"], "out.npy"),
        (
            &["--stats-json", "r.json", "--trace", "./r.json"],
            "--stats-json",
        ),
    ];
    for (args, named) in cases {
        let out = job.run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(named), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} ran");
        assert_eq!(job.left(), ["in-link.npy", "in.npy"], "{args:?}");
    }
    assert!(std::fs::read_to_string(job.path("script.mt"))
        .expect("read")
        .starts_with("import"));
    assert_eq!(
        job.ok(&["--stats-json", "r.json", "--trace", "t.json"]),
        "3\n"
    );
}

#[test]
fn arrays_of_more_than_64_dimensions_are_refused_at_compile_time() {
    let ones = vec!["1"; 65].join(", ");
    for (expr, at) in [
        (format!("mt.ones(({ones}))"), ":2:"),
        (format!("mt.ones(1).reshape(({ones}))"), ":2:"),
    ] {
        let job = Job::new(&format!(
            "import mars.tensor as mt\nx = {expr}\nmt.save(\"big.npy\", x)\n"
        ));
        let out = job.run(&["check"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{expr}: {stderr}");
        assert!(
            stderr.contains("maximum supported dimension for an ndarray is currently 64, found 65"),
            "{stderr}"
        );
        assert!(stderr.contains(at), "{stderr}");
    }
    let job = Job::new(&format!(
        "import mars.tensor as mt\nprint(mt.ones(({})).shape)\n",
        vec!["1"; 64].join(", ")
    ));
    assert!(job.ok(&[]).starts_with("(1, 1, "));
}
