//! The bytes of the executor's messages between ranks: little-endian integers and
//! length-prefixed lists, chunk values in the kernels' own spill format
//! ([`ChunkKernel::spill`]), so any value a worker can spill can travel. Also the
//! outcome of a run that rank 0 sends the others (results, figures or error), so
//! that every rank goes on from the same values.

use super::super::message::{CompletionReport, CoordinatorMessage, WorkOrder, WorkerMessage};
use super::super::{ChunkKernel, ExecError, ExecOutput, ExecStats};
use crate::plan::{ChunkId, SubtaskId};
use std::io;
use std::sync::Arc;

/// Appends values to a message.
pub(super) struct Writer(pub Vec<u8>);

impl Writer {
    pub fn u8(&mut self, value: u8) {
        self.0.push(value);
    }
    pub fn u32(&mut self, value: u32) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }
    pub fn u64(&mut self, value: u64) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }
    pub fn f64(&mut self, value: f64) {
        self.u64(value.to_bits());
    }
    pub fn len(&mut self, len: usize) {
        self.u64(len as u64);
    }
    pub fn u32s(&mut self, values: impl ExactSizeIterator<Item = u32>) {
        self.len(values.len());
        for value in values {
            self.u32(value);
        }
    }
    pub fn u64s(&mut self, values: &[u64]) {
        self.len(values.len());
        for &value in values {
            self.u64(value);
        }
    }
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.len(bytes.len());
        self.0.extend_from_slice(bytes);
    }
    pub fn text(&mut self, text: &str) {
        self.bytes(text.as_bytes());
    }
    pub fn value<K: ChunkKernel>(&mut self, value: &K::Value) -> io::Result<()> {
        // The length goes first; it is known once the value is written.
        let at = self.0.len();
        self.u64(0);
        K::spill(value, &mut self.0)?;
        let len = (self.0.len() - at - 8) as u64;
        self.0[at..at + 8].copy_from_slice(&len.to_le_bytes());
        Ok(())
    }
}

/// Reads values back, in the order they were written.
pub(super) struct Reader<'a>(pub &'a [u8]);

fn truncated() -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "a message from another rank is truncated",
    )
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> io::Result<&'a [u8]> {
        if self.0.len() < n {
            return Err(truncated());
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    pub fn u8(&mut self) -> io::Result<u8> {
        Ok(self.take(1)?[0])
    }
    pub fn u32(&mut self) -> io::Result<u32> {
        let bytes = self.take(4)?;
        Ok(u32::from_le_bytes(
            bytes.try_into().map_err(|_| truncated())?,
        ))
    }
    pub fn u64(&mut self) -> io::Result<u64> {
        let bytes = self.take(8)?;
        Ok(u64::from_le_bytes(
            bytes.try_into().map_err(|_| truncated())?,
        ))
    }
    pub fn f64(&mut self) -> io::Result<f64> {
        self.u64().map(f64::from_bits)
    }
    pub fn len(&mut self) -> io::Result<usize> {
        let len = usize::try_from(self.u64()?).map_err(|_| truncated())?;
        // No list is longer than the bytes left (each item takes at least one).
        if len > self.0.len() {
            return Err(truncated());
        }
        Ok(len)
    }
    pub fn u32s(&mut self) -> io::Result<Vec<u32>> {
        let len = self.len()?;
        (0..len).map(|_| self.u32()).collect()
    }
    pub fn u64s(&mut self) -> io::Result<Vec<u64>> {
        let len = self.len()?;
        (0..len).map(|_| self.u64()).collect()
    }
    pub fn bytes(&mut self) -> io::Result<&'a [u8]> {
        let len = self.len()?;
        self.take(len)
    }
    pub fn text(&mut self) -> io::Result<String> {
        Ok(String::from_utf8_lossy(self.bytes()?).into_owned())
    }
    pub fn value<K: ChunkKernel>(&mut self) -> io::Result<K::Value> {
        let mut bytes = self.bytes()?;
        K::unspill(&mut bytes)
    }
}

fn chunks(ids: &[ChunkId]) -> impl ExactSizeIterator<Item = u32> + '_ {
    ids.iter().map(|id| id.0)
}

fn subtasks(ids: &[SubtaskId]) -> impl ExactSizeIterator<Item = u32> + '_ {
    ids.iter().map(|id| id.0)
}

