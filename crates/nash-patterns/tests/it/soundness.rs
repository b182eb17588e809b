//! Soundness of fill-in and pruning against the minimax oracle: every reachable position of
//! the 3x3 and 4x4 boards, and random 5x5 positions with at most 12 empty cells.

use nash_board::{BitSet, Bitboard, Color, Position, Stop};
use nash_patterns::{Analysis, Config, Ice, PatternSet};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use nash_patterns::oracle::{Oracle, State};

/// Checks one position: (a) the value after fill-in equals the value before; (b) when the
/// player to move wins, a candidate (non-pruned) move wins, both in the filled position and in
/// the original one. Also checks `fill_in` on a copy of the position.
pub fn check(ice: &Ice<Bitboard>, o: &mut Oracle, pos: &Position<Bitboard>) -> Result<(), String> {
    check_analysis(o, pos, &ice.analyse(pos))
}

/// [`check`] of an analysis `a` of `pos` made by any means (a cut-short one included).
fn check_analysis(
    o: &mut Oracle,
    pos: &Position<Bitboard>,
    a: &Analysis<Bitboard>,
) -> Result<(), String> {
    let fail = |what: &str| Err(format!("{what}\n{pos}\nanalysis: {a:?}"));
    let s = o.state(pos);
    let to_move = pos.to_move();
    let v = o.value(s);
    if a.to_move != to_move {
        return fail("analysis changed the side to move");
    }
    if !(a.fill[0] | a.fill[1]).is_subset(pos.empty_cells()) || a.fill[0].intersects(a.fill[1]) {
        return fail("fill outside the empty cells");
    }
    let f = o.with_fill(pos, a.fill);
    let filled_winner = o.winner(f.black, f.white);
    if a.winner != filled_winner {
        return fail("reported winner differs from the filled position's");
    }
    if let Some(w) = a.winner {
        if w != v {
            return fail("fill-in decided the game for the wrong player");
        }
        return Ok(());
    }
    if o.value(f) != v {
        return fail("fill-in changed the value");
    }
    let empty_after = pos.empty_cells() - a.fill[0] - a.fill[1];
    if !a.candidates.is_subset(empty_after) || a.candidates.intersects(a.pruned()) {
        return fail("candidates are not empty unpruned cells");
    }
    if a.candidates | a.pruned() != empty_after {
        return fail("an empty cell is neither candidate nor pruned");
    }
    if v == to_move {
        let wins_in = |o: &mut Oracle, st: State| {
            a.candidates.iter().any(|c| !o.wins(o.child(st, o.index(c))))
        };
        if !wins_in(o, f) {
            return fail("no candidate wins the filled position");
        }
        if !wins_in(o, s) {
            return fail("no candidate wins the original position");
        }
    }
    Ok(())
}

/// Checks `fill_in` against `analyse` and the undo contract.
pub fn check_fill_in(ice: &Ice<Bitboard>, pos: &Position<Bitboard>) -> Result<(), String> {
    let a = ice.analyse(pos);
    let mut p = pos.clone();
    let r = ice.fill_in(&mut p);
    let fail = |what: &str| Err(format!("{what}\n{pos}"));
    if r.fill != a.fill {
        return fail("fill_in filled other cells than analyse reports");
    }
    if p.to_move() != pos.to_move() {
        return fail("fill_in changed the side to move");
    }
    if p.black() != pos.black() | a.fill[0] || p.white() != pos.white() | a.fill[1] {
        return fail("fill_in placed other stones");
    }
    if p.winner() != a.winner.or(pos.winner()) || r.winner != p.winner() {
        return fail("fill_in winner differs");
    }
    for _ in 0..r.steps {
        if !p.undo() {
            return fail("fewer undo steps than reported");
        }
    }
    if p != *pos || p.num_steps() != pos.num_steps() {
        return fail("undoing the reported steps does not restore the position");
    }
    Ok(())
}

