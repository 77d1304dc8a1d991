//! Checks the invariants every [`TileableGraph`] must hold after lowering, so that a
//! later pass can trust them (a violation is a compiler bug, never a user error):
//!
//! - **Order:** every input of a node has a smaller id (ids are a topological order).
//! - **Arity:** creation ops have no inputs; a unary ufunc, `astype`, `Reduce`,
//!   the shape ops, `Index` and `Rechunk` have one; a binary ufunc and `MatMul`
//!   two; `where` three; `Concatenate` at least one.
//! - **Chunks:** one split list per axis; each sums to the axis length; no split is
//!   0 except the single `[0]` of an empty axis.
//! - **Shapes:** each node's shape is what its op's rule gives for its inputs
//!   (broadcasting, reductions, matmul, permutations, reshape sizes, expanded and
//!   squeezed axes, index items in bounds, concatenation, literal and linspace
//!   lengths, 2-D `eye`).
//! - **Dtypes:** constants (`Full`, `Arange`, `Literal`) hold values of the node's
//!   dtype; element-wise, reduction and scan results follow the op's dtype rule;
//!   a binary ufunc's `common` is the promotion of its inputs; `where`'s condition
//!   is bool and its values, `MatMul`'s and `Concatenate`'s inputs have the node's
//!   dtype; shape ops, `Index`, `Rechunk` and `BroadcastTo` keep their input's
//!   dtype; random tensors are float64 (int64 for `randint`).
//! - **Outputs:** every tensor a print or save names exists.

use super::{IndexItem, Output, PrintItem, TileOp, TileableGraph, TileableId, TileableNode};
use crate::error::Problems;
use crate::infer::dtypes::promote_types;
use crate::infer::shapes::matmul_shape;
use crate::ops::TensorView;
use marsc_runtime::DType;

/// Returns every violated invariant (the first of each node), naming the node.
pub fn verify(graph: &TileableGraph) -> Result<(), Problems> {
    let mut problems = Problems::default();
    for id in graph.ids() {
        let node = graph.node(id);
        problems.check(
            format_args!("{id} ({})", super::display::op_name(&node.op)),
            check_node(graph, id, node),
        );
    }
    for (index, output) in graph.outputs.iter().enumerate() {
        for tensor in output_tensors(output) {
            if tensor.index() >= graph.len() {
                problems.graph_wide(format!(
                    "output {index} names {tensor}, which does not exist"
                ));
            }
        }
    }
    problems.into_result()
}

fn output_tensors(output: &Output) -> Vec<TileableId> {
    match output {
        Output::Print { items, .. } => items
            .iter()
            .filter_map(|item| match item {
                PrintItem::Tensor(id) => Some(*id),
                PrintItem::Text(_) => None,
            })
            .collect(),
        Output::Save { tensor, .. } => vec![*tensor],
    }
}

fn check_node(graph: &TileableGraph, id: TileableId, node: &TileableNode) -> Result<(), String> {
    for input in &node.inputs {
        if *input >= id {
            return Err(format!("input {input} does not precede the node"));
        }
    }
    check_arity(node)?;
    check_nsplits(node)?;
    let inputs: Vec<&TileableNode> = node.inputs.iter().map(|&i| graph.node(i)).collect();
    check_shape(node, &inputs)?;
    check_dtype(node, &inputs)
}

fn check_arity(node: &TileableNode) -> Result<(), String> {
    let expected = match &node.op {
        TileOp::Create(_) => Some(0),
        TileOp::Elementwise(op) => Some(op.arity()),
        TileOp::MatMul => Some(2),
        TileOp::Linalg(
            marsc_runtime::kernels::linalg::LinalgOp::Solve
            | marsc_runtime::kernels::linalg::LinalgOp::SolveTriangular { .. },
        ) => Some(2),
        TileOp::Compress { .. } | TileOp::Gather { .. } => Some(2),
        TileOp::Sort(op) => Some(op.arity()),
        TileOp::Scatter { .. } => Some(3),
        TileOp::Concatenate { .. } => None,
        TileOp::BinCounts(_) => match node.inputs.len() {
            2 => Some(2),
            _ => Some(1),
        },
        _ => Some(1),
    };
    let have = node.inputs.len();
    match expected {
        Some(n) if n != have => Err(format!("has {have} inputs, expected {n}")),
        None if have == 0 => Err("has no inputs".to_string()),
        _ => Ok(()),
    }
}

