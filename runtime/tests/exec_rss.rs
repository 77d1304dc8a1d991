//! Real memory under a limit: a tree sum over 128 MiB of generated chunks, run with
//! a 12.8 MiB limit, then without one, reporting the process's peak resident set
//! (VmHWM) after each. A measurement, not a unit test, so it is ignored by default:
//! `cargo test --release -p marsc-runtime --test exec_rss -- --ignored --nocapture`

use marsc_runtime::exec::{execute, ChunkKernel, ExecOptions, NoObserver};
use marsc_runtime::plan::{ChunkId, OpArg, Plan, PlanOp, Subtask};
use std::io::{self, Read, Write};
use std::sync::Arc;

const CHUNK_ELEMENTS: usize = 256 * 1024; // 2 MiB of i64
const LEAVES: u32 = 64;
const MIB: u64 = 1024 * 1024;

/// Generates its data, so the plan itself holds none.
#[derive(Clone, Debug)]
enum Gen {
    Fill(i64),
    Add,
}

impl ChunkKernel for Gen {
    type Value = Vec<i64>;
    type Error = String;

    fn run(&self, args: &[&Vec<i64>]) -> Result<Vec<i64>, String> {
        Ok(match self {
            Gen::Fill(value) => vec![*value; CHUNK_ELEMENTS],
            Gen::Add => args[0].iter().zip(args[1]).map(|(a, b)| a + b).collect(),
        })
    }

    fn nbytes(value: &Vec<i64>) -> usize {
        value.len() * 8
    }

    fn spill(value: &Vec<i64>, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(&(value.len() as u64).to_le_bytes())?;
        let bytes: Vec<u8> = value.iter().flat_map(|v| v.to_le_bytes()).collect();
        out.write_all(&bytes)
    }

    fn unspill(input: &mut dyn Read) -> io::Result<Vec<i64>> {
        let mut word = [0u8; 8];
        input.read_exact(&mut word)?;
        let mut bytes = vec![0u8; u64::from_le_bytes(word) as usize * 8];
        input.read_exact(&mut bytes)?;
        Ok(bytes
            .chunks_exact(8)
            .map(|b| i64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
            .collect())
    }
}

/// All leaves first (by id), then a binary tree of `Add`s.
fn tree_sum() -> Plan<Gen> {
    let mut subtasks = Vec::new();
    let mut next_chunk = 0u32;
    let mut publish = |subtasks: &mut Vec<Subtask<Gen>>, kernel, inputs: Vec<ChunkId>| {
        let args = (0..inputs.len() as u32).map(OpArg::Input).collect();
        let chunk = ChunkId(next_chunk);
        next_chunk += 1;
        subtasks.push(Subtask {
            ops: vec![PlanOp { kernel, args }].into(),
            inputs: inputs.into(),
            outputs: [(0, chunk)].into_iter().collect(),
            priority: 0,
            worker: None,
            label: 0,
        });
        chunk
    };
    let mut level: Vec<ChunkId> = (0..LEAVES)
        .map(|i| publish(&mut subtasks, Gen::Fill(i64::from(i)), vec![]))
        .collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| publish(&mut subtasks, Gen::Add, pair.to_vec()))
            .collect();
    }
    let result = level[0];
    let num_chunks = subtasks.len() as u32;
    Plan {
        subtasks,
        num_chunks,
        results: vec![result],
    }
}

/// The process's peak resident set so far, from /proc (0 elsewhere).
fn peak_rss() -> u64 {
    marsc_runtime::exec::process_status_bytes("VmHWM:")
}

#[test]
#[ignore = "measurement; run with --release --ignored --nocapture"]
fn peak_resident_set_with_and_without_a_limit() {
    let plan = Arc::new(tree_sum());
    let expected = (0..i64::from(LEAVES)).sum::<i64>();
    let data = u64::from(LEAVES) * CHUNK_ELEMENTS as u64 * 8;
    let limit = data / 10;
    let before = peak_rss();
    let limited = ExecOptions {
        workers: 2,
        memory_limit: Some(limit),
        ..ExecOptions::default()
    };
    let output = execute(&plan, &limited, &mut NoObserver).expect("run succeeds");
    assert!(output.results[0].1.iter().all(|&v| v == expected));
    let with_limit = peak_rss();
    println!(
        "data {} MiB, limit {} MiB: peak RSS {} MiB (baseline {} MiB), peak live {} MiB, spilled {} MiB",
        data / MIB,
        limit / MIB,
        with_limit / MIB,
        before / MIB,
        output.stats.peak_live_bytes / MIB,
        output.stats.spilled_bytes / MIB
    );
    let unlimited = ExecOptions {
        workers: 2,
        ..ExecOptions::default()
    };
    let output = execute(&plan, &unlimited, &mut NoObserver).expect("run succeeds");
    assert!(output.results[0].1.iter().all(|&v| v == expected));
    let without_limit = peak_rss();
    println!(
        "without a limit: peak RSS {} MiB, peak live {} MiB",
        without_limit / MIB,
        output.stats.peak_live_bytes / MIB
    );
    // Limit plus one Add's working set (3 chunks) plus allocator slack.
    assert!(with_limit < before + limit + 8 * CHUNK_ELEMENTS as u64 * 8);
    assert!(without_limit > with_limit + data / 4);
}