/// Every position reachable from the empty board (play stops at a win), each checked once.
fn all_reachable(cols: usize, rows: usize, ice: &Ice<Bitboard>, fill_every: usize) -> usize {
    let mut o = Oracle::new(cols, rows);
    let mut seen = vec![0u64; 3usize.pow((cols * rows) as u32) / 64 + 1];
    let mut pos = Position::<Bitboard>::new(cols, rows).unwrap();
    let mut count = 0;
    fn rec(
        pos: &mut Position<Bitboard>,
        ice: &Ice<Bitboard>,
        o: &mut Oracle,
        seen: &mut [u64],
        count: &mut usize,
        fill_every: usize,
    ) {
        let s = o.state(pos);
        let key = base3(s, o.cols * o.rows);
        if seen[key / 64] >> (key % 64) & 1 != 0 {
            return;
        }
        seen[key / 64] |= 1 << (key % 64);
        *count += 1;
        if let Err(e) = check(ice, o, pos) {
            panic!("{e}");
        }
        if *count % fill_every == 0 {
            if let Err(e) = check_fill_in(ice, pos) {
                panic!("{e}");
            }
        }
        if pos.winner().is_some() {
            return;
        }
        for c in pos.empty_cells() {
            pos.play_unchecked(c);
            rec(pos, ice, o, seen, count, fill_every);
            pos.undo();
        }
    }
    rec(&mut pos, ice, &mut o, &mut seen, &mut count, fill_every);
    count
}

fn base3(s: State, n: usize) -> usize {
    let mut k = 0usize;
    for i in (0..n).rev() {
        k = k * 3 + (s.black >> i & 1) as usize + 2 * (s.white >> i & 1) as usize;
    }
    k
}

fn engine(cols: usize, rows: usize, config: Config) -> Ice<Bitboard> {
    Ice::new(nash_board::Geometry::get(cols, rows).unwrap(), &PatternSet::builtin(), config)
}

#[test]
fn every_reachable_3x3_position() {
    let n = all_reachable(3, 3, &engine(3, 3, Config::default()), 1);
    assert!(n > 1000, "{n}");
}

#[test]
fn every_reachable_3x3_position_other_dead_fill_and_single_pass() {
    for dead_fill in [Some(Color::Black), Some(Color::White)] {
        let cfg = Config { dead_fill, iterate: false, ..Config::default() };
        all_reachable(3, 3, &engine(3, 3, cfg), 7);
    }
}

#[test]
fn every_reachable_4x4_position() {
    let n = all_reachable(4, 4, &engine(4, 4, Config::default()), 97);
    assert!(n > 1_000_000, "{n}");
}

#[test]
fn every_reachable_3x4_and_4x3_position() {
    all_reachable(3, 4, &engine(3, 4, Config::default()), 13);
    all_reachable(4, 3, &engine(4, 3, Config::default()), 13);
}

/// A random position: `stones` stones placed alternately-ish, any side to move.
fn random_position(
    rng: &mut SmallRng,
    cols: usize,
    rows: usize,
    empties: usize,
) -> Position<Bitboard> {
    let mut pos = Position::<Bitboard>::new(cols, rows).unwrap();
    let mut cells: Vec<_> = pos.empty_cells().iter().collect();
    cells.shuffle(rng);
    let stones = cols * rows - empties;
    let skew: i32 = rng.gen_range(-1..=1);
    for (i, &c) in cells[..stones].iter().enumerate() {
        let color = if (i as i32 + skew.max(0)) % 2 == 0 { Color::Black } else { Color::White };
        pos.play_as(color, c).unwrap();
    }
    pos.set_to_move(if rng.gen_bool(0.5) { Color::Black } else { Color::White });
    pos
}

#[test]
fn random_5x5_positions() {
    let ice = engine(5, 5, Config::default());
    let mut o = Oracle::new(5, 5);
    let mut rng = SmallRng::seed_from_u64(0x5eed_0005);
    let mut checked = 0;
    while checked < 3000 {
        let empties = rng.gen_range(1..=12);
        let pos = random_position(&mut rng, 5, 5, empties);
        o.clear();
        if let Err(e) = check(&ice, &mut o, &pos) {
            panic!("{e}");
        }
        if checked % 10 == 0 {
            check_fill_in(&ice, &pos).unwrap();
        }
        checked += 1;
    }
}

