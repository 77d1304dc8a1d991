//! Sorting and what is built on it: `sort`, `argsort` (and `a.sort()` in place),
//! `partition` and `argpartition` (and `a.partition()` in place), `searchsorted`,
//! `unique` (and NumPy 2's `unique_all`, `unique_counts`, `unique_inverse`, named
//! tuples of its results), `median`, `percentile`, `quantile` and Mars's `topk`.
//!
//! A sort along an axis held in one chunk is one `TileOp::Sort` (each chunk sorted
//! on its own). A sort of a 1-D tensor of several chunks is a distributed sort —
//! sorting by regular sampling, as Mars's PSRS does, in one stage: regularly spaced
//! samples of the tensor are sorted in one chunk and give one pivot per part (at
//! most one part per chunk); each chunk is grouped by part (`TileOp::Bucket`, kept
//! in the session's cache, so the run after the stage does not group it again), and
//! the stage fetches where the pivots fall in each grouped chunk
//! (`TileOp::SearchBlocks`); then the grouped chunks are cut at
//! those places (a rechunk) and output chunk `j` merges the pieces between pivots
//! `j - 1` and `j` of every chunk (`TileOp::MergeSorted`). Its chunking is exact, so
//! everything after a sort tiles as usual. A tensor of several dimensions whose sort
//! axis is chunked is rechunked to one chunk along that axis first.
//!
//! Every sort is stable (NumPy's `kind='stable'`, whatever `kind` says; NaN last).
//!
//! `partition` and `argpartition` are the stable sort and argsort: a sorted lane is
//! a valid partition for every `kth` (element `kth` is where the sorted lane has it,
//! none before it is greater, none after it smaller). NumPy's order within each side
//! is unspecified (introselect, or x86-simd-sort on AVX-512 machines, so it differs
//! between machines); only `p[kth]` and the sides as sets are NumPy's.

use super::bind::BoundArgs;
use super::convert::{bool_arg, int_arg, str_arg};
use super::elementwise::at;
use super::value::{TupleClass, Value};
use super::{LowerResult, Lowerer};
use crate::infer::shapes::normalize_axis;
use crate::ops::SortOp;
use crate::tileable::{TileOp, TileableId};
use marsc_grammar::{Diagnostic, Span};
use marsc_runtime::{ArrayData, DType};
use std::sync::Arc;

/// The library's sorting functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sorting {
    /// `sort(a, axis=-1, kind=None)`.
    Sort,
    /// `a.sort(axis=-1, kind=None)`: in place (`views.rs` writes the result back).
    SortMethod,
    /// `argsort(a, axis=-1, kind=None)`, `a.argsort(...)`.
    Argsort,
    /// `partition(a, kth, axis=-1, kind='introselect')`: the stable sort.
    Partition,
    /// `a.partition(kth, axis=-1, kind='introselect')`: in place (`views.rs`
    /// writes the result back, as for `a.sort()`).
    PartitionMethod,
    /// `argpartition(a, kth, axis=-1, kind='introselect')`, `a.argpartition(...)`:
    /// the stable argsort.
    Argpartition,
    /// `searchsorted(a, v, side='left')`, `a.searchsorted(v, side='left')`.
    SearchSorted,
    /// `unique(ar, return_index, return_inverse, return_counts, axis=None)`.
    Unique,
    /// NumPy 2's `unique_all(x)`, `unique_counts(x)` and `unique_inverse(x)`:
    /// `unique` with `equal_nan=False` and the results it names (`UniqueAllResult`,
    /// ...).
    UniqueNamed(&'static TupleClass),
    /// `median(a, axis=None, keepdims=False)`.
    Median,
    /// `percentile(a, q, axis=None, method='linear', keepdims=False)`.
    Percentile,
    /// `quantile(a, q, axis=None, method='linear', keepdims=False)`.
    Quantile,
    /// Mars's `topk(a, k, axis=-1, largest=True, sorted=True, return_index=False)`.
    TopK,
}

