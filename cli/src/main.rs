//! The `marsc` binary: the front-ends over the library's job API — the command line
//! ([`cli`]), the REPL's terminal loop ([`repl`]), the signal handling that cancels
//! the running job ([`interrupt`]) and the progress bar ([`progress`]); `marsc
//! serve` ([`serve`], over the `marsc-server` crate) and its client commands
//! `submit`, `jobs`, `status`, `cancel` ([`client`]). Compiling,
//! running and sessions live in the `marsc` library (`compiler/`), which depends on
//! none of clap, rustyline, nix or indicatif.

mod choices;
mod cli;
mod client;
mod interrupt;
mod progress;
mod ranks;
mod repl;
mod report;
mod serve;
mod simulate;

/// Large buffers get transparent huge pages, as NumPy's arrays do (see the module).
#[global_allocator]
static ALLOCATOR: marsc_runtime::huge_alloc::HugePageAlloc =
    marsc_runtime::huge_alloc::HugePageAlloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
