//! The script's outputs: `print(*items, sep=' ', end='\n')`, with compile-time values
//! formatted now as Python's `str()` and tensors left to the runtime, and
//! `save(path, x)`, which appends `.npy` to the path as NumPy does.
//!
//! File effects follow program order, as in Python. A save remembers which file it
//! writes (by its identity, `marsc_runtime::paths::FileIdentity`: one file under any
//! spelling, hard link or symlink), so that a later `load` of that file is the saved
//! tensor itself (`creation.rs`) and a later save of it, under whatever name, uses
//! the first save's path, which the tiler orders saves by. A load *before* a save of its file reads the file as
//! it was: loads open their files before the run starts (`plan/mapped.rs`).
//! Zarr arrays (`fromzarr`/`tozarr`) and HDF5 datasets (`fromhdf5`/`tohdf5`) follow
//! the same rules ([`zarr`], [`hdf5`]).

mod hdf5;
mod npz;
mod raw;
mod zarr;

use super::bind::{Arg, BoundArgs};
use super::convert::{bool_arg, str_arg};
use super::pyfmt::{python_str, python_str_with};
use super::value::Value;
use super::{LowerResult, Lowerer};
use crate::tileable::{Output, PrintItem, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::paths::file_identity;
use marsc_runtime::storage::SaveFormat;
use std::path::{Path, PathBuf};

/// A file the script saves (keyed by its identity).
#[derive(Clone)]
pub(super) struct SavedFile {
    /// The path the file's first save spelled it with.
    path: PathBuf,
    /// What its latest save so far writes.
    tensor: TileableId,
    /// The format that save writes.
    format: SaveFormat,
}

impl Lowerer<'_> {
    pub(super) fn print(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let sep = separator(&args.get("sep"), "sep", " ")?;
        let end = separator(&args.get("end"), "end", "\n")?;
        bool_arg(&args.get("flush"), "flush")?;
        let mut items = Vec::with_capacity(args.rest().len());
        for arg in args.rest() {
            items.push(match &arg.value {
                Value::Tensor(id) => PrintItem::Tensor(*id),
                other => match python_str(other) {
                    Some(text) => PrintItem::Text(text),
                    // A tuple or list holding tensors shows their `repr()`, which a
                    // stage computes (`print(mt.nonzero(x))`).
                    None if !other.contains_poison() => {
                        let span = arg.span;
                        let shown = python_str_with(other, &mut |id| self.staged_repr(id, span));
                        match shown {
                            Some(text) => PrintItem::Text(text),
                            None => return Ok(Value::Poison),
                        }
                    }
                    None => return Ok(Value::Poison),
                },
            });
        }
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
        let path = self.user_path(file, Some(".npy"), file_arg.span)?;
        let arr = args.get("arr");
        let tensor = self.tensor_of(&arr, None, "`arr`")?;
        super::nodes::check_ndim(self.shape(tensor).len(), arr.span)?;
        self.record_save(path, tensor, args.call_span, SaveFormat::Npy);
        Ok(Value::None)
    }

    /// Adds the save of `tensor` to `path` as the program's next output, and
    /// remembers it: a later load of the same file is that tensor (file effects
    /// follow program order).
    pub(super) fn record_save(
        &mut self,
        path: PathBuf,
        tensor: TileableId,
        span: Span,
        format: SaveFormat,
    ) {
        self.graph.files.push(path.clone());
        let saved = self
            .saved
            .entry(file_identity(&path))
            .and_modify(|saved| {
                saved.tensor = tensor;
                saved.format = format.clone();
            })
            .or_insert(SavedFile {
                path,
                tensor,
                format: format.clone(),
            });
        let path = saved.path.clone();
        self.graph.outputs.push(Output::Save {
            path,
            tensor,
            span,
            format,
        });
    }

    /// What the script's latest save of the file `path` names writes, if it saves it.
    pub(super) fn saved_tensor(&self, path: &Path) -> Option<TileableId> {
        if self.saved.is_empty() {
            return None;
        }
        self.saved
            .get(&file_identity(path))
            .filter(|s| s.format == SaveFormat::Npy)
            .map(|s| s.tensor)
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
