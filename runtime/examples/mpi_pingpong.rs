//! Ping-pong between MPI ranks 0 and 1, two ways in one run, for `bench/mpi.py`:
//! raw MPI (blocking sends and receives of the buffer, made on the communication
//! thread) and marsc's transport path (a message handed to the communication thread,
//! sent non-blocking, probed and received there, then passed to the waiting thread
//! on a channel — how chunk bytes travel between ranks). Prints, per message size,
//! the best half round trip of each and the bandwidth it gives.
//!
//! `cargo build --release -p marsc-runtime --features mpi --example mpi_pingpong`,
//! then `mpirun -np 2 target/release/examples/mpi_pingpong`.

use marsc_runtime::exec::mpi::MpiWorld;
use mpi::traits::{Communicator, CommunicatorCollectives, Destination, Source};
use std::time::{Duration, Instant};

/// A control-message kind the job protocol does not use.
const PING: u8 = 200;

fn main() -> std::process::ExitCode {
    let world = match MpiWorld::init() {
        Ok(world) => world,
        Err(message) => {
            eprintln!("error: {message}");
            return std::process::ExitCode::from(1);
        }
    };
    if world.size() < 2 {
        eprintln!("error: run it on 2 ranks: mpirun -np 2 mpi_pingpong");
        world.end_job(2, "");
        return std::process::ExitCode::from(2);
    }
    let rank = world.rank();
    if rank == 0 {
        println!("bytes raw_us transport_us raw_GBps transport_GBps");
    }
    for size in [8usize, 64 << 10, 8 << 20, 64 << 20] {
        let rounds = if size >= 8 << 20 { 5 } else { 50 };
        let raw = world
            .with_communicator(move |comm| raw_pingpong(comm, size, rounds))
            .unwrap_or(Duration::ZERO);
        let transport = transport_pingpong(&world, size, rounds);
        if rank == 0 {
            let gbps = |time: Duration| size as f64 / time.as_secs_f64().max(1e-12) / 1e9;
            println!(
                "{size} {:.2} {:.2} {:.3} {:.3}",
                raw.as_secs_f64() * 1e6,
                transport.as_secs_f64() * 1e6,
                gbps(raw),
                gbps(transport)
            );
        }
    }
    world.end_job(0, "");
    std::process::ExitCode::SUCCESS
}

/// The best half round trip of blocking sends between ranks 0 and 1 (others wait).
fn raw_pingpong(comm: &mpi::topology::SimpleCommunicator, size: usize, rounds: u32) -> Duration {
    let mut buffer = vec![1u8; size];
    let mut best = Duration::MAX;
    for _ in 0..rounds {
        let started = Instant::now();
        match comm.rank() {
            0 => {
                comm.process_at_rank(1).send(&buffer[..]);
                comm.process_at_rank(1).receive_into(&mut buffer[..]);
            }
            1 => {
                comm.process_at_rank(0).receive_into(&mut buffer[..]);
                comm.process_at_rank(0).send(&buffer[..]);
            }
            _ => {}
        }
        best = best.min(started.elapsed() / 2);
    }
    comm.barrier();
    best
}

/// The best half round trip of messages through marsc's communication threads.
fn transport_pingpong(world: &MpiWorld, size: usize, rounds: u32) -> Duration {
    let buffer = vec![1u8; size];
    let mut best = Duration::MAX;
    for _ in 0..rounds {
        let started = Instant::now();
        match world.rank() {
            0 => {
                let _ = world.send_control(1, PING, &buffer);
                let _ = world.receive_from(1);
            }
            1 => {
                let _ = world.receive_from(0);
                let _ = world.send_control(0, PING, &buffer);
            }
            _ => {}
        }
        best = best.min(started.elapsed() / 2);
    }
    best
}
