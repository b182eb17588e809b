//! Reading the files the commands are given, each within a size limit: a device such as
//! `/dev/zero`, or a file far larger than its kind ever is, is refused with a one-line error
//! naming it instead of being read into memory.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use anyhow::{anyhow, bail};

use crate::input::lowercase_first;

/// One mebibyte, the unit of the limits.
const MB: u64 = 1 << 20;

/// The largest position file (SGF, diagram or move list): game records are kilobytes.
pub const POSITION_LIMIT: u64 = 16 * MB;

/// The largest batch file of positions, one a line.
pub const BATCH_LIMIT: u64 = 16 * MB;

/// The largest certificate: the biggest of docs/proofs.md's table is 158 MB.
pub const CERTIFICATE_LIMIT: u64 = 512 * MB;

/// The whole of `input` (named `name` in errors), refused when it is over `limit` bytes. At
/// most `limit + 1` bytes are read, so an endless input costs no more than a file at the
/// limit.
pub fn read_bounded(mut input: impl Read, name: &str, limit: u64) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    input
        .by_ref()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow!("cannot read {name}: {}", lowercase_first(&e)))?;
    if bytes.len() as u64 > limit {
        bail!("{name}: larger than {} MB", limit / MB);
    }
    Ok(bytes)
}

/// Opens the file at `path` to read at most `limit` bytes of it: a regular file known to be
/// larger is refused before anything is read.
fn open(path: &Path, name: &str, limit: u64) -> anyhow::Result<File> {
    let file =
        File::open(path).map_err(|e| anyhow!("cannot read {name}: {}", lowercase_first(&e)))?;
    if file.metadata().is_ok_and(|m| m.is_file() && m.len() > limit) {
        bail!("{name}: larger than {} MB", limit / MB);
    }
    Ok(file)
}

/// The file at `path`, at most `limit` bytes (see [`read_bounded`]).
pub fn read(path: &Path, limit: u64) -> anyhow::Result<Vec<u8>> {
    let name = path.display().to_string();
    read_bounded(open(path, &name, limit)?, &name, limit)
}

/// [`read_bounded`] for text: the bytes must be UTF-8.
pub fn read_text_bounded(input: impl Read, name: &str, limit: u64) -> anyhow::Result<String> {
    let bytes = read_bounded(input, name, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        anyhow!("{name}: not UTF-8 text (byte {} is not)", e.utf8_error().valid_up_to())
    })
}

/// The text file at `path`, at most `limit` bytes.
pub fn read_text(path: &Path, limit: u64) -> anyhow::Result<String> {
    let name = path.display().to_string();
    read_text_bounded(open(path, &name, limit)?, &name, limit)
}

/// Opens the database at `path` for reading and writing. The database reads its file in
/// pieces and refuses one that is not a regular file (`/dev/full`, a directory), so no limit is
/// needed here: its memory is the positions it holds.
pub fn open_db(path: &Path) -> anyhow::Result<nash_db::Db> {
    Ok(nash_db::Db::open(path)?)
}

/// Opens the database at `path` for reading only (likewise a regular file).
pub fn open_db_read(path: &Path) -> anyhow::Result<nash_db::Db> {
    Ok(nash_db::Db::open_read(path)?)
}
