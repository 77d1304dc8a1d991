//! Tests of the tiling rules on hand-built TileableGraphs.
