//! Zarr arrays in and out, with Mars's signatures and both spellings:
//! `fromzarr(path, group=None, dataset=None, chunk_size=None)` (= `from_zarr`) and
//! `tozarr(path, x, group=None, dataset=None, **zarr_options)` (= `to_zarr`).
//!
//! The array is the directory `path/group/dataset`. `fromzarr` opens it now, for
//! its shape, dtype and chunk grid; without `chunk_size=` the tensor's chunks are
//! whole store chunks (several under `--chunk-bytes`). `tozarr` decides the new
//! array's metadata now and rechunks the tensor so that each of its chunks is whole
//! store chunks (shards), which lets the regions write in parallel. File effects
//! follow program order as for `.npy` files: a `fromzarr` of an array the script
//! wrote is the written tensor.

use crate::lower::bind::{Arg, BoundArgs};
use crate::lower::convert::{int_arg, str_arg};
use crate::lower::value::Value;
use crate::lower::{LowerResult, Lowerer};
use crate::ops::Creation;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::paths::file_identity;
use marsc_runtime::storage::zarr::{
    node_format, open_array, Compressor, FillValue, WriteMode, ZarrSave, ZarrStore,
};
use marsc_runtime::storage::{self, ChunkGrid, SaveFormat, Store};
use marsc_runtime::DType;
use std::path::{Component, Path, PathBuf};

