//! The `marsc` binary: everything lives in the library, see [`marsc::cli`].

fn main() -> std::process::ExitCode {
    marsc::cli::main()
}