fn check_nsplits(node: &TileableNode) -> Result<(), String> {
    if node.nsplits.len() != node.shape.len() {
        return Err(format!(
            "has {} split lists for {} axes",
            node.nsplits.len(),
            node.shape.len()
        ));
    }
    for (axis, (splits, &len)) in node.nsplits.iter().zip(&node.shape).enumerate() {
        let sum: usize = splits.iter().sum();
        if sum != len {
            return Err(format!(
                "splits {splits:?} of axis {axis} sum to {sum}, not {len}"
            ));
        }
        let empty_axis = len == 0 && splits.as_slice() == [0];
        if !empty_axis && splits.contains(&0) {
            return Err(format!(
                "splits {splits:?} of axis {axis} contain an empty chunk"
            ));
        }
        if splits.is_empty() {
            return Err(format!("axis {axis} has no splits"));
        }
    }
    Ok(())
}

fn expect_shape(actual: &[usize], expected: &[usize]) -> Result<(), String> {
    if actual == expected {
        Ok(())
    } else {
        Err(format!("shape {actual:?}, expected {expected:?}"))
    }
}

fn check_shape(node: &TileableNode, inputs: &[&TileableNode]) -> Result<(), String> {
    let shape = &node.shape;
    let first = inputs.first().map(|n| n.shape.as_slice()).unwrap_or(&[]);
    match &node.op {
        // Its dtype too (`check_dtype` has nothing left to check of it).
        TileOp::Create(op) => Ok(op.verify(shape, node.dtype)?),
        // Its dtype too (`check_dtype` has nothing left to check of it).
        TileOp::Reduce(op) => Ok(op.verify(view(node), &views(inputs))?),
        // Its dtype too (with inference's promotion lattice).
        TileOp::Elementwise(op) => Ok(op.verify(view(node), &views(inputs), promote_types)?),
        TileOp::Rechunk => expect_shape(shape, first),
        TileOp::MatMul => {
            let expected = matmul_shape(first, &inputs[1].shape).map_err(|e| e.message)?;
            expect_shape(shape, &expected)
        }
        TileOp::Linalg(op) => {
            let shapes: Vec<&[usize]> = inputs.iter().map(|n| n.shape.as_slice()).collect();
            let expected = crate::infer::linalg::linalg_shape(*op, &shapes)
                .ok_or(format!("{} of inputs shaped {shapes:?}", op.name()))?;
            expect_shape(shape, &expected)
        }
        // Its dtype too.
        TileOp::Shape(op) => Ok(op.verify(view(node), &views(inputs))?),
        TileOp::Index { items } => expect_shape(shape, &index_shape(first, items)?),
        TileOp::Concatenate { axis } => check_concatenate(shape, inputs, *axis),
        TileOp::BlockCounts => match inputs[0].nsplits.first() {
            Some(blocks) => expect_shape(shape, &[blocks.len()]),
            None => Err("counts the blocks of a 0-d mask".into()),
        },
        TileOp::Compress { axis, counts } => check_compress(node, inputs, *axis, counts),
        TileOp::IndexBlocks { splits } => match inputs[0].nsplits.as_slice() {
            [chunks] => expect_shape(shape, &[chunks.len(), splits.len() + 2]),
            _ => Err("counts the blocks of an index that is not 1-D".into()),
        },
        TileOp::BinCounts(binning) => {
            if inputs
                .iter()
                .any(|input| input.nsplits != inputs[0].nsplits)
            {
                return Err("counts values and weights chunked differently".into());
            }
            match inputs[0].nsplits.as_slice() {
                [chunks] => expect_shape(shape, &[chunks.len(), binning.bins()]),
                _ => Err("counts the bins of values that are not 1-D".into()),
            }
        }
        TileOp::Scatter { axis, touched } => check_scatter(inputs, *axis, touched, shape),
        TileOp::Gather { axis, touched } => {
            let (x, idx) = (inputs[0], inputs[1]);
            let blocks = x.nsplits.get(*axis).map_or(0, Vec::len);
            if idx.shape.len() != 1 || touched.len() != idx.nsplits[0].len() {
                return Err(
                    "a gather's index is not 1-D or its reads differ from its chunks".into(),
                );
            }
            if touched
                .iter()
                .any(|t| t.is_empty() || t.iter().any(|&b| b as usize >= blocks))
            {
                return Err("a gather reads no block, or a block x does not have".into());
            }
            let mut expected = x.shape.clone();
            expected[*axis] = idx.shape[0];
            expect_shape(shape, &expected)
        }
        // Its dtype too.
        TileOp::Sort(op) => Ok(op.verify(view(node), &views(inputs))?),
    }
}