impl Lowerer<'_> {
    /// `fromzarr(path, group=None, dataset=None, chunk_size=None)`.
    pub(in crate::lower) fn zarr_load(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let (path, written, path_span) = self.zarr_path(args)?;
        self.graph.files.push(path.clone());
        if let Some(saved) = self.saved_zarr_tensor(&path) {
            return Ok(Value::Tensor(match args.chunks.as_ref() {
                Some(chunks) => self.rechunk_to(saved, Some(chunks), args.call_span)?,
                None => saved,
            }));
        }
        let source = storage::open_zarr(&path).map_err(|e| {
            Diagnostic::error(
                format!("cannot read the Zarr array `{written}`: {e}"),
                path_span,
            )
        })?;
        let metadata = source.metadata();
        let (shape, dtype) = (metadata.shape.clone(), metadata.dtype);
        let span = args.call_span;
        let nsplits = match (&args.chunks, &metadata.chunk_grid) {
            (None, ChunkGrid::Regular(store_chunks)) => {
                crate::lower::nodes::check_size(&shape, dtype, span)?;
                crate::infer::chunks::store_grid_chunks(
                    &shape,
                    store_chunks,
                    dtype.itemsize(),
                    self.options.chunk_bytes,
                )
            }
            (chunks, _) => self.resolve_spec(chunks.as_ref(), &shape, dtype, span)?,
        };
        let id = self.add_with_splits(
            TileOp::Create(Creation::Load { source }),
            vec![],
            shape,
            dtype,
            nsplits,
            span,
        );
        Ok(Value::Tensor(id))
    }

    /// `tozarr(path, x, group=None, dataset=None, **zarr_options)`.
    pub(in crate::lower) fn zarr_save(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let (path, written, path_span) = self.zarr_path(args)?;
        let x_arg = args.get("x");
        let mut tensor = self.tensor_of(&x_arg, None, "`x`")?;
        crate::lower::nodes::check_ndim(self.shape(tensor).len(), x_arg.span)?;
        let shape = self.shape(tensor).to_vec();
        let dtype = self.dtype(tensor);
        let mode_arg = args.get("mode");
        let mode = write_mode(&mode_arg)?;
        self.refuse_saving_a_read_array(&path, &written, path_span)?;
        let exists = path.symlink_metadata().is_ok();
        if exists && mode == WriteMode::Create {
            return Err(Diagnostic::error(
                format!("`{written}` already exists (mode='w-')"),
                mode_arg.span,
            )
            .with_help("use mode='w' to replace it, or mode='a' to write into it"));
        }
        let nsplits = self.node(tensor).nsplits.clone();
        let existing = exists && mode == WriteMode::Append && open_array(&path).is_ok();
        let save = if existing {
            self.existing_array_save(&path, &written, path_span, mode, &shape, dtype)?
        } else {
            self.new_array_save(args, &path, mode, &shape, dtype, &nsplits)?
        };
        let unit = save.write_unit().to_vec();
        if let Some(aligned) = aligned_splits(&nsplits, &shape, &unit) {
            tensor = self.rechunk_to_splits(tensor, aligned, args.call_span);
        }
        self.record_save(path, tensor, args.call_span, SaveFormat::Zarr(save));
        Ok(Value::None)
    }

    /// The array's directory, `path/group/dataset`, resolved against the script's
    /// directory and checked against the server's root; also the path as written
    /// and the span to report it at.
    fn zarr_path(&self, args: &BoundArgs) -> LowerResult<(PathBuf, String, Span)> {
        let path_arg = args.get("path");
        let path = str_arg(&path_arg, "path")?;
        if path.is_empty() {
            return Err(Diagnostic::error("`path` must not be empty", path_arg.span));
        }
        let mut written = path.trim_end_matches('/').to_string();
        if written.is_empty() {
            written = "/".into();
        }
        for name in ["group", "dataset"] {
            let arg = args.get(name);
            if matches!(arg.value, Value::None) {
                continue;
            }
            let member = str_arg(&arg, name)?;
            let member = member.trim_matches('/');
            let bad = Path::new(member)
                .components()
                .any(|c| !matches!(c, Component::Normal(_)));
            if member.is_empty() || bad {
                return Err(Diagnostic::error(
                    format!("`{name}` must be a path of names inside the store (no `.`, `..` or empty name), got '{member}'"),
                    arg.span,
                ));
            }
            written = format!("{}/{member}", written.trim_end_matches('/'));
        }
        let resolved = self.user_path(&written, None, path_arg.span)?;
        Ok((resolved, written, path_arg.span))
    }

    /// What the script's latest `tozarr` of the array `path` writes, if any.
    fn saved_zarr_tensor(&self, path: &Path) -> Option<TileableId> {
        if self.saved.is_empty() {
            return None;
        }
        self.saved
            .get(&file_identity(path))
            .filter(|s| matches!(s.format, SaveFormat::Zarr(_)))
            .map(|s| s.tensor)
    }

    /// A save may not replace an array the script reads (nor a group holding one):
    /// its loads read the store during the run, so they would see the new chunks.
    fn refuse_saving_a_read_array(
        &self,
        path: &Path,
        written: &str,
        span: Span,
    ) -> LowerResult<()> {
        let identity = file_identity(path);
        let read = self.graph.ids().any(|id| match &self.graph.node(id).op {
            TileOp::Create(Creation::Load { source }) => {
                (source.path().starts_with(path) || file_identity(source.path()) == identity)
                    && (&**source as &dyn std::any::Any)
                        .downcast_ref::<ZarrStore>()
                        .is_some()
            }
            _ => false,
        });
        if read {
            return Err(Diagnostic::error(
                format!("not supported yet: writing the Zarr array `{written}`, which the script reads with `fromzarr`"),
                span,
            )
            .with_help("write to another path"));
        }
        Ok(())
    }

    /// `mode='a'` on an existing array: its own chunk grid, shape and dtype.
    fn existing_array_save(
        &self,
        path: &Path,
        written: &str,
        span: Span,
        mode: WriteMode,
        shape: &[usize],
        dtype: DType,
    ) -> LowerResult<ZarrSave> {
        let store = ZarrStore::open(path).map_err(|e| {
            Diagnostic::error(
                format!("cannot write into the Zarr array `{written}`: {e}"),
                span,
            )
        })?;
        let metadata = store.metadata();
        if metadata.shape != shape || metadata.dtype != dtype {
            return Err(Diagnostic::error(
                format!(
                    "cannot write into the Zarr array `{written}` (mode='a'): it holds {} of shape {}, the tensor is {} of shape {}",
                    metadata.dtype.name(),
                    tuple_text(&metadata.shape),
                    dtype.name(),
                    tuple_text(shape)
                ),
                span,
            )
            .with_help("use mode='w' to replace it"));
        }
        Ok(ZarrSave {
            root: path.to_path_buf(),
            mode,
            zarr_format: store.zarr_format(),
            chunks: store.chunk_shape().to_vec(),
            shards: None,
            compressor: Compressor::None,
            fill_value: FillValue::Default,
            existing: true,
        })
    }

    /// The metadata of a new array, from `tozarr`'s options.
    fn new_array_save(
        &self,
        args: &BoundArgs,
        path: &Path,
        mode: WriteMode,
        shape: &[usize],
        dtype: DType,
        nsplits: &[Vec<usize>],
    ) -> LowerResult<ZarrSave> {
        let root = self.resolve_path(Path::new(str_arg(&args.get("path"), "path")?));
        let format_arg = args.get("zarr_format");
        let zarr_format = match &format_arg.value {
            // A new array in an existing store takes the store's format.
            Value::None => nearest_format(path, &root).unwrap_or(3),
            _ => match int_arg(&format_arg, "zarr_format")? {
                2 => 2,
                3 => 3,
                other => {
                    return Err(Diagnostic::error(
                        format!("`zarr_format` must be 2 or 3, got {other}"),
                        format_arg.span,
                    ))
                }
            },
        };
        let chunks = match &args.chunks {
            Some(arg) => chunk_shape_arg(arg, shape, "chunks")?,
            // Mars: the tensor's chunk shape (its largest chunk along each axis).
            None => nsplits
                .iter()
                .map(|splits| splits.iter().copied().max().unwrap_or(0))
                .collect(),
        };
        let shards_arg = args.get("shards");
        let shards = match &shards_arg.value {
            Value::None => None,
            _ => {
                if zarr_format == 2 {
                    return Err(Diagnostic::error(
                        "`shards=` needs zarr_format=3 (Zarr v2 has no sharding)",
                        shards_arg.span,
                    ));
                }
                let shards = chunk_shape_arg(&shards_arg, shape, "shards")?;
                let fits = shards.iter().zip(&chunks).all(|(&s, &c)| {
                    let (s, c) = (s.max(1), c.max(1));
                    s % c == 0
                });
                if !fits {
                    return Err(Diagnostic::error(
                        format!(
                            "the shard shape {} must be a multiple of the chunk shape {} along every axis",
                            tuple_text(&shards),
                            tuple_text(&chunks)
                        ),
                        shards_arg.span,
                    ));
                }
                Some(shards)
            }
        };
        let compressor_arg = args.get("compressor");
        let compressor = match &compressor_arg.value {
            Value::None => Compressor::None,
            Value::Str(name) if name.as_ref() == "default" => Compressor::Zstd,
            Value::Str(name) => Compressor::from_name(name).ok_or_else(|| {
                Diagnostic::error(
                    format!(
                        "not supported yet: compressor '{name}'; marsc writes {}",
                        Compressor::NAMES
                    ),
                    compressor_arg.span,
                )
            })?,
            other => {
                return Err(Diagnostic::error(
                    format!(
                        "`compressor` must be a string or None, got {}; marsc writes {}",
                        other.type_name(),
                        Compressor::NAMES
                    ),
                    compressor_arg.span,
                ))
            }
        };
        let fill_value = fill_value_arg(&args.get("fill_value"), dtype)?;
        Ok(ZarrSave {
            root,
            mode,
            zarr_format,
            chunks,
            shards,
            compressor,
            fill_value,
            existing: false,
        })
    }
}

