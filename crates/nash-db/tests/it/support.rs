//! Temporary database files, removed when dropped.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use nash_board::{Bitboard, MoveList, Position};

/// A path in the temporary directory, unique to this process and call; the file is removed
/// when the value is dropped.
pub struct TempPath(PathBuf);

impl TempPath {
    pub fn new(name: &str) -> TempPath {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir();
        TempPath(dir.join(format!("nash-db-test-{}-{n}-{name}", std::process::id())))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The position after a move list on an n×n board.
pub fn position(n: usize, moves: &str) -> Position<Bitboard> {
    let mut p = Position::square(n).expect("size");
    if !moves.is_empty() {
        moves.parse::<MoveList>().expect("moves").play_on(&mut p).expect("legal");
    }
    p
}