fn chunk_ids(ids: Vec<u32>) -> Vec<ChunkId> {
    ids.into_iter().map(ChunkId).collect()
}

fn subtask_ids(ids: Vec<u32>) -> Vec<SubtaskId> {
    ids.into_iter().map(SubtaskId).collect()
}

/// Appends a worker message.
pub(super) fn write_worker<K: ChunkKernel>(
    out: &mut Writer,
    message: &WorkerMessage<K::Value>,
) -> io::Result<()> {
    match message {
        WorkerMessage::Work(order) => {
            out.u8(0);
            out.u32s(subtasks(&order.run));
            out.u32s(order.attempts.iter().copied());
            out.u32s(order.sources.iter().copied());
            out.u32s(chunks(&order.free));
            out.u32s(chunks(&order.evict));
            out.u32s(chunks(&order.spill));
            out.u32(order.report_every);
        }
        WorkerMessage::ChunkRequest {
            chunks: ids,
            reply_to,
        } => {
            out.u8(1);
            out.u32s(chunks(ids));
            out.u32(*reply_to);
        }
        WorkerMessage::ChunkReply { chunks } => {
            out.u8(2);
            out.len(chunks.len());
            for (chunk, value) in chunks {
                out.u32(chunk.0);
                match value {
                    Some(value) => {
                        out.u8(1);
                        out.value::<K>(value)?;
                    }
                    None => out.u8(0),
                }
            }
        }
        WorkerMessage::Kill => out.u8(3),
        WorkerMessage::Shutdown => out.u8(4),
    }
    Ok(())
}

/// Reads a worker message.
pub(super) fn read_worker<K: ChunkKernel>(
    input: &mut Reader,
) -> io::Result<WorkerMessage<K::Value>> {
    Ok(match input.u8()? {
        0 => WorkerMessage::Work(WorkOrder {
            run: subtask_ids(input.u32s()?),
            attempts: input.u32s()?,
            sources: input.u32s()?,
            free: chunk_ids(input.u32s()?),
            evict: chunk_ids(input.u32s()?),
            spill: chunk_ids(input.u32s()?),
            report_every: input.u32()?,
        }),
        1 => WorkerMessage::ChunkRequest {
            chunks: chunk_ids(input.u32s()?),
            reply_to: input.u32()?,
        },
        2 => {
            let len = input.len()?;
            let mut chunks = Vec::with_capacity(len);
            for _ in 0..len {
                let chunk = ChunkId(input.u32()?);
                let value = match input.u8()? {
                    0 => None,
                    _ => Some(Arc::new(input.value::<K>()?)),
                };
                chunks.push((chunk, value));
            }
            WorkerMessage::ChunkReply { chunks }
        }
        3 => WorkerMessage::Kill,
        4 => WorkerMessage::Shutdown,
        other => return Err(unknown("worker message", other)),
    })
}

fn unknown(what: &str, tag: u8) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("unknown {what} kind {tag} from another rank"),
    )
}

/// Appends a coordinator message.
pub(super) fn write_coordinator<K: ChunkKernel>(
    out: &mut Writer,
    message: &CoordinatorMessage<K::Value>,
) -> io::Result<()> {
    match message {
        CoordinatorMessage::Completed(report) => {
            out.u8(0);
            out.u32(report.worker);
            out.u32s(subtasks(&report.subtasks));
            out.u64s(&report.output_bytes);
            let spans: Vec<u64> = report.spans.iter().flat_map(|&(a, b)| [a, b]).collect();
            out.u64s(&spans);
            out.u32s(chunks(&report.replicas));
            out.len(report.results.len());
            for (chunk, value) in &report.results {
                out.u32(chunk.0);
                out.value::<K>(value)?;
            }
            out.len(report.failed.len());
            for (subtask, message) in &report.failed {
                out.u32(subtask.0);
                out.text(message);
            }
            out.len(report.abandoned.len());
            for (subtask, chunk) in &report.abandoned {
                out.u32(subtask.0);
                out.u32(chunk.0);
            }
            for figure in [
                report.transfer_bytes,
                report.spilled_bytes,
                report.peak_store_bytes,
                report.store_bytes,
                report.busy_nanos,
            ] {
                out.u64(figure);
            }
        }
        CoordinatorMessage::Failed {
            worker,
            subtask,
            message,
        } => {
            out.u8(1);
            out.u32(*worker);
            match subtask {
                Some(subtask) => {
                    out.u8(1);
                    out.u32(subtask.0);
                }
                None => out.u8(0),
            }
            out.text(message);
        }
    }
    Ok(())
}

