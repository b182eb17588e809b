//! `Db`: a database file opened for reading or for writing, its records in memory by key.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use nash_board::{BitSet, Cell, Position};
use nash_search::{Outcome, WinningMoves};

use crate::key::Key;
use crate::log::{self, Entry, Header};

/// Why a database could not be opened, read or written. Each names the file.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The operating system refused.
    #[error("{}: {what}: {}", path.display(), lower(error))]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done.
        what: &'static str,
        /// The error (not a `source`: the message already says it, in one line).
        error: std::io::Error,
    },
    /// The file does not start with the database header.
    #[error("{}: not a Nash solved-position database (no NASHSDB header)", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
    },
    /// The file is a database of another format version.
    #[error("{}: solved-position database format version {found}, this program reads version {}", path.display(), log::VERSION)]
    Version {
        /// The file.
        path: PathBuf,
        /// The version the file has.
        found: u32,
    },
    /// Another process has the file open for writing.
    #[error("{}: the database is being written by another process (one writer at a time)", path.display())]
    Locked {
        /// The file.
        path: PathBuf,
    },
    /// A value disagrees with the one stored for the same position: one of them is wrong.
    #[error("{}: conflicting values for {position}: stored {stored}, new {new} (one of them is wrong: please report it)", path.display())]
    Conflict {
        /// The file.
        path: PathBuf,
        /// The position, as one-line SGF.
        position: String,
        /// The stored value.
        stored: &'static str,
        /// The new value.
        new: &'static str,
    },
    /// The path is a device, a pipe or a directory, not a file.
    #[error("{}: not a regular file (a database is a file)", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The database was opened for reading only.
    #[error("{}: opened for reading only", path.display())]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
}

fn lower(e: &std::io::Error) -> String {
    let s = e.to_string();
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => s,
    }
}

fn value(wins: bool) -> &'static str {
    if wins {
        "win for the player to move"
    } else {
        "loss for the player to move"
    }
}

/// A solved-position database.
///
/// Opened for writing ([`Db::open`]), the file is locked against other writers (an advisory
/// `flock`, released when the process ends, however it ends), a torn tail is cut off, and every
/// [`Db::put`] appends one record with one `write`. Opened for reading ([`Db::open_read`]),
/// nothing is locked or changed: a tail being written is read as a tear and left out.
#[derive(Debug)]
pub struct Db {
    path: PathBuf,
    map: HashMap<Key, Entry>,
    records: usize,
    writer: Option<File>,
    dropped: u64,
    skipped: u64,
    /// Keys whose records in the file disagree on the value: neither is served, and nothing
    /// more is written for them.
    conflicts: HashSet<Key>,
}

/// The positions of one board size a database holds ([`Db::by_size`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SizeCounts {
    /// The board's columns.
    pub cols: usize,
    /// The board's rows.
    pub rows: usize,
    /// Positions stored.
    pub positions: usize,
    /// Of them, wins for the player to move.
    pub wins: usize,
    /// Losses for the player to move.
    pub losses: usize,
    /// Positions with their exact set of winning moves.
    pub winning_sets: usize,
    /// Positions with a proof carrier.
    pub carriers: usize,
    /// Nodes the solves took, summed.
    pub nodes: u64,
}

/// A position's stored answer, mapped back onto that position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Solved<B> {
    /// Whether the player to move wins.
    pub wins: bool,
    /// A winning move, when stored.
    pub winning_move: Option<Cell>,
    /// The proof's carrier, when stored.
    pub carrier: Option<B>,
    /// The exact set of winning moves, when stored.
    pub winning_set: Option<B>,
    /// Nodes the solve that found it took.
    pub nodes: u64,
}

impl<B: BitSet> Solved<B> {
    /// Whether this answers a solve: a loss, or a win with its move.
    pub fn is_complete(&self) -> bool {
        !self.wins || self.winning_move.is_some()
    }