/// Checks `kth` of `partition`/`argpartition` as NumPy does: an int or a sequence of
/// ints, each (negative ones counted from the end) within the axis of length `len`
/// unless the array is empty. Every valid `kth` gives the same (sorted) result.
fn check_kth(kth: &super::bind::Arg, len: usize, empty: bool) -> LowerResult<()> {
    let not_integer = || Diagnostic::error("Partition index must be integer", kth.span);
    let booleans = || Diagnostic::error("Booleans unacceptable as partition index", kth.span);
    let values: Vec<i64> = match &kth.value {
        Value::Int(v) => vec![*v],
        Value::Bool(_) => return Err(booleans()),
        Value::Tensor(_) => {
            return Err(
                Diagnostic::error("not supported yet: `kth` given as a tensor", kth.span)
                    .with_help("give `kth` as an int or a list of ints"),
            )
        }
        Value::List(items) | Value::Tuple(items, _) => {
            // NumPy makes an array of the items: all bools make a bool array, a float
            // (or no item at all) a float one.
            if items.is_empty()
                || items
                    .iter()
                    .any(|item| !matches!(item, Value::Int(_) | Value::Bool(_)))
            {
                return Err(not_integer());
            }
            if items.iter().all(|item| matches!(item, Value::Bool(_))) {
                return Err(booleans());
            }
            items
                .iter()
                .map(|item| match item {
                    Value::Int(v) => *v,
                    Value::Bool(b) => i64::from(*b),
                    _ => 0,
                })
                .collect()
        }
        _ => return Err(not_integer()),
    };
    if empty {
        return Ok(());
    }
    let len = len as i64;
    for value in values {
        let normalized = if value < 0 { value + len } else { value };
        if !(0..len).contains(&normalized) {
            return Err(Diagnostic::error(
                format!("kth(={normalized}) out of bounds ({len})"),
                kth.span,
            ));
        }
    }
    Ok(())
}

/// The most parts (output chunks) a distributed sort cuts its tensor into.
const MAX_PARTS: usize = 1024;
/// The most pivot places (chunks times pivots) a distributed sort's stage fetches.
const MAX_PLACES: usize = 1 << 22;
/// Samples per part the pivots are picked from.
const OVERSAMPLING: usize = 32;