/// `x[..., mask, ...]`: the mask's axes sit at `axis` of x, blocked alike, one chunk
/// on every mask axis but the first; the output replaces them by the counts' sum.
fn check_compress(
    node: &TileableNode,
    inputs: &[&TileableNode],
    axis: usize,
    counts: &[usize],
) -> Result<(), String> {
    let (x, mask) = (inputs[0], inputs[1]);
    let k = mask.shape.len();
    if k == 0 || axis + k > x.shape.len() || x.shape[axis..axis + k] != mask.shape[..] {
        return Err(format!(
            "a mask of shape {:?} does not cover axes {axis}.. of {:?}",
            mask.shape, x.shape
        ));
    }
    if x.nsplits[axis] != mask.nsplits[0] || mask.nsplits[0].len() != counts.len() {
        return Err("the mask's blocks differ from x's or from the counts".into());
    }
    if (1..k).any(|i| mask.nsplits[i].len() != 1 || x.nsplits[axis + i].len() != 1) {
        return Err("a mask axis after the first is split".into());
    }
    let mut expected = x.shape[..axis].to_vec();
    expected.push(counts.iter().sum());
    expected.extend_from_slice(&x.shape[axis + k..]);
    expect_shape(&node.shape, &expected)
}

fn index_shape(input: &[usize], items: &[IndexItem]) -> Result<Vec<usize>, String> {
    let mut axes = input.iter();
    let mut shape = Vec::new();
    for item in items {
        match *item {
            IndexItem::NewAxis => shape.push(1),
            IndexItem::Int(i) => {
                let len = *axes.next().ok_or("more index items than axes")?;
                if i >= len {
                    return Err(format!("index {i} out of bounds for length {len}"));
                }
            }
            IndexItem::Slice { start, step, len } => {
                let axis_len = *axes.next().ok_or("more index items than axes")? as i64;
                if len > 0 {
                    let last = start + (len as i64 - 1) * step;
                    if step == 0
                        || !(0..axis_len).contains(&start)
                        || !(0..axis_len).contains(&last)
                    {
                        return Err(format!(
                            "slice {start}+{len}*{step} out of bounds for {axis_len}"
                        ));
                    }
                }
                shape.push(len);
            }
        }
    }
    if axes.next().is_some() {
        return Err("fewer index items than axes".into());
    }
    Ok(shape)
}

fn check_concatenate(shape: &[usize], inputs: &[&TileableNode], axis: usize) -> Result<(), String> {
    if axis >= shape.len() {
        return Err(format!("axis {axis} out of range"));
    }
    let mut expected = inputs[0].shape.clone();
    expected[axis] = 0;
    for input in inputs {
        if input.shape.len() != shape.len() {
            return Err("inputs differ in dimensions".into());
        }
        for (a, (&have, &want)) in input.shape.iter().zip(shape).enumerate() {
            if a != axis && have != want {
                return Err(format!(
                    "input shape {:?} does not match {shape:?}",
                    input.shape
                ));
            }
        }
        expected[axis] += input.shape[axis];
    }
    expect_shape(shape, &expected)
}

fn expect_dtype(what: &str, actual: DType, expected: DType) -> Result<(), String> {
    if actual == expected {
        Ok(())
    } else {
        Err(format!("{what} is {actual}, expected {expected}"))
    }
}

/// A node as the op families' rules see it.
fn view(node: &TileableNode) -> TensorView<'_> {
    TensorView {
        shape: &node.shape,
        nsplits: &node.nsplits,
        dtype: node.dtype,
    }
}

fn views<'a>(nodes: &[&'a TileableNode]) -> Vec<TensorView<'a>> {
    nodes.iter().map(|node| view(node)).collect()
}

fn check_dtype(node: &TileableNode, inputs: &[&TileableNode]) -> Result<(), String> {
    let dtype = node.dtype;
    match &node.op {
        // Checked with its shape.
        TileOp::Create(_)
        | TileOp::Elementwise(_)
        | TileOp::Reduce(_)
        | TileOp::Sort(_)
        | TileOp::Shape(_) => Ok(()),
        TileOp::IndexBlocks { .. } => {
            if !inputs[0].dtype.is_int() {
                return Err("an index is not of an integer dtype".into());
            }
            expect_dtype("the counts", dtype, DType::Int64)
        }
        TileOp::Scatter { .. } => {
            if !inputs[1].dtype.is_int() {
                return Err("an index is not of an integer dtype".into());
            }
            expect_dtype("x", inputs[0].dtype, dtype)?;
            expect_dtype("the values", inputs[2].dtype, dtype)
        }
        TileOp::Gather { .. } => {
            if !inputs[1].dtype.is_int() {
                return Err("an index is not of an integer dtype".into());
            }
            expect_dtype("x", inputs[0].dtype, dtype)
        }
        TileOp::BinCounts(_) => {
            let expected = match inputs.len() {
                2 => DType::Float64,
                _ => DType::Int64,
            };
            expect_dtype("the counts", dtype, expected)
        }
        TileOp::BlockCounts => {
            expect_dtype("the mask", inputs[0].dtype, DType::Bool)?;
            expect_dtype("the counts", dtype, DType::Int64)
        }
        TileOp::Compress { .. } => {
            expect_dtype("the mask", inputs[1].dtype, DType::Bool)?;
            expect_dtype("x", inputs[0].dtype, dtype)
        }
        TileOp::MatMul | TileOp::Concatenate { .. } | TileOp::Linalg(_) => inputs
            .iter()
            .try_for_each(|input| expect_dtype("an input", input.dtype, dtype)),
        TileOp::Index { .. } | TileOp::Rechunk => expect_dtype("the input", inputs[0].dtype, dtype),
    }
}

