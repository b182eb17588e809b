//! The board against testdata/solved.tsv: every line's moves replay on both widths, and a plain
//! negamax over `play`/`undo`/`winner` (no Hex knowledge at all) reproduces the winner and the
//! exact winning sets of the 3×3 and 4×4 lines. The solvers proper are checked against the whole
//! file in nash-search; this guards the board they stand on.

use std::collections::HashMap;

use nash_board::{BitSet, Bitboard, Color, MoveList, Position, TinyBitboard, WideBitboard};

struct Line {
    size: usize,
    moves: MoveList,
    to_move: Color,
    winner: Color,
    winning: Option<Vec<String>>,
}

fn lines() -> Vec<Line> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/solved.tsv");
    let text = std::fs::read_to_string(path).expect("testdata/solved.tsv is readable");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 5, "short line {l:?}");
            Line {
                size: f[0].parse().expect("size"),
                moves: f[1].parse().expect("moves"),
                to_move: f[2].parse().expect("to_move"),
                winner: f[3].parse().expect("winner"),
                winning: match f[4] {
                    "?" => None,
                    "-" => Some(Vec::new()),
                    s => Some(s.split_whitespace().map(str::to_owned).collect()),
                },
            }
        })
        .collect()
}

fn replay<B: BitSet>(line: &Line) -> Position<B> {
    let mut pos = Position::<B>::square(line.size).unwrap();
    line.moves.play_on(&mut pos).unwrap();
    assert_eq!(pos.to_move(), line.to_move, "{}", line.moves);
    assert_eq!(pos.winner(), None, "{}: the game is not over", line.moves);
    pos
}

#[test]
fn every_line_replays_on_every_width() {
    let all = lines();
    assert!(all.len() > 100);
    for line in &all {
        let wide = replay::<WideBitboard>(line);
        if line.size <= 11 {
            let small = replay::<Bitboard>(line);
            assert_eq!(small.hash(), wide.hash());
            assert_eq!(small.to_string(), wide.to_string());
        }
        if line.size <= TinyBitboard::STRIDE {
            let tiny = replay::<TinyBitboard>(line);
            assert_eq!(tiny.hash(), wide.hash());
            assert_eq!(tiny.to_string(), wide.to_string());
            assert_eq!(tiny.winner(), wide.winner());
        }
        if let Some(w) = &line.winning {
            for cell in w {
                assert!(
                    wide.empty_cells().contains(cell.parse().unwrap()),
                    "{cell} in {}",
                    line.moves
                );
            }
            assert_eq!(w.is_empty(), line.winner != line.to_move, "{}", line.moves);
        }
    }
}

/// Whether the side to move wins, by exhaustive negamax with a table keyed by the canonical
/// hash (images under the symmetries share a value). Central cells are tried first, which
/// finds wins sooner; the answer does not depend on the order.
fn wins(pos: &mut Position<Bitboard>, table: &mut HashMap<u64, bool>) -> bool {
    if let Some(w) = pos.winner() {
        return w == pos.to_move();
    }
    if let Some(&v) = table.get(&pos.canonical_hash()) {
        return v;
    }
    let n = pos.cols() as i32 - 1;
    let mut cells: Vec<_> = pos.empty_cells().iter().collect();
    cells.sort_by_key(|c| (2 * c.col() as i32 - n).abs() + (2 * c.row() as i32 - n).abs());
    let mut result = false;
    for cell in cells {
        pos.play_unchecked(cell);
        let opponent_wins = wins(pos, table);
        pos.undo();
        if !opponent_wins {
            result = true;
            break;
        }
    }
    table.insert(pos.canonical_hash(), result);
    result
}

#[test]
fn brute_force_agrees_on_small_boards() {
    let mut table = HashMap::new();
    let mut checked = 0;
    for line in lines().iter().filter(|l| l.size <= 4) {
        let mut pos = replay::<Bitboard>(line);
        let to_move_wins = wins(&mut pos, &mut table);
        assert_eq!(to_move_wins, line.winner == line.to_move, "{}", line.moves);
        if let Some(expected) = &line.winning {
            let mut found = Vec::new();
            for cell in pos.empty_cells() {
                pos.play_unchecked(cell);
                if !wins(&mut pos, &mut table) {
                    found.push(cell.to_string());
                }
                pos.undo();
            }
            assert_eq!(&found, expected, "winning moves after {}", line.moves);
        }
        checked += 1;
    }
    assert_eq!(checked, 27);
}
