//! The script's outputs: `print(*items, sep=' ', end='\n')`, with compile-time values
//! formatted now as Python's `str()` and tensors left to the runtime, and
//! `save(path, x)`, which appends `.npy` to the path as NumPy does.

use super::bind::{Arg, BoundArgs};
use super::convert::{bool_arg, str_arg};
use super::pyfmt::python_str;
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::tileable::{Output, PrintItem};
use marsc_grammar::Diagnostic;
use std::path::Path;

impl Lowerer<'_> {
    pub(super) fn print(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let sep = separator(&args.get("sep"), "sep", " ")?;
        let end = separator(&args.get("end"), "end", "\n")?;
        bool_arg(&args.get("flush"), "flush")?;
        let items = args
            .rest()
            .iter()
            .map(|arg| match &arg.value {
                Value::Tensor(id) => Ok(PrintItem::Tensor(*id)),
                other => python_str(other).map(PrintItem::Text).ok_or_else(|| {
                    Diagnostic::error(
                        "not supported yet: printing a tuple or list that contains a tensor",
                        arg.span,
                    )
                    .with_help("print the tensor on its own: `print(x)`")
                }),
            })
            .collect::<LowerResult<Vec<_>>>()?;
        self.graph.outputs.push(Output::Print {
            items,
            sep,
            end,
            span: args.call_span,
        });
        Ok(Value::None)
    }

    /// `save(file, arr)`.
    pub(super) fn save(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let file_arg = args.get("file");
        let file = str_arg(&file_arg, "file")?;
        if file.is_empty() {
            return Err(Diagnostic::error("`file` must not be empty", file_arg.span));
        }
        let mut path = self.resolve_path(Path::new(file));
        if !file.ends_with(".npy") {
            path.as_mut_os_string().push(".npy");
        }
        let tensor = self.tensor_of(&args.get("arr"), None, "`arr`")?;
        self.graph.outputs.push(Output::Save {
            path,
            tensor,
            span: args.call_span,
        });
        Ok(Value::None)
    }
}

/// `sep=`/`end=`: a string, or `None` for the default.
fn separator(arg: &Arg, name: &str, default: &str) -> LowerResult<String> {
    match &arg.value {
        Value::None => Ok(default.to_string()),
        _ => str_arg(arg, name).map(str::to_string).map_err(|_| {
            Diagnostic::error(
                format!(
                    "{name} must be None or a string, not {}",
                    arg.value.type_name()
                ),
                arg.span,
            )
        }),
    }
}
