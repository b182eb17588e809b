//! `loadsgf`: the position of an SGF game record, up to a move number, and the check that the
//! record is one game (no move after its end), shared with `nash`.

use nash_board::sgf::GameRecord;
use nash_board::{sgf, with_position, AnyPosition, Color, Move};

/// The position of the game in `text` just before move `move_number` (numbered from 1) is
/// played, as GTP's `loadsgf` defines it; the final position when `None`.
pub(crate) fn load(text: &str, move_number: Option<usize>) -> Result<AnyPosition, String> {
    let record = sgf::parse(text).map_err(|e| e.to_string())?;
    check_game_end(&record)?;
    record.any_position(move_number.map(|n| n.saturating_sub(1))).map_err(|e| e.to_string())
}

/// Checks that no move of `record` comes after the end of the game (a player connected, or a
/// `resign`); the error names the first such move, as `sgf move 5 (black c3): the game is
/// over: white has won`. A record that cannot be replayed gives the replay's error.
pub fn check_game_end(record: &GameRecord) -> Result<(), String> {
    let mut resigned: Option<Color> = None;
    for (k, &(color, mv)) in record.moves.iter().enumerate() {
        let end = match resigned {
            Some(loser) => Some(format!("{loser} resigned")),
            // Replaying the first k moves (and the setup between them) as the record says.
            None if k > 0 => {
                let pos = record.any_position(Some(k)).map_err(|e| e.to_string())?;
                with_position!(&pos, p => p.winner()).map(|w| format!("{w} has won"))
            }
            None => None,
        };
        if let Some(end) = end {
            return Err(format!("sgf move {} ({color} {mv}): the game is over: {end}", k + 1));
        }
        if mv == Move::Resign {
            resigned = Some(color);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<(), String> {
        check_game_end(&sgf::parse(text).expect("sgf"))
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