impl Lowerer<'_> {
    /// A call of one of the sorting functions.
    pub(super) fn sorting(&mut self, kind: Sorting, args: &BoundArgs) -> LowerResult<Value> {
        let span = args.call_span;
        let first = match kind {
            Sorting::SortMethod | Sorting::PartitionMethod => args.receiver(),
            Sorting::Unique => args.get("ar"),
            Sorting::UniqueNamed(_) => args.get("x"),
            _ => args.get("a"),
        };
        let a = self.tensor_of(&first, None, "`a`")?;
        let result = match kind {
            Sorting::Sort | Sorting::SortMethod | Sorting::Argsort => {
                let axis_arg = args.get("axis");
                let kind_arg = args.get("kind");
                if !matches!(kind_arg.value, Value::None) {
                    let name = str_arg(&kind_arg, "kind")?;
                    // NumPy reads the kind by its first letter.
                    if !matches!(name.chars().next(), Some('q' | 'm' | 'h' | 's')) {
                        return Err(Diagnostic::error(
                            format!("sort kind must be one of 'quick', 'heap', or 'stable' (got '{name}')"),
                            kind_arg.span,
                        ));
                    }
                }
                let arg = kind == Sorting::Argsort;
                let (a, axis) = match axis_arg.value {
                    Value::None if kind != Sorting::SortMethod => (self.ravel_tensor(a, span)?, 0),
                    _ => {
                        let axis = normalize_axis(int_arg(&axis_arg, "axis")?, self.shape(a).len())
                            .map_err(|e| at(e, axis_arg.span))?;
                        (a, axis)
                    }
                };
                self.sorted(a, axis, arg, span)?.map(Value::Tensor)
            }
            Sorting::Partition | Sorting::PartitionMethod | Sorting::Argpartition => {
                let kind_arg = args.get("kind");
                match &kind_arg.value {
                    Value::Str(name) if &**name == "introselect" => {}
                    Value::Str(name) => {
                        return Err(Diagnostic::error(
                            format!("select kind must be 'introselect' (got '{name}')"),
                            kind_arg.span,
                        ))
                    }
                    other => {
                        let type_name = match other {
                            Value::None => "NoneType",
                            other => other.type_name(),
                        };
                        return Err(Diagnostic::error(
                            format!("select kind must be str, not {type_name}"),
                            kind_arg.span,
                        ));
                    }
                }
                let arg = kind == Sorting::Argpartition;
                let axis_arg = args.get("axis");
                // NumPy's argpartition of a 0-d array partitions it as one element.
                let flatten = match axis_arg.value {
                    Value::None => kind != Sorting::PartitionMethod,
                    _ => arg && self.shape(a).is_empty(),
                };
                let (a, axis) = if flatten {
                    (self.ravel_tensor(a, span)?, 0)
                } else {
                    let axis = normalize_axis(int_arg(&axis_arg, "axis")?, self.shape(a).len())
                        .map_err(|e| at(e, axis_arg.span))?;
                    (a, axis)
                };
                let len = self.shape(a)[axis];
                let empty = self.shape(a).contains(&0);
                check_kth(&args.get("kth"), len, empty)?;
                self.sorted(a, axis, arg, span)?.map(Value::Tensor)
            }
            Sorting::SearchSorted => {
                let side = args.get("side");
                let right = match str_arg(&side, "side")? {
                    "left" => false,
                    "right" => true,
                    other => {
                        return Err(Diagnostic::error(
                            format!("side must be 'left' or 'right' (got '{other}')"),
                            side.span,
                        ))
                    }
                };
                let v = self.tensor_of(&args.get("v"), None, "`v`")?;
                Some(Value::Tensor(self.search_sorted(a, v, right, span)?))
            }
            Sorting::Unique => {
                let axis = args.get("axis");
                if !matches!(axis.value, Value::None) {
                    return Err(Diagnostic::error(
                        "not supported yet: `unique` along an axis",
                        axis.span,
                    )
                    .with_help("`unique` of the flattened tensor (`axis=None`) is supported"));
                }
                if !bool_arg(&args.get("equal_nan"), "equal_nan")? {
                    return Err(Diagnostic::error(
                        "not supported yet: `unique` with `equal_nan=False`",
                        args.get("equal_nan").span,
                    ));
                }
                let wanted = [
                    bool_arg(&args.get("return_index"), "return_index")?,
                    bool_arg(&args.get("return_inverse"), "return_inverse")?,
                    bool_arg(&args.get("return_counts"), "return_counts")?,
                ];
                self.unique(a, wanted, true, span)?
            }
            Sorting::UniqueNamed(class) => {
                // The results the class names, as `unique` returns them.
                let has = |field| class.field(field).is_some();
                let wanted = [has("indices"), has("inverse_indices"), has("counts")];
                self.unique(a, wanted, false, span)?
                    .map(|result| result.named(Some(class)))
            }
            Sorting::Median | Sorting::Percentile | Sorting::Quantile => {
                let axis = args.get("axis");
                let axis = match axis.value {
                    Value::None => None,
                    _ => Some(
                        normalize_axis(int_arg(&axis, "axis")?, self.shape(a).len())
                            .map_err(|e| at(e, axis.span))?,
                    ),
                };
                let keepdims = bool_arg(&args.get("keepdims"), "keepdims")?;
                let (qs, scalar_q) = match kind {
                    Sorting::Median => (vec![0.5], true),
                    _ => {
                        let method = args.get("method");
                        let name = str_arg(&method, "method")?;
                        if name != "linear" {
                            return Err(Diagnostic::error(
                                format!("not supported yet: quantile method '{name}'"),
                                method.span,
                            )
                            .with_help("the default method, 'linear', is supported"));
                        }
                        self.quantile_arg(&args.get("q"), kind == Sorting::Percentile, span)?
                    }
                };
                self.quantiles(
                    a,
                    axis,
                    &qs,
                    scalar_q,
                    kind == Sorting::Median,
                    keepdims,
                    span,
                )?
                .map(Value::Tensor)
            }
            Sorting::TopK => {
                let k_arg = args.get("k");
                let k = int_arg(&k_arg, "k")?;
                let axis_arg = args.get("axis");
                let axis = normalize_axis(int_arg(&axis_arg, "axis")?, self.shape(a).len())
                    .map_err(|e| at(e, axis_arg.span))?;
                let len = self.shape(a)[axis];
                let k = usize::try_from(k)
                    .ok()
                    .filter(|&k| k <= len)
                    .ok_or_else(|| {
                        Diagnostic::error(
                            format!("k must be between 0 and {len} (the length of axis {axis}), got {k}"),
                            k_arg.span,
                        )
                    })?;
                let largest = bool_arg(&args.get("largest"), "largest")?;
                bool_arg(&args.get("sorted"), "sorted")?;
                let return_index = bool_arg(&args.get("return_index"), "return_index")?;
                self.topk(a, k, axis, largest, return_index, span)?
            }
        };
        Ok(result.unwrap_or(Value::Poison))
    }

    /// `a` sorted along `axis` (positions along it with `arg`); `None` when a
    /// stage could not run.
    pub(super) fn sorted(
        &mut self,
        a: TileableId,
        axis: usize,
        arg: bool,
        span: Span,
    ) -> LowerResult<Option<TileableId>> {
        Ok(self
            .sorted_pair(a, axis, arg, span)?
            .map(|(values, indices)| indices.unwrap_or(values)))
    }

    /// `a` sorted along `axis` and, with `indices`, the positions that sort it, from
    /// one sort (one stage when it is distributed). A node nothing reads is pruned.
    fn sorted_pair(
        &mut self,
        a: TileableId,
        axis: usize,
        indices: bool,
        span: Span,
    ) -> LowerResult<Option<(TileableId, Option<TileableId>)>> {
        let node = self.node(a);
        let whole = if node.nsplits[axis].len() <= 1 {
            a
        } else if node.shape.len() > 1 {
            let mut splits = node.nsplits.clone();
            splits[axis] = vec![node.shape[axis]];
            self.rechunk_to_splits(a, splits, span)
        } else {
            return self.distributed_sort(a, indices, span);
        };
        self.local_pair(whole, axis, indices, span).map(Some)
    }

    /// [`local_sort`](Self::local_sort) of the values and, with `indices`, of the
    /// positions.
    fn local_pair(
        &mut self,
        a: TileableId,
        axis: usize,
        indices: bool,
        span: Span,
    ) -> LowerResult<(TileableId, Option<TileableId>)> {
        let values = self.local_sort(a, axis, false, span)?;
        let positions = if indices {
            Some(self.local_sort(a, axis, true, span)?)
        } else {
            None
        };
        Ok((values, positions))
    }

    /// Each chunk of `a` sorted along `axis` on its own.
    fn local_sort(
        &mut self,
        a: TileableId,
        axis: usize,
        arg: bool,
        span: Span,
    ) -> LowerResult<TileableId> {
        let shape = self.shape(a).to_vec();
        let dtype = if arg { DType::Int64 } else { self.dtype(a) };
        self.add_derived(
            TileOp::Sort(SortOp::Sort { axis, arg }),
            vec![a],
            shape,
            dtype,
            span,
        )
    }

    /// PSRS of a 1-D tensor of several chunks: its values sorted and, with `arg`,
    /// the positions that sort it, in chunks of one layout. `None` when a stage
    /// could not run.
    fn distributed_sort(
        &mut self,
        a: TileableId,
        arg: bool,
        span: Span,
    ) -> LowerResult<Option<(TileableId, Option<TileableId>)>> {
        let n = self.shape(a)[0];
        let chunks = self.node(a).nsplits[0].clone();
        let k = chunks.len();
        let dtype = self.dtype(a);
        if n < 2 * k {
            // Chunks of about one element: one chunk sorts them at once.
            let whole = self.rechunk_to_splits(a, vec![vec![n]], span);
            return self.local_pair(whole, 0, arg, span).map(Some);
        }
        // Regularly spaced samples of the tensor (OVERSAMPLING per part), sorted in
        // one chunk; pivot j is the sample at rank j / parts. Each chunk is grouped
        // by part (kept for the run after the stage), and only where the pivots fall
        // in each grouped chunk is fetched (one stage); each part is then sorted once.
        let parts = k.min(MAX_PARTS).min((MAX_PLACES / k).max(2));
        let wanted = (parts * OVERSAMPLING).min(n);
        let step = n / wanted;
        let count = (n - step / 2).div_ceil(step);
        let samples = self.slice_axis_step(a, 0, (step / 2) as i64, step as i64, count, span)?;
        let samples = self.rechunk_to_splits(samples, vec![vec![count]], span);
        let samples = self.local_sort(samples, 0, false, span)?;
        let spacing = count / parts;
        if spacing == 0 {
            return Err(Diagnostic::error(
                "internal error: a sort has fewer samples than parts",
                span,
            ));
        }
        let pivots =
            self.slice_axis_step(samples, 0, spacing as i64, spacing as i64, parts - 1, span)?;
        let pivots = self.rechunk_to_splits(pivots, vec![vec![parts - 1]], span);
        let shape = vec![n];
        let local = self.add_derived(
            TileOp::Sort(SortOp::Bucket { arg: false }),
            vec![a, pivots],
            shape.clone(),
            dtype,
            span,
        )?;
        self.keep_across_stages(local);
        let local_idx = if arg {
            let idx = self.add_derived(
                TileOp::Sort(SortOp::Bucket { arg: true }),
                vec![a, pivots],
                shape,
                DType::Int64,
                span,
            )?;
            self.keep_across_stages(idx);
            Some(idx)
        } else {
            None
        };
        let k_parts = parts;
        let places = self.add_with_splits(
            TileOp::Sort(SortOp::SearchBlocks { right: true }),
            vec![local, pivots],
            vec![k, k_parts - 1],
            DType::Int64,
            vec![vec![1; k], vec![k_parts - 1]],
            span,
        );
        let Some(places) = self.stage_value(places, span) else {
            return Ok(None);
        };
        let places: Option<Vec<usize>> = match places {
            ArrayData::Int64(values) => values.iter().map(|&p| usize::try_from(p).ok()).collect(),
            _ => None,
        };
        let Some(places) = places.filter(|p| p.len() == k * (k_parts - 1)) else {
            return Err(Diagnostic::error(
                "internal error: a stage gave pivot places that do not fit the sort",
                span,
            ));
        };
        // Chunk i's piece j lies between pivots j - 1 and j; empty pieces are left out.
        let mut piece_splits = Vec::new();
        let mut sources: Vec<Vec<u32>> = vec![Vec::new(); k_parts];
        let mut totals = vec![0usize; k_parts];
        for (i, &len) in chunks.iter().enumerate() {
            let row = &places[i * (k_parts - 1)..(i + 1) * (k_parts - 1)];
            let mut from = 0;
            for j in 0..k_parts {
                let to = if j + 1 < k_parts {
                    row[j].min(len)
                } else {
                    len
                };
                if to > from {
                    sources[j].push(piece_splits.len() as u32);
                    piece_splits.push(to - from);
                    totals[j] += to - from;
                    from = to;
                }
            }
        }
        let sources: Vec<Vec<u32>> = sources.into_iter().filter(|s| !s.is_empty()).collect();
        let totals: Vec<usize> = totals.into_iter().filter(|&t| t > 0).collect();
        let sources: Arc<[Vec<u32>]> = Arc::from(sources);
        let pieces = self.rechunk_to_splits(local, vec![piece_splits.clone()], span);
        let values = self.add_with_splits(
            TileOp::Sort(SortOp::MergeSorted {
                arg: false,
                sources: sources.clone(),
            }),
            vec![pieces],
            vec![n],
            dtype,
            vec![totals.clone()],
            span,
        );
        let indices = local_idx.map(|idx| {
            let idx_pieces = self.rechunk_to_splits(idx, vec![piece_splits], span);
            self.add_with_splits(
                TileOp::Sort(SortOp::MergeSorted { arg: true, sources }),
                vec![pieces, idx_pieces],
                vec![n],
                DType::Int64,
                vec![totals],
                span,
            )
        });
        Ok(Some((values, indices)))
    }

    /// NumPy's `searchsorted(a, v, side)` for a sorted 1-D `a`: per chunk of `a`,
    /// how many of its elements come before each element of `v`, summed.
    pub(super) fn search_sorted(
        &mut self,
        a: TileableId,
        v: TileableId,
        right: bool,
        span: Span,
    ) -> LowerResult<TileableId> {
        if self.shape(a).len() != 1 {
            return Err(Diagnostic::error(
                format!(
                    "`searchsorted` needs a 1-D sorted array, got {} dimensions",
                    self.shape(a).len()
                ),
                span,
            ));
        }
        use crate::infer::dtypes::{result_type, Operand};
        let common = result_type(&[
            Operand::Tensor(self.dtype(a)),
            Operand::Tensor(self.dtype(v)),
        ])
        .map_err(|e| at(e, span))?;
        let a = self.cast(a, common, span)?;
        let v = self.cast(v, common, span)?;
        let ka = self.node(a).nsplits[0].len();
        let mut shape = vec![ka];
        shape.extend_from_slice(self.shape(v));
        let mut nsplits = vec![vec![1; ka]];
        nsplits.extend(self.node(v).nsplits.iter().cloned());
        let blocks = self.add_with_splits(
            TileOp::Sort(SortOp::SearchBlocks { right }),
            vec![a, v],
            shape,
            DType::Int64,
            nsplits,
            span,
        );
        self.apply_args(
            "sum",
            vec![
                (None, self.arg_at(Value::Tensor(blocks), span)),
                (Some("axis"), self.arg_at(Value::Int(0), span)),
            ],
            span,
        )
    }

    /// `unique(a)` of the flattened tensor, with the index of each value's first
    /// occurrence, the inverse and the counts as `wanted` asks (a tuple then);
    /// `equal_nan=False` makes each NaN a value of its own.
    fn unique(
        &mut self,
        a: TileableId,
        wanted: [bool; 3],
        equal_nan: bool,
        span: Span,
    ) -> LowerResult<Option<Value>> {
        let shape = self.shape(a).to_vec();
        let flat = self.ravel_tensor(a, span)?;
        let n = self.shape(flat)[0];
        if n == 0 {
            // Nothing to sort: every result is empty (the positions int64).
            let none = self.cast(flat, DType::Int64, span)?;
            let mut results = vec![Value::Tensor(flat)];
            for (i, &w) in wanted.iter().enumerate() {
                if w {
                    let empty = if i == 1 && shape.len() > 1 {
                        let target: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
                        self.reshape_tensor(none, &target, span, span)?
                    } else {
                        none
                    };
                    results.push(Value::Tensor(empty));
                }
            }
            return Ok(Some(if results.len() == 1 {
                results.remove(0)
            } else {
                Value::tuple(results)
            }));
        }
        let Some((sorted, perm)) = self.sorted_pair(flat, 0, wanted[0], span)? else {
            return Ok(None);
        };
        // The selection's stage and the run after it both read the sorted values:
        // kept, they are sorted once.
        self.keep_across_stages(sorted);
        // The first of each run of equal values (NaNs are one run, as NumPy's
        // `equal_nan=True`).
        let mask = {
            let head = self.slice_axis(sorted, 0, 0, 1, span)?;
            let head = self.apply(
                "ones_like",
                vec![Value::Tensor(head), Value::str("bool")],
                span,
            )?;
            let mut parts = vec![Value::Tensor(head)];
            if n > 1 {
                let later = self.slice_axis(sorted, 0, 1, n - 1, span)?;
                let earlier = self.slice_axis(sorted, 0, 0, n - 1, span)?;
                let mut differs = self.apply(
                    "not_equal",
                    vec![Value::Tensor(later), Value::Tensor(earlier)],
                    span,
                )?;
                if equal_nan && self.dtype(sorted).is_float() {
                    let nan_later = self.apply("isnan", vec![Value::Tensor(later)], span)?;
                    let nan_earlier = self.apply("isnan", vec![Value::Tensor(earlier)], span)?;
                    let both = self.apply(
                        "logical_and",
                        vec![Value::Tensor(nan_later), Value::Tensor(nan_earlier)],
                        span,
                    )?;
                    let not_both = self.apply("logical_not", vec![Value::Tensor(both)], span)?;
                    differs = self.apply(
                        "logical_and",
                        vec![Value::Tensor(differs), Value::Tensor(not_both)],
                        span,
                    )?;
                }
                parts.push(Value::Tensor(differs));
            }
            self.apply("concatenate", vec![Value::sequence(parts, true)], span)?
        };
        let mut selected = vec![sorted];
        if wanted[0] {
            selected.push(perm.unwrap_or(sorted));
        }
        if wanted[2] {
            let positions = self.apply("arange", vec![Value::Int(n as i64)], span)?;
            let positions =
                self.rechunk_to_splits(positions, self.node(sorted).nsplits.clone(), span);
            selected.push(positions);
        }
        let Some(picked) = self.select_all(&selected, mask, 0, span)? else {
            return Ok(None);
        };
        let values = picked[0];
        if !wanted.iter().any(|&w| w) {
            return Ok(Some(Value::Tensor(values)));
        }
        let mut results = vec![Value::Tensor(values)];
        let mut next = 1;
        if wanted[0] {
            results.push(Value::Tensor(picked[next]));
            next += 1;
        }
        if wanted[1] {
            let mut inverse = self.search_sorted(values, flat, false, span)?;
            if !equal_nan && self.dtype(flat).is_float() {
                // Each NaN is a value of its own, in the order the NaNs come (the
                // stable sort's): the first NaN's place plus how many came before.
                let nan = self.apply("isnan", vec![Value::Tensor(flat)], span)?;
                let before = self.apply("cumsum", vec![Value::Tensor(nan)], span)?;
                let place = self.apply(
                    "add",
                    vec![Value::Tensor(inverse), Value::Tensor(before)],
                    span,
                )?;
                let place =
                    self.apply("subtract", vec![Value::Tensor(place), Value::Int(1)], span)?;
                inverse = self.apply(
                    "where",
                    vec![
                        Value::Tensor(nan),
                        Value::Tensor(place),
                        Value::Tensor(inverse),
                    ],
                    span,
                )?;
            }
            // NumPy 2 gives the inverse the input's shape.
            let target: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
            let inverse = if shape.len() == 1 {
                inverse
            } else {
                self.reshape_tensor(inverse, &target, span, span)?
            };
            results.push(Value::Tensor(inverse));
        }
        if wanted[2] {
            let starts = picked[next];
            let end = self.apply("full", vec![Value::Int(1), Value::Int(n as i64)], span)?;
            let bounds = self.apply(
                "concatenate",
                vec![Value::sequence(
                    vec![Value::Tensor(starts), Value::Tensor(end)],
                    true,
                )],
                span,
            )?;
            results.push(Value::Tensor(self.apply(
                "diff",
                vec![Value::Tensor(bounds)],
                span,
            )?));
        }
        Ok(Some(Value::tuple(results)))
    }

    /// The `q` of `quantile` (or of `percentile`, in percent) as fractions, and
    /// whether it was one scalar.
    fn quantile_arg(
        &mut self,
        q: &super::bind::Arg,
        percent: bool,
        span: Span,
    ) -> LowerResult<(Vec<f64>, bool)> {
        let (values, scalar) = match &q.value {
            Value::Tensor(id) => {
                if self.shape(*id).len() > 1 {
                    return Err(Diagnostic::error(
                        "not supported yet: `q` of more than one dimension",
                        q.span,
                    ));
                }
                let scalar = self.shape(*id).is_empty();
                let flat = self.ravel_tensor(*id, span)?;
                match self.staged_list(flat, span) {
                    Some(Value::List(items)) => (items.to_vec(), scalar),
                    Some(other) => (vec![other], scalar),
                    None => return Ok((Vec::new(), true)),
                }
            }
            Value::List(items) | Value::Tuple(items, _) => (items.to_vec(), false),
            other => (vec![other.clone()], true),
        };
        let mut fractions = Vec::with_capacity(values.len());
        for value in values {
            let number = match value {
                Value::Int(v) => v as f64,
                Value::Float(v) => v,
                Value::Bool(b) => f64::from(u8::from(b)),
                other => {
                    return Err(Diagnostic::error(
                        format!("`q` must be numbers, got {}", other.type_name()),
                        q.span,
                    ))
                }
            };
            let fraction = if percent { number / 100.0 } else { number };
            if !(0.0..=1.0).contains(&fraction) {
                return Err(Diagnostic::error(
                    if percent {
                        "Percentiles must be in the range [0, 100]"
                    } else {
                        "Quantiles must be in the range [0, 1]"
                    },
                    q.span,
                ));
            }
            fractions.push(fraction);
        }
        Ok((fractions, scalar))
    }

    /// NumPy's `quantile(a, qs, axis, method='linear')` (its `median` with
    /// `median`): the sorted tensor's neighbours of each virtual index
    /// `(n - 1) * q`, interpolated as NumPy's `_lerp`; a lane holding NaN gives NaN.
    #[allow(clippy::too_many_arguments)]
    fn quantiles(
        &mut self,
        a: TileableId,
        axis: Option<usize>,
        qs: &[f64],
        scalar_q: bool,
        median: bool,
        keepdims: bool,
        span: Span,
    ) -> LowerResult<Option<TileableId>> {
        let ndim = self.shape(a).len();
        let (source, axis_used) = match axis {
            None => (self.ravel_tensor(a, span)?, 0),
            Some(axis) => (a, axis),
        };
        let n = self.shape(source)[axis_used];
        if n == 0 {
            return Err(Diagnostic::error(
                "not supported yet: the median or quantile of an empty axis (NumPy gives NaN with a warning)",
                span,
            ));
        }
        let Some(sorted) = self.sorted(source, axis_used, false, span)? else {
            return Ok(None);
        };
        let last = self.slice_axis(sorted, axis_used, n - 1, 1, span)?;
        // NaN sorts last: a lane whose last element is NaN gives NaN (every q alike).
        let nan_lanes = if self.dtype(sorted).is_float() {
            Some(self.apply("isnan", vec![Value::Tensor(last)], span)?)
        } else {
            None
        };
        let mut results = Vec::with_capacity(qs.len());
        for &q in qs {
            let result = if median {
                let (start, len) = if n % 2 == 1 {
                    (n / 2, 1)
                } else {
                    (n / 2 - 1, 2)
                };
                let middle = self.slice_axis(sorted, axis_used, start, len, span)?;
                self.apply_args(
                    "mean",
                    vec![
                        (None, self.arg_at(Value::Tensor(middle), span)),
                        (
                            Some("axis"),
                            self.arg_at(Value::Int(axis_used as i64), span),
                        ),
                        (Some("keepdims"), self.arg_at(Value::Bool(true), span)),
                    ],
                    span,
                )?
            } else {
                let virtual_index = (n - 1) as f64 * q;
                let (previous, next, gamma) = if virtual_index >= (n - 1) as f64 {
                    (n - 1, n - 1, virtual_index - -1.0)
                } else {
                    let previous = virtual_index.floor();
                    (
                        previous as usize,
                        previous as usize + 1,
                        virtual_index - previous,
                    )
                };
                let below = self.slice_axis(sorted, axis_used, previous, 1, span)?;
                let above = self.slice_axis(sorted, axis_used, next, 1, span)?;
                let diff = self.apply(
                    "subtract",
                    vec![Value::Tensor(above), Value::Tensor(below)],
                    span,
                )?;
                if gamma >= 0.5 {
                    let scaled = self.apply(
                        "multiply",
                        vec![Value::Tensor(diff), Value::Float(1.0 - gamma)],
                        span,
                    )?;
                    self.apply(
                        "subtract",
                        vec![Value::Tensor(above), Value::Tensor(scaled)],
                        span,
                    )?
                } else {
                    let scaled = self.apply(
                        "multiply",
                        vec![Value::Tensor(diff), Value::Float(gamma)],
                        span,
                    )?;
                    self.apply(
                        "add",
                        vec![Value::Tensor(below), Value::Tensor(scaled)],
                        span,
                    )?
                }
            };
            let result = if let Some(nan) = nan_lanes {
                let last_cast = self.cast(last, self.dtype(result), span)?;
                self.apply(
                    "where",
                    vec![
                        Value::Tensor(nan),
                        Value::Tensor(last_cast),
                        Value::Tensor(result),
                    ],
                    span,
                )?
            } else {
                result
            };
            // One value per lane, the axis kept (as keepdims) or dropped.
            let result = match (keepdims, axis) {
                (true, Some(_)) => result,
                (true, None) => {
                    let target = vec![1i64; ndim];
                    self.reshape_tensor(result, &target, span, span)?
                }
                (false, _) => self.squeeze_tensor(result, Some(&[axis_used as i64]), span, span)?,
            };
            results.push(result);
        }
        if scalar_q {
            return Ok(results.first().copied());
        }
        // A sequence of q: one result per q along a new first axis, in float64 as
        // NumPy's array gamma makes it.
        let values: Vec<Value> = results.into_iter().map(Value::Tensor).collect();
        let stacked = self.apply("stack", vec![Value::sequence(values, true)], span)?;
        let float = if matches!(self.dtype(stacked), DType::Float16 | DType::Float32) {
            self.cast(stacked, DType::Float64, span)?
        } else {
            stacked
        };
        Ok(Some(float))
    }

    /// Mars's `topk`: the `k` largest (or smallest) elements along `axis`, in order,
    /// and with `return_index` their positions, from a stable sort.
    fn topk(
        &mut self,
        a: TileableId,
        k: usize,
        axis: usize,
        largest: bool,
        return_index: bool,
        span: Span,
    ) -> LowerResult<Option<Value>> {
        let len = self.shape(a)[axis];
        let pick = |this: &mut Self, sorted: TileableId| -> LowerResult<TileableId> {
            if largest {
                this.slice_axis_step(sorted, axis, len as i64 - 1, -1, k, span)
            } else {
                this.slice_axis(sorted, axis, 0, k, span)
            }
        };
        let Some((values, indices)) = self.sorted_pair(a, axis, return_index, span)? else {
            return Ok(None);
        };
        let values = pick(self, values)?;
        match indices {
            None => Ok(Some(Value::Tensor(values))),
            Some(indices) => {
                let indices = pick(self, indices)?;
                Ok(Some(Value::tuple(vec![
                    Value::Tensor(values),
                    Value::Tensor(indices),
                ])))
            }
        }
    }
}
