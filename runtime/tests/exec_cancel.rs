//! Cancellation: a long job that is spilling stops within a second of the flag
//! being set, with `ExecError::Cancelled`, and leaves no spill file behind.

mod exec_support;

use exec_support::{PlanBuilder, Toy};
use marsc_runtime::exec::{execute, ExecError, ExecOptions, NoObserver};
use marsc_runtime::plan::{ChunkId, Plan};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// 300 chunks of 4 KiB, each reduced early and then read again by a slow
/// element-wise op (`sleep_ms` each): seconds of work that spill from the start.
fn slow_standardize(sleep_ms: u64) -> Plan<Toy> {
    let mut b = PlanBuilder::new();
    let xs: Vec<ChunkId> = (0..300)
        .map(|i| b.single(Toy::Const(vec![i; 512]), &[], None))
        .collect();
    let partials: Vec<ChunkId> = xs.iter().map(|&x| b.single(Toy::Sum, &[x], None)).collect();
    let total = b.single(Toy::Sum, &partials, None);
    for &x in &xs {
        let y = b.single(Toy::Sleep(sleep_ms), &[x, total], None);
        b.result(y);
    }
    b.finish()
}

/// Files anywhere under `dir`.
fn files_under(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|entry| {
                    let path = entry.path();
                    if path.is_dir() {
                        files_under(&path)
                    } else {
                        1
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}

#[test]
fn cancelling_a_spilling_job_stops_it_within_a_second_and_cleans_up() {
    let plan = slow_standardize(10);
    let spill_dir = tempfile::tempdir().unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let options = ExecOptions {
        workers: 2,
        memory_limit: Some(16 * 1024),
        spill_dir: Some(spill_dir.path().to_path_buf()),
        cancel: Some(Arc::clone(&cancel)),
        ..ExecOptions::default()
    };
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let outcome = execute(&Arc::new(plan), &options, &mut NoObserver);
        let _ = sender.send((outcome.map(|_| ()), Instant::now()));
    });
    // Wait until the job has spilled, so there is something to clean up.
    let watched = Instant::now();
    while files_under(spill_dir.path()) == 0 {
        assert!(
            watched.elapsed() < Duration::from_secs(20),
            "the job never spilled"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(100));
    let cancelled_at = Instant::now();
    cancel.store(true, Ordering::Relaxed);
    let (outcome, stopped_at) = receiver
        .recv_timeout(Duration::from_secs(30))
        .expect("execute did not return");
    assert_eq!(outcome, Err(ExecError::Cancelled));
    let took = stopped_at - cancelled_at;
    assert!(took < Duration::from_secs(1), "took {took:?}");
    assert_eq!(files_under(spill_dir.path()), 0);
    assert_eq!(std::fs::read_dir(spill_dir.path()).unwrap().count(), 0);
}

#[test]
fn a_job_cancelled_before_it_starts_does_nothing() {
    let mut b = PlanBuilder::new();
    let mut previous = b.single(Toy::Const(vec![1]), &[], None);
    for _ in 0..500 {
        previous = b.single(Toy::Sleep(2), &[previous], None);
    }
    b.result(previous);
    let plan = b.finish();
    let spill_dir = tempfile::tempdir().unwrap();
    let options = ExecOptions {
        workers: 3,
        memory_limit: Some(0),
        spill_dir: Some(spill_dir.path().to_path_buf()),
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..ExecOptions::default()
    };
    let started = Instant::now();
    let error = execute(&Arc::new(plan), &options, &mut NoObserver).unwrap_err();
    assert_eq!(error, ExecError::Cancelled);
    assert!(started.elapsed() < Duration::from_millis(500));
    assert_eq!(std::fs::read_dir(spill_dir.path()).unwrap().count(), 0);
}

/// Cancellation also wins over recovery: a run that is retrying and recomputing
/// stops just as quickly.
#[test]
fn cancelling_while_recovering_stops_too() {
    let plan = slow_standardize(20);
    let cancel = Arc::new(AtomicBool::new(false));
    let options = ExecOptions {
        workers: 3,
        inject_faults: Some((0.3, 11)),
        kill_worker: Some((2, 0.5)),
        cancel: Some(Arc::clone(&cancel)),
        ..ExecOptions::default()
    };
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let outcome = execute(&Arc::new(plan), &options, &mut NoObserver);
        let _ = sender.send((outcome.map(|_| ()), Instant::now()));
    });
    std::thread::sleep(Duration::from_millis(700));
    let cancelled_at = Instant::now();
    cancel.store(true, Ordering::Relaxed);
    let (outcome, stopped_at) = receiver
        .recv_timeout(Duration::from_secs(30))
        .expect("execute did not return");
    assert_eq!(outcome, Err(ExecError::Cancelled));
    assert!(stopped_at - cancelled_at < Duration::from_secs(1));
}
