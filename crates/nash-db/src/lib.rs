//! The solved-position database: solved Hex positions (the value, a winning move, the proof's
//! carrier, the exact winning set) under canonical keys, in an append-only log of checksummed
//! postcard records that survives a kill at any moment.
//!
//! A position and its images under the board's symmetries share one [`Key`]; what is stored
//! is in the key's frame and mapped back onto the position asked about ([`Db::get`]). The file
//! format is in [`log`]; docs/db.md has the guarantees and the commands.
//!
//! ```
//! use nash_board::{Bitboard, Position};
//! use nash_db::Db;
//! use nash_search::SolverConfig;
//!
//! let path = std::env::temp_dir().join(format!("nash-db-doc-{}.db", std::process::id()));
//! let mut db = Db::open(&path).unwrap();
//! let mut pos = Position::<Bitboard>::square(4).unwrap();
//! pos.play("a1".parse().unwrap()).unwrap();
//! let (r, from) = nash_db::solve(&mut db, &pos, &SolverConfig::default()).unwrap();
//! assert_eq!(from, nash_db::Source::Solved);
//! drop(db);
//! // The 180-degree image of the position is answered from the file, its move mapped back.
//! let db = Db::open_read(&path).unwrap();
//! let mut image = Position::<Bitboard>::square(4).unwrap();
//! image.play("d4".parse().unwrap()).unwrap();
//! let stored = db.get(&image).unwrap();
//! assert_eq!(Some(stored.wins), r.outcome.wins());
//! std::fs::remove_file(&path).unwrap();
//! ```

mod db;
mod key;
pub mod log;
mod pv;
mod repair;
mod solve;
mod tree;

pub use db::{Db, DbError, SizeCounts, Solved};
pub use key::{Frame, Key, KeyError};
pub use log::Entry;
pub use pv::{principal_variation, stored_line};
pub use repair::{repair, Repaired};
pub use solve::{lookup, solve, solve_many, winning_moves, Source};
pub use tree::from_tree;
