//! Block fills of indexed leaves by chunk-local index against the interpreter's
//! creation kernels, for chunks anywhere in 1-, 2- and 3-d tensors.

use super::*;
use crate::array::ArrayData;
use crate::random::random_chunk;
use proptest::prelude::*;

fn random_leaf(
    dist: RandomDist,
    global: &[usize],
    offset: &[usize],
    shape: &[usize],
) -> LeafInstance {
    LeafInstance::Indexed {
        source: Arc::new(IndexedSource::Random(Arc::new(RandomSpec {
            dist,
            seed: 9,
            stream: 4,
            shape: global.to_vec(),
        }))),
        global_shape: global.to_vec(),
        offset: offset.to_vec(),
        shape: shape.to_vec(),
    }
}

/// A tensor shape, a chunk inside it, and a run of the chunk's local indices.
fn placement() -> impl Strategy<Value = (Vec<usize>, Vec<usize>, Vec<usize>, usize, usize)> {
    prop::collection::vec((1usize..7, 0usize..3, 0usize..3), 0..4).prop_flat_map(|axes| {
        let global: Vec<usize> = axes.iter().map(|a| a.0 + a.1 + a.2).collect();
        let offset: Vec<usize> = axes.iter().map(|a| a.1).collect();
        let shape: Vec<usize> = axes.iter().map(|a| a.0).collect();
        let len: usize = shape.iter().product();
        (0..=len).prop_flat_map(move |start| {
            (
                Just(global.clone()),
                Just(offset.clone()),
                Just(shape.clone()),
                Just(start),
                0..=len - start,
            )
        })
    })
}

proptest! {
    #[test]
    fn local_fills_equal_the_interpreters_chunk((global, offset, shape, start, len) in placement()) {
        let expected = match random_chunk(RandomDist::Uniform01, 9, 4, &global, &offset, &shape).unwrap() {
            ArrayData::Float64(values) => values.iter().copied().collect::<Vec<f64>>(),
            _ => unreachable!("uniforms are float64"),
        };
        let leaf = random_leaf(RandomDist::Uniform01, &global, &offset, &shape);
        let mut block = vec![f64::NAN; len];
        leaf.fill_local(start as u64, LeafBlock::Float64(&mut block));
        for (j, value) in block.iter().enumerate() {
            prop_assert_eq!(value.to_bits(), expected[start + j].to_bits(), "element {}", start + j);
            prop_assert_eq!(leaf.bits_at_local((start + j) as u64), expected[start + j].to_bits());
        }
    }
}

#[test]
fn a_randint_leaf_fills_its_block_from_the_middle_of_a_row() {
    let (global, offset, shape) = ([4, 5], [1, 2], [3, 3]);
    let expected = match random_chunk(
        RandomDist::Randint { low: -3, high: 40 },
        9,
        4,
        &global,
        &offset,
        &shape,
    )
    .unwrap()
    {
        ArrayData::Int64(values) => values.iter().copied().collect::<Vec<i64>>(),
        _ => unreachable!("randint is int64"),
    };
    let leaf = random_leaf(
        RandomDist::Randint { low: -3, high: 40 },
        &global,
        &offset,
        &shape,
    );
    let mut block = vec![0i64; 7];
    leaf.fill_local(1, LeafBlock::Int64(&mut block));
    assert_eq!(block, expected[1..8]);
}

#[test]
fn an_arange_leaf_fills_from_its_offset() {
    let leaf = LeafInstance::Indexed {
        source: Arc::new(IndexedSource::Arange {
            start: Scalar::Int32(5),
            step: Scalar::Int64(-2),
        }),
        global_shape: vec![100],
        offset: vec![10],
        shape: vec![90],
    };
    let mut block = vec![0i32; 4];
    leaf.fill_local(3, LeafBlock::Int32(&mut block));
    // np.arange(5, -1000, -2, dtype=np.int32)[13:17]
    assert_eq!(block, [-21, -23, -25, -27]);
}