    /// The answer as a solver's outcome; without a stored carrier, every empty cell of `pos`
    /// (always a carrier, if the least telling one).
    pub fn outcome(&self, pos: &Position<B>) -> Outcome<B> {
        let carrier = self.carrier.unwrap_or_else(|| pos.empty_cells());
        if self.wins {
            Outcome::Win { winning_move: self.winning_move, carrier }
        } else {
            Outcome::Loss { carrier }
        }
    }
}

impl Db {
    /// Opens `path` for writing, creating it if it does not exist. A torn last record (a write
    /// cut short) is cut off; [`Db::dropped_bytes`] says how much was. Damage inside the file
    /// is kept as it is: the writer only appends.
    pub fn open(path: impl AsRef<Path>) -> Result<Db, DbError> {
        let path = path.as_ref().to_path_buf();
        let io = |what| {
            let path = path.clone();
            move |error| DbError::Io { path, what, error }
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io("cannot open"))?;
        // A device or a pipe is no place for a database: /dev/full would take every write.
        if !file.metadata().map_err(io("cannot read"))?.is_file() {
            return Err(DbError::NotAFile { path });
        }
        lock(&file, &path)?;
        let (mut db, len) = Db::from_reader(&path, &mut file)?;
        if len < log::HEADER_LEN as u64 {
            // Empty, or cut short while it was being created: start it anew.
            file.set_len(0).map_err(io("cannot truncate"))?;
            file.seek(SeekFrom::Start(0)).map_err(io("cannot seek"))?;
            file.write_all(&log::header()).map_err(io("cannot write"))?;
        } else if db.dropped > 0 {
            file.set_len(len - db.dropped).map_err(io("cannot truncate"))?;
        }
        file.seek(SeekFrom::End(0)).map_err(io("cannot seek"))?;
        db.writer = Some(file);
        Ok(db)
    }

    /// Opens `path`, which must exist and be a regular file, for reading only.
    pub fn open_read(path: impl AsRef<Path>) -> Result<Db, DbError> {
        let path = path.as_ref().to_path_buf();
        let io = |error| DbError::Io { path: path.clone(), what: "cannot read", error };
        let file = File::open(&path).map_err(io)?;
        if !file.metadata().map_err(io)?.is_file() {
            return Err(DbError::NotAFile { path });
        }
        Ok(Db::from_reader(&path, file)?.0)
    }

