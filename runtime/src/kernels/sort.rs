//! Sorting kernels: a chunk sorted along an axis ([`sort`]: its values, or a stable
//! argsort given as indices along the whole axis), NumPy's `searchsorted` of values
//! in one sorted chunk ([`search_sorted`]), and the merge of sorted pieces into one
//! sorted chunk ([`merge_sorted`], the last step of parallel sorting by regular
//! sampling).
//!
//! Every comparison is NumPy's sort order: NaN after every number (all NaNs alike),
//! `-0.0` equal to `0.0`. Elements are compared through an order-preserving integer
//! key ([`SortKey`]), and every sort is stable, so results equal NumPy's
//! `kind='stable'` — ties keep their order, which only shows in an argsort and in
//! the sign of a zero.

use crate::array::{try_vec, ArrayData};
use crate::kernels::KernelError;
use ndarray::{ArrayD, Axis, IxDyn};

/// An element's place in NumPy's sort order as an unsigned integer of `BITS` bits
/// that compares alike (and sorts by radix): [`key`](SortKey::key) makes `-0.0` and
/// `0.0` equal, as NumPy compares; [`order_key`](SortKey::order_key) tells them apart
/// (`-0.0` first) so that the value can be got back from it (every NaN becomes the
/// one NaN, which prints alike).
pub trait SortKey: Copy {
    const BITS: u32;
    /// The order keys of `-0.0` and `0.0`, for floats.
    const ZEROS: Option<(u64, u64)> = None;
    fn key(self) -> u64;
    fn order_key(self) -> u64 {
        self.key()
    }
    fn from_order_key(key: u64) -> Self;
}

impl SortKey for f64 {
    const BITS: u32 = 64;
    const ZEROS: Option<(u64, u64)> = Some((!(1 << 63), 1 << 63));
    fn key(self) -> u64 {
        // `+ 0.0` makes -0.0 the key of 0.0.
        (self + 0.0).order_key()
    }
    fn order_key(self) -> u64 {
        if self.is_nan() {
            return u64::MAX;
        }
        // Negatives reverse, positives go above.
        let bits = self.to_bits();
        if bits >> 63 == 1 {
            !bits
        } else {
            bits | 1 << 63
        }
    }
    fn from_order_key(key: u64) -> f64 {
        match key {
            u64::MAX => f64::NAN,
            k if k >> 63 == 1 => f64::from_bits(k & !(1 << 63)),
            k => f64::from_bits(!k),
        }
    }
}

impl SortKey for f32 {
    const BITS: u32 = 32;
    const ZEROS: Option<(u64, u64)> = Some(((!(1u32 << 31)) as u64, 1 << 31));
    fn key(self) -> u64 {
        (self + 0.0).order_key()
    }
    fn order_key(self) -> u64 {
        if self.is_nan() {
            return u64::from(u32::MAX);
        }
        let bits = self.to_bits();
        u64::from(if bits >> 31 == 1 {
            !bits
        } else {
            bits | 1 << 31
        })
    }
    fn from_order_key(key: u64) -> f32 {
        let k = key as u32;
        match k {
            u32::MAX => f32::NAN,
            k if k >> 31 == 1 => f32::from_bits(k & !(1 << 31)),
            k => f32::from_bits(!k),
        }
    }
}

impl SortKey for half::f16 {
    const BITS: u32 = 16;
    const ZEROS: Option<(u64, u64)> = Some(((!(1u16 << 15)) as u64, 1 << 15));
    fn key(self) -> u64 {
        // -0.0 takes the key of 0.0.
        let value = if self == half::f16::ZERO {
            half::f16::ZERO
        } else {
            self
        };
        value.order_key()
    }
    fn order_key(self) -> u64 {
        if self.is_nan() {
            return u64::from(u16::MAX);
        }
        let bits = self.to_bits();
        u64::from(if bits >> 15 == 1 {
            !bits
        } else {
            bits | 1 << 15
        })
    }
    fn from_order_key(key: u64) -> half::f16 {
        let k = key as u16;
        match k {
            u16::MAX => half::f16::NAN,
            k if k >> 15 == 1 => half::f16::from_bits(k & !(1 << 15)),
            k => half::f16::from_bits(!k),
        }
    }
}

