//! The abstract syntax tree of a `.mt` script: Python-style statements (assignments,
//! `if`/`for`/`while` blocks, `def` functions) over Python-style expressions. Every
//! node carries the span of its source text.

use crate::span::Span;

/// A whole script: its statements in program order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    pub stmts: Vec<Stmt>,
    /// Names that statements rejected as unsupported (already reported) would have
    /// bound, in source order: `f` of `def f():`, `i` of `for i in ...:`, `a` and `b`
    /// of `a, b = ...`, and names assigned in the skipped body of a `for`/`if`/...
    /// block. Later uses of them are not errors of their own.
    pub unsupported_bindings: Vec<Ident>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `import a.b.c` or `import a.b as x`.
    Import {
        module: Vec<Ident>,
        alias: Option<Ident>,
    },
    /// `name = value`.
    Assign {
        target: Ident,
        value: Expr,
    },
    /// `name OP= value`, meaning `name = name OP value`.
    AugAssign {
        target: Ident,
        op: BinOp,
        op_span: Span,
        value: Expr,
    },
    /// `x[index] = value`, or `x[index] OP= value` with `op`: an update of `x`
    /// through an index (`target` is the subscript expression).
    SetItem {
        target: Expr,
        op: Option<(BinOp, Span)>,
        value: Expr,
    },
    /// Any other expression statement (`print(...)`, `mt.save(...)`, `x`).
    Expr(Expr),
    /// `a, b = value`, `(a, b), c = value`: unpacking into several targets.
    Unpack {
        target: Target,
        value: Expr,
    },
    /// `if test: ... elif test: ... else: ...`; `branches` has the `if` and each `elif`.
    If {
        branches: Vec<Branch>,
        orelse: Option<Vec<Stmt>>,
    },
    /// `for target in iter: body else: orelse`.
    For {
        target: Target,
        iter: Expr,
        body: Vec<Stmt>,
        orelse: Option<Vec<Stmt>>,
    },
    /// `while test: body else: orelse`.
    While {
        test: Expr,
        body: Vec<Stmt>,
        orelse: Option<Vec<Stmt>>,
    },
    /// `def name(params): body`.
    Def(Box<FunctionDef>),
    /// `return` or `return value`.
    Return(Option<Expr>),
    Break,
    Continue,
    Pass,
    /// `assert test` or `assert test, message`.
    Assert {
        test: Expr,
        message: Option<Expr>,
    },
}

/// One `if` or `elif` clause: its condition and its body.
#[derive(Clone, Debug, PartialEq)]
pub struct Branch {
    pub test: Expr,
    pub body: Vec<Stmt>,
}

/// A `def` statement.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    /// `def name(params)`, for messages about the function.
    pub header: Span,
}

/// A parameter of a `def`, with its default value if it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub default: Option<Expr>,
}

/// What an assignment or a `for` loop binds: a name, or several to unpack into.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    Name(Ident),
    /// `a, b`, `(a, b)` or `[a, b]`.
    Unpack {
        items: Vec<Target>,
        span: Span,
    },
}

impl Target {
    /// Every name the target binds, in source order.
    pub fn names(&self) -> Vec<&Ident> {
        let mut names = Vec::new();
        self.collect_names(&mut names);
        names
    }

    fn collect_names<'a>(&'a self, names: &mut Vec<&'a Ident>) {
        match self {
            Target::Name(ident) => names.push(ident),
            Target::Unpack { items, .. } => {
                for item in items {
                    item.collect_names(names);
                }
            }
        }
    }
}

