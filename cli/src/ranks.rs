//! `mpirun -np N marsc script.mt`: the command line's side of a run on MPI ranks.
//!
//! A process started by `mpirun` (detected from the environment, no flag) joins the
//! job's MPI world; every rank then runs the same script (rank 0 reads it and sends
//! it to the others) to the same plans, and each run takes place on the workers of
//! all ranks (`marsc_runtime::exec::mpi`). Rank 0 alone prints, shows progress and
//! writes `--stats-json` and `--trace`; the others write their standard error to an
//! unnamed file, whose text goes to rank 0 with their exit status at the end of the
//! job, and rank 0 shows it when that rank ended differently from itself (an error
//! only it met). A build without the cargo feature `mpi` started by `mpirun` on
//! several ranks refuses at once, on rank 0, instead of running the script N times.

use std::process::ExitCode;

/// A rank's figures for `--stats` and `--stats-json`.
#[cfg(feature = "mpi")]
pub type RankFigures = marsc_runtime::exec::mpi::RankExit;

/// A rank's figures: none without the feature.
#[cfg(not(feature = "mpi"))]
pub struct RankFigures {
    pub rank: u32,
    pub bytes_sent: u64,
    pub bytes_received: u64,
    pub peak_rss_bytes: u64,
}

/// The rank's part in a job: `None` when the process is not an MPI rank.
#[cfg(feature = "mpi")]
pub struct Ranks {
    pub world: marsc::run::Ranks,
    /// Where a rank other than 0 writes its standard error.
    captured: Option<std::fs::File>,
    /// The job's ranks on this machine.
    local_size: u32,
}

#[cfg(not(feature = "mpi"))]
pub enum Ranks {}

/// None can exist without the feature: every method is unreachable.
#[cfg(not(feature = "mpi"))]
impl Ranks {
    pub fn is_root(&self) -> bool {
        match *self {}
    }
    pub fn world(&self) -> marsc::run::Ranks {
        match *self {}
    }
    pub fn workers_per_rank(&self, _asked: Option<u32>) -> u32 {
        match *self {}
    }
    pub fn size(&self) -> u32 {
        match *self {}
    }
    pub fn read_script(
        &self,
        _read: impl FnOnce() -> Result<String, ExitCode>,
    ) -> Result<String, ExitCode> {
        match *self {}
    }
}

/// What the launcher (`mpirun`: Open MPI, or PMI/PMIx) told this process through
/// its environment; the one place that reads it.
struct Launch {
    /// The job's ranks, when the launcher says.
    size: Option<u32>,
    rank: u32,
    /// The job's ranks on this machine.
    #[cfg(feature = "mpi")]
    local_size: u32,
}

impl Launch {
    /// `None` when no launcher started this process.
    fn from_env() -> Option<Launch> {
        let launched = ["OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"]
            .iter()
            .any(|name| std::env::var_os(name).is_some());
        let number = |names: &[&str]| {
            names
                .iter()
                .find_map(|name| std::env::var(name).ok()?.parse().ok())
        };
        launched.then(|| Launch {
            size: number(&["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"]),
            rank: number(&["OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"]).unwrap_or(0),
            #[cfg(feature = "mpi")]
            local_size: number(&["OMPI_COMM_WORLD_LOCAL_SIZE"]).unwrap_or(1),
        })
    }
}

/// Under a launcher on several ranks: `message` (given the ranks) on rank 0 and
/// exit status 2 on every rank; `None` otherwise.
fn refuse_on_ranks(message: impl FnOnce(u32) -> String) -> Option<ExitCode> {
    let launch = Launch::from_env()?;
    let ranks = launch.size.filter(|&ranks| ranks > 1)?;
    if launch.rank == 0 {
        eprintln!("{}", message(ranks));
    }
    Some(ExitCode::from(2))
}

