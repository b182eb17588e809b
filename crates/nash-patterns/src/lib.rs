//! Inferior cell analysis for Hex.
