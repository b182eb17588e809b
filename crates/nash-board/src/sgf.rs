//! SGF for Hex (GM[11]).