/// Joins the MPI job if this process is a rank of one.
#[cfg(feature = "mpi")]
pub fn start() -> Result<Option<Ranks>, ExitCode> {
    let Some(launch) = Launch::from_env() else {
        return Ok(None);
    };
    let world = marsc_runtime::exec::mpi::MpiWorld::init().map_err(|message| {
        eprintln!("error: cannot join the MPI job: {message}");
        ExitCode::from(1)
    })?;
    let captured = (world.rank() != 0).then(capture_stderr).flatten();
    Ok(Some(Ranks {
        world,
        captured,
        local_size: launch.local_size,
    }))
}

/// Joins the MPI job if this process is a rank of one: this build cannot.
#[cfg(not(feature = "mpi"))]
pub fn start() -> Result<Option<Ranks>, ExitCode> {
    let refused = refuse_on_ranks(|ranks| {
        format!(
            "error: this marsc was built without MPI support, so it cannot run on {ranks} \
             ranks\n  = help: build it with `cargo build --release --features mpi` (needs \
             libopenmpi-dev and libclang), or run it without mpirun"
        )
    });
    refused.map_or(Ok(None), Err)
}

/// Under `mpirun` on several ranks, any command but a script's run: a refusal on
/// rank 0 (exit 2); `None` when not started so.
pub fn refuse_other_commands() -> Option<ExitCode> {
    refuse_on_ranks(|ranks| {
        format!(
            "error: only `marsc SCRIPT.mt` runs on MPI ranks; this command would run once \
             on each of the {ranks} ranks\n  = help: run it without mpirun"
        )
    })
}

/// Sends standard error to an unnamed file; `None` if it cannot (it stays as is).
#[cfg(feature = "mpi")]
fn capture_stderr() -> Option<std::fs::File> {
    let file = tempfile::tempfile().ok()?;
    nix::unistd::dup2_stderr(&file).ok()?;
    Some(file)
}

#[cfg(feature = "mpi")]
impl Ranks {
    pub fn is_root(&self) -> bool {
        self.world.rank() == 0
    }

    pub fn world(&self) -> marsc::run::Ranks {
        self.world.clone()
    }

    pub fn size(&self) -> u32 {
        self.world.size()
    }

    /// Workers on each rank: `--workers`, else this machine's cores shared by the
    /// job's ranks on it.
    pub fn workers_per_rank(&self, asked: Option<u32>) -> u32 {
        asked.unwrap_or_else(|| {
            let cores = marsc::run::RunOptions::default().workers;
            (cores / self.local_size.max(1)).max(1)
        })
    }

    /// The script's text: rank 0 reads it and sends it to the others.
    pub fn read_script(
        &self,
        read: impl FnOnce() -> Result<String, ExitCode>,
    ) -> Result<String, ExitCode> {
        if self.is_root() {
            let text = read();
            if let Err(message) = self.world.share_script(text.as_deref().ok()) {
                eprintln!("error: {message}");
                return Err(ExitCode::from(1));
            }
            return text;
        }
        self.world
            .receive_script()
            .map_err(|error| error.to_string())
            .and_then(|text| text.ok_or_else(|| "rank 0 could not read the script".to_string()))
            .map_err(|message| {
                eprintln!("error: {message}");
                ExitCode::from(1)
            })
    }

    /// Ends the job on this rank with `status` (what this rank would exit with):
    /// the exit handshake, then MPI is finalized. On rank 0 the job's status (its
    /// own, else the first failing rank's, whose message it shows) and every
    /// rank's figures.
    pub fn finish(mut self, status: u8) -> (ExitCode, Vec<RankFigures>) {
        use std::io::{Read, Seek};
        let mut message = String::new();
        if let Some(file) = &mut self.captured {
            let _ = file.rewind();
            let _ = file.take(64 << 10).read_to_string(&mut message);
        }
        let exits = self.world.end_job(status, message.trim_end());
        if !self.is_root() {
            return (ExitCode::from(status), exits);
        }
        let mut job_status = status;
        for exit in exits.iter().skip(1) {
            if exit.status != status {
                eprintln!(
                    "marsc: rank {} ended with status {}:",
                    exit.rank, exit.status
                );
                for line in exit.message.lines() {
                    eprintln!("  rank {}: {line}", exit.rank);
                }
                if job_status == 0 {
                    job_status = exit.status;
                }
            }
        }
        (ExitCode::from(job_status), exits)
    }
}
