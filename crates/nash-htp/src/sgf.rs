//! `loadsgf`: the position of an SGF game record, up to a move number, and the check that the
//! record is one game (no move after its end), shared with `nash`.

use std::io::Read as _;

use nash_board::sgf::GameRecord;
use nash_board::{sgf, AnyPosition, Color, Move, PlayError, SgfError};

/// The largest game record `loadsgf` reads: game records are kilobytes, and a larger file
/// (or a device such as `/dev/zero`) is refused rather than read into memory.
pub const MAX_FILE: u64 = 16 << 20;

/// The text of the game record at `path`, or why it cannot be read: at most [`MAX_FILE`]
/// bytes are read.
pub(crate) fn read(path: &str) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(format!("larger than {} MB", MAX_FILE >> 20));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_owned())
}

/// The position of the game in `text` just before move `move_number` (numbered from 1) is
/// played, as GTP's `loadsgf` defines it; the final position when `None`.
pub(crate) fn load(text: &str, move_number: Option<usize>) -> Result<AnyPosition, String> {
    let record = sgf::parse(text).map_err(|e| e.to_string())?;
    check_game_end(&record).map_err(|e| e.to_string())?;
    record.any_position(move_number.map(|n| n.saturating_sub(1))).map_err(|e| e.to_string())
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameEnd {
    /// This player connected their edges.
    Won(Color),
    /// This player resigned.
    Resigned(Color),
}

impl std::fmt::Display for GameEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameEnd::Won(c) => write!(f, "{c} has won"),
            GameEnd::Resigned(c) => write!(f, "{c} resigned"),
        }
    }
}

/// A game record that is not one game.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GameRecordError {
    /// The record cannot be replayed.
    #[error(transparent)]
    Replay(#[from] SgfError),
    /// A move comes after the end of the game.
    #[error("sgf move {number} ({color} {mv}): the game is over: {end}")]
    AfterTheEnd {
        /// The move's number, from 1.
        number: usize,
        /// Who played it.
        color: Color,
        /// The move.
        mv: Move,
        /// How the game had ended.
        end: GameEnd,
    },
}

/// Checks that no move of `record` comes after the end of the game (a player connected, or a
/// `resign`), naming the first such move.
///
/// The record is replayed once, so the check is linear in its length. A move that cannot be
/// played is an error when moves follow it (they could not be replayed); a last move that
/// cannot be played is left to whoever replays the record up to it.
pub fn check_game_end(record: &GameRecord) -> Result<(), GameRecordError> {
    let Err(e) = record.any_position(None) else { return Ok(()) };
    let SgfError::Move { number, color, mv, ref reason } = e else { return Err(e.into()) };
    let end = match *reason {
        PlayError::GameOver(winner) => GameEnd::Won(winner),
        PlayError::AfterResign(loser) => GameEnd::Resigned(loser),
        _ if number == record.moves.len() => return Ok(()),
        _ => return Err(e.into()),
    };
    Err(GameRecordError::AfterTheEnd { number, color, mv, end })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<(), String> {
        check_game_end(&sgf::parse(text).expect("sgf")).map_err(|e| e.to_string())
    }

    #[test]
    fn moves_after_the_end_are_named() {
        assert_eq!(check("(;SZ[2];B[a1];W[b1];B[a2])"), Ok(()));
        assert_eq!(
            check("(;SZ[2];B[a1];W[b1];B[a2];W[resign])"),
            Err("sgf move 4 (white resign): the game is over: black has won".to_owned())
        );
        assert_eq!(
            check("(;SZ[2];B[a1];W[b1];B[a2];W[b2])"),
            Err("sgf move 4 (white b2): the game is over: black has won".to_owned())
        );
        assert_eq!(check("(;SZ[3];B[a1];W[resign])"), Ok(()));
        assert_eq!(
            check("(;SZ[3];B[a1];W[resign];B[b2])"),
            Err("sgf move 3 (black b2): the game is over: white resigned".to_owned())
        );
        // Little Golem: the last resign is the loser's, after no win.
        let lg = "(;FF[4]SZ[13]SO[http://www.littlegolem.com];W[mf];B[swap];W[kj];B[ie];W[resign])";
        assert_eq!(check(lg), Ok(()));
    }
}
