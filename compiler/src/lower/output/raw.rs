//! Raw binary files, as NumPy's `x.tofile(fid, sep='', format='%s')` and
//! `fromfile(file, dtype=float, count=-1, sep='', offset=0)` read and write them:
//! the elements in C order, little-endian, no header. `fromfile` gives a 1-d tensor
//! (reshape it after), reading the file's length now, at compile time; `tofile`
//! writes through a hidden temporary file renamed into place, as `save` does. The
//! text forms (`sep=` other than `''`) are not supported yet.

use crate::lower::bind::{Arg, BoundArgs};
use crate::lower::convert::{int_arg, str_arg};
use crate::lower::dtype_args::dtype_arg;
use crate::lower::value::Value;
use crate::lower::{LowerResult, Lowerer};
use crate::ops::Creation;
use marsc_grammar::Diagnostic;
use marsc_runtime::paths::file_identity;
use marsc_runtime::storage::{self, SaveFormat};
use marsc_runtime::DType;

impl Lowerer<'_> {
    /// `fromfile(file, dtype=float, count=-1, sep='', offset=0)`.
    pub(in crate::lower) fn fromfile(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let file_arg = args.get("file");
        let file = str_arg(&file_arg, "file")?;
        let dtype = dtype_arg(&args.get("dtype"))?.unwrap_or(DType::Float64);
        binary_only(&args.get("sep"), "fromfile")?;
        let count_arg = args.get("count");
        let count = match int_arg(&count_arg, "count")? {
            count if count < 0 => None,
            count => Some(count as usize),
        };
        let offset_arg = args.get("offset");
        let offset = int_arg(&offset_arg, "offset")?;
        let offset = u64::try_from(offset).map_err(|_| {
            Diagnostic::error(
                format!("OSError: cannot seek to offset {offset}: Invalid argument"),
                offset_arg.span,
            )
        })?;
        let path = self.user_path(file, None, file_arg.span)?;
        self.graph.files.push(path.clone());
        if let Some(saved) = self.saved.get(&file_identity(&path)) {
            let tensor = saved.tensor;
            let size: usize = self.shape(tensor).iter().product();
            let whole = count.is_none_or(|count| count >= size);
            if saved.format == SaveFormat::Raw
                && offset == 0
                && whole
                && self.dtype(tensor) == dtype
            {
                let flat = self.ravel_tensor(tensor, args.call_span)?;
                return Ok(Value::Tensor(match args.chunks.as_ref() {
                    Some(chunks) => self.rechunk_to(flat, Some(chunks), args.call_span)?,
                    None => flat,
                }));
            }
            return Err(Diagnostic::error(
                format!("not supported yet: `fromfile` of `{file}` other than as the whole {} the script wrote to it", self.dtype(tensor).name()),
                file_arg.span,
            ));
        }
        let source = storage::open_raw(&path, dtype, count, offset).map_err(|e| {
            let message = e.to_string();
            let message = if message.starts_with("ValueError") {
                message
            } else {
                format!("cannot read `{file}`: {message}")
            };
            Diagnostic::error(message, file_arg.span)
        })?;
        let shape = source.metadata().shape.clone();
        let id = self.add_created(
            crate::tileable::TileOp::Create(Creation::Load { source }),
            shape,
            dtype,
            args.chunks.as_ref(),
            args.call_span,
        )?;
        Ok(Value::Tensor(id))
    }

    /// `x.tofile(fid, sep='', format='%s')`.
    pub(in crate::lower) fn tofile(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let receiver = args.receiver();
        let tensor = self.tensor_of(&receiver, None, "the receiver")?;
        let fid_arg = args.get("fid");
        let file = str_arg(&fid_arg, "fid")?;
        if file.is_empty() {
            return Err(Diagnostic::error(
                "FileNotFoundError: [Errno 2] No such file or directory: ''",
                fid_arg.span,
            ));
        }
        binary_only(&args.get("sep"), "tofile")?;
        let path = self.user_path(file, None, fid_arg.span)?;
        self.record_save(path, tensor, args.call_span, SaveFormat::Raw);
        Ok(Value::None)
    }
}

/// `sep=''`: the binary form; the text form is not supported yet.
fn binary_only(arg: &Arg, function: &str) -> LowerResult<()> {
    match &arg.value {
        Value::Str(sep) if sep.is_empty() => Ok(()),
        Value::Str(_) => Err(Diagnostic::error(
            format!("not supported yet: `{function}` of text (`sep=` other than '')"),
            arg.span,
        )),
        other => Err(Diagnostic::error(
            format!("`sep` must be a string, got {}", other.a_type_name()),
            arg.span,
        )),
    }
}
