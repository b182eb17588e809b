//! The principal variation: legal moves, the winner's moves keep the win, the game ends won.

use std::sync::Arc;

use nash_board::{Bitboard, Position};
use nash_search::{principal_variation, solve, Progress, SolverConfig, SolverKind, SolverTable};

use crate::support::solved_up_to;

/// Plays `line` from `pos` and checks it against the solver: every move legal, the winner's
/// moves leave the opponent lost, and the line ends with the winner connected.
fn check_line(pos: &Position<Bitboard>, line: &[nash_board::Cell], label: &str) {
    let cfg = SolverConfig::default();
    let winner = solve(pos, &cfg).outcome.winner(pos.to_move()).expect("solved");
    assert!(line.len() <= pos.empty_cells().len(), "{label}: too long");
    let mut p = pos.clone();
    for &m in line {
        let mover = p.to_move();
        p.play(m).unwrap_or_else(|e| panic!("{label}: {m} illegal: {e}"));
        if mover == winner && p.winner().is_none() {
            assert_eq!(solve(&p, &cfg).outcome.wins(), Some(false), "{label}: {m} threw the win");
        }
    }
    assert_eq!(p.winner(), Some(winner), "{label}: the line ends undecided");
}

#[test]
fn lines_of_the_small_boards_are_won_to_the_end() {
    for s in solved_up_to(5).iter().step_by(7) {
        let pos = s.position();
        let line = principal_variation(&pos, &SolverConfig::default());
        check_line(&pos, &line, &format!("{}x{} {}", s.size, s.size, s.moves));
    }
}

#[test]
fn a_kept_table_gives_a_line_after_its_solve() {
    let cfg = SolverConfig::default();
    let mut table = SolverTable::new();
    for moves in ["c3", "a1", "b4 c2"] {
        let mut pos = Position::<Bitboard>::square(5).unwrap();
        moves.parse::<nash_board::MoveList>().unwrap().play_on(&mut pos).unwrap();
        table.solve(&pos, &cfg);
        let line = table.principal_variation(&pos, &cfg);
        check_line(&pos, &line, moves);
    }
}

#[test]
fn every_solver_gives_a_line() {
    let pos = Position::<Bitboard>::square(4).unwrap();
    for kind in SolverKind::ALL {
        let cfg = SolverConfig { kind, ..SolverConfig::default() };
        check_line(&pos, &principal_variation(&pos, &cfg), kind.name());
    }
}

#[test]
fn a_spent_budget_cuts_the_line_short() {
    let progress = Arc::new(Progress::new());
    let mut cfg = SolverConfig { progress: Some(progress.clone()), ..SolverConfig::default() };
    cfg.budget.nodes = Some(1);
    let pos = Position::<Bitboard>::square(7).unwrap();
    assert!(principal_variation(&pos, &cfg).is_empty());
    assert!(progress.nodes() <= 1);
    let won = {
        let mut p = Position::<Bitboard>::square(3).unwrap();
        for m in ["a1", "b1", "a2", "b2", "a3"] {
            p.play(m.parse().unwrap()).unwrap();
        }
        p
    };
    assert!(won.winner().is_some());
    assert!(principal_variation(&won, &SolverConfig::default()).is_empty());
}