/// A scatter's inputs: x of the node's shape and chunks, a 1-D index, values of x's
/// shape with the index's length and chunks along `axis`, and one list of index
/// chunks (ascending, each in range) per block of x along `axis`.
fn check_scatter(
    inputs: &[&TileableNode],
    axis: usize,
    touched: &[Vec<u32>],
    shape: &[usize],
) -> Result<(), String> {
    let (x, idx, values) = (inputs[0], inputs[1], inputs[2]);
    expect_shape(shape, &x.shape)?;
    let [index_splits] = idx.nsplits.as_slice() else {
        return Err("a scatter's index is not 1-D".into());
    };
    let blocks = x.nsplits.get(axis).map_or(0, Vec::len);
    if touched.len() != blocks {
        return Err("a scatter's reads differ from x's blocks".into());
    }
    if touched.iter().any(|reads| {
        reads.windows(2).any(|w| w[0] >= w[1])
            || reads.iter().any(|&i| i as usize >= index_splits.len())
    }) {
        return Err("a scatter reads index chunks out of order or out of range".into());
    }
    let mut expected = x.nsplits.clone();
    expected[axis] = index_splits.clone();
    if values.nsplits != expected {
        return Err("a scatter's values are not chunked as x and the index".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{Creation, ElementwiseOp, ShapeOp};
    use marsc_grammar::Span;
    use marsc_runtime::ops::BinaryOp;
    use marsc_runtime::Scalar;

    fn full(shape: Vec<usize>, nsplits: Vec<Vec<usize>>) -> TileableNode {
        TileableNode {
            op: TileOp::Create(Creation::Full(Scalar::Float64(0.0))),
            inputs: vec![],
            shape,
            dtype: DType::Float64,
            nsplits,
            span: Span::default(),
        }
    }

    #[test]
    fn accepts_a_well_formed_graph() {
        let mut graph = TileableGraph::new();
        let a = graph.add(full(vec![4, 3], vec![vec![2, 2], vec![3]]));
        let b = graph.add(full(vec![3], vec![vec![3]]));
        graph.add(TileableNode {
            op: TileOp::Elementwise(ElementwiseOp::Binary {
                op: BinaryOp::Add,
                common: DType::Float64,
            }),
            inputs: vec![a, b],
            ..full(vec![4, 3], vec![vec![2, 2], vec![3]])
        });
        assert_eq!(verify(&graph), Ok(()));
    }

    #[test]
    fn rejects_bad_splits_shapes_and_dtypes() {
        let mut graph = TileableGraph::new();
        graph.add(full(vec![4], vec![vec![2, 1]]));
        assert!(verify(&graph).unwrap_err().to_string().contains("sum to 3"));

        let mut graph = TileableGraph::new();
        graph.add(full(vec![2], vec![vec![2, 0]]));
        assert!(verify(&graph)
            .unwrap_err()
            .to_string()
            .contains("empty chunk"));

        let mut graph = TileableGraph::new();
        let a = graph.add(full(vec![2], vec![vec![2]]));
        graph.add(TileableNode {
            op: TileOp::Shape(ShapeOp::Transpose { axes: vec![0] }),
            inputs: vec![a],
            ..full(vec![3], vec![vec![3]])
        });
        assert!(verify(&graph).unwrap_err().to_string().contains("shape"));

        let mut graph = TileableGraph::new();
        graph.add(TileableNode {
            dtype: DType::Int64,
            ..full(vec![], vec![])
        });
        assert!(verify(&graph).unwrap_err().to_string().contains("constant"));
    }

    #[test]
    fn reports_every_bad_node_not_only_the_first() {
        let mut graph = TileableGraph::new();
        graph.add(full(vec![4], vec![vec![2, 1]]));
        graph.add(full(vec![3], vec![vec![3]]));
        graph.add(full(vec![2], vec![vec![2, 0]]));
        let problems = verify(&graph).unwrap_err().to_string();
        assert!(problems.starts_with("2 problems:"), "{problems}");
        assert!(
            problems.contains("%0 (full)") && problems.contains("sum to 3"),
            "{problems}"
        );
        assert!(
            problems.contains("%2 (full)") && problems.contains("empty chunk"),
            "{problems}"
        );
    }

    #[test]
    fn rejects_dangling_outputs() {
        let mut graph = TileableGraph::new();
        graph.outputs.push(Output::Save {
            path: "x.npy".into(),
            tensor: TileableId(3),
            span: Span::default(),
            format: Default::default(),
        });
        assert!(verify(&graph).is_err());
    }
}