impl SortKey for i64 {
    const BITS: u32 = 64;
    fn key(self) -> u64 {
        (self as u64) ^ (1 << 63)
    }
    fn from_order_key(key: u64) -> i64 {
        (key ^ (1 << 63)) as i64
    }
}

impl SortKey for i32 {
    const BITS: u32 = 32;
    fn key(self) -> u64 {
        u64::from((self as u32) ^ (1 << 31))
    }
    fn from_order_key(key: u64) -> i32 {
        ((key as u32) ^ (1 << 31)) as i32
    }
}

macro_rules! signed_sort_key {
    ($($t:ty => $u:ty),*) => {$(
        impl SortKey for $t {
            const BITS: u32 = <$t>::BITS;
            fn key(self) -> u64 {
                u64::from((self as $u) ^ (1 << (<$t>::BITS - 1)))
            }
            fn from_order_key(key: u64) -> $t {
                ((key as $u) ^ (1 << (<$t>::BITS - 1))) as $t
            }
        }
    )*};
}
signed_sort_key!(i8 => u8, i16 => u16);

macro_rules! unsigned_sort_key {
    ($($t:ty),*) => {$(
        impl SortKey for $t {
            const BITS: u32 = <$t>::BITS;
            fn key(self) -> u64 {
                u64::from(self)
            }
            fn from_order_key(key: u64) -> $t {
                key as $t
            }
        }
    )*};
}
unsigned_sort_key!(u8, u16, u32, u64);

impl SortKey for bool {
    const BITS: u32 = 1;
    fn key(self) -> u64 {
        u64::from(self)
    }
    fn from_order_key(key: u64) -> bool {
        key != 0
    }
}

/// `values` sorted stably in place, as NumPy's `kind='stable'`: their order keys
/// sorted by radix and turned back into values; zeros of both signs (which compare
/// equal) then take their places in the order they had.
fn sort_values<T: SortKey>(values: &mut [T]) {
    if values.len() < RADIX_MIN {
        values.sort_by_key(|v| v.key());
        return;
    }
    let mut keys: Vec<u64> = values.iter().map(|v| v.order_key()).collect();
    radix_sort_by(&mut keys, T::BITS, |k| *k);
    if let Some((negative, positive)) = T::ZEROS {
        let start = keys.partition_point(|&k| k < negative);
        let end = keys.partition_point(|&k| k <= positive);
        if start < end && keys[start] == negative && keys[end - 1] == positive {
            let zeros: Vec<u64> = values
                .iter()
                .map(|v| v.order_key())
                .filter(|&k| k == negative || k == positive)
                .collect();
            keys[start..end].copy_from_slice(&zeros);
        }
    }
    for (v, &k) in values.iter_mut().zip(&keys) {
        *v = T::from_order_key(k);
    }
}

/// Bits per radix digit: 256 buckets, whose counts and write streams stay in cache
/// (measured faster here than 11 bits: fewer streams than TLB entries).
const RADIX_BITS: u32 = 8;
const BUCKETS: usize = 1 << RADIX_BITS;
/// Below this many elements a comparison sort is faster than the radix passes.
const RADIX_MIN: usize = 1024;

/// Sorts `values` stably by `key` (of at most `bits` bits): a least-significant-digit
/// radix sort, one counting pass for every digit, then one scatter per digit that
/// is not the same for all elements.
fn radix_sort_by<T: Copy>(values: &mut [T], bits: u32, key: impl Fn(&T) -> u64) {
    let n = values.len();
    if n < RADIX_MIN {
        values.sort_by_key(key);
        return;
    }
    let passes = bits.div_ceil(RADIX_BITS) as usize;
    let mask = (BUCKETS - 1) as u64;
    let mut counts = vec![[0usize; BUCKETS]; passes];
    for v in values.iter() {
        let k = key(v);
        for (p, count) in counts.iter_mut().enumerate() {
            count[((k >> (p as u32 * RADIX_BITS)) & mask) as usize] += 1;
        }
    }
    let mut scratch: Vec<T> = values.to_vec();
    let mut in_scratch = false;
    for (p, count) in counts.iter().enumerate() {
        if count.contains(&n) {
            continue;
        }
        let mut next = [0usize; BUCKETS];
        let mut at = 0;
        for (slot, &c) in next.iter_mut().zip(count.iter()) {
            *slot = at;
            at += c;
        }
        let shift = p as u32 * RADIX_BITS;
        let (src, dst): (&[T], &mut [T]) = if in_scratch {
            (&scratch, &mut *values)
        } else {
            (&*values, &mut scratch)
        };
        for v in src {
            let d = ((key(v) >> shift) & mask) as usize;
            dst[next[d]] = *v;
            next[d] += 1;
        }
        in_scratch = !in_scratch;
    }
    if in_scratch {
        values.copy_from_slice(&scratch);
    }
}

