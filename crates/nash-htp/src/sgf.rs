//! `loadsgf`: the position of an SGF game record, up to a move number.

use nash_board::{sgf, AnyPosition};

/// The position of the game in `text` just before move `move_number` (numbered from 1) is
/// played, as GTP's `loadsgf` defines it; the final position when `None`.
pub(crate) fn load(text: &str, move_number: Option<usize>) -> Result<AnyPosition, String> {
    let record = sgf::parse(text).map_err(|e| e.to_string())?;
    record.any_position(move_number.map(|n| n.saturating_sub(1))).map_err(|e| e.to_string())
}
