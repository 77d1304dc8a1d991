//! `load` reads `.npy` headers at compile time (relative to `base_dir`), and bad
//! files are errors at the call; `save` paths get `.npy` appended.

use super::support::lower_with;
use crate::lower::LowerOptions;
use crate::ops::Creation;
use crate::tileable::{Output, TileOp, TileableId};
use marsc_runtime::storage::npy::header::encode_header;
use marsc_runtime::DType;

fn options(dir: &tempfile::TempDir) -> LowerOptions {
    LowerOptions {
        base_dir: dir.path().to_path_buf(),
        ..LowerOptions::default()
    }
}

fn write_npy(dir: &tempfile::TempDir, name: &str, dtype: DType, shape: &[usize]) {
    let mut bytes = encode_header(dtype, shape);
    let data = shape.iter().product::<usize>() * dtype.itemsize();
    bytes.resize(bytes.len() + data, 0);
    std::fs::write(dir.path().join(name), bytes).unwrap();
}

#[test]
fn load_reads_shape_and_dtype_from_the_header() {
    let dir = tempfile::tempdir().unwrap();
    write_npy(&dir, "data.npy", DType::Int32, &[6, 4]);
    let graph = lower_with(
        "x = mt.load('data.npy', chunks=(3, 2))\nprint(x.sum(), x.shape)\n",
        &options(&dir),
    )
    .unwrap();
    let node = graph.node(TileableId(0));
    assert_eq!(
        (node.dtype, node.shape.as_slice()),
        (DType::Int32, &[6, 4][..])
    );
    assert_eq!(node.nsplits, [vec![3, 3], vec![2, 2]]);
    match &node.op {
        TileOp::Create(Creation::Load { source }) => {
            assert_eq!(source.path(), dir.path().join("data.npy"));
            assert_eq!(
                source.dump_parameters()[1..],
                ["offset=128", "fortran_order=False"]
            );
            assert!(source.metadata().c_contiguous);
            assert!(!source.reads_cannot_fail());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_files_are_errors_at_the_call() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("junk.npy"), b"not numpy at all").unwrap();
    let mut truncated = encode_header(DType::Float64, &[10]);
    truncated.extend_from_slice(&[0; 16]);
    std::fs::write(dir.path().join("short.npy"), truncated).unwrap();
    let source = "a = mt.load('junk.npy')\nb = np.load('short.npy')\nc = mt.load('absent.npy')\n";
    let errors = lower_with(source, &options(&dir)).unwrap_err();
    let found: Vec<(&str, &str)> = errors
        .iter()
        .map(|d| (d.message.as_str(), &source[d.span.range()]))
        .collect();
    assert_eq!(found.len(), 3);
    assert_eq!(
        found[0],
        (
            "cannot load `junk.npy`: not a .npy file (the magic string \\x93NUMPY is missing)",
            "'junk.npy'"
        )
    );
    assert!(
        found[1]
            .0
            .starts_with("cannot load `short.npy`: the file is truncated"),
        "{}",
        found[1].0
    );
    assert!(
        found[2].0.starts_with("cannot load `absent.npy`: "),
        "{}",
        found[2].0
    );
    assert_eq!(found[2].1, "'absent.npy'");
}

#[test]
fn save_appends_npy_and_resolves_against_base_dir() {
    let dir = tempfile::tempdir().unwrap();
    let graph = lower_with(
        "x = mt.arange(3)\nmt.save('out', x)\nnp.save('/tmp/abs.npy', 2.5)\nsave('a.b', [1, 2])\n",
        &options(&dir),
    )
    .unwrap();
    let paths: Vec<_> = graph
        .outputs
        .iter()
        .map(|output| match output {
            Output::Save { path, .. } => path.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        paths,
        [
            dir.path().join("out.npy"),
            "/tmp/abs.npy".into(),
            dir.path().join("a.b.npy")
        ]
    );
}