fn array_bits<T: SortKey>(_: &ArrayD<T>) -> u32 {
    T::BITS
}

fn internal(message: impl std::fmt::Display) -> KernelError {
    KernelError::new(format!("internal error: {message}"))
}

/// The compiler refuses to sort complex tensors; a kernel that meets one says so.
fn complex_not_sorted(dtype: crate::dtype::DType) -> KernelError {
    KernelError::new(format!("not supported yet: sorting {dtype} values"))
}

/// `x` sorted along `axis` (stably); with `arg`, the int64 positions along the axis
/// that sort it instead (NumPy's `argsort(kind='stable')`), plus `offset` (where the
/// chunk starts along the whole axis).
pub fn sort(x: &ArrayData, axis: usize, arg: bool, offset: i64) -> Result<ArrayData, KernelError> {
    if axis >= x.ndim() {
        return Err(internal(format!(
            "sorting a {}-d chunk along axis {axis}",
            x.ndim()
        )));
    }
    Ok(match x {
        ArrayData::Bool(a) => sort_typed(a, axis, arg, offset, ArrayData::Bool)?,
        ArrayData::Int8(a) => sort_typed(a, axis, arg, offset, ArrayData::Int8)?,
        ArrayData::Int16(a) => sort_typed(a, axis, arg, offset, ArrayData::Int16)?,
        ArrayData::Int32(a) => sort_typed(a, axis, arg, offset, ArrayData::Int32)?,
        ArrayData::Int64(a) => sort_typed(a, axis, arg, offset, ArrayData::Int64)?,
        ArrayData::UInt8(a) => sort_typed(a, axis, arg, offset, ArrayData::UInt8)?,
        ArrayData::UInt16(a) => sort_typed(a, axis, arg, offset, ArrayData::UInt16)?,
        ArrayData::UInt32(a) => sort_typed(a, axis, arg, offset, ArrayData::UInt32)?,
        ArrayData::UInt64(a) => sort_typed(a, axis, arg, offset, ArrayData::UInt64)?,
        ArrayData::Float16(a) => sort_typed(a, axis, arg, offset, ArrayData::Float16)?,
        ArrayData::Float32(a) => sort_typed(a, axis, arg, offset, ArrayData::Float32)?,
        ArrayData::Float64(a) => sort_typed(a, axis, arg, offset, ArrayData::Float64)?,
        ArrayData::Complex64(_) | ArrayData::Complex128(_) => {
            return Err(complex_not_sorted(x.dtype()))
        }
    })
}

fn sort_typed<T: SortKey>(
    a: &ArrayD<T>,
    axis: usize,
    arg: bool,
    offset: i64,
    wrap: fn(ArrayD<T>) -> ArrayData,
) -> Result<ArrayData, KernelError> {
    let len = a.shape()[axis];
    if arg {
        let mut out = ArrayD::<i64>::zeros(a.raw_dim());
        let mut pairs: Vec<(u64, i64)> = try_vec(len)?;
        for (lane, mut out_lane) in a
            .lanes(Axis(axis))
            .into_iter()
            .zip(out.lanes_mut(Axis(axis)))
        {
            pairs.clear();
            pairs.extend(lane.iter().zip(offset..).map(|(v, i)| (v.key(), i)));
            // A radix sort is stable: equal keys keep their positions' order.
            radix_sort_by(&mut pairs, T::BITS, |p| p.0);
            for (o, &(_, i)) in out_lane.iter_mut().zip(&pairs) {
                *o = i;
            }
        }
        return Ok(ArrayData::Int64(out));
    }
    let mut out = a.as_standard_layout().into_owned();
    if axis + 1 == out.ndim() && len > 0 {
        let values = out
            .as_slice_mut()
            .ok_or_else(|| internal("a standard-layout chunk is not contiguous"))?;
        for lane in values.chunks_exact_mut(len) {
            sort_values(lane);
        }
    } else {
        let mut buffer: Vec<T> = try_vec(len)?;
        for mut lane in out.lanes_mut(Axis(axis)) {
            buffer.clear();
            buffer.extend(lane.iter().copied());
            sort_values(&mut buffer);
            for (o, &v) in lane.iter_mut().zip(&buffer) {
                *o = v;
            }
        }
    }
    Ok(wrap(out))
}

