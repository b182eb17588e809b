//! `vc-greedy`, the move choice `genmove` made before the game-tree players: H-search's winning
//! key, else the mustplay cell with the best H-score. `best` beat it 11-3 on 9x9 at a second a
//! move (docs/players.md).

use nash_board::clock::Instant;

use nash_board::{with_position, AnyPosition, BitSet, Cell, Move, Position};
use nash_vc::{HSearchConfig, VcBuilder};

use crate::eval::shortest;
use crate::player::{Choice, MoveBudget, Player};

/// The largest board (in cells) on which `vc-greedy` builds virtual connections: beyond 11×11
/// one connection build alone takes longer than a move should, so larger boards get the
/// shortest-path heuristic only.
const VC_MAX_CELLS: usize = 121;

/// Nash's first move choice, from the solver's knowledge rather than a game-tree search: on
/// boards up to 11×11 it builds both players' virtual connections (H-search) and plays the
/// key of a winning semi connection if there is one, else the cell of the mustplay with the
/// best H-score (Chen 2025 s.5.7); ties, and larger boards, go to the shortest-path margin
/// (opponent's distance minus ours after the move), then to nearness to the centre.
#[derive(Debug, Clone, Copy, Default)]
pub struct VcGreedy;

impl Player for VcGreedy {
    fn spec(&self) -> String {
        "vc-greedy".to_owned()
    }

    fn choose(&mut self, pos: &AnyPosition, _budget: &MoveBudget) -> Choice {
        let start = Instant::now();
        let mv = with_position!(pos, p => vc_greedy(p));
        let mut choice = Choice::bare(mv.map_or(Move::Resign, Move::Cell));
        choice.pv.extend(mv);
        choice.elapsed = start.elapsed();
        choice
    }
}

fn vc_greedy<B: BitSet>(p: &Position<B>) -> Option<Cell> {
    if p.winner().is_some() {
        return None;
    }
    let color = p.to_move();
    let mut moves = p.empty_cells();
    let mut vc = VcBuilder::new(HSearchConfig::default());
    if p.cols() * p.rows() <= VC_MAX_CELLS {
        vc.build(p);
        if let Some(key) = vc.win_now().and_then(|w| w.key) {
            return Some(key);
        }
        let mustplay = vc.mustplay();
        if !mustplay.is_empty() {
            moves = mustplay;
        }
    }
    let scored = vc.geometry().is_some();
    let score = |c: Cell| if scored { vc.h_score(color, c) } else { 0.0 };
    shortest::best_move(p, color, moves, score)
}
