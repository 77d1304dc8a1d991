//! The counted loops the generated kernels are made of: `for current in start..end`
//! with the step chosen by the body (one element, a SIMD group, a pairwise block).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Block, InstBuilder, Value};
use cranelift_frontend::{FunctionBuilder, Variable};

/// A loop being built: after [`CountedLoop::open`], instructions go into its body
/// until [`CountedLoop::close`], which continues after the loop.
pub(super) struct CountedLoop {
    index: Variable,
    header: Block,
    exit: Block,
    /// The index in this iteration.
    pub current: Value,
}

impl CountedLoop {
    /// Starts the loop at `start`; the body runs while the index is below `end`
    /// (unsigned).
    pub fn open(b: &mut FunctionBuilder<'_>, start: Value, end: Value) -> CountedLoop {
        let index = b.declare_var(types::I64);
        b.def_var(index, start);
        let header = b.create_block();
        let body = b.create_block();
        let exit = b.create_block();
        b.ins().jump(header, &[]);
        b.switch_to_block(header);
        let current = b.use_var(index);
        let more = b.ins().icmp(IntCC::UnsignedLessThan, current, end);
        b.ins().brif(more, body, &[], exit, &[]);
        b.switch_to_block(body);
        CountedLoop {
            index,
            header,
            exit,
            current,
        }
    }

    /// Ends the body: the next iteration starts at `next`.
    pub fn close(self, b: &mut FunctionBuilder<'_>, next: Value) {
        b.def_var(self.index, next);
        b.ins().jump(self.header, &[]);
        b.switch_to_block(self.exit);
    }
}
