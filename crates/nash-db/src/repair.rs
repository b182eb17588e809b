//! Repair: a database file rewritten with only what it serves, one record a position, into a
//! new file that replaces the old one by a rename, so that a failure at any point leaves the
//! old file as it was.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::db::{Db, DbError};
use crate::log;

/// What a repair kept and left out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Repaired {
    /// Positions written to the new file (every position the old one served).
    pub positions: usize,
    /// Records of the old file (a position stored again with more known takes a record more).
    pub records_before: usize,
    /// Damaged bytes inside the old file that were left out.
    pub damaged_bytes: u64,
    /// Bytes of a torn last record left out.
    pub torn_bytes: u64,
    /// Positions whose records disagreed: left out, to be solved again.
    pub conflicts: usize,
}

/// Rewrites the database at `path` (holding its writer's lock meanwhile) with one record for
/// each position it serves.
pub fn repair(path: impl AsRef<Path>) -> Result<Repaired, DbError> {
    let path = path.as_ref();
    let db = Db::open(path)?;
    let report = Repaired {
        positions: db.len(),
        records_before: db.records(),
        damaged_bytes: db.damaged_bytes(),
        torn_bytes: db.dropped_bytes(),
        conflicts: db.conflicts(),
    };
    let temp = temp_name(path);
    let io = |what, error| DbError::Io { path: temp.clone(), what, error };
    let written = write_all(&db, &temp).and_then(|()| fs::rename(&temp, path));
    if let Err(error) = written {
        // Best effort: the old file is untouched either way.
        let _ = fs::remove_file(&temp);
        return Err(io("cannot write the repaired copy", error));
    }
    // The rename is on the disk once the directory is.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    drop(db);
    Ok(report)
}

/// A name next to `path` that no other process uses: `.NAME.repair-PID`.
fn temp_name(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.repair-{}", std::process::id()))
}

/// Writes the header and every served position of `db` to a new file at `temp`, synced.
fn write_all(db: &Db, temp: &Path) -> std::io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(temp)?;
    let mut out = std::io::BufWriter::new(&mut file);
    out.write_all(&log::header())?;
    for (key, entry) in db.entries() {
        out.write_all(&log::frame(key, entry))?;
    }
    out.flush()?;
    drop(out);
    file.sync_all()
}