/// A 1-D chunk grouped by the part of the sort each element belongs to, stably:
/// part `j` holds the elements above pivot `j - 1` and at most pivot `j` (the
/// pivots are sorted; NumPy's order). With `arg`, the int64 positions (from
/// `offset`) of the elements in that order instead. `searchsorted(side='right')` of
/// the pivots in the result finds where each part starts, as in a sorted chunk.
pub fn bucket(
    x: &ArrayData,
    pivots: &ArrayData,
    arg: bool,
    offset: i64,
) -> Result<ArrayData, KernelError> {
    if x.ndim() != 1 || pivots.ndim() != 1 {
        return Err(internal("grouping a chunk that is not 1-d by its parts"));
    }
    macro_rules! group {
        ($x:expr, $p:expr, $wrap:expr) => {{
            let pivots: Vec<u64> = $p.iter().map(|p| p.key()).collect();
            let values = $x.as_standard_layout();
            let values = values
                .as_slice()
                .ok_or_else(|| internal("a standard-layout chunk is not contiguous"))?;
            let parts: Vec<u32> = values
                .iter()
                .map(|v| {
                    let k = v.key();
                    pivots.partition_point(|&p| p < k) as u32
                })
                .collect();
            let mut next = vec![0usize; pivots.len() + 1];
            for &p in &parts {
                next[p as usize] += 1;
            }
            let mut at = 0;
            for slot in next.iter_mut() {
                let count = *slot;
                *slot = at;
                at += count;
            }
            if arg {
                let mut out = vec![0i64; values.len()];
                for (i, &p) in parts.iter().enumerate() {
                    out[next[p as usize]] = offset + i as i64;
                    next[p as usize] += 1;
                }
                ArrayData::Int64(
                    ArrayD::from_shape_vec(IxDyn(&[values.len()]), out).map_err(internal)?,
                )
            } else {
                let mut out = values.to_vec();
                for (&v, &p) in values.iter().zip(&parts) {
                    out[next[p as usize]] = v;
                    next[p as usize] += 1;
                }
                $wrap(ArrayD::from_shape_vec(IxDyn(&[values.len()]), out).map_err(internal)?)
            }
        }};
    }
    Ok(match (x, pivots) {
        (ArrayData::Bool(a), ArrayData::Bool(p)) => group!(a, p, ArrayData::Bool),
        (ArrayData::Int8(a), ArrayData::Int8(p)) => group!(a, p, ArrayData::Int8),
        (ArrayData::Int16(a), ArrayData::Int16(p)) => group!(a, p, ArrayData::Int16),
        (ArrayData::Int32(a), ArrayData::Int32(p)) => group!(a, p, ArrayData::Int32),
        (ArrayData::Int64(a), ArrayData::Int64(p)) => group!(a, p, ArrayData::Int64),
        (ArrayData::UInt8(a), ArrayData::UInt8(p)) => group!(a, p, ArrayData::UInt8),
        (ArrayData::UInt16(a), ArrayData::UInt16(p)) => group!(a, p, ArrayData::UInt16),
        (ArrayData::UInt32(a), ArrayData::UInt32(p)) => group!(a, p, ArrayData::UInt32),
        (ArrayData::UInt64(a), ArrayData::UInt64(p)) => group!(a, p, ArrayData::UInt64),
        (ArrayData::Float16(a), ArrayData::Float16(p)) => group!(a, p, ArrayData::Float16),
        (ArrayData::Float32(a), ArrayData::Float32(p)) => group!(a, p, ArrayData::Float32),
        (ArrayData::Float64(a), ArrayData::Float64(p)) => group!(a, p, ArrayData::Float64),
        _ => return Err(internal("pivots of another dtype than the chunk")),
    })
}

