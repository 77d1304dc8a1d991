//! The `marsc` binary: everything lives in the library, see [`marsc::cli`].

/// Large buffers get transparent huge pages, as NumPy's arrays do (see the module).
#[global_allocator]
static ALLOCATOR: marsc_runtime::huge_alloc::HugePageAlloc =
    marsc_runtime::huge_alloc::HugePageAlloc;

fn main() -> std::process::ExitCode {
    marsc::cli::main()
}