/// Reads a coordinator message.
pub(super) fn read_coordinator<K: ChunkKernel>(
    input: &mut Reader,
) -> io::Result<CoordinatorMessage<K::Value>> {
    Ok(match input.u8()? {
        0 => {
            let mut report = CompletionReport::new(input.u32()?);
            report.subtasks = subtask_ids(input.u32s()?);
            report.output_bytes = input.u64s()?;
            let spans = input.u64s()?;
            report.spans = spans
                .chunks_exact(2)
                .map(|pair| (pair[0], pair[1]))
                .collect();
            report.replicas = chunk_ids(input.u32s()?);
            for _ in 0..input.len()? {
                let chunk = ChunkId(input.u32()?);
                report.results.push((chunk, Arc::new(input.value::<K>()?)));
            }
            for _ in 0..input.len()? {
                let subtask = SubtaskId(input.u32()?);
                report.failed.push((subtask, input.text()?));
            }
            for _ in 0..input.len()? {
                let subtask = SubtaskId(input.u32()?);
                report.abandoned.push((subtask, ChunkId(input.u32()?)));
            }
            report.transfer_bytes = input.u64()?;
            report.spilled_bytes = input.u64()?;
            report.peak_store_bytes = input.u64()?;
            report.store_bytes = input.u64()?;
            report.busy_nanos = input.u64()?;
            CoordinatorMessage::Completed(report)
        }
        1 => {
            let worker = input.u32()?;
            let subtask = match input.u8()? {
                0 => None,
                _ => Some(SubtaskId(input.u32()?)),
            };
            CoordinatorMessage::Failed {
                worker,
                subtask,
                message: input.text()?,
            }
        }
        other => return Err(unknown("coordinator message", other)),
    })
}

/// Appends a run's outcome.
pub(super) fn write_outcome<K: ChunkKernel>(
    out: &mut Writer,
    outcome: &Result<ExecOutput<K::Value>, ExecError>,
) -> io::Result<()> {
    match outcome {
        Ok(output) => {
            out.u8(0);
            out.len(output.results.len());
            for (chunk, value) in &output.results {
                out.u32(chunk.0);
                out.value::<K>(value)?;
            }
            let stats = &output.stats;
            out.u64(stats.subtasks);
            out.u32(stats.workers);
            out.f64(stats.run_seconds);
            out.u64(stats.transfer_bytes);
            out.u64(stats.peak_live_chunks);
            out.u64(stats.peak_live_bytes);
            out.u64s(&stats.subtasks_per_worker);
            out.u64(stats.spilled_bytes);
            out.u64(stats.retries);
            out.u64(stats.recomputed);
            out.u64s(&stats.peak_worker_bytes);
        }
        Err(error) => {
            out.u8(1);
            match error {
                ExecError::InvalidPlan(message) => {
                    out.u8(0);
                    out.text(message);
                }
                ExecError::InvalidOptions(message) => {
                    out.u8(1);
                    out.text(message);
                }
                ExecError::SubtaskFailed {
                    subtask,
                    label,
                    worker,
                    message,
                } => {
                    out.u8(2);
                    out.u32(subtask.0);
                    out.u32(*label);
                    out.u32(*worker);
                    out.text(message);
                }
                ExecError::Cancelled => out.u8(3),
                ExecError::Internal(message) => {
                    out.u8(4);
                    out.text(message);
                }
            }
        }
    }
    Ok(())
}

