//! The seeds' worked examples.

use nash_board::{Bitboard, Cell, Color, MoveList, Position, SmallPosition};
use nash_vc::{HSearchConfig, VcBuilder};

fn position(n: usize, moves: &str) -> SmallPosition {
    let mut pos = SmallPosition::square(n).unwrap();
    let list: MoveList = moves.parse().unwrap();
    list.play_on(&mut pos).unwrap();
    pos
}

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

/// Chen 2025 Figure 1.3: on 4×4, the black stone at b3 is safely joined to both edges, so
/// Black wins as the second player.
#[test]
fn figure_1_3_b3_joins_both_edges() {
    let pos = position(4, "b3");
    for config in [HSearchConfig::default(), HSearchConfig::thesis_base()] {
        let mut vc = VcBuilder::new(config);
        vc.build(&pos);
        let full = |x: &str, y: &str| {
            vc.connections(Color::Black, cell(x), cell(y))
                .any(|c| c.kind == nash_vc::ConnectionKind::Full)
        };
        assert!(full("b3", "south"), "{config}");
        assert!(full("b3", "north"), "{config}");
        assert!(full("north", "south"), "{config}");
        assert_eq!(vc.to_move(), Color::White);
        assert!(vc.opponent_won().is_some());
        // With the early stop Black's set ends at its first full connection between the edges,
        // and which semis came before it depends on the order of work.
        if !config.early_stop {
            assert!(vc.mustplay().is_empty());
        }
        // The two threats of the figure are semis from b3 to the top.
        let semis: Vec<Bitboard> = vc
            .connections(Color::Black, cell("b3"), Cell::NORTH)
            .filter(|c| c.kind != nash_vc::ConnectionKind::Full)
            .map(|c| c.carrier)
            .collect();
        assert!(semis.contains(&nash_board::bitboard![a1 a2 a3 b1 b2]), "{semis:?}");
        assert!(semis.contains(&nash_board::bitboard![c1 c2 d1]), "{semis:?}");
    }
}

fn white_mustplay(config: HSearchConfig, incremental: bool) -> (Bitboard, usize) {
    let mut vc = VcBuilder::new(config);
    if incremental {
        let mut pos: Position<Bitboard> = Position::square(6).unwrap();
        vc.build(&pos);
        pos.play(cell("c4")).unwrap();
        vc.play(cell("c4"));
    } else {
        vc.build(&position(6, "c4"));
    }
    let (n, s) = (Cell::NORTH, Cell::SOUTH);
    let semis = vc
        .connections(Color::Black, n, s)
        .filter(|c| c.kind != nash_vc::ConnectionKind::Full)
        .count();
    (vc.mustplay(), semis)
}

/// Chen 2025 s.5.5.2: on 6×6 with a black stone at c4, White's mustplay has 1 cell with the 3-OR
/// rule and 4 cells with the 2-OR rule; s.5.5.3: incremental H-search from the empty board
/// gives 1 as well.
#[test]
fn section_5_5_2_c4_mustplay() {
    let base = HSearchConfig::thesis_base();
    let or2 = HSearchConfig { or_limit: nash_vc::OrLimit::AtMost(2), ..base };
    let (m3, s3) = white_mustplay(base, false);
    let (m2, s2) = white_mustplay(or2, false);
    let (mi, si) = white_mustplay(base, true);
    println!("3-OR: {} semis, mustplay {:?}", s3, m3);
    println!("2-OR: {} semis, mustplay {:?}", s2, m2);
    println!("incremental 3-OR: {} semis, mustplay {:?}", si, mi);
    assert_eq!(m3.len(), 1);
    assert_eq!(m2.len(), 4);
    assert_eq!(mi, m3);
}

/// With the early stop, an incremental move leaves the mover's set complete: the mover is not
/// to move next, so only a full edge-to-edge connection may stop its build, and White's
/// mustplay after c4 is the one cell a rebuild finds (it was 17 cells when the mover's set was
/// rebuilt as if the mover moved again).
#[test]
fn early_stop_keeps_the_movers_semis_after_a_move() {
    let early = HSearchConfig { early_stop: true, ..HSearchConfig::thesis_base() };
    let (rebuilt, _) = white_mustplay(early, false);
    let (incremental, _) = white_mustplay(early, true);
    assert_eq!(rebuilt.len(), 1, "{rebuilt:?}");
    assert_eq!(incremental, rebuilt);
}

