//! `.npz` archives: `load("f.npz")` is an `NpzFile` value whose `d["name"]` loads a
//! member (its directory and `.npy` headers read now, at compile time), with
//! NumPy's `files` and `KeyError`; `savez(file, *args, **kwds)` writes one member
//! per array (`arr_0`, ... for the positional ones, after the named ones, as NumPy
//! orders them), each a save of its own to the archive's path, run in program
//! order, the last one moving the archive into place. `savez_compressed` deflates
//! each member as it commits.

use crate::lower::bind::BoundArgs;
use crate::lower::convert::str_arg;
use crate::lower::indexing::Item;
use crate::lower::value::{NpzValue, Value};
use crate::lower::{LowerResult, Lowerer};
use crate::ops::Creation;
use crate::tileable::TileOp;
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::paths::file_identity;
use marsc_runtime::storage::npz::{is_zip, read_archive, NpzSave};
use marsc_runtime::storage::SaveFormat;
use std::path::Path;
use std::rc::Rc;

impl Lowerer<'_> {
    /// The `NpzFile` of `path` when it is a zip file (as `np.load` decides), else
    /// `None`; an archive the script writes with `savez` is not read yet.
    pub(in crate::lower) fn npz_load(
        &mut self,
        path: &Path,
        written: &str,
        span: Span,
    ) -> LowerResult<Option<Value>> {
        if let Some(saved) = self.saved.get(&file_identity(path)) {
            if matches!(saved.format, SaveFormat::Npz(_)) {
                return Err(Diagnostic::error(
                    format!("not supported yet: loading `{written}`, which the script writes with `savez`"),
                    span,
                ));
            }
        }
        if !is_zip(path) {
            return Ok(None);
        }
        let archive = read_archive(path)
            .map_err(|e| Diagnostic::error(format!("cannot load `{written}`: {e}"), span))?;
        Ok(Some(Value::NpzFile(Rc::new(NpzValue {
            archive,
            written: written.to_string(),
        }))))
    }

    /// `npz[key]`: the member `key` (`name` or `name.npy`) as a tensor.
    pub(in crate::lower) fn npz_member(
        &mut self,
        npz: &NpzValue,
        items: &[Item],
        span: Span,
    ) -> LowerResult<Value> {
        let key = match items {
            [Item::Value(Value::Str(key), _)] => key.clone(),
            [item] => {
                return Err(Diagnostic::error(
                    "not supported yet: an `NpzFile` indexed by anything but a member's name",
                    item.span(),
                ))
            }
            _ => {
                return Err(Diagnostic::error(
                    "not supported yet: an `NpzFile` indexed by several keys",
                    span,
                ))
            }
        };
        let Some(entry) = npz.archive.entry(&key) else {
            return Err(Diagnostic::error(
                format!("KeyError: '{key} is not a file in the archive'"),
                span,
            ));
        };
        let source = npz.archive.open(entry);
        let (shape, dtype) = (entry.header.shape.clone(), entry.header.dtype);
        let id = self.add_created(
            TileOp::Create(Creation::Load { source }),
            shape,
            dtype,
            None,
            span,
        )?;
        Ok(Value::Tensor(id))
    }

    /// `savez(file, *args, **kwds)`, and `savez_compressed` (`compressed`).
    pub(in crate::lower) fn savez(
        &mut self,
        args: &BoundArgs,
        compressed: bool,
    ) -> LowerResult<Value> {
        let file_arg = args.get("file");
        let file = str_arg(&file_arg, "file")?;
        let path = self.user_path(file, Some(".npz"), file_arg.span)?;
        // NumPy's order: the named arrays, then `arr_0`, `arr_1`, ...
        let mut members: Vec<(String, crate::lower::bind::Arg)> = args
            .keywords()
            .iter()
            .map(|(name, _, arg)| (name.clone(), arg.clone()))
            .collect();
        for (i, arg) in args.rest().iter().enumerate() {
            let name = format!("arr_{i}");
            if members.iter().any(|(n, _)| *n == name) {
                return Err(Diagnostic::error(
                    format!("ValueError: Cannot use un-named variables and keyword {name}"),
                    arg.span,
                ));
            }
            members.push((name, arg.clone()));
        }
        if members.is_empty() {
            return Err(Diagnostic::error(
                "not supported yet: `savez` of no arrays",
                args.call_span,
            ));
        }
        let mut tensors = Vec::with_capacity(members.len());
        for (name, arg) in &members {
            let tensor = self.tensor_of(arg, None, &format!("`{name}`"))?;
            crate::lower::nodes::check_ndim(self.shape(tensor).len(), arg.span)?;
            tensors.push(tensor);
        }
        let nonce = nonce();
        let count = members.len();
        for (index, ((name, _), tensor)) in members.into_iter().zip(tensors).enumerate() {
            let save = NpzSave {
                nonce,
                name,
                index,
                count,
                compressed,
            };
            self.record_save(path.clone(), tensor, args.call_span, SaveFormat::Npz(save));
        }
        Ok(Value::None)
    }
}

/// A fresh number naming one `savez`'s temporary archive.
fn nonce() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mixed = nanos
        ^ (u64::from(std::process::id()) << 40)
        ^ COUNTER
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    // A final avalanche (splitmix64) so that nearby clocks give unrelated names.
    let mut z = mixed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