/// NumPy's `searchsorted(a, v, side)` for a sorted 1-D chunk `a`: per element of
/// `v`, how many elements of `a` come before it (`right`: before or equal), as an
/// int64 array of shape `[1, *v.shape]`. `a` and `v` have one dtype.
pub fn search_sorted(a: &ArrayData, v: &ArrayData, right: bool) -> Result<ArrayData, KernelError> {
    if a.ndim() != 1 {
        return Err(internal(format!("searchsorted in a {}-d chunk", a.ndim())));
    }
    macro_rules! search {
        ($a:expr, $v:expr) => {{
            let sorted = $a.as_standard_layout();
            let sorted = sorted
                .as_slice()
                .ok_or_else(|| internal("a standard-layout chunk is not contiguous"))?;
            let mut shape = vec![1];
            shape.extend_from_slice($v.shape());
            let out: Vec<i64> = $v
                .iter()
                .map(|x| {
                    let k = x.key();
                    if right {
                        sorted.partition_point(|s| s.key() <= k) as i64
                    } else {
                        sorted.partition_point(|s| s.key() < k) as i64
                    }
                })
                .collect();
            ArrayD::from_shape_vec(IxDyn(&shape), out).map_err(internal)?
        }};
    }
    Ok(ArrayData::Int64(match (a, v) {
        (ArrayData::Bool(a), ArrayData::Bool(v)) => search!(a, v),
        (ArrayData::Int8(a), ArrayData::Int8(v)) => search!(a, v),
        (ArrayData::Int16(a), ArrayData::Int16(v)) => search!(a, v),
        (ArrayData::Int32(a), ArrayData::Int32(v)) => search!(a, v),
        (ArrayData::Int64(a), ArrayData::Int64(v)) => search!(a, v),
        (ArrayData::UInt8(a), ArrayData::UInt8(v)) => search!(a, v),
        (ArrayData::UInt16(a), ArrayData::UInt16(v)) => search!(a, v),
        (ArrayData::UInt32(a), ArrayData::UInt32(v)) => search!(a, v),
        (ArrayData::UInt64(a), ArrayData::UInt64(v)) => search!(a, v),
        (ArrayData::Float16(a), ArrayData::Float16(v)) => search!(a, v),
        (ArrayData::Float32(a), ArrayData::Float32(v)) => search!(a, v),
        (ArrayData::Float64(a), ArrayData::Float64(v)) => search!(a, v),
        _ => {
            return Err(internal(format!(
                "searchsorted of {} values in a {} chunk",
                v.dtype(),
                a.dtype()
            )))
        }
    }))
}