/// Changing the side to move rebuilds a set the early stop cut short for the old side to move:
/// Black to move after c4 stops at its first edge-to-edge semi; with White to move, every
/// semi is there again and White's mustplay is a rebuild's.
#[test]
fn set_to_move_rebuilds_a_stopped_set() {
    let early = HSearchConfig { early_stop: true, ..HSearchConfig::thesis_base() };
    let mut pos = position(6, "c4");
    pos.set_to_move(Color::Black);
    let mut vc = VcBuilder::new(early);
    vc.build(&pos);
    vc.set_to_move(Color::White);
    let (rebuilt, _) = white_mustplay(early, false);
    assert_eq!(vc.mustplay(), rebuilt);
}

/// Edge templates come out of the rules: the ziggurat (template IIIa, both mirror images) and
/// the fourth-row template IVa (19 empty cells), from a lone stone on an empty 9×9 board, under
/// the solver's H-search. A search for minimal carriers by brute force found no other
/// fourth-row template, so none is added by hand (docs/vc.md, "Edge templates").
#[test]
fn edge_templates_are_derived() {
    let solver = HSearchConfig {
        or_limit: nash_vc::OrLimit::AtMost(5),
        semi_and: false,
        max_fulls: Some(32),
        max_semis: Some(64),
        or_budget: Some(256),
        ..HSearchConfig::default()
    };
    let cases = [
        ("e3", "d1 e1 f1 g1 d2 e2 f2 d3"),
        ("e3", "e1 f1 g1 h1 e2 f2 g2 f3"),
        ("e4", "c1 d1 e1 f1 g1 h1 i1 c2 d2 e2 f2 g2 h2 c3 d3 e3 f3 g3 d4"),
    ];
    for (stone, carrier) in cases {
        let pos = position(9, stone);
        let want: Bitboard = carrier.split(' ').map(cell).collect();
        for config in [solver, HSearchConfig::default()] {
            let mut vc = VcBuilder::new(config);
            vc.build(&pos);
            let found = vc
                .connections(Color::Black, cell(stone), Cell::NORTH)
                .any(|c| c.kind == nash_vc::ConnectionKind::Full && c.carrier == want);
            assert!(found, "{stone}: no full connection to the edge with [{carrier}] ({config})");
        }
    }
}

/// White's full connections between f3 and g4 after 7×7 `a1 c5 b5`, built with `config`.
fn f3_g4_fulls(config: HSearchConfig) -> Vec<Bitboard> {
    let mut vc = VcBuilder::new(config);
    vc.build(&position(7, "a1 c5 b5"));
    vc.connections(Color::White, cell("f3"), cell("g4"))
        .filter(|c| c.kind == nash_vc::ConnectionKind::Full)
        .map(|c| c.carrier)
        .collect()
}

/// Two cells near White's east edge, f3 and g4, are joined through the edge only with
/// `border-local`: f3 reaches the edge by the bridge g2–g3 and g4 touches it (7×7, after
/// Black a1, White c5, Black b5; MoHex's H-search has the connection).
#[test]
fn border_local_joins_two_cells_through_their_edge() {
    let through = nash_board::bitboard![g2 g3];
    let plain = HSearchConfig::default();
    assert!(!f3_g4_fulls(plain).contains(&through), "{:?}", f3_g4_fulls(plain));
    let local = HSearchConfig { border_local: Some(2), ..plain };
    assert!(f3_g4_fulls(local).contains(&through), "{:?}", f3_g4_fulls(local));
}

/// The captured-set rule finds the same f3–g4 connection: f3, on the second row of White's
/// east edge, has g2 and g3 as its captured set, so the single semi keyed g3 between f3 and g4
/// is a full over both (an intrusion at g3 is answered at g2, and f3, g2 and the edge then
/// touch every neighbour of g3). Nothing of the kind without the switch.
#[test]
fn captured_sets_join_a_second_row_cell_to_the_first_row() {
    let through = nash_board::bitboard![g2 g3];
    let plain = HSearchConfig::default();
    let captured = HSearchConfig { captured_sets: true, ..plain };
    for (config, expected) in [(plain, false), (captured, true)] {
        let fulls = f3_g4_fulls(config);
        assert_eq!(fulls.contains(&through), expected, "{config}: {fulls:?}");
    }
    assert_eq!("captured".parse::<HSearchConfig>().unwrap(), captured);
    assert!(captured.to_string().contains(",captured,"), "{captured}");
}
