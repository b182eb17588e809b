//! A resumable certificate build's files: the node spool and, beside it, a journal of what the
//! builder knows besides its nodes, so that a build killed at any moment starts again where it
//! was.
//!
//! ```text
//! journal  b"NASHCJL\0"  version: u32 LE, then records:
//! record   length: u32 LE  crc32(payload): u32 LE  payload: postcard(Record)
//! ```
//!
//! The first record holds the build's settings (the position, the certificate's settings and
//! the solver's knowledge): a journal of other settings is refused. Then, as the build goes,
//! one record per position given a node (its key and the node's index in the spool), one per
//! re-solve (its result, which the plan needs), and now and then the build's CPU time so far.
//! Reopened, the spool is cut after the last node a journal record names (a node cut short by
//! the kill, and nodes written after the journal's last record, are dropped), the journal is
//! cut at its first torn or damaged record and rewritten without records naming nodes past the
//! cut, and the builder's lists are rebuilt from the nodes kept.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use nash_board::{BitSet, Position};
use nash_proof::{At, Node, Side, Spool};
use nash_search::Outcome;
use serde::{Deserialize, Serialize};

use crate::error::CertifyError;

/// The first eight bytes of a journal.
const MAGIC: &[u8; 8] = b"NASHCJL\0";

/// The journal format this program writes and reads.
const VERSION: u32 = 1;

/// No record is this long: a longer length is a tear or damage.
const MAX_PAYLOAD: usize = 1 << 24;

/// The files of a build that can be resumed: the nodes written so far and the journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    /// The nodes written, each one's postcard encoding ([`nash_proof::Spool`]).
    pub nodes: PathBuf,
    /// The journal.
    pub journal: PathBuf,
}

impl Partial {
    /// The files of a build whose certificate goes to `target`, beside it ([`Partial::beside`]),
    /// once `target` is known to name a file that can be made: not a directory, nor a path
    /// without a file name (`.`, `dir/`), in a directory that exists.
    pub fn for_target(target: &Path) -> Result<Partial, CertifyError> {
        let bad = |why: &str| CertifyError::Target(format!("{}: {why}", target.display()));
        let named =
            target.file_name().is_some() && !target.as_os_str().to_string_lossy().ends_with('/');
        if target.is_dir() || !named {
            return Err(bad("is a directory, not a file name"));
        }
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(bad("no such directory"));
        }
        Ok(Partial::beside(target))
    }

    /// The files beside `path`: `PATH.nodes` and `PATH.journal`.
    pub fn beside(path: &Path) -> Partial {
        let with = |ext: &str| {
            let mut p = path.as_os_str().to_owned();
            p.push(ext);
            PathBuf::from(p)
        };
        Partial { nodes: with(".nodes"), journal: with(".journal") }
    }

    /// Whether a journal is there to resume from.
    pub fn exists(&self) -> bool {
        self.journal.exists()
    }

    /// Removes both files (those missing are no error).
    pub fn remove(&self) -> std::io::Result<()> {
        for p in [&self.nodes, &self.journal] {
            match std::fs::remove_file(p) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        Ok(())
    }
}

/// What [`Settings::knowledge`] holds before the first move of a build given one.
const FIRST_MOVE: &str = ", first move ";

/// What a journal's build is: resumed only with the same.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub(crate) struct Settings {
    pub cols: u8,
    pub rows: u8,
    pub black: Vec<At>,
    pub white: Vec<At>,
    pub to_move: Side,
    /// The position's key: another key means another program's hashing, whose keys would
    /// not find the nodes.
    pub key: u128,
    pub search: u64,
    pub vc: bool,
    pub fill_in: bool,
    pub decompositions: bool,
    pub fill_in_beyond: Option<u64>,
    /// The re-solves' knowledge, as its `Debug` form writes it, followed by
    /// `" with the winner's fill-in"` with [`crate::CertifyConfig::winner_fill_in`], and by
    /// [`FIRST_MOVE`] and the cell with [`crate::CertifyConfig::first_move`] (in this string,
    /// so that the record's format stays that of version 1).
    pub knowledge: String,
}