/// One sorted 1-D chunk from 1-D `pieces` (in order; equal elements keep it): their
/// values sorted together, or — given `indices`, one int64 piece per value piece with
/// each element's position in the whole array — those positions in sorted order.
pub fn merge_sorted(
    pieces: &[&ArrayData],
    indices: Option<&[&ArrayData]>,
) -> Result<ArrayData, KernelError> {
    let Some(first) = pieces.first() else {
        return Err(internal("a merge of no sorted pieces"));
    };
    if pieces.iter().any(|p| p.ndim() != 1) {
        return Err(internal("a merge of sorted pieces that are not 1-d"));
    }
    let total: usize = pieces.iter().map(|p| p.len()).sum();
    macro_rules! merge {
        ($variant:ident) => {{
            let parts = pieces
                .iter()
                .map(|p| match p {
                    ArrayData::$variant(a) => Ok(a),
                    _ => Err(internal("sorted pieces differ in dtype")),
                })
                .collect::<Result<Vec<_>, _>>()?;
            match indices {
                None => {
                    let mut out = try_vec(total)?;
                    for part in &parts {
                        out.extend(part.iter().copied());
                    }
                    // The pieces in order, sorted stably: a radix sort measured faster
                    // here than merging the runs pairwise by comparison.
                    sort_values(&mut out);
                    ArrayData::$variant(
                        ArrayD::from_shape_vec(IxDyn(&[total]), out).map_err(internal)?,
                    )
                }
                Some(indices) => {
                    if indices.len() != parts.len() {
                        return Err(internal("sorted pieces and their indices differ in count"));
                    }
                    let mut pairs = try_vec(total)?;
                    for (part, idx) in parts.iter().zip(indices) {
                        let ArrayData::Int64(idx) = idx else {
                            return Err(internal("sort indices are not int64"));
                        };
                        if idx.len() != part.len() {
                            return Err(internal(
                                "a sorted piece and its indices differ in length",
                            ));
                        }
                        pairs.extend(part.iter().zip(idx.iter()).map(|(v, &i)| (v.key(), i)));
                    }
                    radix_sort_by(&mut pairs, array_bits(parts[0]), |p| p.0);
                    let out: Vec<i64> = pairs.into_iter().map(|(_, i)| i).collect();
                    ArrayData::Int64(
                        ArrayD::from_shape_vec(IxDyn(&[total]), out).map_err(internal)?,
                    )
                }
            }
        }};
    }
    Ok(match first {
        ArrayData::Bool(_) => merge!(Bool),
        ArrayData::Int8(_) => merge!(Int8),
        ArrayData::Int16(_) => merge!(Int16),
        ArrayData::Int32(_) => merge!(Int32),
        ArrayData::Int64(_) => merge!(Int64),
        ArrayData::UInt8(_) => merge!(UInt8),
        ArrayData::UInt16(_) => merge!(UInt16),
        ArrayData::UInt32(_) => merge!(UInt32),
        ArrayData::UInt64(_) => merge!(UInt64),
        ArrayData::Float16(_) => merge!(Float16),
        ArrayData::Float32(_) => merge!(Float32),
        ArrayData::Float64(_) => merge!(Float64),
        ArrayData::Complex64(_) | ArrayData::Complex128(_) => {
            return Err(complex_not_sorted(first.dtype()))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f64s(shape: &[usize], values: &[f64]) -> ArrayData {
        ArrayData::Float64(ArrayD::from_shape_vec(IxDyn(shape), values.to_vec()).unwrap())
    }

    fn i64s(data: &ArrayData) -> Vec<i64> {
        match data {
            ArrayData::Int64(a) => a.iter().copied().collect(),
            other => panic!("not int64: {:?}", other.dtype()),
        }
    }

    fn values_of(data: &ArrayData) -> Vec<f64> {
        match data {
            ArrayData::Float64(a) => a.iter().copied().collect(),
            other => panic!("not float64: {:?}", other.dtype()),
        }
    }

    #[test]
    fn keys_order_as_numpy_sorts() {
        let ordered = [
            f64::NEG_INFINITY,
            -2.5,
            -1e-300,
            0.0,
            1e-300,
            3.0,
            f64::INFINITY,
        ];
        for pair in ordered.windows(2) {
            assert!(pair[0].key() < pair[1].key(), "{pair:?}");
        }
        assert_eq!((-0.0f64).key(), 0.0f64.key());
        assert!(f64::INFINITY.key() < f64::NAN.key());
        assert_eq!(f64::NAN.key(), (-f64::NAN).key());
        assert!(f32::INFINITY.key() < f32::NAN.key());
        assert!((-1.0f32).key() < 0.5f32.key());
    }

    #[test]
    fn sorts_each_lane_with_nan_last() {
        let x = f64s(&[2, 3], &[3.0, f64::NAN, 1.0, 0.0, -1.0, 2.0]);
        let sorted = values_of(&sort(&x, 1, false, 0).unwrap());
        assert_eq!(&sorted[..2], &[1.0, 3.0]);
        assert!(sorted[2].is_nan());
        assert_eq!(&sorted[3..], &[-1.0, 0.0, 2.0]);
        let by_rows = values_of(&sort(&x, 0, false, 0).unwrap());
        assert_eq!(by_rows[0], 0.0);
        assert_eq!(by_rows[3], 3.0);
        assert!(by_rows[1] == -1.0 && by_rows[4].is_nan());
    }

    #[test]
    fn argsort_is_stable_and_offset() {
        let x = f64s(&[5], &[2.0, 1.0, 2.0, f64::NAN, 1.0]);
        assert_eq!(
            i64s(&sort(&x, 0, true, 10).unwrap()),
            vec![11, 14, 10, 12, 13]
        );
    }

    #[test]
    fn searchsorted_left_and_right() {
        let a = f64s(&[5], &[1.0, 2.0, 2.0, 3.0, f64::NAN]);
        let v = f64s(&[4], &[2.0, 0.0, 9.0, f64::NAN]);
        assert_eq!(
            i64s(&search_sorted(&a, &v, false).unwrap()),
            vec![1, 0, 4, 4]
        );
        assert_eq!(
            i64s(&search_sorted(&a, &v, true).unwrap()),
            vec![3, 0, 4, 5]
        );
        assert_eq!(search_sorted(&a, &v, true).unwrap().shape(), &[1, 4]);
    }

    #[test]
    fn merges_pieces_and_their_indices_stably() {
        let p = f64s(&[3], &[1.0, 2.0, 5.0]);
        let q = f64s(&[2], &[2.0, 3.0]);
        assert_eq!(
            values_of(&merge_sorted(&[&p, &q], None).unwrap()),
            vec![1.0, 2.0, 2.0, 3.0, 5.0]
        );
        let pi = ArrayData::Int64(ArrayD::from_shape_vec(IxDyn(&[3]), vec![0, 1, 2]).unwrap());
        let qi = ArrayData::Int64(ArrayD::from_shape_vec(IxDyn(&[2]), vec![7, 8]).unwrap());
        assert_eq!(
            i64s(&merge_sorted(&[&p, &q], Some(&[&pi, &qi])).unwrap()),
            vec![0, 1, 7, 8, 2]
        );
        assert!(merge_sorted(&[], None).is_err());
    }

    /// Pseudo-random values with many ties, NaNs, zeros of both signs and
    /// infinities, enough of them to take the radix path.
    fn awkward(n: usize) -> Vec<f64> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                match state % 16 {
                    0 => f64::NAN,
                    1 => -0.0,
                    2 => 0.0,
                    3 => f64::INFINITY,
                    4 => f64::NEG_INFINITY,
                    5 => (state >> 20) as f64 * 1e-300,
                    _ => ((state >> 40) % 97) as f64 - 48.5,
                }
            })
            .collect()
    }

    #[test]
    fn radix_sorts_equal_a_stable_comparison_sort() {
        for n in [RADIX_MIN, 5000, 70_000] {
            let values = awkward(n);
            let mut expected = values.clone();
            expected.sort_by_key(|v| v.key());
            let sorted = values_of(&sort(&f64s(&[n], &values), 0, false, 0).unwrap());
            let same = |a: &[f64], b: &[f64]| {
                a.iter()
                    .zip(b)
                    .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
            };
            assert!(same(&sorted, &expected), "sort of {n}");
            let mut order: Vec<i64> = (0..n as i64).collect();
            order.sort_by_key(|&i| values[i as usize].key());
            assert_eq!(
                i64s(&sort(&f64s(&[n], &values), 0, true, 0).unwrap()),
                order
            );
            // Merging the sorted halves gives the same order and the same positions.
            let half = n / 2;
            let (left, right) = (&values[..half], &values[half..]);
            let mut l = left.to_vec();
            l.sort_by_key(|v| v.key());
            let mut r = right.to_vec();
            r.sort_by_key(|v| v.key());
            let merged = merge_sorted(&[&f64s(&[half], &l), &f64s(&[n - half], &r)], None).unwrap();
            assert!(same(&values_of(&merged), &expected), "merge of {n}");
        }
        let ints: Vec<i64> = awkward(9000)
            .iter()
            .map(|v| {
                if v.is_finite() {
                    (*v * 3.0) as i64
                } else {
                    i64::MIN
                }
            })
            .collect();
        let mut expected = ints.clone();
        expected.sort();
        let data = ArrayData::Int64(ArrayD::from_shape_vec(IxDyn(&[ints.len()]), ints).unwrap());
        assert_eq!(i64s(&sort(&data, 0, false, 0).unwrap()), expected);
    }

    #[test]
    fn bucket_groups_by_part_stably() {
        let x = f64s(&[7], &[5.0, 1.0, f64::NAN, 2.0, 9.0, 2.0, -0.0]);
        let pivots = f64s(&[2], &[0.0, 2.0]);
        // Parts: (-inf, 0], (0, 2], (2, nan]: [-0.0], [1, 2, 2], [5, nan, 9].
        let grouped = values_of(&bucket(&x, &pivots, false, 0).unwrap());
        assert_eq!(&grouped[..4], &[-0.0, 1.0, 2.0, 2.0]);
        assert_eq!(grouped[4], 5.0);
        assert!(grouped[5].is_nan());
        assert_eq!(grouped[6], 9.0);
        assert_eq!(
            i64s(&bucket(&x, &pivots, true, 100).unwrap()),
            vec![106, 101, 103, 105, 100, 102, 104]
        );
        // Where the pivots fall in a grouped chunk, as in a sorted one.
        let grouped = bucket(&x, &pivots, false, 0).unwrap();
        assert_eq!(
            i64s(&search_sorted(&grouped, &pivots, true).unwrap()),
            vec![1, 4]
        );
    }
}
