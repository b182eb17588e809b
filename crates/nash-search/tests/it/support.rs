//! Reading the ground truth file and running one check per position.

use std::path::PathBuf;

use nash_board::{BitSet, Bitboard, CellList, Color, MoveList, Position};
use nash_search::{solve, Outcome, SolverConfig};
use proptest::prelude::*;

/// One line of testdata/solved.tsv.
#[derive(Clone, Debug)]
pub struct Solved {
    pub size: usize,
    pub moves: String,
    pub to_move: Color,
    pub winner: Color,
    /// `None` when the file says `?`.
    pub winning: Option<Bitboard>,
}

impl Solved {
    pub fn position(&self) -> Position<Bitboard> {
        let mut p = Position::square(self.size).expect("size in range");
        if self.moves != "-" {
            let list: MoveList = self.moves.parse().expect("valid moves");
            list.play_on(&mut p).expect("legal moves");
        }
        assert_eq!(p.to_move(), self.to_move, "{}", self.moves);
        p
    }
}

pub fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(name)
}

/// Every line of solved.tsv.
pub fn solved() -> Vec<Solved> {
    let text = std::fs::read_to_string(testdata("solved.tsv")).expect("solved.tsv readable");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let winning = match f[4] {
                "?" => None,
                "-" => Some(Bitboard::EMPTY),
                s => Some(s.parse::<CellList<Bitboard>>().expect("cells").0),
            };
            Solved {
                size: f[0].parse().expect("size"),
                moves: f[1].to_string(),
                to_move: f[2].parse().expect("colour"),
                winner: f[3].parse().expect("colour"),
                winning,
            }
        })
        .collect()
}

/// Positions of the ground truth up to `max` cells a side.
pub fn solved_up_to(max: usize) -> Vec<Solved> {
    solved().into_iter().filter(|s| s.size <= max).collect()
}

/// Board-order names of a set, for messages.
pub fn names<B: BitSet>(set: B) -> String {
    CellList(set).to_string()
}

/// A position of `n`x`n` reached by playing, for each index, the empty cell it picks (modulo
/// the empty cells left), stopping at a win.
pub fn random_position(n: usize, cells: &[usize]) -> Position<Bitboard> {
    let mut p: Position<Bitboard> = Position::square(n).expect("size");
    for &i in cells {
        let empty: Vec<_> = p.empty_cells().iter().collect();
        if empty.is_empty() || p.winner().is_some() {
            break;
        }
        p.play_unchecked(empty[i % empty.len()]);
    }
    p
}

/// Solves `p` with `c` and checks the carrier of the result, a threat pattern: with the loser
/// on every empty cell outside it, the winner still wins, as a solve with `check(q)` of that
/// filled position `q` finds.
pub fn check_carrier(
    p: &Position<Bitboard>,
    c: &SolverConfig,
    check: impl Fn(&Position<Bitboard>) -> SolverConfig,
) -> Result<(), TestCaseError> {
    let (win, carrier) = match solve(p, c).outcome {
        Outcome::Win { carrier, .. } => (true, carrier),
        Outcome::Loss { carrier } => (false, carrier),
        Outcome::Unknown { .. } => return Err(TestCaseError::fail(format!("unknown on {p}"))),
    };
    let winner = if win { p.to_move() } else { !p.to_move() };
    let mut q = p.clone();
    q.fill(!winner, q.empty_cells() - carrier);
    let holds = match q.winner() {
        Some(w) => w == winner,
        None => solve(&q, &check(&q)).outcome.wins() == Some(win),
    };
    prop_assert!(holds, "carrier {:?} of {}", carrier, p);
    Ok(())
}