    /// The database read from `r`, and how many bytes `r` held.
    fn from_reader(path: &Path, r: impl Read) -> Result<(Db, u64), DbError> {
        let (header, scan, len) = log::read(r).map_err(|error| DbError::Io {
            path: path.to_path_buf(),
            what: "cannot read",
            error,
        })?;
        match header {
            Header::Ok | Header::Partial => {}
            Header::Foreign => return Err(DbError::Foreign { path: path.to_path_buf() }),
            Header::Version(found) => {
                return Err(DbError::Version { path: path.to_path_buf(), found })
            }
        }
        let mut db = Db {
            path: path.to_path_buf(),
            map: HashMap::new(),
            records: 0,
            writer: None,
            dropped: 0,
            skipped: 0,
            conflicts: HashSet::new(),
        };
        if len < log::HEADER_LEN as u64 {
            return Ok((db, len));
        }
        db.dropped = len - scan.valid_len;
        db.skipped = scan.skipped;
        db.records = scan.records.len();
        for (key, entry) in scan.records {
            // Later records of a key add to earlier ones. A writer never stores a conflict, so
            // one in the file is damage that kept its checksum: the key is not served at all.
            if db.conflicts.contains(&key) {
                continue;
            }
            let merged = match db.map.get(&key) {
                Some(old) => old.merged(&entry),
                None => Some(entry),
            };
            match merged {
                Some(m) => {
                    db.map.insert(key, m);
                }
                None => {
                    db.map.remove(&key);
                    db.conflicts.insert(key);
                }
            }
        }
        Ok((db, len))
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Positions stored.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no position is stored.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Records in the file (a position stored again with more known takes a record more).
    pub fn records(&self) -> usize {
        self.records
    }

    /// Bytes of a torn tail left out when the file was opened (cut off when opened for
    /// writing).
    pub fn dropped_bytes(&self) -> u64 {
        self.dropped
    }

    /// Bytes of damage inside the file skipped over when it was opened (kept in the file:
    /// a writer only appends after the last intact record).
    pub fn damaged_bytes(&self) -> u64 {
        self.skipped
    }

    /// Positions whose records in the file disagree on the value (none is served).
    pub fn conflicts(&self) -> usize {
        self.conflicts.len()
    }

    /// The stored entry of a key.
    pub fn entry(&self, key: &Key) -> Option<&Entry> {
        self.map.get(key)
    }

    /// Every key and entry, in key order.
    pub fn entries(&self) -> Vec<(&Key, &Entry)> {
        let mut all: Vec<_> = self.map.iter().collect();
        all.sort_by(|a, b| a.0.cmp(b.0));
        all
    }

    /// What is stored about `pos` (under its canonical key), mapped back onto `pos`.
    pub fn get<B: BitSet>(&self, pos: &Position<B>) -> Option<Solved<B>> {
        let (key, frame) = Key::of(pos);
        let e = self.map.get(&key)?;
        let cell = |i: u16| frame.from_canonical(pos, key.cell(i));
        let set = |cells: &Vec<u16>| cells.iter().map(|&i| cell(i)).collect::<B>();
        Some(Solved {
            wins: e.wins,
            winning_move: e.winning_move.map(cell),
            carrier: e.carrier.as_ref().map(set),
            winning_set: e.winning_set.as_ref().map(set),
            nodes: e.nodes,
        })
    }

    /// Stores a solver's outcome for `pos` (an unknown one is not stored). Whether the file
    /// grew: a position stored already with all this known is not written again.
    pub fn put<B: BitSet>(
        &mut self,
        pos: &Position<B>,
        outcome: &Outcome<B>,
        nodes: u64,
    ) -> Result<bool, DbError> {
        let (key, frame) = Key::of(pos);
        let index = |c: Cell| key.index(frame.to_canonical(pos, c));
        let list = |set: B| set.iter().filter_map(index).collect::<Vec<u16>>();
        let entry = match outcome {
            Outcome::Win { winning_move, carrier } => Entry {
                wins: true,
                winning_move: winning_move.and_then(index),
                carrier: Some(list(*carrier)),
                winning_set: None,
                nodes,
            },
            Outcome::Loss { carrier } => Entry {
                wins: false,
                winning_move: None,
                carrier: Some(list(*carrier)),
                winning_set: None,
                nodes,
            },
            Outcome::Unknown { .. } => return Ok(false),
        };
        self.insert(key, entry)
    }

    /// Stores the exact winning set of `pos`, and the value of each position after a move
    /// (the opponent to move: a loss after a winning move, a win after a losing one). Nothing
    /// is stored when a move was left undecided.
    pub fn put_winning<B: BitSet>(
        &mut self,
        pos: &Position<B>,
        w: &WinningMoves<B>,
    ) -> Result<bool, DbError> {
        if !w.unknown.is_empty() || pos.winner().is_some() {
            return Ok(false);
        }
        let (key, frame) = Key::of(pos);
        let index = |c: Cell| key.index(frame.to_canonical(pos, c));
        let mut set: Vec<u16> = w.winning.iter().filter_map(index).collect();
        set.sort_unstable();
        let entry = Entry {
            wins: !w.winning.is_empty(),
            winning_move: w.winning.first().and_then(index),
            carrier: None,
            winning_set: Some(set),
            nodes: w.stats.nodes,
        };
        let mut grew = self.insert(key, entry)?;
        for (moves, child_wins) in [(w.winning, false), (w.losing, true)] {
            for m in moves.iter() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let (key, _) = Key::of(&child);
                let entry = Entry { wins: child_wins, ..Entry::default() };
                grew |= self.insert(key, entry)?;
            }
        }
        Ok(grew)
    }

