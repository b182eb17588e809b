//! MoHex's book commands over Nash's book, its solved-position database: `book-open`,
//! `book-close`, `book-stat`, `book-scores`, `book-depths`. The book is opened for reading
//! only, so it may be the file `dfpn-open-db` writes.

use std::fmt::Write as _;

use nash_board::{with_position, BitSet, Cell, Position};
use nash_db::Db;

use super::{arity, no_args, with_to_move, Engine};
use crate::protocol::Command;
use crate::HtpError;

/// `book-open FILE`: opens the database FILE as the book, for reading.
pub(super) fn open(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    arity(cmd, 1, 1, "a database file")?;
    e.book = None;
    e.book = Some(Db::open_read(&cmd.args[0])?);
    Ok(String::new())
}

/// `book-close`.
pub(super) fn close(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    no_args(cmd)?;
    e.book.take().ok_or(HtpError::NoBook).map(|_| String::new())
}

/// `book-stat`: what the book holds, as `dfpn-db-stat` says it.
pub(super) fn stat(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    no_args(cmd)?;
    Ok(super::db::stat_text(e.book.as_ref().ok_or(HtpError::NoBook)?))
}

/// `book-scores [COLOUR]`: each legal move whose value the book proves, as pspairs: `W` for a
/// win of the player to move, `L` for a loss; the wins first, each group in board order.
pub(super) fn scores(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let color = e.optional_color(cmd)?;
    let book = e.book.as_ref().ok_or(HtpError::NoBook)?;
    let values = with_position!(&e.pos, p => move_values(book, &with_to_move(p, color)));
    let mut out = String::new();
    for win in [true, false] {
        for (cell, _) in values.iter().filter(|(_, w)| *w == win) {
            let _ = write!(out, " {cell} {}", if win { "W" } else { "L" });
        }
    }
    Ok(out.trim_start().to_owned())
}

/// `book-depths [COLOUR]`: for each legal move the book knows, how many moves the book's line
/// has from the position before it (the move itself included), as pspairs.
pub(super) fn depths(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let color = e.optional_color(cmd)?;
    let book = e.book.as_ref().ok_or(HtpError::NoBook)?;
    let out = with_position!(&e.pos, p => {
        let p = with_to_move(p, color);
        let mut out = String::new();
        for (cell, _) in move_values(book, &p) {
            let mut c = p.clone();
            c.play_unchecked(cell);
            let depth = 1 + nash_db::stored_line(book, &c, None).len();
            let _ = write!(out, " {cell} {depth}");
        }
        out
    });
    Ok(out.trim_start().to_owned())
}

/// The legal moves of `p` whose value the book proves, with whether each wins for the player
/// to move: from the position's stored value (a loss loses with every move) and winning set,
/// from its stored winning move, and from the stored values of the positions after the moves.
fn move_values<B: BitSet>(book: &Db, p: &Position<B>) -> Vec<(Cell, bool)> {
    if p.winner().is_some() {
        return Vec::new();
    }
    let legal = p.legal_moves();
    let stored = book.get(p);
    let mut out = Vec::new();
    for m in legal.iter() {
        let from_parent = stored.as_ref().and_then(|s| {
            if !s.wins {
                Some(false)
            } else if let Some(set) = s.winning_set {
                Some(set.contains(m))
            } else {
                (s.winning_move == Some(m)).then_some(true)
            }
        });
        let value = from_parent.or_else(|| {
            let mut c = p.clone();
            c.play_unchecked(m);
            if c.winner().is_some() {
                return Some(true);
            }
            book.get(&c).map(|s| !s.wins)
        });
        if let Some(w) = value {
            out.push((m, w));
        }
    }
    out
}