/// The Zarr format of the nearest existing group above `path`, up to the store's
/// root.
fn nearest_format(path: &Path, root: &Path) -> Option<u8> {
    for ancestor in path.ancestors().skip(1) {
        if let Some(format) = node_format(ancestor) {
            return Some(format);
        }
        if ancestor == root {
            break;
        }
    }
    None
}

/// `mode=`: zarr's `'w'`, `'w-'` or `'a'`.
fn write_mode(arg: &Arg) -> LowerResult<WriteMode> {
    match &arg.value {
        Value::Str(mode) => match mode.as_ref() {
            "w" => Ok(WriteMode::Overwrite),
            "w-" | "x" => Ok(WriteMode::Create),
            "a" => Ok(WriteMode::Append),
            "r" | "r+" => Err(Diagnostic::error(
                format!("mode='{mode}' opens a store to read; `tozarr` writes: use 'w', 'w-' or 'a'"),
                arg.span,
            )),
            other => Err(Diagnostic::error(
                format!("`mode` must be 'w' (replace), 'w-' (create only) or 'a' (write into), got '{other}'"),
                arg.span,
            )),
        },
        other => Err(Diagnostic::error(
            format!(
                "`mode` must be 'w', 'w-' or 'a', got {}",
                other.a_type_name()
            ),
            arg.span,
        )),
    }
}

