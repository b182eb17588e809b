//! The shortest-path greedy player: the move that leaves the largest margin of the opponent's
//! shortest-path distance over ours (`eval/shortest.rs`), the baseline of Horrell et al. s.2.2.1
//! made to defend as well as attack.

use nash_board::{with_position, AnyPosition, BitSet, Move, Position};

use crate::eval::shortest;
use crate::player::{Choice, MoveBudget, Player};
use crate::swap;

/// Plays the best move by the shortest-path margin after it, looking no further.
#[derive(Debug)]
pub struct Greedy {
    swap: bool,
}

impl Greedy {
    /// A greedy player; `swap` lets it swap a first move (see `swap.rs`).
    pub fn new(swap: bool) -> Greedy {
        Greedy { swap }
    }
}

fn choose_on<B: BitSet>(pos: &Position<B>) -> Choice {
    let start = nash_board::clock::Instant::now();
    let me = pos.to_move();
    let Some(cell) = shortest::best_move(pos, me, pos.empty_cells(), |_| 0.0) else {
        return Choice::bare(Move::Resign);
    };
    let mut after = pos.clone();
    after.play_unchecked(cell);
    let d = |c| match shortest::distance(&after, c) {
        u32::MAX => 1_000.0,
        d => f64::from(d),
    };
    let value = if after.winner() == Some(me) { crate::eval::WIN } else { d(!me) - d(me) };
    Choice {
        mv: Move::Cell(cell),
        value: Some(value),
        pv: vec![cell],
        moves: Vec::new(),
        depth: 1,
        nodes: pos.empty_cells().len() as u64,
        elapsed: start.elapsed(),
    }
}

impl Player for Greedy {
    fn spec(&self) -> String {
        format!("greedy:swap={}", self.swap)
    }

    fn choose(&mut self, pos: &AnyPosition, _budget: &MoveBudget) -> Choice {
        let choice = with_position!(pos, p => {
            if p.winner().is_some() {
                Choice::bare(Move::Resign)
            } else {
                choose_on(p)
            }
        });
        swap::rule(pos, self.swap, choice)
    }
}
