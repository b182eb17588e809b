//! Virtual connections for Hex.