/// A name with the span it was written at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Name(String),
    /// Integer literal. Literals too large for i64 are a syntax error.
    Int(i64),
    Float(f64),
    /// Imaginary literal (`2j`): the imaginary part of a Python complex.
    Imaginary(f64),
    Bool(bool),
    None,
    /// String literal with escapes already processed.
    Str(String),
    /// An f-string (with any string literals next to it): literal text and
    /// replacement fields, in order.
    FString(Vec<FPiece>),
    /// `...`
    Ellipsis,
    /// `(a, b)`, `a, b` or `()`.
    Tuple(Vec<Expr>),
    /// `[a, b]`
    List(Vec<Expr>),
    /// `value.attr`
    Attribute {
        value: Box<Expr>,
        attr: Ident,
    },
    /// `func(args)`
    Call {
        func: Box<Expr>,
        args: Vec<Arg>,
    },
    /// `value[items]`; `a[i, j]` has two items, `a[(i, j)]` one item that is a tuple.
    Subscript {
        value: Box<Expr>,
        items: Vec<SubscriptItem>,
    },
    Unary {
        op: UnaryOp,
        op_span: Span,
        operand: Box<Expr>,
    },
    Binary {
        op: BinOp,
        op_span: Span,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// A single (unchained) comparison.
    Compare {
        op: CmpOp,
        op_span: Span,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// A chain of comparisons, `a < b <= c`: Python's `a < b and b <= c`, with each
    /// operand evaluated once.
    CompareChain {
        first: Box<Expr>,
        links: Vec<ChainLink>,
    },
    /// `a and b`, `a or b`: legal on Python scalars, an error on tensors (lowering).
    BoolOp {
        op: BoolOp,
        op_span: Span,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `not a`: legal on Python scalars, an error on tensors (lowering).
    Not {
        op_span: Span,
        operand: Box<Expr>,
    },
    /// `[element for target in iter if cond ...]`; a generator expression
    /// `(element for ...)` is one too (its items are made at once).
    ListComp {
        element: Box<Expr>,
        generators: Vec<Comprehension>,
    },
    /// `body if test else orelse`.
    IfExp {
        test: Box<Expr>,
        body: Box<Expr>,
        orelse: Box<Expr>,
    },
    /// Placeholder the parser leaves where it recovered from a syntax error.
    Error,
}

/// One comparison of a [`ExprKind::CompareChain`] after its first operand: the
/// operator and its right-hand operand.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainLink {
    pub op: CmpOp,
    pub op_span: Span,
    pub rhs: Expr,
}

/// One `for target in iter if cond ...` clause of a comprehension.
#[derive(Clone, Debug, PartialEq)]
pub struct Comprehension {
    pub target: Target,
    pub iter: Expr,
    pub ifs: Vec<Expr>,
}

/// A call argument, positional (`name` is `None`) or keyword.
#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    pub name: Option<Ident>,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SubscriptItem {
    Expr(Expr),
    /// `lower:upper:step`, any part omitted.
    Slice {
        lower: Option<Expr>,
        upper: Option<Expr>,
        step: Option<Expr>,
        span: Span,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `+x`
    Pos,
    /// `~x`
    Invert,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    MatMul,
    BitAnd,
    BitOr,
    BitXor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    In,
    NotIn,
    Is,
    IsNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
}

impl BinOp {
    /// The operator as written in source.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::MatMul => "@",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
        }
    }
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::In => "in",
            CmpOp::NotIn => "not in",
            CmpOp::Is => "is",
            CmpOp::IsNot => "is not",
        }
    }
}

impl UnaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Pos => "+",
            UnaryOp::Invert => "~",
        }
    }
}

/// A piece of an f-string.
#[derive(Clone, Debug, PartialEq)]
pub enum FPiece {
    /// Literal text, escapes and doubled braces processed.
    Text(String),
    /// A replacement field `{expr=!c:spec}`.
    Field {
        expr: Box<Expr>,
        /// `{x=}`: the text up to the `=` and the blanks after it, shown before the
        /// value (which is then its `repr` unless a conversion or spec says otherwise).
        debug: Option<String>,
        /// `!r`, `!s` or `!a`.
        conversion: Option<char>,
        /// The format spec after the `:` (literal text).
        spec: String,
    },
}
