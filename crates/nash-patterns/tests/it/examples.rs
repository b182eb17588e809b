//! Worked examples: the 4x4 board of Chen 2025 s.3.3, fill-in that wins, dead corners, reports.

use nash_board::{bitboard, BitSet, Bitboard, Color, Geometry, Position};
use nash_patterns::{Config, Ice, PatternSet, Report};

fn position(moves: &str, size: usize) -> Position<Bitboard> {
    let mut p = Position::square(size).unwrap();
    moves.parse::<nash_board::MoveList>().unwrap().play_on(&mut p).unwrap();
    p
}

fn ice(size: usize, set: &PatternSet) -> Ice<Bitboard> {
    Ice::new(Geometry::get(size, size).unwrap(), set, Config::default())
}

fn ice_with(size: usize, set: &PatternSet, config: Config) -> Ice<Bitboard> {
    Ice::new(Geometry::get(size, size).unwrap(), set, config)
}

/// Chen 2025 s.3.3: on the empty 4x4 board the inferior pattern of Figure 3.3 matches twice at
/// the top and twice at the bottom, and Black's first-move candidates shrink from 16 to 8.
#[test]
fn empty_4x4_figure_3_3_prunes_to_eight() {
    let thesis = Config { vulnerable: false, ..Config::default() };
    let a = ice_with(4, &PatternSet::figure_3_3(), thesis).analyse(&position("-", 4));
    assert_eq!(a.candidates, bitboard![a2 b2 c2 d2 a3 b3 c3 d3], "{a:?}");
    assert_eq!(a.dominated, bitboard![a1 b1 c1 d1 a4 b4 c4 d4]);
    assert_eq!(a.fill, [Bitboard::EMPTY; 2]);
}

/// With the whole shipped set and every feature the empty 4x4 board keeps the same eight
/// candidates. The acute corners are now found vulnerable first (a White stone on a2 kills a1:
/// a1's remaining neighbours b1 and the north edge touch, and a2 joins b1 to the west edge),
/// so they are pruned as vulnerable rather than dominated; the other patterns need stones.
#[test]
fn empty_4x4_builtin_prunes_to_eight() {
    let a = ice(4, &PatternSet::builtin()).analyse(&position("-", 4));
    assert_eq!(a.candidates, bitboard![a2 b2 c2 d2 a3 b3 c3 d3], "{a:?}");
    assert_eq!(a.vulnerable, bitboard![a1 d4]);
}

#[test]
fn dominators_are_kept() {
    let a = ice(4, &PatternSet::builtin()).analyse(&position("-", 4));
    for c in a.dominated {
        let d = a.dominator(c).unwrap();
        assert!(a.candidates.contains(d), "{c} dominated by pruned {d}");
    }
}

/// A Black stone on b2 of the 3x3 board captures b1 c1 towards the north and a3 b3 towards
/// the south: the fill joins Black's edges.
#[test]
fn fill_completes_a_connection() {
    let e = ice(3, &PatternSet::builtin());
    let mut p = position("b2", 3);
    assert_eq!(p.to_move(), Color::White);
    let a = e.analyse(&p);
    assert_eq!(a.winner, Some(Color::Black));
    let want: Bitboard = bitboard![b1 c1 a3 b3];
    assert!(want.is_subset(a.fill[0]), "{a:?}");
    let r = e.fill_in(&mut p);
    assert_eq!(p.winner(), Some(Color::Black));
    assert_eq!(r.winner, Some(Color::Black));
    assert_eq!(p.to_move(), Color::White);
    for _ in 0..r.steps {
        assert!(p.undo());
    }
    assert_eq!(p, position("b2", 3));
}

/// a1 is dead once b1 is Black (three Black neighbours in a row: b1 and the north edge, two
/// White ones: the west edge).
#[test]
fn acute_corner_is_dead() {
    let mut p = position("-", 5);
    p.setup(Color::Black, bitboard![b1]);
    p.set_to_move(Color::White);
    let e = ice(5, &PatternSet::builtin());
    let a = e.analyse(&p);
    assert!(a.dead.contains("a1".parse().unwrap()), "{a:?}");
    let rule = a.rule("a1".parse().unwrap()).unwrap();
    assert_eq!(e.rule_name(rule), "neighbourhood-clique");
}

#[test]
fn nothing_on_a_won_position() {
    let mut p = position("-", 3);
    p.setup(Color::Black, bitboard![a1 a2 a3]);
    let a = ice(3, &PatternSet::builtin()).analyse(&p);
    assert_eq!(a.winner, Some(Color::Black));
    assert_eq!(a.fill, [Bitboard::EMPTY; 2]);
    assert_eq!(a.candidates, Bitboard::EMPTY);
}

#[test]
fn config_none_changes_nothing() {
    let p = position("c3 b4 d2", 5);
    let e = Ice::new(Geometry::get(5, 5).unwrap(), &PatternSet::builtin(), Config::NONE);
    let a = e.analyse(&p);
    assert_eq!(a.candidates, p.empty_cells());
    assert_eq!(a.fill, [Bitboard::EMPTY; 2]);
}

