//! Reading and writing the header of `.npy` files (format versions 1.0, 2.0, 3.0).
//!
//! A store reads its header when it is opened at compile time (the shape and dtype
//! of `load`); [`super::codec`] reads and writes chunk regions after it.

use crate::dtype::DType;
use std::fmt;
use std::io::Read;
use std::path::Path;

const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// What a `.npy` header says about the array that follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpyHeader {
    pub dtype: DType,
    pub shape: Vec<usize>,
    pub fortran_order: bool,
    /// Byte offset of the first element.
    pub data_offset: u64,
}

/// Why a header could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NpyError {
    /// The file could not be opened or read.
    Io(String),
    /// The file is not a `.npy` file marsc can read; the text says why.
    Malformed(String),
}

impl fmt::Display for NpyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NpyError::Io(message) | NpyError::Malformed(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for NpyError {}

impl NpyHeader {
    /// Number of elements (saturating: an absurd header is rejected by `read_header`).
    pub fn len(&self) -> usize {
        self.shape
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
            .unwrap_or(usize::MAX)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of element data that must follow the header.
    pub fn data_bytes(&self) -> u64 {
        (self.len() as u64).saturating_mul(self.dtype.itemsize() as u64)
    }
}

/// Reads and validates the header of the file at `path`, including that the file
/// is long enough to hold the data the header announces.
pub fn read_header(path: &Path) -> Result<NpyHeader, NpyError> {
    let file = std::fs::File::open(path).map_err(|e| NpyError::Io(e.to_string()))?;
    let file_len = file
        .metadata()
        .map_err(|e| NpyError::Io(e.to_string()))?
        .len();
    // The fixed part says how long the header is; only that much is read (at most
    // 1 MiB: a header is a few KiB), not the data after it.
    let mut file = file.take(1 << 20);
    let mut prefix = Vec::new();
    let mut read = |prefix: &mut Vec<u8>, len: usize| {
        (&mut file)
            .take(len as u64)
            .read_to_end(prefix)
            .map_err(|e| NpyError::Io(e.to_string()))
    };
    read(&mut prefix, 12)?;
    // A prefix that is no header's is reported by `parse_header` below.
    if let Ok((_, end)) = header_span(&prefix) {
        let rest = end.saturating_sub(prefix.len());
        read(&mut prefix, rest)?;
    }
    let header = parse_header(&prefix)?;
    let needed = header.data_offset.saturating_add(header.data_bytes());
    if file_len < needed {
        return Err(NpyError::Malformed(format!(
            "the file is truncated: the header announces {} bytes of data but the file has {}",
            header.data_bytes(),
            file_len.saturating_sub(header.data_offset)
        )));
    }
    Ok(header)
}

/// Where the header text of a file starting with `bytes` lies (`start..end`), as its
/// fixed part (magic, version, length: the first 10 or 12 bytes) announces.
pub(crate) fn header_span(bytes: &[u8]) -> Result<(usize, usize), NpyError> {
    let malformed = |m: &str| NpyError::Malformed(m.to_string());
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err(malformed(
            "not a .npy file (the magic string \\x93NUMPY is missing)",
        ));
    }
    let (len_bytes, header_start) = match bytes[6] {
        1 => (2, 10),
        2 | 3 => (4, 12),
        v => {
            return Err(NpyError::Malformed(format!(
                "unsupported .npy format version {v}.{}",
                bytes[7]
            )))
        }
    };
    if bytes.len() < header_start {
        return Err(malformed("the header is truncated"));
    }
    let mut header_len = 0usize;
    for (i, b) in bytes[8..8 + len_bytes].iter().enumerate() {
        header_len |= (*b as usize) << (8 * i);
    }
    Ok((header_start, header_start + header_len))
}

/// Parses a header from the first bytes of a file.
pub fn parse_header(bytes: &[u8]) -> Result<NpyHeader, NpyError> {
    let malformed = |m: &str| NpyError::Malformed(m.to_string());
    let (header_start, end) = header_span(bytes)?;
    let text = bytes
        .get(header_start..end)
        .ok_or_else(|| malformed("the header is truncated"))?;
    let text = std::str::from_utf8(text).map_err(|_| malformed("the header is not text"))?;
    let dict = parse_dict(text)?;
    let descr = dict
        .descr
        .ok_or_else(|| malformed("the header has no 'descr'"))?;
    let dtype = DType::from_npy_descr(&descr).ok_or_else(|| {
        NpyError::Malformed(format!(
            "unsupported dtype '{descr}' (marsc reads bool, the signed and unsigned integers, float16, float32, float64, complex64 and complex128, little-endian)"
        ))
    })?;
    Ok(NpyHeader {
        dtype,
        shape: dict
            .shape
            .ok_or_else(|| malformed("the header has no 'shape'"))?,
        fortran_order: dict
            .fortran_order
            .ok_or_else(|| malformed("the header has no 'fortran_order'"))?,
        data_offset: end as u64,
    })
}

#[derive(Default)]
struct HeaderDict {
    descr: Option<String>,
    fortran_order: Option<bool>,
    shape: Option<Vec<usize>>,
}

/// Parses the Python dict literal NumPy writes: string keys; values are a string,
/// `True`/`False`, or a tuple of integers.
fn parse_dict(text: &str) -> Result<HeaderDict, NpyError> {
    let malformed = |m: String| NpyError::Malformed(format!("malformed header: {m}"));
    let mut p = Cursor {
        s: text.trim().as_bytes(),
        i: 0,
    };
    let mut dict = HeaderDict::default();
    p.expect(b'{').map_err(malformed)?;
    loop {
        p.skip_ws();
        if p.eat(b'}') {
            break;
        }
        let key = p.string().map_err(malformed)?;
        p.skip_ws();
        p.expect(b':').map_err(malformed)?;
        p.skip_ws();
        match key.as_str() {
            "descr" => dict.descr = Some(p.string().map_err(malformed)?),
            "fortran_order" => dict.fortran_order = Some(p.boolean().map_err(malformed)?),
            "shape" => dict.shape = Some(p.int_tuple().map_err(malformed)?),
            other => return Err(malformed(format!("unexpected key '{other}'"))),
        }
        p.skip_ws();
        if !p.eat(b',') {
            p.skip_ws();
            p.expect(b'}').map_err(malformed)?;
            break;
        }
    }
    Ok(dict)
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected '{}' at byte {}", c as char, self.i))
        }
    }

    fn string(&mut self) -> Result<String, String> {
        let quote = match self.s.get(self.i) {
            Some(q @ (b'\'' | b'"')) => *q,
            _ => return Err(format!("expected a string at byte {}", self.i)),
        };
        self.i += 1;
        let start = self.i;
        while self.i < self.s.len() && self.s[self.i] != quote {
            self.i += 1;
        }
        if self.i >= self.s.len() {
            return Err("unterminated string".to_string());
        }
        let value = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        self.i += 1;
        Ok(value)
    }

    fn boolean(&mut self) -> Result<bool, String> {
        let rest = &self.s[self.i..];
        if rest.starts_with(b"True") {
            self.i += 4;
            Ok(true)
        } else if rest.starts_with(b"False") {
            self.i += 5;
            Ok(false)
        } else {
            Err(format!("expected True or False at byte {}", self.i))
        }
    }

    fn int_tuple(&mut self) -> Result<Vec<usize>, String> {
        self.expect(b'(')?;
        let mut values = Vec::new();
        loop {
            self.skip_ws();
            if self.eat(b')') {
                return Ok(values);
            }
            let start = self.i;
            while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                self.i += 1;
            }
            let digits = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
            let value: usize = digits
                .parse()
                .map_err(|_| format!("expected a non-negative integer at byte {start}"))?;
            values.push(value);
            self.skip_ws();
            if !self.eat(b',') {
                self.skip_ws();
                self.expect(b')')?;
                return Ok(values);
            }
        }
    }
}

