//! Counter-based random numbers: every element's value is a pure function of
//! (seed, stream, global element index), so results never depend on chunking.

/// A distribution for `mt.random.*`. Parameters are already validated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RandomDist {
    /// `rand`, `random`: uniform in [0, 1), float64.
    Uniform01,
    /// `uniform(low, high)`: float64 in [low, high).
    Uniform { low: f64, high: f64 },
    /// `randn`: standard normal, float64.
    StandardNormal,
    /// `normal(loc, scale)`.
    Normal { loc: f64, scale: f64 },
    /// `randint(low, high)`: int64 in [low, high).
    Randint { low: i64, high: i64 },
}