#[test]
fn report_serializes_findings() {
    let thesis = Config { vulnerable: false, ..Config::default() };
    let e = ice_with(4, &PatternSet::figure_3_3(), thesis);
    let a = e.analyse(&position("-", 4));
    let r = Report::new(&e, &a);
    assert_eq!(r.candidates.len(), 8);
    let a1 = r.findings.iter().find(|f| f.cell == "a1").unwrap();
    assert_eq!(a1.class, "dominated");
    assert_eq!(a1.rule, "fig3.3-inferior");
    assert_eq!(a1.by.as_deref(), Some("a2"));
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.contains("\"class\":\"dominated\""), "{json}");
}

/// Without any pattern, the neighbourhood test alone finds the two edge bridges of b2 on 3x3.
#[test]
fn pair_captures_need_no_pattern() {
    let e = ice(3, &PatternSet::default());
    let a = e.analyse(&position("b2", 3));
    assert_eq!(a.winner, Some(Color::Black), "{a:?}");
    let b1 = a.rule("b1".parse().unwrap()).unwrap();
    assert_eq!(e.rule_name(b1), "captured-pair-clique");
}

/// An interior bridge with a Black stone beside each carrier cell (bridge-capture-z) is filled.
#[test]
fn interior_bridge_capture() {
    let mut p = position("-", 6);
    p.setup(Color::Black, bitboard![c3 d4 d2 c5]);
    p.setup(Color::White, bitboard![a1]);
    let e = ice(6, &PatternSet::builtin());
    let a = e.analyse(&p);
    let pair: Bitboard = bitboard![d3 c4];
    assert!(pair.is_subset(a.captured[0]), "{a:?}");
}

/// The wide bitboard gives the same analysis as the small one.
#[test]
fn wide_and_small_boards_agree() {
    use nash_board::WideBitboard;
    let moves = "f6 e7 d8 g4 c3 h2 i9 b10 e5 f5 k1 a11 c9 c10 h7 g8"
        .parse::<nash_board::MoveList>()
        .unwrap();
    let mut small = Position::<Bitboard>::square(11).unwrap();
    let mut wide = Position::<WideBitboard>::square(11).unwrap();
    moves.play_on(&mut small).unwrap();
    moves.play_on(&mut wide).unwrap();
    let a = Ice::<Bitboard>::for_size(11, 11).unwrap().analyse(&small);
    let b = Ice::<WideBitboard>::for_size(11, 11).unwrap().analyse(&wide);
    let names = |s: &mut dyn Iterator<Item = nash_board::Cell>| {
        s.map(|c| c.to_string()).collect::<Vec<_>>()
    };
    assert_eq!(names(&mut a.candidates.iter()), names(&mut b.candidates.iter()));
    assert_eq!(names(&mut a.fill[0].iter()), names(&mut b.fill[0].iter()));
    assert_eq!(names(&mut a.fill[1].iter()), names(&mut b.fill[1].iter()));
    assert_eq!(names(&mut a.pruned().iter()), names(&mut b.pruned().iter()));
    assert!(a.pruned().len() + (a.fill[0] | a.fill[1]).len() > 0, "{a:?}");
}

/// A 19x19 board works end to end.
#[test]
fn nineteen_by_nineteen() {
    use nash_board::WideBitboard;
    let mut p = Position::<WideBitboard>::square(19).unwrap();
    "j10 k11 b2 s18".parse::<nash_board::MoveList>().unwrap().play_on(&mut p).unwrap();
    let e = Ice::<WideBitboard>::for_size(19, 19).unwrap();
    let a = e.analyse(&p);
    assert!(a.candidates.len() > 300);
    let r = e.fill_in(&mut p);
    for _ in 0..r.steps {
        p.undo();
    }
    assert_eq!(p.num_steps(), 4);
}

/// On random positions every dominated cell's chain of dominators ends at a candidate, so two
/// cells that dominate each other are never both pruned.
#[test]
fn dominator_chains_end_at_candidates() {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    for n in [5, 6, 8] {
        let e = Ice::<Bitboard>::for_size(n, n).unwrap();
        for _ in 0..300 {
            let mut p = Position::<Bitboard>::square(n).unwrap();
            let mut cells: Vec<_> = p.empty_cells().iter().collect();
            cells.shuffle(&mut rng);
            for &c in &cells[..n * n / 3] {
                p.play_unchecked(c);
            }
            let a = e.analyse(&p);
            for c in a.dominated {
                let mut d = c;
                let mut steps = 0;
                while a.dominated.contains(d) {
                    d = a.dominator(d).unwrap();
                    steps += 1;
                    assert!(steps <= n * n, "dominator cycle from {c}\n{p}");
                }
                assert!(a.candidates.contains(d), "chain from {c} ends at pruned {d}\n{p}");
            }
        }
    }
}
