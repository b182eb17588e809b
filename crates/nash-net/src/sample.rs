//! Self-play samples and the file that holds them.
//!
//! A [`Sample`] is one position of a game with what the network learns from it: the search's
//! visit count of each move (the policy target), the game's result and, where the solver proved
//! it, the exact value (the value targets). The file is a header, then records appended one
//! after another, each framed by its length and a CRC-32, so that a write cut short by a kill
//! loses only that record and appending goes on after the last whole one:
//!
//! ```text
//! header   b"NASHSMP\0"  version: u32 LE
//! record   length: u32 LE  crc32(payload): u32 LE  payload: postcard(Sample)
//! ```

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use nash_board::{BitSet, Cell, Color, Position};
use serde::{Deserialize, Serialize};

/// The first eight bytes of every sample file.
pub const MAGIC: &[u8; 8] = b"NASHSMP\0";

/// The format version this program reads and writes.
pub const VERSION: u32 = 1;

const HEADER_LEN: usize = MAGIC.len() + 4;
const FRAME_LEN: usize = 8;

/// No sample is this long (a 63x63 board with every cell visited is under 30 KB): a longer
/// length field is damage.
const MAX_PAYLOAD: usize = 1 << 16;

/// A cell's content in [`Sample::cells`].
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

/// A move the search considered and how many times it visited it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SampleMove {
    /// Column, from 0.
    pub col: u8,
    /// Row, from 0 (row 1 at the top).
    pub row: u8,
    /// The search's visits of the move.
    pub visits: u32,
}

/// One position of a self-play game and its training targets.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Sample {
    /// Columns of the board.
    pub cols: u8,
    /// Rows of the board.
    pub rows: u8,
    /// Every cell, row by row (`row * cols + col`): 0 empty, 1 Black, 2 White.
    pub cells: Vec<u8>,
    /// Whether White is to move.
    pub white_to_move: bool,
    /// The moves the search visited, with their visit counts.
    pub visits: Vec<SampleMove>,
    /// Whether the player to move went on to win the game.
    pub won: bool,
    /// Whether the player to move wins with perfect play, when the solver proved it.
    pub exact: Option<bool>,
    /// The game the position comes from, numbered by the writer.
    pub game: u64,
    /// Moves played before this position.
    pub ply: u16,
}