/// The bytes of a version 1.0 header for an array of this dtype and shape (C order),
/// padded with spaces so that the data starts at a multiple of 64 bytes, as NumPy does.
pub fn encode_header(dtype: DType, shape: &[usize]) -> Vec<u8> {
    let shape_text = crate::format::python_tuple(shape);
    let mut dict = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape_text}, }}",
        dtype.npy_descr()
    );
    let unpadded = 10 + dict.len() + 1;
    let padding = (64 - unpadded % 64) % 64;
    dict.extend(std::iter::repeat_n(' ', padding));
    dict.push('\n');
    let mut bytes = Vec::with_capacity(10 + dict.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&[1, 0]);
    bytes.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    bytes.extend_from_slice(dict.as_bytes());
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_numpy_layout() {
        for shape in [vec![], vec![3], vec![2, 5], vec![1, 2, 3]] {
            let bytes = encode_header(DType::Float32, &shape);
            assert_eq!(bytes.len() % 64, 0);
            let header = parse_header(&bytes).unwrap();
            assert_eq!(header.shape, shape);
            assert_eq!(header.dtype, DType::Float32);
            assert!(!header.fortran_order);
            assert_eq!(header.data_offset as usize, bytes.len());
        }
    }

    #[test]
    fn matches_numpy_bytes() {
        // np.save of np.zeros((2, 3)) writes exactly this header (NumPy 2.4).
        let expected = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
        let bytes = encode_header(DType::Float64, &[2, 3]);
        let text = std::str::from_utf8(&bytes[10..]).unwrap();
        assert!(text.starts_with(expected));
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn absurd_shapes_do_not_overflow() {
        let dict =
            b"{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }";
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        bytes.extend_from_slice(&(dict.len() as u16).to_le_bytes());
        bytes.extend_from_slice(dict);
        let header = parse_header(&bytes).unwrap();
        assert_eq!(header.len(), usize::MAX);
        assert_eq!(header.data_bytes(), u64::MAX);
    }

    #[test]
    fn rejects_garbage() {
        assert!(matches!(
            parse_header(b"hello world"),
            Err(NpyError::Malformed(_))
        ));
        let mut bytes = encode_header(DType::Int64, &[4]);
        bytes.truncate(20);
        assert!(parse_header(&bytes).is_err());
        let dict = b"{'descr': '>f8', 'fortran_order': True, 'shape': (2,), }";
        let mut big_endian = b"\x93NUMPY\x01\x00".to_vec();
        big_endian.extend_from_slice(&(dict.len() as u16).to_le_bytes());
        big_endian.extend_from_slice(dict);
        let error = parse_header(&big_endian).unwrap_err().to_string();
        assert!(error.contains("unsupported dtype"), "{error}");
    }
}
