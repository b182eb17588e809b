//! The solved-position database from HTP: `dfpn-open-db`, `dfpn-close-db`, `dfpn-db-stat`,
//! `dfpn-merge-db`. While a database is open, the df-pn and pattern-search commands use its
//! answers and store theirs, as `nash htp --db FILE` does.

use std::fmt::Write as _;

use nash_db::Db;

use super::{arity, no_args, Engine};
use crate::protocol::Command;
use crate::HtpError;

/// `dfpn-open-db FILE`: opens (or creates) the database for writing; the database open before
/// is closed first, also when this one cannot be opened (as Benzene does).
pub(super) fn open_db(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    arity(cmd, 1, 1, "a database file")?;
    // Closed before the new one is opened: the same file reopened must not find its own lock.
    e.db = None;
    e.db = Some(Db::open(&cmd.args[0])?);
    Ok(String::new())
}

/// `dfpn-close-db`: closes the open database, flushed to the disk.
pub(super) fn close_db(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    no_args(cmd)?;
    let mut db = e.db.take().ok_or(HtpError::NoDb)?;
    db.sync()?;
    Ok(String::new())
}

/// `dfpn-db-stat`: what the open database holds.
pub(super) fn db_stat(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    no_args(cmd)?;
    Ok(stat_text(e.db.as_ref().ok_or(HtpError::NoDb)?))
}

/// `dfpn-merge-db FILE`: adds every position of the database FILE to the open one; a value
/// that contradicts a stored one is refused.
pub(super) fn merge_db(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    arity(cmd, 1, 1, "a database file")?;
    let db = e.db.as_mut().ok_or(HtpError::NoDb)?;
    let other = Db::open_read(&cmd.args[0])?;
    let added = db.merge_from(&other)?;
    Ok(format!("{added} new positions, {} in all", db.len()))
}

/// A database's statistics, as `nash db stats` gives them: positions and records, then per
/// board size the positions, wins and losses for the player to move, winning sets, carriers
/// and the nodes the solves took.
pub(super) fn stat_text(db: &Db) -> String {
    let mut out =
        format!("{}: {} positions, {} records", db.path().display(), db.len(), db.records());
    for r in db.by_size() {
        let _ = write!(
            out,
            "\n{}x{}: positions {} wins {} losses {} winning_sets {} carriers {} nodes {}",
            r.cols, r.rows, r.positions, r.wins, r.losses, r.winning_sets, r.carriers, r.nodes
        );
    }
    out
}
