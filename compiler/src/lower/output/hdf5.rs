//! HDF5 datasets in and out, with Mars's signatures and both spellings:
//! `fromhdf5(hdf5_file, group=None, dataset=None, chunk_size=None)` (= `from_hdf5`)
//! and `tohdf5(hdf5_file, x, group=None, dataset=None, chunks=None,
//! compression=None, compression_opts=None)` (= `to_hdf5`).
//!
//! The dataset is `group/dataset` inside the file. `fromhdf5` opens it now for its
//! shape, dtype and chunk shape: a chunked dataset's tensor is chunked by whole
//! dataset chunks (several under `--chunk-bytes`), a contiguous one as usual.
//! `tohdf5` adds the dataset to the file (creating the file, or replacing a dataset
//! of that name); a chunked one (`chunks=`, or any compression) is written from a
//! tensor rechunked to whole dataset chunks. Without the runtime's `hdf5` feature
//! both are "not supported yet".

use super::zarr::{aligned_splits, chunk_shape_arg};
use crate::lower::bind::{Arg, BoundArgs};
use crate::lower::convert::str_arg;
use crate::lower::value::Value;
use crate::lower::{LowerResult, Lowerer};
use crate::ops::Creation;
use crate::tileable::{Output, TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::paths::file_identity;
use marsc_runtime::storage::hdf5::{dataset_path, Hdf5Save, SUPPORTED, UNSUPPORTED};
use marsc_runtime::storage::{self, ChunkGrid, SaveFormat};
use std::path::{Path, PathBuf};

impl Lowerer<'_> {
    /// `fromhdf5(hdf5_file, group=None, dataset=None, chunk_size=None)`.
    pub(in crate::lower) fn hdf5_load(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let (file, written, span) = self.hdf5_target(args)?;
        let dataset = dataset_name(args)?;
        self.graph.files.push(file.clone());
        if let Some(saved) = self.saved_hdf5_dataset(&file, &dataset, &written, span)? {
            return Ok(Value::Tensor(match args.chunks.as_ref() {
                Some(chunks) => self.rechunk_to(saved, Some(chunks), args.call_span)?,
                None => saved,
            }));
        }
        let source = storage::open_hdf5(&file, &dataset).map_err(|e| {
            Diagnostic::error(
                format!("cannot read the HDF5 dataset '{dataset}' of `{written}`: {e}"),
                span,
            )
        })?;
        let metadata = source.metadata();
        let (shape, dtype) = (metadata.shape.clone(), metadata.dtype);
        let call_span = args.call_span;
        let nsplits = match (&args.chunks, &metadata.chunk_grid) {
            (None, ChunkGrid::Regular(store_chunks)) => {
                crate::lower::nodes::check_size(&shape, dtype, call_span)?;
                crate::infer::chunks::store_grid_chunks(
                    &shape,
                    store_chunks,
                    dtype.itemsize(),
                    self.options.chunk_bytes,
                )
            }
            (chunks, _) => self.resolve_spec(chunks.as_ref(), &shape, dtype, call_span)?,
        };
        let id = self.add_with_splits(
            TileOp::Create(Creation::Load { source }),
            vec![],
            shape,
            dtype,
            nsplits,
            call_span,
        );
        Ok(Value::Tensor(id))
    }

    /// `tohdf5(hdf5_file, x, group=None, dataset=None, chunks=None,
    /// compression=None, compression_opts=None)`.
    pub(in crate::lower) fn hdf5_save(&mut self, args: &BoundArgs) -> LowerResult<Value> {
        let (file, written, span) = self.hdf5_target(args)?;
        let dataset = dataset_name(args)?;
        let x_arg = args.get("x");
        let mut tensor = self.tensor_of(&x_arg, None, "`x`")?;
        crate::lower::nodes::check_ndim(self.shape(tensor).len(), x_arg.span)?;
        let shape = self.shape(tensor).to_vec();
        self.refuse_writing_a_read_file(&file, &written, span)?;
        if file.is_dir() {
            return Err(Diagnostic::error(
                format!("cannot write `{written}`: it is a directory"),
                span,
            ));
        }
        if file.exists() && !storage::hdf5::has_signature(&file) {
            return Err(Diagnostic::error(
                format!("`{written}` exists and is not an HDF5 file; marsc does not replace it"),
                span,
            ));
        }
        let gzip = compression(&args.get("compression"), &args.get("compression_opts"))?;
        let nsplits = self.node(tensor).nsplits.clone();
        // A dataset is chunked when asked to be, or compressed (HDF5's filters work
        // on chunks); `chunks=True` takes the tensor's own chunk shape, as
        // `tozarr`'s default does. An empty or 0-d dataset is contiguous.
        let tensor_chunks = || -> Vec<usize> {
            nsplits
                .iter()
                .map(|splits| splits.iter().copied().max().unwrap_or(0))
                .collect()
        };
        let chunks = match &args.chunks {
            Some(arg) if matches!(arg.value, Value::Bool(true)) => Some(tensor_chunks()),
            Some(arg) if matches!(arg.value, Value::Bool(false) | Value::None) => {
                if gzip.is_some() {
                    return Err(Diagnostic::error(
                        "compression needs a chunked dataset: give `chunks=` a shape, or leave it out",
                        arg.span,
                    ));
                }
                None
            }
            Some(arg) => Some(chunk_shape_arg(arg, &shape, "chunks")?),
            None if gzip.is_some() => Some(tensor_chunks()),
            None => None,
        }
        .filter(|_| !shape.is_empty() && !shape.contains(&0));
        if let Some(chunks) = &chunks {
            let unit: Vec<usize> = chunks
                .iter()
                .zip(&shape)
                .map(|(&c, &len)| c.clamp(1, len))
                .collect();
            if let Some(aligned) = aligned_splits(&nsplits, &shape, &unit) {
                tensor = self.rechunk_to_splits(tensor, aligned, args.call_span);
            }
        }
        let save = Hdf5Save {
            dataset,
            chunks,
            gzip,
        };
        self.record_save(file, tensor, args.call_span, SaveFormat::Hdf5(save));
        Ok(Value::None)
    }

    /// The file, resolved against the script's directory and checked against the
    /// server's root; also its path as written and the span to report it at.
    fn hdf5_target(&self, args: &BoundArgs) -> LowerResult<(PathBuf, String, Span)> {
        let file_arg = args.get("hdf5_file");
        if !SUPPORTED {
            return Err(Diagnostic::error(UNSUPPORTED, args.call_span));
        }
        let written = str_arg(&file_arg, "hdf5_file")?;
        if written.is_empty() {
            return Err(Diagnostic::error(
                "`hdf5_file` must not be empty",
                file_arg.span,
            ));
        }
        let resolved = self.user_path(written, None, file_arg.span)?;
        Ok((resolved, written.to_string(), file_arg.span))
    }

    /// The tensor a `tohdf5` earlier in the script writes to `dataset` of `file`,
    /// if one does; an error if the script writes the file but not that dataset
    /// (the file is replaced or changed during the run).
    fn saved_hdf5_dataset(
        &self,
        file: &Path,
        dataset: &str,
        written: &str,
        span: Span,
    ) -> LowerResult<Option<TileableId>> {
        if self.saved.is_empty() {
            return Ok(None);
        }
        let identity = file_identity(file);
        let mut writes_file = false;
        for output in self.graph.outputs.iter().rev() {
            let Output::Save {
                path,
                tensor,
                format,
                ..
            } = output
            else {
                continue;
            };
            if file_identity(path) != identity {
                continue;
            }
            writes_file = true;
            if let SaveFormat::Hdf5(save) = format {
                if save.dataset == dataset {
                    return Ok(Some(*tensor));
                }
            }
        }
        if writes_file {
            return Err(Diagnostic::error(
                format!("not supported yet: reading `{written}`, which the script writes, for a dataset the script does not write"),
                span,
            ));
        }
        Ok(None)
    }

    /// A `tohdf5` may not write a file the script reads: its loads read the file
    /// during the run.
    fn refuse_writing_a_read_file(
        &self,
        file: &Path,
        written: &str,
        span: Span,
    ) -> LowerResult<()> {
        let identity = file_identity(file);
        let read = self.graph.ids().any(|id| match &self.graph.node(id).op {
            TileOp::Create(Creation::Load { source }) => file_identity(source.path()) == identity,
            _ => false,
        });
        if read {
            return Err(Diagnostic::error(
                format!(
                    "not supported yet: writing the HDF5 file `{written}`, which the script reads"
                ),
                span,
            )
            .with_help("write to another file"));
        }
        Ok(())
    }
}

