//! Hex Text Protocol engine.
