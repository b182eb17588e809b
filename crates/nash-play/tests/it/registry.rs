//! Specs build the players they name, refuse what they do not know, and players are
//! deterministic given their seed.

use nash_board::{AnyPosition, Move};
use nash_play::{build, players, MoveBudget, SpecError};

#[test]
fn every_listed_player_builds_and_moves_on_an_empty_board() {
    for info in players() {
        let mut p = build(info.name).unwrap_or_else(|e| panic!("{}: {e}", info.name));
        let pos = AnyPosition::new(5, 5).unwrap();
        let c = p.choose(&pos, &MoveBudget { nodes: Some(2_000), ..MoveBudget::default() });
        assert!(matches!(c.mv, Move::Cell(_)), "{}: {:?}", info.name, c.mv);
        // The canonical spec builds the same player again.
        build(&p.spec()).unwrap_or_else(|e| panic!("{}: {e}", p.spec()));
    }
}

#[test]
fn bad_specs_name_what_is_wrong() {
    let err = |s: &str| build(s).unwrap_err();
    assert!(matches!(err("nobody"), SpecError::UnknownPlayer { .. }));
    assert!(matches!(err("random:colour=red"), SpecError::UnknownSetting { .. }));
    assert!(matches!(err("random:seed=-3"), SpecError::BadValue { .. }));
    assert!(matches!(err("random:seed"), SpecError::Malformed(_)));
    assert!(matches!(err(""), SpecError::Malformed(_)));
    assert!(err("random:seed=x").to_string().contains("'x'"));
}

#[test]
fn a_seeded_player_repeats_itself() {
    let pos = AnyPosition::new(9, 9).unwrap();
    let moves = |spec: &str| {
        let mut p = build(spec).unwrap();
        (0..5).map(|_| p.choose(&pos, &MoveBudget::default()).mv).collect::<Vec<_>>()
    };
    assert_eq!(moves("random:seed=7"), moves("random:seed=7"));
    assert_ne!(moves("random:seed=7"), moves("random:seed=8"));
}