impl Settings {
    pub fn of<B: BitSet>(pos: &Position<B>, key: u128, cfg: &crate::CertifyConfig) -> Settings {
        let stones = |c| pos.stones(c).iter().map(At).collect();
        Settings {
            cols: pos.cols() as u8,
            rows: pos.rows() as u8,
            black: stones(nash_board::Color::Black),
            white: stones(nash_board::Color::White),
            to_move: pos.to_move().into(),
            key,
            search: cfg.search as u64,
            vc: cfg.vc,
            fill_in: cfg.fill_in,
            decompositions: cfg.decompositions,
            fill_in_beyond: cfg.fill_in_beyond,
            knowledge: format!(
                "{:?}{}{}",
                cfg.solver.knowledge,
                if cfg.winner_fill_in { " with the winner's fill-in" } else { "" },
                cfg.first_move.map(|m| format!("{FIRST_MOVE}{m}")).unwrap_or_default()
            ),
        }
    }

    /// The names of the settings where `self` and `other` differ.
    fn differences(&self, other: &Settings) -> Vec<&'static str> {
        let mut d = Vec::new();
        let position = (&self.cols, &self.rows, &self.black, &self.white, &self.to_move);
        if position != (&other.cols, &other.rows, &other.black, &other.white, &other.to_move) {
            d.push("position");
        } else if self.key != other.key {
            d.push("position keys (another program's hashing)");
        }
        if self.search != other.search {
            d.push("search");
        }
        if self.vc != other.vc {
            d.push("vc");
        }
        if self.fill_in != other.fill_in {
            d.push("fill-in");
        }
        if self.decompositions != other.decompositions {
            d.push("decompositions");
        }
        // `fill_in_beyond` is left out: like the threads, it changes which proofs the build
        // finds and how fast, never whether they hold, so a build may go on with another.
        fn split(k: &str) -> (&str, Option<&str>) {
            k.split_once(FIRST_MOVE).map_or((k, None), |(k, m)| (k, Some(m)))
        }
        let ((k1, m1), (k2, m2)) = (split(&self.knowledge), split(&other.knowledge));
        if k1 != k2 {
            d.push("solver knowledge");
        }
        if m1 != m2 {
            d.push("first move");
        }
        d
    }
}

/// One journal record.
#[derive(Serialize, Deserialize)]
enum Record {
    Settings(Settings),
    /// The position of key `key` has node `id`.
    Made {
        key: u128,
        id: u32,
    },
    /// A re-solve's result: whether the player to move wins, the winning move, the carrier,
    /// and whether the solver with fill-in found it.
    Solved {
        key: u128,
        wins: bool,
        mv: Option<At>,
        carrier: Vec<At>,
        filled: bool,
    },
    /// The build's CPU time so far, over all runs, in seconds.
    Cpu(f64),
}

/// A re-solve's result as the journal keeps it.
#[derive(Clone)]
pub(crate) struct Answer<B> {
    pub outcome: Outcome<B>,
    pub filled: bool,
}

/// What an earlier run left: the builder's state at its last node.
pub(crate) struct Resumed<B> {
    pub made: Vec<(u128, u32)>,
    pub answers: Vec<(u128, Answer<B>)>,
    /// Whether each node kept closes a line on its own.
    pub closed: Vec<bool>,
    pub leaves: [Option<u32>; 2],
    /// The bytes of the nodes kept.
    pub bytes: u64,
    pub cpu: Duration,
    /// The journal's `fill_in_beyond`, where it is not this build's.
    pub fill_in_beyond: Option<Option<u64>>,
}

/// The journal being written.
pub(crate) struct Journal {
    out: BufWriter<File>,
    buf: Vec<u8>,
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> CertifyError {
    CertifyError::Write(format!("cannot {what} {}: {e}", path.display()))
}

fn journal_error(path: &Path, what: impl std::fmt::Display) -> CertifyError {
    CertifyError::Resume(format!("{}: {what}", path.display()))
}

impl Journal {
    fn record(&mut self, r: &Record) -> std::io::Result<()> {
        self.buf.clear();
        self.buf.extend_from_slice(&[0; 8]);
        let payload =
            postcard::to_extend(r, std::mem::take(&mut self.buf)).map_err(std::io::Error::other)?;
        self.buf = payload;
        let len = (self.buf.len() - 8) as u32;
        let crc = crc32fast::hash(&self.buf[8..]);
        self.buf[..4].copy_from_slice(&len.to_le_bytes());
        self.buf[4..8].copy_from_slice(&crc.to_le_bytes());
        self.out.write_all(&self.buf)
    }

