//! The random player: a uniformly random empty cell, the baseline every player must beat.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use nash_board::{with_position, AnyPosition, BitSet, Move};

use crate::player::{Choice, MoveBudget, Player};

/// Plays a uniformly random empty cell, reproducibly from its seed.
#[derive(Debug)]
pub struct RandomPlayer {
    seed: u64,
    rng: SmallRng,
}

impl RandomPlayer {
    /// A random player drawing from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { seed, rng: SmallRng::seed_from_u64(seed) }
    }
}

impl Player for RandomPlayer {
    fn spec(&self) -> String {
        format!("random:seed={}", self.seed)
    }

    fn choose(&mut self, pos: &AnyPosition, _budget: &MoveBudget) -> Choice {
        let cell = with_position!(pos, p => {
            let empty = p.empty_cells();
            let n = empty.len();
            if n == 0 {
                None
            } else {
                empty.iter().nth(self.rng.gen_range(0..n))
            }
        });
        Choice::bare(cell.map_or(Move::Resign, Move::Cell))
    }

    fn new_game(&mut self) {
        self.rng = SmallRng::seed_from_u64(self.seed);
    }
}