/// Reads a run's outcome.
pub(super) fn read_outcome<K: ChunkKernel>(
    input: &mut Reader,
) -> io::Result<Result<ExecOutput<K::Value>, ExecError>> {
    if input.u8()? == 1 {
        return Ok(Err(match input.u8()? {
            0 => ExecError::InvalidPlan(input.text()?),
            1 => ExecError::InvalidOptions(input.text()?),
            2 => ExecError::SubtaskFailed {
                subtask: SubtaskId(input.u32()?),
                label: input.u32()?,
                worker: input.u32()?,
                message: input.text()?,
            },
            3 => ExecError::Cancelled,
            4 => ExecError::Internal(input.text()?),
            other => return Err(unknown("run error", other)),
        }));
    }
    let mut results = Vec::new();
    for _ in 0..input.len()? {
        let chunk = ChunkId(input.u32()?);
        results.push((chunk, Arc::new(input.value::<K>()?)));
    }
    let stats = ExecStats {
        subtasks: input.u64()?,
        workers: input.u32()?,
        run_seconds: input.f64()?,
        transfer_bytes: input.u64()?,
        peak_live_chunks: input.u64()?,
        peak_live_bytes: input.u64()?,
        subtasks_per_worker: input.u64s()?,
        spilled_bytes: input.u64()?,
        retries: input.u64()?,
        recomputed: input.u64()?,
        peak_worker_bytes: input.u64s()?,
    };
    Ok(Ok(ExecOutput { results, stats }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kernel whose values are plain integers, spilled as 8 little-endian bytes.
    struct Int;

    impl ChunkKernel for Int {
        type Value = i64;
        type Error = String;
        fn run(&self, _args: &[&i64]) -> Result<i64, String> {
            Ok(0)
        }
        fn nbytes(_value: &i64) -> usize {
            8
        }
        fn spill(value: &i64, out: &mut dyn io::Write) -> io::Result<()> {
            out.write_all(&value.to_le_bytes())
        }
        fn unspill(input: &mut dyn io::Read) -> io::Result<i64> {
            let mut bytes = [0; 8];
            input.read_exact(&mut bytes)?;
            Ok(i64::from_le_bytes(bytes))
        }
    }

    fn round_trip(message: &WorkerMessage<i64>) -> WorkerMessage<i64> {
        let mut out = Writer(Vec::new());
        write_worker::<Int>(&mut out, message).expect("encodes");
        let mut input = Reader(&out.0);
        let decoded = read_worker::<Int>(&mut input).expect("decodes");
        assert!(input.0.is_empty(), "bytes left over");
        decoded
    }

    #[test]
    fn chunk_requests_and_replies_carry_every_chunk() {
        let ids = vec![ChunkId(7), ChunkId(3), ChunkId(4_000_000_000)];
        let request = WorkerMessage::ChunkRequest {
            chunks: ids.clone(),
            reply_to: 5,
        };
        match round_trip(&request) {
            WorkerMessage::ChunkRequest { chunks, reply_to } => {
                assert_eq!((chunks, reply_to), (ids, 5));
            }
            other => panic!("decoded {other:?}"),
        }
        let reply = WorkerMessage::ChunkReply {
            chunks: vec![
                (ChunkId(7), Some(Arc::new(-12))),
                (ChunkId(3), None),
                (ChunkId(9), Some(Arc::new(i64::MAX))),
            ],
        };
        match round_trip(&reply) {
            WorkerMessage::ChunkReply { chunks } => {
                let chunks: Vec<(ChunkId, Option<i64>)> = chunks
                    .into_iter()
                    .map(|(chunk, value)| (chunk, value.map(|v| *v)))
                    .collect();
                assert_eq!(
                    chunks,
                    [
                        (ChunkId(7), Some(-12)),
                        (ChunkId(3), None),
                        (ChunkId(9), Some(i64::MAX))
                    ]
                );
            }
            other => panic!("decoded {other:?}"),
        }
        match round_trip(&WorkerMessage::ChunkReply { chunks: Vec::new() }) {
            WorkerMessage::ChunkReply { chunks } => assert!(chunks.is_empty()),
            other => panic!("decoded {other:?}"),
        }
    }

    #[test]
    fn a_cut_reply_is_an_error_not_a_panic() {
        let reply = WorkerMessage::ChunkReply {
            chunks: vec![(ChunkId(1), Some(Arc::new(1))), (ChunkId(2), None)],
        };
        let mut out = Writer(Vec::new());
        write_worker::<Int>(&mut out, &reply).expect("encodes");
        for cut in 0..out.0.len() {
            assert!(
                read_worker::<Int>(&mut Reader(&out.0[..cut])).is_err(),
                "cut at {cut}"
            );
        }
    }
}