/// `group/dataset`, Mars's error when `dataset` is missing.
fn dataset_name(args: &BoundArgs) -> LowerResult<String> {
    let dataset_arg = args.get("dataset");
    if matches!(dataset_arg.value, Value::None) {
        return Err(Diagnostic::error(
            "ValueError: `dataset` should be provided",
            args.call_span,
        ));
    }
    let group_arg = args.get("group");
    let group = match &group_arg.value {
        Value::None => None,
        _ => Some(str_arg(&group_arg, "group")?),
    };
    let dataset = str_arg(&dataset_arg, "dataset")?;
    let path = dataset_path(group, dataset);
    let bad = path.split('/').any(|name| name == "." || name == "..");
    if path.is_empty() || bad {
        return Err(Diagnostic::error(
            format!("`dataset` must name a dataset inside the file (no `.` or `..`), got '{path}'"),
            dataset_arg.span,
        ));
    }
    Ok(path)
}

/// `compression=`/`compression_opts=`: gzip (h5py's default level 4) or none.
fn compression(arg: &Arg, opts: &Arg) -> LowerResult<Option<u8>> {
    let level = match &opts.value {
        Value::None => None,
        Value::Int(level) if (0..=9).contains(level) => Some(*level as u8),
        other => {
            return Err(Diagnostic::error(
                format!(
                    "`compression_opts` of gzip must be an int from 0 to 9, got {}",
                    other.a_type_name()
                ),
                opts.span,
            ))
        }
    };
    match &arg.value {
        Value::None | Value::Bool(false) => {
            if level.is_some() {
                return Err(Diagnostic::error(
                    "`compression_opts` needs `compression='gzip'`",
                    opts.span,
                ));
            }
            Ok(None)
        }
        Value::Str(name) if name.as_ref() == "gzip" => Ok(Some(level.unwrap_or(4))),
        Value::Int(level) if (0..=9).contains(level) => Ok(Some(*level as u8)),
        Value::Str(name) => Err(Diagnostic::error(
            format!("not supported yet: compression '{name}'; marsc writes 'gzip' (or None)"),
            arg.span,
        )),
        other => Err(Diagnostic::error(
            format!(
                "`compression` must be 'gzip', a gzip level or None, got {}",
                other.a_type_name()
            ),
            arg.span,
        )),
    }
}