    /// Stores an entry under a key (merging with what is stored): whether the file grew. A
    /// value that contradicts the stored one is refused.
    pub fn insert(&mut self, key: Key, entry: Entry) -> Result<bool, DbError> {
        if self.conflicts.contains(&key) {
            return Ok(false);
        }
        // What does not fit its board would read back as damage: lost, not stored.
        debug_assert!(entry.fits(&key), "an entry off its board: {entry:?}");
        let merged = match self.map.get(&key) {
            Some(old) => match old.merged(&entry) {
                Some(m) if m == *old => return Ok(false),
                Some(m) => m,
                None => {
                    return Err(DbError::Conflict {
                        path: self.path.clone(),
                        position: key.sgf(),
                        stored: value(old.wins),
                        new: value(entry.wins),
                    })
                }
            },
            None => entry,
        };
        let Some(file) = self.writer.as_mut() else {
            return Err(DbError::ReadOnly { path: self.path.clone() });
        };
        // One write per record: a kill tears at most this one.
        file.write_all(&log::frame(&key, &merged)).map_err(|error| DbError::Io {
            path: self.path.clone(),
            what: "cannot write",
            error,
        })?;
        self.records += 1;
        self.map.insert(key, merged);
        Ok(true)
    }

    /// Adds every position of `other` to this database: how many positions are new. A value
    /// that contradicts a stored one is refused ([`DbError::Conflict`]), after the positions
    /// before it were added.
    pub fn merge_from(&mut self, other: &Db) -> Result<usize, DbError> {
        let before = self.len();
        for (key, e) in other.entries() {
            self.insert(key.clone(), e.clone())?;
        }
        Ok(self.len() - before)
    }

    /// What is stored, by board size (in order of columns, then rows).
    pub fn by_size(&self) -> Vec<SizeCounts> {
        let mut by_size: std::collections::BTreeMap<(usize, usize), SizeCounts> =
            std::collections::BTreeMap::new();
        for (key, e) in &self.map {
            let (cols, rows) = (key.cols(), key.rows());
            let row = by_size.entry((cols, rows)).or_insert(SizeCounts {
                cols,
                rows,
                ..Default::default()
            });
            row.positions += 1;
            if e.wins {
                row.wins += 1;
            } else {
                row.losses += 1;
            }
            row.winning_sets += usize::from(e.winning_set.is_some());
            row.carriers += usize::from(e.carrier.is_some());
            row.nodes += e.nodes;
        }
        by_size.into_values().collect()
    }

    /// Flushes the file to the disk (a kill loses nothing written; a power cut may, before
    /// this).
    pub fn sync(&mut self) -> Result<(), DbError> {
        match &self.writer {
            Some(f) => f.sync_data().map_err(|error| DbError::Io {
                path: self.path.clone(),
                what: "cannot sync",
                error,
            }),
            None => Ok(()),
        }
    }
}

/// Takes the one-writer lock of a database file (advisory, `flock`; the operating system
/// releases it when the process ends).
#[cfg(unix)]
fn lock(file: &File, path: &Path) -> Result<(), DbError> {
    use rustix::fs::{flock, FlockOperation};
    match flock(file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(()),
        Err(rustix::io::Errno::WOULDBLOCK) => Err(DbError::Locked { path: path.to_path_buf() }),
        Err(e) => {
            Err(DbError::Io { path: path.to_path_buf(), what: "cannot lock", error: e.into() })
        }
    }
}

/// Elsewhere the lock is not taken: one writer per file is the user's to keep.
#[cfg(not(unix))]
fn lock(_: &File, _: &Path) -> Result<(), DbError> {
    Ok(())
}
