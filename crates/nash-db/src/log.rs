//! The file: a header (magic and version), then records appended one after another, each
//! framed by its length and a CRC-32 of its bytes, so that a tear (a write cut short by a kill)
//! is found and everything before it kept, and damage inside the file is skipped over.
//!
//! ```text
//! header   b"NASHSDB\0"  version: u32 LE
//! record   length: u32 LE  crc32(payload): u32 LE  payload: postcard(Record)
//! ```

use serde::{Deserialize, Serialize};

use crate::key::Key;

/// The first eight bytes of every database file.
pub const MAGIC: &[u8; 8] = b"NASHSDB\0";

/// The format version this program reads and writes.
pub const VERSION: u32 = 1;

/// Bytes of the header.
pub const HEADER_LEN: usize = MAGIC.len() + 4;

/// Bytes of a record's frame before its payload.
pub const FRAME_LEN: usize = 8;

/// No record is this long: a longer length field is a tear or damage, not a record.
const MAX_PAYLOAD: usize = 1 << 16;

/// What is known of a solved position, in the canonical frame of its key. Cells are indices
/// `row * cols + col`.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Entry {
    /// Whether the player to move wins.
    pub wins: bool,
    /// A winning move of the player to move, when known (only for wins).
    pub winning_move: Option<u16>,
    /// The empty cells the proof depends on, when known (the solver's carrier).
    pub carrier: Option<Vec<u16>>,
    /// The exact set of winning moves of the player to move, when every move was decided.
    pub winning_set: Option<Vec<u16>>,
    /// Nodes the solve that found the value took (0 when not counted).
    pub nodes: u64,
}

impl Entry {
    /// Whether this entry can belong to `key`: its moves are empty cells of the board, its
    /// carrier's cells are on the board, and winning moves come only with a win. A record that
    /// fails this is damage, never an answer.
    pub fn fits(&self, key: &Key) -> bool {
        let moves = self.winning_set.as_deref().unwrap_or_default();
        self.winning_move.map_or(true, |m| self.wins && key.is_empty_cell(m))
            && self.carrier.as_deref().unwrap_or_default().iter().all(|&i| key.is_on_board(i))
            && moves.iter().all(|&m| key.is_empty_cell(m))
            && (self.wins || moves.is_empty())
    }

    /// This entry with what `other` knows and it does not; `None` if their values differ.
    pub fn merged(&self, other: &Entry) -> Option<Entry> {
        if self.wins != other.wins {
            return None;
        }
        Some(Entry {
            wins: self.wins,
            winning_move: self.winning_move.or(other.winning_move),
            carrier: self.carrier.clone().or_else(|| other.carrier.clone()),
            winning_set: self.winning_set.clone().or_else(|| other.winning_set.clone()),
            nodes: self.nodes.max(other.nodes),
        })
    }
}

/// One record of the log: a key and what is known of it.
#[derive(Serialize, Deserialize)]
struct Record<'a> {
    #[serde(borrow)]
    key: &'a [u8],
    entry: Entry,
}

/// The header bytes.
pub fn header() -> [u8; HEADER_LEN] {
    let mut h = [0; HEADER_LEN];
    h[..MAGIC.len()].copy_from_slice(MAGIC);
    h[MAGIC.len()..].copy_from_slice(&VERSION.to_le_bytes());
    h
}

/// What the header of a file says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Header {
    /// Our magic and version.
    Ok,
    /// A file cut short within the header (or empty): a database that was being created.
    Partial,
    /// Another magic: not a database of this program.
    Foreign,
    /// Our magic, another version.
    Version(u32),
}

/// Reads the header at the start of `bytes`.
pub fn read_header(bytes: &[u8]) -> Header {
    let ours = header();
    if bytes.len() < HEADER_LEN {
        return if ours.starts_with(bytes) { Header::Partial } else { Header::Foreign };
    }
    if &bytes[..MAGIC.len()] != MAGIC {
        return Header::Foreign;
    }
    let mut v = [0; 4];
    v.copy_from_slice(&bytes[MAGIC.len()..HEADER_LEN]);
    match u32::from_le_bytes(v) {
        VERSION => Header::Ok,
        other => Header::Version(other),
    }
}

