//! Canonical keys: a position and its images share one key, and what is stored for one is
//! mapped correctly onto the others (moves and carriers through the symmetry).

use nash_board::{BitSet, Bitboard, Cell, Color, Position};
use nash_db::{Db, Key};
use nash_search::{Outcome, SolverConfig};
use proptest::prelude::*;

use crate::support::TempPath;

/// A position of `cols`×`rows` from a state per cell (0 empty, 1 black, 2 white) and a side to
/// move.
fn build(cols: usize, rows: usize, states: &[u8], white: bool) -> Position<Bitboard> {
    let mut p = Position::new(cols, rows).expect("size");
    let (mut b, mut w) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for (i, &s) in states.iter().take(cols * rows).enumerate() {
        let c = Cell::at((i % cols) as u8, (i / cols) as u8);
        match s {
            1 => b.insert(c),
            2 => w.insert(c),
            _ => {}
        }
    }
    p.setup(Color::Black, b);
    p.setup(Color::White, w);
    p.set_to_move(if white { Color::White } else { Color::Black });
    p
}

fn board() -> impl Strategy<Value = (usize, usize, Vec<u8>, bool, u64)> {
    (2usize..=7, 2usize..=7, any::<bool>(), any::<bool>(), any::<u64>()).prop_flat_map(
        |(cols, rows, square, white, seed)| {
            let rows = if square { cols } else { rows };
            (
                Just(cols),
                Just(rows),
                proptest::collection::vec(0u8..3, cols * rows),
                Just(white),
                Just(seed),
            )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every image has the key of the position; a stored move and carrier come back as the
    /// images of the stored ones, and the key's own position has the key too.
    #[test]
    fn images_share_a_key_and_answers_map_back((cols, rows, states, white, seed) in board()) {
        let p = build(cols, rows, &states, white);
        let (key, _) = Key::of(&p);
        let canon = key.position();
        let (again, _) = nash_board::with_position!(&canon, c => Key::of(c));
        prop_assert_eq!(&again, &key);
        let empty: Vec<Cell> = p.empty_cells().iter().collect();
        prop_assume!(!empty.is_empty());
        let mv = empty[(seed as usize) % empty.len()];
        let carrier: Bitboard =
            empty.iter().enumerate().filter(|(i, _)| seed >> (i % 64) & 1 == 1).map(|(_, &c)| c).collect();
        let carrier = carrier.with(mv);
        let tmp = TempPath::new("sym");
        let mut db = Db::open(tmp.path()).expect("open");
        db.put(&p, &Outcome::Win { winning_move: Some(mv), carrier }, 3).expect("put");
        let geom = p.geometry();
        for &sym in geom.symmetries() {
            let image = p.transformed(sym);
            prop_assert_eq!(&Key::of(&image).0, &key, "{:?}", sym);
            let got = db.get(&image).expect("stored under the image's key");
            prop_assert!(got.wins);
            // A position that is its own image under some symmetry may be answered through
            // either: the answer must be the image of the stored one under a symmetry that
            // maps the position onto this image.
            let same = |q: &Position<Bitboard>| {
                q.black() == image.black() && q.white() == image.white() && q.to_move() == image.to_move()
            };
            let fits = geom.symmetries().iter().any(|&t| {
                same(&p.transformed(t))
                    && got.winning_move == Some(geom.map_cell(t, mv))
                    && got.carrier == Some(geom.map_set(t, carrier))
            });
            prop_assert!(fits, "{:?}: {:?}", sym, got);
        }
    }
}

/// Real answers: each 4×4 opening solved and stored, then every image of it asked: the move
/// read back wins there, by the solver's own account.
#[test]
fn a_stored_winning_move_wins_on_every_image() {
    let cfg = SolverConfig::default();
    let tmp = TempPath::new("real");
    let mut db = Db::open(tmp.path()).expect("open");
    let empty = Position::<Bitboard>::square(4).expect("size");
    for first in empty.empty_cells().iter() {
        let mut p = empty.clone();
        p.play(first).expect("legal");
        for second in p.empty_cells().iter() {
            let mut q = p.clone();
            q.play(second).expect("legal");
            let (r, _) = nash_db::solve(&mut db, &q, &cfg).expect("solve");
            let wins = r.outcome.wins().expect("decided");
            for &sym in q.geometry().symmetries() {
                let image = q.transformed(sym);
                let got = nash_db::lookup(&db, &image).expect("stored");
                assert_eq!(got.outcome.wins(), Some(wins));
                if let Outcome::Win { winning_move: Some(m), .. } = got.outcome {
                    let mut after = image.clone();
                    after.play(m).expect("the mapped move is legal");
                    let reply = nash_search::solve(&after, &cfg);
                    assert_eq!(reply.outcome.wins(), Some(false), "{image:?} {m}");
                }
            }
        }
    }
}