/// What goes wrong reading a sample or its file.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{path}: not a Nash sample file (its first bytes are not {magic:?})", magic = String::from_utf8_lossy(MAGIC))]
    NotSamples { path: PathBuf },
    #[error("{path}: sample file version {found}; this program reads version {VERSION}")]
    Version { path: PathBuf, found: u32 },
    #[error("{path}: record at byte {offset} is damaged ({why})")]
    Damaged { path: PathBuf, offset: u64, why: &'static str },
    #[error("sample: {0}")]
    Invalid(&'static str),
}

impl Sample {
    /// The sample of `position` with the search's `visits`, the game's outcome for the player to
    /// move (`won`) and the solver's value (`exact`).
    pub fn new<B: BitSet>(
        position: &Position<B>,
        visits: &[(Cell, u32)],
        won: bool,
        exact: Option<bool>,
        game: u64,
        ply: u16,
    ) -> Sample {
        let (cols, rows) = (position.cols(), position.rows());
        let mut cells = vec![EMPTY; cols * rows];
        for row in 0..rows {
            for col in 0..cols {
                let cell = Cell::at(col as u8, row as u8);
                cells[row * cols + col] = match position.color_at(cell) {
                    None => EMPTY,
                    Some(Color::Black) => BLACK,
                    Some(Color::White) => WHITE,
                };
            }
        }
        let visits = visits
            .iter()
            .map(|&(cell, visits)| SampleMove { col: cell.col(), row: cell.row(), visits })
            .collect();
        Sample {
            cols: cols as u8,
            rows: rows as u8,
            cells,
            white_to_move: position.to_move() == Color::White,
            visits,
            won,
            exact,
            game,
            ply,
        }
    }

    /// The player to move.
    pub fn to_move(&self) -> Color {
        if self.white_to_move {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The colour of the stone on `(col, row)`, if any.
    pub fn color_at(&self, col: usize, row: usize) -> Option<Color> {
        match self.cells[row * self.cols as usize + col] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Whether the sample is whole: its cells fill its board, hold only empty, Black or White,
    /// and its visited moves are empty cells of the board. A sample read from a file is checked.
    pub fn check(&self) -> Result<(), SampleError> {
        let (cols, rows) = (self.cols as usize, self.rows as usize);
        if cols == 0
            || rows == 0
            || cols > Cell::MAX_COORD as usize
            || rows > Cell::MAX_COORD as usize
        {
            return Err(SampleError::Invalid("board size out of range"));
        }
        if self.cells.len() != cols * rows {
            return Err(SampleError::Invalid("cells do not fill the board"));
        }
        if self.cells.iter().any(|&c| c > WHITE) {
            return Err(SampleError::Invalid("a cell is neither empty, Black nor White"));
        }
        let on_empty = |m: &SampleMove| {
            (m.col as usize) < cols
                && (m.row as usize) < rows
                && self.cells[m.row as usize * cols + m.col as usize] == EMPTY
        };
        if !self.visits.iter().all(on_empty) {
            return Err(SampleError::Invalid("a visited move is not an empty cell"));
        }
        Ok(())
    }

    /// The position, with the sample's stones and player to move.
    pub fn position<B: BitSet>(&self) -> Result<Position<B>, SampleError> {
        self.check()?;
        let mut position = Position::<B>::new(self.cols as usize, self.rows as usize)
            .map_err(|_| SampleError::Invalid("board size out of range"))?;
        for color in Color::ALL {
            let mut set = B::EMPTY;
            for row in 0..self.rows as usize {
                for col in 0..self.cols as usize {
                    if self.color_at(col, row) == Some(color) {
                        set.insert(Cell::at(col as u8, row as u8));
                    }
                }
            }
            position.setup(color, set);
        }
        position.set_to_move(self.to_move());
        Ok(position)
    }
}

/// A sample file open for appending.
#[derive(Debug)]
pub struct SampleFile {
    path: PathBuf,
    out: BufWriter<File>,
}

/// The samples of a file, and the bytes of a torn last record that were left out.
#[derive(Debug)]
pub struct SampleRead {
    pub samples: Vec<Sample>,
    pub torn_bytes: u64,
}

impl SampleFile {
    /// Opens `path` for appending, creating it with its header if it does not exist. A torn last
    /// record (a write cut short) is cut off first, so new records follow the last whole one.
    pub fn append(path: &Path) -> Result<SampleFile, SampleError> {
        let io_err = |source| SampleError::Io { path: path.to_path_buf(), source };
        let exists = path.exists();
        let end = if exists { scan(path, |_| Ok(()))?.1 } else { 0 };
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .map_err(io_err)?;
        if exists {
            file.set_len(end).map_err(io_err)?;
            file.seek(SeekFrom::Start(end)).map_err(io_err)?;
        } else {
            file.write_all(MAGIC).map_err(io_err)?;
            file.write_all(&VERSION.to_le_bytes()).map_err(io_err)?;
        }
        Ok(SampleFile { path: path.to_path_buf(), out: BufWriter::new(file) })
    }

    /// Appends one sample (buffered: [`SampleFile::flush`] writes it out).
    pub fn push(&mut self, sample: &Sample) -> Result<(), SampleError> {
        let payload = postcard::to_allocvec(sample).expect("a sample always serializes");
        let io_err = |source| SampleError::Io { path: self.path.clone(), source };
        self.out.write_all(&(payload.len() as u32).to_le_bytes()).map_err(io_err)?;
        self.out.write_all(&crc32fast::hash(&payload).to_le_bytes()).map_err(io_err)?;
        self.out.write_all(&payload).map_err(io_err)
    }

    /// Writes out every sample pushed so far and syncs the file to disk.
    pub fn flush(&mut self) -> Result<(), SampleError> {
        let io_err = |source| SampleError::Io { path: self.path.clone(), source };
        self.out.flush().map_err(io_err)?;
        self.out.get_ref().sync_data().map_err(io_err)
    }

    /// Every sample of `path`. A torn last record is left out and counted; damage before it is
    /// an error naming the file and the record's offset.
    pub fn read(path: &Path) -> Result<SampleRead, SampleError> {
        let mut samples = Vec::new();
        let (len, end) = scan(path, |s| {
            samples.push(s);
            Ok(())
        })?;
        Ok(SampleRead { samples, torn_bytes: len - end })
    }
}

/// Reads `path`'s records in order, handing each to `each`; returns the file's length and the
/// end of its last whole record.
fn scan(
    path: &Path,
    mut each: impl FnMut(Sample) -> Result<(), SampleError>,
) -> Result<(u64, u64), SampleError> {
    let io_err = |source| SampleError::Io { path: path.to_path_buf(), source };
    let mut bytes = Vec::new();
    File::open(path).and_then(|mut f| f.read_to_end(&mut bytes)).map_err(io_err)?;
    let len = bytes.len() as u64;
    if bytes.len() < HEADER_LEN || &bytes[..MAGIC.len()] != MAGIC {
        return Err(SampleError::NotSamples { path: path.to_path_buf() });
    }
    let found = u32::from_le_bytes(bytes[MAGIC.len()..HEADER_LEN].try_into().unwrap());
    if found != VERSION {
        return Err(SampleError::Version { path: path.to_path_buf(), found });
    }
    let mut at = HEADER_LEN;
    let damaged = |offset: usize, why| SampleError::Damaged {
        path: path.to_path_buf(),
        offset: offset as u64,
        why,
    };
    while at < bytes.len() {
        let Some(frame) = bytes.get(at..at + FRAME_LEN) else { break };
        let size = u32::from_le_bytes(frame[..4].try_into().unwrap()) as usize;
        let crc = u32::from_le_bytes(frame[4..].try_into().unwrap());
        if size > MAX_PAYLOAD {
            return Err(damaged(at, "length out of range"));
        }
        let Some(payload) = bytes.get(at + FRAME_LEN..at + FRAME_LEN + size) else { break };
        if crc32fast::hash(payload) != crc {
            // The last record may be torn mid-payload by a kill; anything earlier is damage.
            if at + FRAME_LEN + size == bytes.len() {
                break;
            }
            return Err(damaged(at, "checksum mismatch"));
        }
        let sample: Sample =
            postcard::from_bytes(payload).map_err(|_| damaged(at, "not a sample"))?;
        sample.check().map_err(|_| damaged(at, "not a valid sample"))?;
        each(sample)?;
        at += FRAME_LEN + size;
    }
    Ok((len, at as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nash_board::Bitboard;

    fn sample(game: u64) -> Sample {
        let mut pos = Position::<Bitboard>::square(5).unwrap();
        pos.play(Cell::at(2, 2)).unwrap();
        pos.play(Cell::at(1, 3)).unwrap();
        Sample::new(&pos, &[(Cell::at(0, 0), 7), (Cell::at(4, 1), 3)], true, Some(false), game, 2)
    }

    #[test]
    fn a_sample_gives_back_its_position() {
        let s = sample(0);
        let pos: Position<Bitboard> = s.position().unwrap();
        assert_eq!(pos.color_at(Cell::at(2, 2)), Some(Color::Black));
        assert_eq!(pos.color_at(Cell::at(1, 3)), Some(Color::White));
        assert_eq!(pos.to_move(), Color::Black);
        assert_eq!(
            Sample::new(&pos, &[(Cell::at(0, 0), 7), (Cell::at(4, 1), 3)], true, Some(false), 0, 2),
            s
        );
    }

    #[test]
    fn a_visit_on_a_stone_is_refused() {
        let mut s = sample(0);
        s.visits[0] = SampleMove { col: 2, row: 2, visits: 1 };
        assert!(s.check().is_err());
        s.visits[0] = SampleMove { col: 9, row: 0, visits: 1 };
        assert!(s.check().is_err());
    }

    #[test]
    fn a_file_survives_a_torn_record_and_appends_after_it() {
        let dir = std::env::temp_dir().join(format!("nash-sample-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.nsp");
        let _ = std::fs::remove_file(&path);
        let mut f = SampleFile::append(&path).unwrap();
        f.push(&sample(1)).unwrap();
        f.push(&sample(2)).unwrap();
        f.flush().unwrap();
        drop(f);
        let len = std::fs::metadata(&path).unwrap().len();
        OpenOptions::new().write(true).open(&path).unwrap().set_len(len - 3).unwrap();
        let read = SampleFile::read(&path).unwrap();
        assert_eq!(read.samples, vec![sample(1)]);
        assert!(read.torn_bytes > 0);
        let mut f = SampleFile::append(&path).unwrap();
        f.push(&sample(3)).unwrap();
        f.flush().unwrap();
        let read = SampleFile::read(&path).unwrap();
        assert_eq!(read.samples, vec![sample(1), sample(3)]);
        assert_eq!(read.torn_bytes, 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_foreign_or_damaged_file_is_a_clear_error() {
        let dir = std::env::temp_dir().join(format!("nash-sample-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.nsp");
        std::fs::write(&path, b"hello world, not samples").unwrap();
        let e = SampleFile::read(&path).unwrap_err().to_string();
        assert!(e.contains("not a Nash sample file"), "{e}");
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&7u32.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let e = SampleFile::read(&path).unwrap_err().to_string();
        assert!(e.contains("version 7"), "{e}");
        let mut f = {
            std::fs::remove_file(&path).unwrap();
            SampleFile::append(&path).unwrap()
        };
        f.push(&sample(1)).unwrap();
        f.push(&sample(2)).unwrap();
        f.flush().unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_LEN + FRAME_LEN + 1] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        let e = SampleFile::read(&path).unwrap_err().to_string();
        assert!(e.contains("damaged"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
