//! Compiling kernels with Cranelift, and the process-wide kernel cache keyed by
//! structure ([`KernelKey`]), so a million chunks of one step compile once. Each
//! kernel gets its own `JITModule`; dropping a module leaks its code pages on
//! purpose (cranelift-jit's documented default), so a cached function pointer stays
//! valid for the life of the process.
//!
//! The cache's lock is held only to find or make a key's slot, never while
//! compiling: jobs compiling different kernels do so at once, and a second request
//! for a kernel being compiled waits for that one compilation. The time a thread
//! spends compiling is counted per thread ([`thread_compile_seconds`]), so a job's
//! JIT figures are its own even while other jobs compile.

use super::codegen::{build_function, build_range_sum};
use super::error::JitError;
use super::externs::{all_externs, Extern, ExternType};
use super::key::{accumulator_dtype, uses_pairwise, CompiledKernel, KernelKey};
use super::scalar_ops::scalar_type;
use super::scalar_ops::ExternResolver;
use cranelift_codegen::ir::{types, AbiParam, FuncRef, UserFuncName};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::FunctionBuilder;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId, Linkage, Module};
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// A key's compiled kernel, or why it cannot be compiled (set once).
type Slot = Arc<OnceLock<Result<Arc<CompiledKernel>, JitError>>>;

#[derive(Default)]
struct Cache {
    kernels: HashMap<KernelKey, Slot>,
    compiles: u64,
    seconds: f64,
}

thread_local! {
    /// Seconds this thread has spent compiling kernels.
    static THREAD_SECONDS: Cell<f64> = const { Cell::new(0.0) };
}

/// Seconds the calling thread has spent compiling kernels so far (a job reads it
/// before and after its JIT pass).
pub fn thread_compile_seconds() -> f64 {
    THREAD_SECONDS.with(Cell::get)
}

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(Cache::default()))
}

/// Compilation figures since the process started.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CompileCounters {
    /// Kernels compiled (cache misses).
    pub compiles: u64,
    /// Wall time spent compiling them.
    pub seconds: f64,
}

/// How many kernels were compiled so far and how long that took.
pub fn compile_counters() -> CompileCounters {
    let cache = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    CompileCounters {
        compiles: cache.compiles,
        seconds: cache.seconds,
    }
}

/// The compiled kernel for `key`, compiling it on the first request (outside the
/// cache's lock; a concurrent request for the same key waits for it).
pub fn compiled(key: &KernelKey) -> Result<Arc<CompiledKernel>, JitError> {
    let slot: Slot = {
        let mut cache = cache()
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // A lookup borrows the key; only a new kernel's slot needs an owned copy
        // (every subtask of a step looks its kernel up: cloning the graph each time
        // was a copy per subtask).
        match cache.kernels.get(key) {
            Some(slot) => Arc::clone(slot),
            None => Arc::clone(cache.kernels.entry(key.clone()).or_default()),
        }
    };
    slot.get_or_init(|| {
        let started = Instant::now();
        let kernel = compile(key).map(Arc::new);
        let seconds = started.elapsed().as_secs_f64();
        THREAD_SECONDS.with(|spent| spent.set(spent.get() + seconds));
        let mut cache = cache()
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        cache.seconds += seconds;
        cache.compiles += 1;
        kernel
    })
    .clone()
}

fn new_module() -> Result<JITModule, JitError> {
    let mut flags = settings::builder();
    let set = |flags: &mut settings::Builder, name: &str, value: &str| {
        flags
            .set(name, value)
            .map_err(|error| format!("cranelift flag {name}: {error}"))
    };
    set(&mut flags, "opt_level", "speed")?;
    set(&mut flags, "use_colocated_libcalls", "false")?;
    set(&mut flags, "is_pic", "false")?;
    let isa = cranelift_native::builder()
        .map_err(|error| format!("the JIT does not support this machine: {error}"))?
        .finish(settings::Flags::new(flags))
        .map_err(|error| format!("cranelift: {error}"))?;
    let mut builder = JITBuilder::with_isa(isa, default_libcall_names());
    let table: Vec<(&'static str, usize)> = all_externs()
        .into_iter()
        .map(|ext| (ext.name, ext.address))
        .collect();
    builder.symbol_lookup_fn(Box::new(move |name| {
        table
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(_, address)| address as *const u8)
    }));
    Ok(JITModule::new(builder))
}

