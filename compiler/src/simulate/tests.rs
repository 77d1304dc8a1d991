//! The simulator on small hand-built plans whose figures can be worked out by hand:
//! one chain, two independent tasks, a transfer, link contention, the coordinator
//! as a bottleneck, placement by input bytes, and peak memory.

use super::units::{
    format_bytes, format_seconds, parse_bandwidth, parse_duration, parse_flop_rate,
};
use super::{simulate, Cluster, SimChunk, SimGraph, SimTask};

/// A cluster with round numbers: 1 GB/s links and cores that stream 1 GB/s, no
/// latency and a free coordinator unless a test sets them.
fn cluster(workers: u32) -> Cluster {
    Cluster {
        workers,
        bandwidth: 1e9,
        latency: 0.0,
        compute_rate: 1e9,
        flop_rate: 1e9,
        coordinator_cost: 0.0,
        queue_depth: Some(2),
    }
}

/// Builds a plan from `(worker, inputs, output bytes)`, one output chunk per task
/// (chunk i is task i's), priorities in task order.
fn plan(tasks: &[(Option<u32>, &[u32], u64)]) -> SimGraph {
    SimGraph {
        tasks: tasks
            .iter()
            .enumerate()
            .map(|(i, &(worker, inputs, bytes))| SimTask {
                worker,
                priority: i as i64,
                inputs: inputs.to_vec(),
                outputs: vec![i as u32],
                // One operation: it reads its inputs and writes its output.
                work_bytes: bytes + inputs.iter().map(|&c| tasks[c as usize].2).sum::<u64>(),
                flops: 0,
            })
            .collect(),
        chunks: tasks
            .iter()
            .enumerate()
            .map(|(i, &(_, _, bytes))| SimChunk {
                bytes,
                producer: i as u32,
            })
            .collect(),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 + 1e-9 * b.abs()
}

#[test]
fn a_chain_on_one_worker_takes_the_sum_of_its_compute() {
    // 1 kB written (1 µs), then 1 kB read and 2 kB written (3 µs).
    let graph = plan(&[(Some(0), &[], 1000), (Some(0), &[0], 2000)]);
    let report = simulate(&graph, &cluster(1));
    assert!(close(report.makespan, 4e-6), "{report:?}");
    assert_eq!(report.transfer_bytes, 0);
    // The result (no reader) is not held; chunk 0 is, while task 1 runs.
    assert_eq!(report.peak_memory, [1000]);
}

#[test]
fn independent_tasks_run_in_parallel_on_two_workers() {
    let graph = plan(&[(Some(0), &[], 1000), (Some(1), &[], 1000)]);
    assert!(close(simulate(&graph, &cluster(2)).makespan, 1e-6));
    assert!(close(simulate(&graph, &cluster(1)).makespan, 2e-6));
}

#[test]
fn a_remote_input_costs_latency_plus_bytes_over_bandwidth() {
    // Task 0 on worker 0 writes 1 MB (1 ms); task 1 on worker 1 reads it (1 ms of
    // transfer, then 1 ms to stream it, writing 0 bytes). Each control hop is 10 µs:
    // order, report, order, transfer, report.
    let graph = plan(&[(Some(0), &[], 1_000_000), (Some(1), &[0], 0)]);
    let cluster = Cluster {
        latency: 10e-6,
        ..cluster(2)
    };
    let report = simulate(&graph, &cluster);
    assert_eq!(report.transfer_bytes, 1_000_000);
    assert_eq!(report.transfers, 1);
    let expected = 10e-6 + 1e-3 + 10e-6 + 10e-6 + (10e-6 + 1e-3) + 1e-3 + 10e-6;
    assert!(close(report.makespan, expected), "{}", report.makespan);
    // Both workers held the chunk: the producer and the replica.
    assert_eq!(report.peak_memory, [1_000_000, 1_000_000]);
}

#[test]
fn transfers_into_one_worker_share_its_downlink() {
    // Workers 0 and 1 each write 1 MB; worker 2 reads both: its downlink carries
    // them one after the other (2 ms), not side by side (1 ms).
    let graph = plan(&[
        (Some(0), &[], 1_000_000),
        (Some(1), &[], 1_000_000),
        (Some(2), &[0, 1], 0),
    ]);
    let report = simulate(&graph, &cluster(3));
    assert_eq!(report.transfer_bytes, 2_000_000);
    // 1 ms to write both, 2 ms of transfers, 2 ms to read them.
    assert!(close(report.makespan, 5e-3), "{}", report.makespan);
}

#[test]
fn the_coordinator_dispatches_one_subtask_at_a_time() {
    // 100 tiny tasks on 100 workers: a 1 µs coordinator hands them out over 100 µs,
    // so the last finishes after 100 µs however many workers there are.
    let tasks: Vec<(Option<u32>, &[u32], u64)> =
        (0..100).map(|w| (Some(w), &[][..], 1000)).collect();
    let graph = plan(&tasks);
    let cluster = Cluster {
        coordinator_cost: 1e-6,
        ..cluster(100)
    };
    let report = simulate(&graph, &cluster);
    assert!(close(report.makespan, 101e-6), "{}", report.makespan);
    assert!(close(report.coordinator_busy, 100e-6));
    assert!(report.coordinator_share() > 0.99);
}

#[test]
fn unpinned_subtasks_go_where_their_input_bytes_are() {
    // Two inputs pinned apart; the reader of the larger one runs beside it.
    let graph = plan(&[(Some(0), &[], 10), (Some(1), &[], 1000), (None, &[0, 1], 0)]);
    let report = simulate(&graph, &cluster(2));
    assert_eq!(report.transfer_bytes, 10);
}

#[test]
fn unpinned_initial_subtasks_spread_over_idle_workers() {
    let graph = plan(&[(None, &[], 1000), (None, &[], 1000), (None, &[], 1000)]);
    let report = simulate(&graph, &cluster(3));
    assert!(close(report.makespan, 1e-6), "{}", report.makespan);
}

#[test]
fn matrix_products_cost_their_flops() {
    let mut graph = plan(&[(Some(0), &[], 0)]);
    graph.tasks[0].flops = 2_000_000;
    let cluster = Cluster {
        flop_rate: 1e12,
        ..cluster(1)
    };
    assert!(close(simulate(&graph, &cluster).makespan, 2e-6));
}

#[test]
fn a_worker_runs_its_queue_in_priority_order_and_frees_what_is_read() {
    // Two branches on one worker, each a 1 MB chunk read once: with depth 1 the
    // first branch completes (and frees its chunk) before the second starts.
    let graph = plan(&[
        (Some(0), &[], 1_000_000),
        (Some(0), &[0], 0),
        (Some(0), &[], 1_000_000),
        (Some(0), &[2], 0),
    ]);
    let mut graph = graph;
    // Depth-first priorities: 0, 1, then 2, 3.
    for (task, priority) in graph.tasks.iter_mut().zip([0, 1, 2, 3]) {
        task.priority = priority;
    }
    let report = simulate(
        &graph,
        &Cluster {
            queue_depth: Some(1),
            ..cluster(1)
        },
    );
    assert_eq!(report.peak_memory, [1_000_000]);
    assert!(close(report.makespan, 4e-3));
}

#[test]
fn an_empty_plan_takes_no_time() {
    let report = simulate(&SimGraph::default(), &cluster(4));
    assert_eq!(report.makespan, 0.0);
    assert_eq!(report.peak_memory, [0, 0, 0, 0]);
}

#[test]
fn the_same_plan_gives_the_same_figures() {
    let tasks: Vec<(Option<u32>, Vec<u32>, u64)> = (0..200)
        .map(|i| {
            let inputs = if i >= 2 { vec![i - 1, i / 2] } else { vec![] };
            (Some(i % 7), inputs, 1000 + u64::from(i) * 37)
        })
        .collect();
    let borrowed: Vec<(Option<u32>, &[u32], u64)> = tasks
        .iter()
        .map(|(w, inputs, bytes)| (*w, inputs.as_slice(), *bytes))
        .collect();
    let graph = plan(&borrowed);
    let cluster = Cluster {
        latency: 3e-6,
        coordinator_cost: 1e-6,
        queue_depth: None,
        ..cluster(5)
    };
    assert_eq!(simulate(&graph, &cluster), simulate(&graph, &cluster));
}

#[test]
fn units_parse_rates_and_durations() {
    assert_eq!(parse_bandwidth("10GB/s"), Ok(10e9));
    assert_eq!(parse_bandwidth("10Gb/s"), Ok(1.25e9));
    assert_eq!(parse_bandwidth("1.5kB"), Ok(1500.0));
    assert_eq!(parse_bandwidth("2MiB/s"), Ok(2_097_152.0));
    assert_eq!(parse_bandwidth("1e9B/s"), Ok(1e9));
    assert!(parse_bandwidth("10 GB/s").is_ok());
    for bad in ["", "fast", "10", "10GX/s", "0GB/s", "-1GB/s", "10GiB/h"] {
        assert!(parse_bandwidth(bad).is_err(), "{bad}");
    }
    assert_eq!(parse_duration("50us"), Ok(50e-6));
    assert_eq!(parse_duration("50µs"), Ok(50e-6));
    assert_eq!(parse_duration("1.5ms"), Ok(1.5e-3));
    assert_eq!(parse_duration("0"), Ok(0.0));
    for bad in ["50", "5 parsecs", "-1ms", "us"] {
        assert!(parse_duration(bad).is_err(), "{bad}");
    }
    assert_eq!(parse_flop_rate("50GFLOP/s"), Ok(50e9));
    assert_eq!(parse_flop_rate("2e10"), Ok(2e10));
    assert!(parse_flop_rate("50GB/s").is_err());
    assert_eq!(format_seconds(0.0175), "17.5 ms");
    assert_eq!(format_seconds(2.0), "2.00 s");
    assert_eq!(format_bytes(4e9), "4.00 GB");
    assert_eq!(format_bytes(12.0), "12 B");
}

#[test]
fn a_compiled_plan_keeps_its_workers_sizes_and_flops() {
    use crate::driver::{self, Options};
    use crate::fuse::Fusion;
    let text = "\
import mars.tensor as mt
a = mt.random.rand(4, 6, chunks=(2, 3))
b = mt.random.rand(6, 4, chunks=(3, 2))
print((a @ b).sum())
";
    let options = Options {
        workers: Some(3),
        fusion: Fusion::Off,
        ..Options::default()
    };
    let (_, chunks, subtasks) = driver::subtasks(text, &options).unwrap();
    let projected = crate::run::preflight::projected_chunk_bytes(&chunks);
    let graph = super::from_subtasks(&subtasks, &chunks, &projected);
    assert_eq!(graph.tasks.len(), subtasks.len());
    // The block products do 2 m k n flops in all, however they are split.
    assert_eq!(
        graph.tasks.iter().map(|t| t.flops).sum::<u64>(),
        2 * 4 * 6 * 4
    );
    for (index, task) in graph.tasks.iter().enumerate() {
        assert!(task.worker.is_some_and(|w| w < 3), "{task:?}");
        assert!(task.work_bytes > 0 || task.inputs.is_empty(), "{task:?}");
        for &chunk in &task.inputs {
            assert!((graph.chunks[chunk as usize].producer as usize) < index);
        }
    }
    // Each random block's 8-byte elements, e.g. a's 2 x 3 blocks.
    assert_eq!(graph.chunks[0].bytes, 2 * 3 * 8);
    let report = simulate(&graph, &cluster(3));
    assert!(report.makespan > 0.0);
}