#[test]
fn random_5x5_positions_each_feature_alone() {
    let features = [
        Config { dead: true, ..Config::NONE },
        Config { dead: true, one_sided: true, ..Config::NONE },
        Config { dead: true, dead_once_filled: true, ..Config::NONE },
        Config { dead: true, dead_once_filled: true, one_sided: true, ..Config::NONE },
        Config { captured: true, ..Config::NONE },
        Config { captured: true, captured_pairs: true, one_sided: true, ..Config::NONE },
        Config { dominated: true, kill_dominated: true, ..Config::NONE },
        Config { dominated: true, kill_dominated: true, one_sided: true, ..Config::NONE },
        Config { vulnerable: true, one_sided: true, ..Config::NONE },
        Config {
            captured: true,
            captured_pairs: true,
            vulnerable: true,
            iterate: true,
            ..Config::NONE
        },
        Config { captured_pairs: true, vulnerable: true, ..Config::NONE },
        Config { dominated: true, ..Config::NONE },
        Config { vulnerable: true, ..Config::NONE },
        Config {
            captured: true,
            captured_pairs: true,
            dominated: true,
            iterate: true,
            ..Config::NONE
        },
    ];
    let mut o = Oracle::new(5, 5);
    let mut rng = SmallRng::seed_from_u64(0x5eed_0006);
    for cfg in features {
        let ice = engine(5, 5, cfg);
        for _ in 0..300 {
            let empties = rng.gen_range(1..=11);
            let pos = random_position(&mut rng, 5, 5, empties);
            o.clear();
            if let Err(e) = check(&ice, &mut o, &pos) {
                panic!("{cfg:?}: {e}");
            }
        }
    }
}

#[test]
fn captures_of_one_colour_fill_only_that_colours_captures_and_stay_sound() {
    let mut rng = SmallRng::seed_from_u64(0x5eed_00c0);
    let mut o = Oracle::new(5, 5);
    for only in Color::ALL {
        let cfg = Config { captures_of: Some(only), dead_fill: Some(only), ..Config::default() };
        let ice = engine(5, 5, cfg);
        let (mut captured, mut checked) = (0, 0);
        while checked < 1000 {
            let empties = rng.gen_range(1..=12);
            let pos = random_position(&mut rng, 5, 5, empties);
            let a = ice.analyse(&pos);
            assert!(a.captured[(!only).index()].is_empty(), "{pos}");
            captured += a.captured[only.index()].len();
            o.clear();
            check(&ice, &mut o, &pos).unwrap();
            checked += 1;
        }
        assert!(captured > 0, "no {only} capture found");
    }
}

/// An analysis cut short by its stop at any point is sound: what it filled keeps the value,
/// and a winning move is still among the candidates. The stop fires at a chosen reading
/// ([`Stop::after_checks`]), so each run cuts at the same places.
#[test]
fn interrupted_analyses_are_sound() {
    let ice = engine(5, 5, Config::default());
    let mut o = Oracle::new(5, 5);
    let mut rng = SmallRng::seed_from_u64(62);
    let mut cut = 0;
    for _ in 0..1500 {
        let empties = rng.gen_range(1..=12);
        let pos = random_position(&mut rng, 5, 5, empties);
        o.clear();
        let a = ice.analyse_until(&pos, &Stop::after_checks(rng.gen_range(0..4)));
        cut += usize::from(a.interrupted);
        if let Err(e) = check_analysis(&mut o, &pos, &a) {
            panic!("cut short: {e}");
        }
    }
    assert!(cut > 300, "only {cut} analyses were cut short");
}

/// An already expired stop fills and prunes nothing on a 19x19 board: every empty cell stays
/// a candidate.
#[test]
fn an_expired_stop_ends_a_19x19_analysis_at_once() {
    let mut pos = nash_board::WidePosition::square(19).unwrap();
    for cell in ["j10", "k10", "a1", "s19", "b1"] {
        pos.play(cell.parse().unwrap()).unwrap();
    }
    let ice = Ice::shared(pos.geometry());
    let a = ice.analyse_until(&pos, &Stop::after_checks(1));
    assert!(a.interrupted && a.winner.is_none());
    assert!(a.fill[0].is_empty() && a.fill[1].is_empty());
    assert_eq!(a.candidates, pos.empty_cells());
    assert!(!ice.analyse(&pos).interrupted);
}