/// A store chunk (or shard) shape: an int for every axis, or one entry per axis
/// (`-1` or `None` for the whole axis).
pub(super) fn chunk_shape_arg(arg: &Arg, shape: &[usize], name: &str) -> LowerResult<Vec<usize>> {
    let bad = |why: String| Diagnostic::error(format!("`{name}=` {why}"), arg.span);
    let size = |value: &Value, len: usize| -> LowerResult<usize> {
        match value {
            Value::None | Value::Int(-1) => Ok(len),
            Value::Int(size) if *size > 0 => Ok(*size as usize),
            Value::Int(size) => Err(bad(format!("sizes must be positive, got {size}"))),
            other => Err(bad(format!("takes ints, got {}", other.a_type_name()))),
        }
    };
    match &arg.value {
        Value::Tuple(items, _) | Value::List(items) => {
            if items.len() != shape.len() {
                return Err(bad(format!(
                    "has {} entries for a tensor of {} dimensions",
                    items.len(),
                    shape.len()
                )));
            }
            items
                .iter()
                .zip(shape)
                .map(|(item, &len)| size(item, len))
                .collect()
        }
        value => shape.iter().map(|&len| size(value, len)).collect(),
    }
}

/// `fill_value=` as a value of the array's dtype.
fn fill_value_arg(arg: &Arg, dtype: DType) -> LowerResult<FillValue> {
    let wrong = || {
        Diagnostic::error(
            format!(
                "`fill_value` {} does not fit an array of {}",
                arg.value.a_type_name(),
                dtype.name()
            ),
            arg.span,
        )
    };
    Ok(match (&arg.value, dtype) {
        (Value::None, _) => FillValue::Default,
        (Value::Bool(b), DType::Bool) => FillValue::Bool(*b),
        (Value::Int(i), DType::Bool) if *i == 0 || *i == 1 => FillValue::Bool(*i == 1),
        (Value::Bool(b), int) if int.is_int() => FillValue::Int(*b as i64),
        (Value::Int(i), int)
            if int
                .int_range()
                .is_some_and(|(low, high)| (low..=high).contains(&i128::from(*i))) =>
        {
            FillValue::Int(*i)
        }
        (Value::Float(f), int)
            if f.fract() == 0.0
                && int
                    .int_range()
                    .is_some_and(|(low, high)| (low as f64..=high as f64).contains(f))
                && f.abs() < 2f64.powi(31) =>
        {
            FillValue::Int(*f as i64)
        }
        (Value::Bool(b), DType::Float16 | DType::Float32 | DType::Float64) => {
            FillValue::Float(f64::from(u8::from(*b)).to_bits())
        }
        (Value::Int(i), DType::Float16) => FillValue::Float(
            marsc_runtime::kernels::f64_to_f16(*i as f64)
                .to_f64()
                .to_bits(),
        ),
        (Value::Int(i), DType::Float32 | DType::Float64) => FillValue::Float((*i as f64).to_bits()),
        (Value::Float(f), DType::Float64) => FillValue::Float(f.to_bits()),
        (Value::Float(f), DType::Float32) => FillValue::Float(f64::from(*f as f32).to_bits()),
        (Value::Float(f), DType::Float16) => {
            FillValue::Float(marsc_runtime::kernels::f64_to_f16(*f).to_f64().to_bits())
        }
        _ => return Err(wrong()),
    })
}

/// Splits along which every chunk of a tensor chunked `nsplits` is whole `unit`s
/// (the last along an axis may be cut by the axis's end), or `None` when its
/// chunks already are.
pub(super) fn aligned_splits(
    nsplits: &[Vec<usize>],
    shape: &[usize],
    unit: &[usize],
) -> Option<Vec<Vec<usize>>> {
    let aligned = |splits: &[usize], len: usize, unit: usize| {
        let mut offset = 0;
        splits.iter().all(|&size| {
            offset += size;
            offset == len || offset % unit.max(1) == 0
        })
    };
    let all_aligned = nsplits
        .iter()
        .zip(shape)
        .zip(unit)
        .all(|((splits, &len), &unit)| aligned(splits, len, unit));
    if all_aligned {
        return None;
    }
    Some(
        nsplits
            .iter()
            .zip(shape)
            .zip(unit)
            .map(|((splits, &len), &unit)| {
                if aligned(splits, len, unit) {
                    return splits.clone();
                }
                let unit = unit.max(1);
                let largest = splits.iter().copied().max().unwrap_or(0).max(1);
                let size = largest.div_ceil(unit) * unit;
                crate::infer::chunks::regular_splits(len, size)
            })
            .collect(),
    )
}

fn tuple_text(values: &[usize]) -> String {
    marsc_runtime::storage::zarr::tuple_text(values)
}
