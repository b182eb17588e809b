//! The players `genmove` can use: every player of nash-play's registry, plus `vc-greedy`, the
//! move choice `genmove` made before nash-play had players. The default,
//! [`DEFAULT_PLAYER`], is nash-play's `best`, which beat `vc-greedy` 11-3 on 9x9 at a second a
//! move (docs/players.md).

use std::time::Instant;

use nash_board::{with_position, AnyPosition, BitSet, Cell, Move, Position};
use nash_play::eval::shortest;
use nash_play::{Choice, MoveBudget, Player, PlayerInfo, Spec, SpecError};
use nash_vc::{HSearchConfig, VcBuilder};

/// The player `nash htp`, `nash genmove` and `nash play` use when no `--player` is given.
/// One constant, so that the default moves to a stronger player by changing one line.
pub const DEFAULT_PLAYER: &str = "best";

/// The players defined here rather than in nash-play's registry.
const LOCAL: &[PlayerInfo] = &[PlayerInfo {
    name: "vc-greedy",
    about: "H-search's winning key, else the mustplay cell with the best H-score, ties by shortest path (no settings)",
}];

/// The largest board (in cells) on which `vc-greedy` builds virtual connections: beyond 11×11
/// one connection build alone takes longer than a move should, so larger boards get the
/// shortest-path heuristic only.
const VC_MAX_CELLS: usize = 121;

/// Every player `build` knows: nash-play's, then the ones defined here.
pub fn players() -> Vec<PlayerInfo> {
    nash_play::players().iter().chain(LOCAL).copied().collect()
}

/// Builds the player `spec` names (`name` or `name:key=value,...`); the errors name the bad
/// part of the spec.
pub fn build(spec: &str) -> Result<Box<dyn Player>, SpecError> {
    let parsed: Spec = spec.parse()?;
    if parsed.name == "vc-greedy" {
        if let Some((key, _)) = parsed.settings.first() {
            return Err(SpecError::UnknownSetting {
                player: parsed.name.clone(),
                key: key.clone(),
                known: String::new(),
            });
        }
        return Ok(Box::new(VcGreedy));
    }
    nash_play::build(spec).map_err(|e| match e {
        // Name every player there is, not only the registry's.
        SpecError::UnknownPlayer { name, .. } => SpecError::UnknownPlayer {
            name,
            known: players().iter().map(|p| p.name).collect::<Vec<_>>().join(", "),
        },
        e => e,
    })
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_build_or_name_what_is_wrong() {
        assert_eq!(build("vc-greedy").unwrap().spec(), "vc-greedy");
        assert!(build(DEFAULT_PLAYER).unwrap().spec().starts_with(DEFAULT_PLAYER));
        assert!(build("random:seed=3").is_ok());
        let e = build("nobody").unwrap_err().to_string();
        assert!(e.contains("unknown player 'nobody'") && e.contains("vc-greedy"), "{e}");
        let e = build("vc-greedy:depth=3").unwrap_err().to_string();
        assert!(e.contains("'depth'"), "{e}");
    }
}