    /// Records that the position of `key` has node `id`.
    pub fn made(&mut self, key: u128, id: u32) -> std::io::Result<()> {
        self.record(&Record::Made { key, id })
    }

    /// Records a re-solve's result (a win or a loss).
    pub fn solved<B: BitSet>(
        &mut self,
        key: u128,
        outcome: &Outcome<B>,
        filled: bool,
    ) -> std::io::Result<()> {
        let (wins, mv, carrier) = match outcome {
            Outcome::Win { winning_move, carrier } => (true, winning_move.map(At), *carrier),
            Outcome::Loss { carrier } => (false, None, *carrier),
            Outcome::Unknown { .. } => return Ok(()),
        };
        let carrier = carrier.iter().map(At).collect();
        self.record(&Record::Solved { key, wins, mv, carrier, filled })
    }

    /// Records the build's CPU time so far.
    pub fn cpu(&mut self, cpu: Duration) -> std::io::Result<()> {
        self.record(&Record::Cpu(cpu.as_secs_f64()))
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// The records of a journal's bytes up to the first torn or damaged one.
fn records(path: &Path, bytes: &[u8]) -> Result<Vec<Record>, CertifyError> {
    let Some(rest) = bytes.strip_prefix(MAGIC.as_slice()) else {
        return Err(journal_error(path, "not a certificate journal (no NASHCJL header)"));
    };
    let Some((version, mut rest)) = rest.split_at_checked(4) else {
        return Err(journal_error(path, "not a certificate journal (no version)"));
    };
    let found = u32::from_le_bytes(version.try_into().unwrap_or_default());
    if found != VERSION {
        return Err(journal_error(
            path,
            format!("journal format version {found}, this program reads version {VERSION}"),
        ));
    }
    let mut out = Vec::new();
    while rest.len() >= 8 {
        let len = u32::from_le_bytes(rest[..4].try_into().unwrap_or_default()) as usize;
        let crc = u32::from_le_bytes(rest[4..8].try_into().unwrap_or_default());
        let Some(payload) = rest.get(8..8 + len).filter(|_| len <= MAX_PAYLOAD) else {
            break;
        };
        if crc32fast::hash(payload) != crc {
            break;
        }
        let Ok(r) = postcard::from_bytes::<Record>(payload) else {
            break;
        };
        out.push(r);
        rest = &rest[8 + len..];
    }
    Ok(out)
}

/// Opens a build's files, resuming what an earlier run of the same settings left (nothing if
/// there is no journal): the state to resume, the spool to append to, and the journal.
pub(crate) fn open<B: BitSet>(
    files: &Partial,
    settings: Settings,
) -> Result<(Resumed<B>, File, Journal), CertifyError> {
    let mut resumed = Resumed {
        made: Vec::new(),
        answers: Vec::new(),
        closed: Vec::new(),
        leaves: [None; 2],
        bytes: 0,
        cpu: Duration::ZERO,
        fill_in_beyond: None,
    };
    let old = match std::fs::read(&files.journal) {
        Ok(bytes) => records(&files.journal, &bytes)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A spool with no journal is no build's of ours: another file of that name.
            if std::fs::symlink_metadata(&files.nodes).is_ok() {
                return Err(CertifyError::Target(format!(
                    "{} is there with no journal beside it: not overwritten (move it away, or \
                     write the certificate elsewhere)",
                    files.nodes.display()
                )));
            }
            Vec::new()
        }
        Err(e) => return Err(io_error("read", &files.journal, e)),
    };
    let mut old = old.into_iter();
    let resuming = match old.next() {
        Some(Record::Settings(s)) => {
            let d = s.differences(&settings);
            resumed.fill_in_beyond =
                (s.fill_in_beyond != settings.fill_in_beyond).then_some(s.fill_in_beyond);
            if !d.is_empty() {
                return Err(journal_error(
                    &files.journal,
                    format!(
                        "made with another {} than this build's: not resumed (remove it and {} \
                         to start again)",
                        d.join(", "),
                        files.nodes.display()
                    ),
                ));
            }
            true
        }
        // A journal torn before its settings are whole holds nothing.
        None => false,
        Some(_) => return Err(journal_error(&files.journal, "no settings record first")),
    };
    let spool = if resuming {
        match std::fs::read(&files.nodes) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io_error("read", &files.nodes, e)),
        }
    } else {
        Vec::new()
    };
    let (whole, _) = Spool::<Vec<u8>>::scan(&spool, usize::MAX, |_, _| {});
    let mut made = Vec::new();
    for r in old {
        match r {
            Record::Made { key, id } if (id as usize) < whole => made.push((key, id)),
            Record::Made { .. } | Record::Settings(_) => {}
            Record::Solved { key, wins, mv, carrier, filled } => {
                let carrier = carrier.iter().fold(B::EMPTY, |c, a| c.with(a.0));
                let outcome = match wins {
                    true => Outcome::Win { winning_move: mv.map(|m| m.0), carrier },
                    false => Outcome::Loss { carrier },
                };
                resumed.answers.push((key, Answer { outcome, filled }));
            }
            Record::Cpu(s) => resumed.cpu = Duration::try_from_secs_f64(s).unwrap_or_default(),
        }
    }
    let cut = made.iter().map(|&(_, id)| id as usize + 1).max().unwrap_or(0);
    let (_, bytes) = Spool::<Vec<u8>>::scan(&spool, cut, |id, node| {
        resumed.closed.push(matches!(node, Node::Won | Node::Vc { .. }));
        let slot = match node {
            Node::Won => Some(0),
            Node::Search => Some(1),
            _ => None,
        };
        if let Some(s) = slot {
            resumed.leaves[s].get_or_insert(id);
        }
    });
    drop(spool);
    resumed.made = made;
    resumed.bytes = bytes as u64;

