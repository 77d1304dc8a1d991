//! Lowering hand-built ASTs: the pipeline end to end without the parser.

use super::ast_builder::*;
use crate::lower::{lower, LowerOptions};
use crate::ops::ElementwiseOp;
use crate::tileable::verify::verify;
use crate::tileable::{Output, PrintItem, TileOp, TileableId};
use marsc_grammar::ast::BinOp;
use marsc_grammar::Span;
use marsc_runtime::ops::BinaryOp;
use marsc_runtime::DType;

#[test]
fn ones_plus_scalar_printed() {
    // import mars.tensor as mt; a = mt.ones((4, 6), chunks=2); print(a + 1)
    let script = module(vec![
        import("mars.tensor", Some("mt")),
        assign(
            "a",
            call(
                path("mt.ones"),
                vec![
                    positional(tuple(vec![int(4), int(6)])),
                    keyword("chunks", int(2)),
                ],
            ),
        ),
        statement(call(
            name("print"),
            vec![positional(binary(
                BinOp::Add,
                name("a"),
                int(1),
                Span::new(1, 2),
            ))],
        )),
    ]);
    let graph = lower(&script, &LowerOptions::default()).expect("lowers");
    verify(&graph).expect("verifies");
    assert_eq!(graph.len(), 3);
    let sum = graph.node(TileableId(2));
    assert_eq!(
        sum.op,
        TileOp::Elementwise(ElementwiseOp::Binary {
            op: BinaryOp::Add,
            common: DType::Float64
        })
    );
    assert_eq!(sum.shape, vec![4, 6]);
    assert_eq!(sum.nsplits, vec![vec![2, 2], vec![2, 2, 2]]);
    assert!(matches!(
        &graph.outputs[0],
        Output::Print { items, .. } if items == &[PrintItem::Tensor(TileableId(2))]
    ));
}

#[test]
fn unknown_name_points_at_the_name() {
    let script = module(vec![statement(call(
        name("print"),
        vec![positional(at(name("onse"), 6, 10))],
    ))]);
    let errors = lower(&script, &LowerOptions::default()).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "cannot find `onse` in this scope");
    assert_eq!(errors[0].span, Span::new(6, 10));
    assert_eq!(errors[0].help.as_deref(), Some("did you mean `ones`?"));
}

#[test]
fn shape_attributes_print_as_python() {
    let script = module(vec![
        assign("x", call(name("zeros"), vec![positional(int(3))])),
        statement(call(
            name("print"),
            vec![
                positional(attr(name("x"), "shape")),
                positional(attr(name("x"), "dtype")),
            ],
        )),
    ]);
    let graph = lower(&script, &LowerOptions::default()).expect("lowers");
    assert!(graph.is_empty(), "nothing but text is printed");
    assert!(matches!(
        &graph.outputs[0],
        Output::Print { items, .. }
            if items == &[PrintItem::Text("(3,)".into()), PrintItem::Text("float64".into())]
    ));
}

#[test]
fn slicing_a_shape_tuple() {
    let script = module(vec![
        assign(
            "x",
            call(
                name("zeros"),
                vec![positional(tuple(vec![int(2), int(3), int(4)]))],
            ),
        ),
        statement(call(
            name("print"),
            vec![positional(index(
                attr(name("x"), "shape"),
                vec![marsc_grammar::ast::SubscriptItem::Slice {
                    lower: Some(int(1)),
                    upper: None,
                    step: None,
                    span: Span::default(),
                }],
            ))],
        )),
    ]);
    let graph = lower(&script, &LowerOptions::default()).expect("lowers");
    assert!(matches!(
        &graph.outputs[0],
        Output::Print { items, .. } if items == &[PrintItem::Text("(3, 4)".into())]
    ));
}

#[test]
fn list_literal_and_save() {
    let script = module(vec![statement(call(
        path("np.save"),
        vec![
            positional(string("out")),
            positional(call(
                path("np.array"),
                vec![positional(list(vec![
                    list(vec![int(1), int(2)]),
                    list(vec![int(3), float(4.5)]),
                ]))],
            )),
        ],
    ))]);
    let graph = lower(&script, &LowerOptions::default()).expect("lowers");
    verify(&graph).expect("verifies");
    let node = graph.node(TileableId(0));
    assert_eq!(node.dtype, DType::Float64);
    assert_eq!(node.shape, vec![2, 2]);
    assert!(matches!(
        &graph.outputs[0],
        Output::Save { path, .. } if path.to_str() == Some("out.npy")
    ));
}
