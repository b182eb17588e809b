//! The strength ladder: ten levels from a beginner to the full player, each one player spec,
//! named `best:level=N`.
//!
//! A level is a Monte Carlo player with a playout budget of its own, so that it is
//! deterministic given its `seed`. The levels differ first in knowledge, the playouts second:
//! UCT with random playouts (1 to 3), then RAVE (4 to 6), then bridge playouts (7 and 8),
//! each drawing its move with a temperature (`temp`) that falls as the levels rise; then
//! `best`'s knowledge (9) and `best` itself (10). On 9x9 `best` plays at one strength from 30
//! to about 1,500 playouts (its root's knowledge decides, docs/levels.md), so level
//! 9 is at 400 and level 10 at its own 5,000. The measured Elo of each level is in
//! docs/levels.md.

use crate::spec::{Spec, SpecError};

/// The player `best:level=N` is, for `N` from 1 (first) to 10 (last): a spec in the
/// registry's language. Settings given with the level (`best:level=3,seed=7`) override the
/// level's.
pub const LEVELS: [&str; 10] = [
    "mcts:playouts=40,temp=1",
    "mcts:playouts=150,temp=0.5",
    "mcts:playouts=500,temp=0.3",
    "amaf:playouts=40,temp=0.5",
    "amaf:playouts=100,temp=0.5",
    "amaf:playouts=300,temp=0.3",
    "amaf-bridge:playouts=300,temp=0.3",
    "amaf-bridge:playouts=800,temp=0.2",
    "best:playouts=400",
    "best",
];

/// The setting of `best` that names a level.
const LEVEL: &str = "level";

/// The spec of level `n` (1 to 10).
pub fn level(n: usize) -> Option<&'static str> {
    n.checked_sub(1).and_then(|i| LEVELS.get(i)).copied()
}

/// `spec` with its level, if it names one, replaced by the level's player and settings, the
/// other settings given after them (so they win); any other spec unchanged.
pub(crate) fn expand(spec: Spec) -> Result<Spec, SpecError> {
    let Some(i) = spec.settings.iter().position(|(k, _)| k == LEVEL) else { return Ok(spec) };
    if spec.name != "best" {
        // Left for the player's settings to refuse by name.
        return Ok(spec);
    }
    let mut given = spec.settings;
    let (_, value) = given.remove(i);
    let bad = || SpecError::BadValue {
        key: LEVEL.to_owned(),
        value: value.clone(),
        expected: format!("a level from 1 to {}", LEVELS.len()),
    };
    let n: usize = value.parse().map_err(|_| bad())?;
    let mut out: Spec = level(n).ok_or_else(bad)?.parse()?;
    for (k, v) in given {
        out.settings.retain(|(key, _)| *key != k);
        out.settings.push((k, v));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build;

    fn spec(s: &str) -> String {
        build(s).map(|p| p.spec()).unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn every_level_builds_and_the_top_is_the_default_player() {
        let specs: Vec<String> = (1..=10).map(|n| spec(&format!("best:level={n}"))).collect();
        for (n, s) in specs.iter().enumerate() {
            assert!(!s.starts_with("error"), "level {}: {s}", n + 1);
            assert_eq!(*s, spec(LEVELS[n]), "level {}", n + 1);
        }
        for (i, s) in specs.iter().enumerate() {
            assert!(!specs[..i].contains(s), "level {} repeats a lower one", i + 1);
        }
        assert_eq!(specs[9], spec(crate::DEFAULT_PLAYER));
    }

    #[test]
    fn settings_given_with_a_level_override_it() {
        let s = spec("best:seed=7,level=9,playouts=99");
        assert!(s.starts_with("best:") && s.contains(",playouts=99,"), "{s}");
        assert!(s.contains(",seed=7,"), "{s}");
        assert_eq!(spec("best:level=1,temp=0"), spec("mcts:playouts=40,temp=0"));
    }

    #[test]
    fn a_bad_level_is_named() {
        for bad in ["0", "11", "x", "-1", "1.5"] {
            let e = spec(&format!("best:level={bad}"));
            assert_eq!(
                e,
                format!(
                    "error: bad value '{bad}' for setting 'level': expected a level from 1 to 10"
                )
            );
        }
        assert!(spec("mcts:level=3").contains("has no setting 'level'"));
    }

    #[test]
    fn a_level_plays_the_same_moves_given_its_seed() {
        use crate::{MoveBudget, Player};
        use nash_board::{AnyPosition, Move};
        let mut pos = AnyPosition::new(9, 9).expect("a board");
        pos.apply(Move::Cell("e5".parse().expect("a cell"))).expect("a move");
        let play = |s: &str| {
            let mut p: Box<dyn Player> = build(s).expect("builds");
            p.choose(&pos, &MoveBudget::default()).mv
        };
        for n in [1, 2, 4] {
            let s = format!("best:level={n}");
            assert_eq!(play(&s), play(&s), "level {n}");
        }
    }
}