    // The journal rewritten with what was kept (to a file of this process's own, then renamed
    // over the old one), then the spool cut after its last node kept. The journal comes first:
    // a spool with no journal is taken for another file, and a fresh build that fails here
    // leaves neither.
    let fresh = !files.journal.exists();
    let mut tmp = files.journal.as_os_str().to_owned();
    tmp.push(format!(".{}.new", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| io_error("create", &tmp, e))?;
    let mut journal = Journal { out: BufWriter::new(file), buf: Vec::new() };
    let write = |j: &mut Journal| -> std::io::Result<()> {
        j.out.write_all(MAGIC)?;
        j.out.write_all(&VERSION.to_le_bytes())?;
        j.record(&Record::Settings(settings))?;
        for &(key, id) in &resumed.made {
            j.made(key, id)?;
        }
        for (key, a) in &resumed.answers {
            j.solved(*key, &a.outcome, a.filled)?;
        }
        j.cpu(resumed.cpu)?;
        j.out.flush()?;
        j.out.get_ref().sync_all()
    };
    let renamed = write(&mut journal).map_err(|e| io_error("write", &tmp, e)).and_then(|()| {
        std::fs::rename(&tmp, &files.journal).map_err(|e| io_error("write", &files.journal, e))
    });
    if let Err(e) = renamed {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    let spool = || -> std::io::Result<File> {
        let mut nodes =
            OpenOptions::new().create(true).truncate(false).write(true).open(&files.nodes)?;
        nodes.set_len(bytes as u64)?;
        std::io::Seek::seek(&mut nodes, std::io::SeekFrom::End(0))?;
        Ok(nodes)
    };
    match spool() {
        Ok(nodes) => Ok((resumed, nodes, journal)),
        Err(e) => {
            if fresh {
                let _ = std::fs::remove_file(&files.journal);
                let _ = std::fs::remove_file(&files.nodes);
            }
            Err(io_error("open", &files.nodes, e))
        }
    }
}
