//! The metadata documents of the arrays and groups a save creates, written as
//! zarr-python 3 writes them: v3 `zarr.json` (a `bytes` codec, then the compressor;
//! or one `sharding_indexed` codec holding them, with a crc32c-checked index at the
//! end), v2 `.zarray` (numcodecs compressor ids, C order, `.` separator) and
//! `.zgroup`.

use super::write::{Compressor, FillValue, ZarrSave};
use crate::dtype::DType;
use serde_json::{json, Value};

/// The file name of an array's or group's metadata in `zarr_format`.
pub fn array_file(zarr_format: u8) -> &'static str {
    if zarr_format == 2 {
        ".zarray"
    } else {
        "zarr.json"
    }
}

/// A group's metadata file and document.
pub fn group_document(zarr_format: u8) -> (&'static str, Value) {
    if zarr_format == 2 {
        (".zgroup", json!({ "zarr_format": 2 }))
    } else {
        (
            "zarr.json",
            json!({ "zarr_format": 3, "node_type": "group", "attributes": {} }),
        )
    }
}

/// The metadata document of a new array of `dtype` and `shape`.
pub fn array_document(save: &ZarrSave, dtype: DType, shape: &[usize]) -> Value {
    let chunks = chunk_shape(&save.chunks, shape);
    if save.zarr_format == 2 {
        json!({
            "zarr_format": 2,
            "shape": shape,
            "chunks": chunks,
            "dtype": dtype.npy_descr(),
            "compressor": v2_compressor(save.compressor, dtype),
            "fill_value": fill_json(save.fill_value, dtype),
            "order": "C",
            "filters": null,
            "dimension_separator": ".",
        })
    } else {
        let inner = v3_codecs(save.compressor, dtype);
        let (grid, codecs) = match &save.shards {
            Some(shards) => (
                chunk_shape(shards, shape),
                vec![json!({
                    "name": "sharding_indexed",
                    "configuration": {
                        "chunk_shape": chunks,
                        "codecs": inner,
                        "index_codecs": [
                            { "name": "bytes", "configuration": { "endian": "little" } },
                            { "name": "crc32c" },
                        ],
                        "index_location": "end",
                    },
                })],
            ),
            None => (chunks, inner),
        };
        json!({
            "zarr_format": 3,
            "node_type": "array",
            "shape": shape,
            "data_type": dtype.name(),
            "chunk_grid": { "name": "regular", "configuration": { "chunk_shape": grid } },
            "chunk_key_encoding": { "name": "default", "configuration": { "separator": "/" } },
            "fill_value": fill_json(save.fill_value, dtype),
            "codecs": codecs,
            "attributes": {},
        })
    }
}

/// A chunk shape Zarr accepts: every size at least 1 (a 0-length axis still has
/// chunks of some size).
fn chunk_shape(chunks: &[usize], shape: &[usize]) -> Vec<usize> {
    chunks
        .iter()
        .zip(shape)
        .map(|(&size, &len)| if size == 0 { len.max(1) } else { size })
        .collect()
}

fn v3_codecs(compressor: Compressor, dtype: DType) -> Vec<Value> {
    let bytes = if dtype.itemsize() == 1 {
        json!({ "name": "bytes" })
    } else {
        json!({ "name": "bytes", "configuration": { "endian": "little" } })
    };
    let compressor = match compressor {
        Compressor::None => None,
        Compressor::Zstd => Some(json!({
            "name": "zstd",
            "configuration": { "level": 0, "checksum": false },
        })),
        Compressor::Gzip => Some(json!({ "name": "gzip", "configuration": { "level": 5 } })),
        Compressor::Blosc(cname) => Some(json!({
            "name": "blosc",
            "configuration": {
                "cname": cname.name(),
                "clevel": 5,
                "shuffle": if dtype.itemsize() == 1 { "bitshuffle" } else { "shuffle" },
                "typesize": dtype.itemsize(),
                "blocksize": 0,
            },
        })),
    };
    std::iter::once(bytes).chain(compressor).collect()
}

fn v2_compressor(compressor: Compressor, dtype: DType) -> Value {
    match compressor {
        Compressor::None => Value::Null,
        Compressor::Zstd => json!({ "id": "zstd", "level": 0, "checksum": false }),
        Compressor::Gzip => json!({ "id": "gzip", "level": 5 }),
        Compressor::Blosc(cname) => json!({
            "id": "blosc",
            "cname": cname.name(),
            "clevel": 5,
            "shuffle": if dtype.itemsize() == 1 { 2 } else { 1 },
            "blocksize": 0,
        }),
    }
}

/// The fill value as both formats write it: `false`, `0`, `0.0`, or the strings
/// `"NaN"`, `"Infinity"`, `"-Infinity"`.
fn fill_json(fill: FillValue, dtype: DType) -> Value {
    match (fill, dtype) {
        (FillValue::Default, DType::Bool) => json!(false),
        (FillValue::Default, int) if int.is_int() => json!(0),
        (FillValue::Default, _) => json!(0.0),
        (FillValue::Bool(b), _) => json!(b),
        (FillValue::Int(i), _) => json!(i),
        (FillValue::Float(bits), _) => {
            let value = f64::from_bits(bits);
            if value.is_nan() {
                json!("NaN")
            } else if value == f64::INFINITY {
                json!("Infinity")
            } else if value == f64::NEG_INFINITY {
                json!("-Infinity")
            } else {
                json!(value)
            }
        }
    }
}