fn compile(key: &KernelKey) -> Result<CompiledKernel, JitError> {
    let mut module = new_module()?;
    let frontend = module.target_config();
    let pointer = frontend.pointer_type();
    let mut signature = module.make_signature();
    for _ in 0..3 {
        signature.params.push(AbiParam::new(pointer));
    }
    let id = module
        .declare_function("kernel", Linkage::Export, &signature)
        .map_err(cranelift_error)?;
    let range_sum = if uses_pairwise(key) {
        let op = key
            .graph
            .reduce
            .ok_or("internal error: pairwise without a reduction")?;
        let acc = accumulator_dtype(op, key.graph.root_dtype())?;
        let mut range_signature = signature.clone();
        range_signature
            .returns
            .push(AbiParam::new(scalar_type(acc)));
        let range_id = module
            .declare_function("range_sum", Linkage::Local, &range_signature)
            .map_err(cranelift_error)?;
        Some((range_id, range_signature))
    } else {
        None
    };
    let leaf_value = super::call::leaf_value_address();
    let mut ir = String::new();
    let mut context = module.make_context();
    context.func.signature = signature;
    context.func.name = UserFuncName::user(0, 0);
    let mut resolver = ModuleResolver {
        module: &mut module,
        refs: HashMap::new(),
        range_sum: range_sum.as_ref().map(|(id, _)| *id),
    };
    build_function(&mut context.func, key, &mut resolver, leaf_value, frontend)?;
    ir.push_str(&context.func.display().to_string());
    module
        .define_function(id, &mut context)
        .map_err(|error| format!("cranelift could not compile a kernel: {error:?}\n{ir}"))?;
    if let Some((range_id, range_signature)) = range_sum {
        let mut context = module.make_context();
        context.func.signature = range_signature;
        context.func.name = UserFuncName::user(0, 1);
        let mut resolver = ModuleResolver {
            module: &mut module,
            refs: HashMap::new(),
            range_sum: Some(range_id),
        };
        build_range_sum(&mut context.func, key, &mut resolver, leaf_value, frontend)?;
        let text = context.func.display().to_string();
        module
            .define_function(range_id, &mut context)
            .map_err(|error| format!("cranelift could not compile a kernel: {error:?}\n{text}"))?;
        ir.push('\n');
        ir.push_str(&text);
    }
    module.finalize_definitions().map_err(cranelift_error)?;
    let address = module.get_finalized_function(id) as usize;
    Ok(CompiledKernel {
        key: key.clone(),
        address,
        ir,
        leaf_dtypes: key.graph.leaf_dtypes(),
    })
}

fn cranelift_error(error: impl std::fmt::Display) -> String {
    format!("cranelift: {error}")
}

/// Declares externs in the kernel's module as they are first called.
struct ModuleResolver<'m> {
    module: &'m mut JITModule,
    refs: HashMap<&'static str, FuncRef>,
    range_sum: Option<FuncId>,
}

impl ExternResolver for ModuleResolver<'_> {
    fn func_ref(
        &mut self,
        builder: &mut FunctionBuilder<'_>,
        ext: Extern,
    ) -> Result<FuncRef, JitError> {
        if let Some(found) = self.refs.get(ext.name) {
            return Ok(*found);
        }
        let mut signature = self.module.make_signature();
        let ty = |t: ExternType| match t {
            ExternType::F32 => types::F32,
            ExternType::F64 => types::F64,
            ExternType::I32 => types::I32,
            ExternType::I64 => types::I64,
        };
        signature
            .params
            .extend(ext.params.iter().map(|&p| AbiParam::new(ty(p))));
        signature.returns.push(AbiParam::new(ty(ext.result)));
        let id = self
            .module
            .declare_function(ext.name, Linkage::Import, &signature)
            .map_err(|error| format!("cranelift: {error}"))?;
        let func_ref = self.module.declare_func_in_func(id, builder.func);
        self.refs.insert(ext.name, func_ref);
        Ok(func_ref)
    }

    fn range_sum(&mut self, builder: &mut FunctionBuilder<'_>) -> Result<FuncRef, JitError> {
        const NAME: &str = "range_sum";
        if let Some(found) = self.refs.get(NAME) {
            return Ok(*found);
        }
        let id = self
            .range_sum
            .ok_or("internal error: no range_sum in this kernel")?;
        let func_ref = self.module.declare_func_in_func(id, builder.func);
        self.refs.insert(NAME, func_ref);
        Ok(func_ref)
    }
}