/// The framed bytes of one record.
pub fn frame(key: &Key, entry: &Entry) -> Vec<u8> {
    let payload = postcard::to_stdvec(&Record { key: key.as_bytes(), entry: entry.clone() })
        .expect("a record always serialises");
    let mut out = Vec::with_capacity(FRAME_LEN + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// The records of a file's bytes after the header, and where the intact part ends.
#[derive(Debug, Default)]
pub struct Scan {
    /// The records in file order.
    pub records: Vec<(Key, Entry)>,
    /// Bytes of the file (header included) up to the end of the last intact record.
    pub valid_len: u64,
    /// Bytes before `valid_len` that belong to no intact record: damage skipped over.
    pub skipped: u64,
}

/// The record framed at `at`, and the length of its frame, if one is intact there.
fn record_at(bytes: &[u8], at: usize) -> Option<(Key, Entry, usize)> {
    let frame = bytes.get(at..at.checked_add(FRAME_LEN)?)?;
    let len = u32::from_le_bytes([frame[0], frame[1], frame[2], frame[3]]) as usize;
    let crc = u32::from_le_bytes([frame[4], frame[5], frame[6], frame[7]]);
    if len > MAX_PAYLOAD {
        return None;
    }
    let payload = bytes.get(at + FRAME_LEN..at + FRAME_LEN + len)?;
    if crc32fast::hash(payload) != crc {
        return None;
    }
    let record = postcard::from_bytes::<Record<'_>>(payload).ok()?;
    let key = Key::from_bytes(record.key).ok()?;
    if !record.entry.fits(&key) {
        return None;
    }
    Some((key, record.entry, FRAME_LEN + len))
}

/// Reads every intact record of `bytes` (a whole file, header included). A frame that is cut
/// short, fails its checksum or does not decode is damage: the scan moves on byte by byte to
/// the next intact frame, so one damaged record never hides the ones after it. Bytes after the
/// last intact record are a tear.
pub fn scan(bytes: &[u8]) -> Scan {
    let mut scanner = Scanner::default();
    scanner.feed(bytes, true);
    scanner.scan
}

/// Reads a file from `r`: its header and, when the header is ours, every intact record as
/// [`scan`] finds them. The file is read in pieces, never held whole: memory is the records
/// plus one piece, whatever the file's size.
pub fn read(mut r: impl std::io::Read) -> std::io::Result<(Header, Scan, u64)> {
    let mut head = [0; HEADER_LEN];
    let mut got = 0;
    while got < HEADER_LEN {
        match r.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let header = read_header(&head[..got]);
    if header != Header::Ok {
        return Ok((header, Scan { valid_len: got as u64, ..Scan::default() }, got as u64));
    }
    let mut scanner = Scanner::default();
    scanner.feed(&head, false);
    let mut piece = vec![0; PIECE];
    let mut total = HEADER_LEN as u64;
    loop {
        let n = match r.read(&mut piece) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        total += n as u64;
        scanner.feed(&piece[..n], n == 0);
        if n == 0 {
            return Ok((header, scanner.scan, total));
        }
    }
}

/// Bytes read from a file at a time.
const PIECE: usize = 1 << 20;

/// The scan of a file fed in pieces: the bytes not yet decided (at most a frame's worth past
/// the last piece) stay in `pending`, which starts at file offset `base`.
#[derive(Debug)]
struct Scanner {
    scan: Scan,
    pending: Vec<u8>,
    base: usize,
    /// The next offset (in the file) where a frame may start.
    at: usize,
}

impl Default for Scanner {
    fn default() -> Scanner {
        Scanner {
            scan: Scan { records: Vec::new(), valid_len: HEADER_LEN as u64, skipped: 0 },
            pending: Vec::new(),
            base: 0,
            at: HEADER_LEN,
        }
    }
}

impl Scanner {
    /// Adds the next bytes of the file; `last` when no more follow.
    fn feed(&mut self, bytes: &[u8], last: bool) {
        self.pending.extend_from_slice(bytes);
        let end = self.base + self.pending.len();
        // A frame is decided once all of it could be here: before the end of the file, only
        // where a whole frame of the longest kind fits in what was read.
        let room = if last { FRAME_LEN } else { FRAME_LEN + MAX_PAYLOAD };
        while self.at + room <= end {
            match record_at(&self.pending, self.at - self.base) {
                Some((key, entry, len)) => {
                    // Everything between the previous intact record and this one is damage.
                    self.scan.skipped += self.at as u64 - self.scan.valid_len;
                    self.scan.records.push((key, entry));
                    self.at += len;
                    self.scan.valid_len = self.at as u64;
                }
                None => self.at += 1,
            }
        }
        let keep = self.at.min(end) - self.base;
        self.pending.drain(..keep);
        self.base += keep;
    }
}
