//! The players' shared swap rule: when the position is Black's single opening stone with
//! White to move, a player may take the stone over instead of answering it.
//!
//! The rule compares the two ways on: answering, worth `v` to the player (its searched value
//! of the position for White to move, the best reply included), or swapping sides, after
//! which the opponent faces that same position with White, so the swapper's value is `-v`.
//! The player swaps when `-v > v`, that is when the position is worse than even for the side
//! to move. It is off unless the player's `swap` setting is on, since a game without the swap
//! rule refuses the answer.

use nash_board::{AnyPosition, Move};

use crate::player::Choice;

/// `choice` for `pos`, or a swap instead when `enabled`, the swap is legal and the rule says so.
pub(crate) fn rule(pos: &AnyPosition, enabled: bool, choice: Choice) -> Choice {
    if !enabled || pos.clone().apply(Move::SwapSides).is_err() {
        return choice;
    }
    match choice.value {
        Some(v) if v < 0.0 => {
            Choice { mv: Move::SwapSides, value: Some(-v), pv: Vec::new(), ..choice }
        }
        _ => choice,
    }
}
