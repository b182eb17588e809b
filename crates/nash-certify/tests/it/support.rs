//! Reading the ground truth file, and random positions.

use std::path::PathBuf;

use nash_board::{BitSet, Bitboard, Color, MoveList, Position};

/// One line of testdata/solved.tsv.
#[derive(Clone, Debug)]
pub struct Solved {
    pub size: usize,
    pub moves: String,
    pub to_move: Color,
    pub winner: Color,
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
            Solved {
                size: f[0].parse().expect("size"),
                moves: f[1].to_string(),
                to_move: f[2].parse().expect("colour"),
                winner: f[3].parse().expect("colour"),
            }
        })
        .collect()
}

/// Positions of the ground truth up to `max` cells a side.
pub fn solved_up_to(max: usize) -> Vec<Solved> {
    solved().into_iter().filter(|s| s.size <= max).collect()
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
