//! Soundness by brute force: on random 3×3 to 5×5 positions, every connection, win, loss and
//! mustplay that H-search reports is confirmed by the exact solver of `oracle.rs`, under every
//! variant of the configuration.

use nash_board::{BitSet, Bitboard, Cell, Color, Position, SmallPosition, Stop};
use nash_vc::{ConnectionKind, HSearchConfig, VcBuilder};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::oracle::Oracle;

/// Carriers larger than this are not replayed (they are rare on these boards).
const MAX_CARRIER: usize = 12;

/// A random position on an `n`×`n` board with `stones` stones, alternating colours from Black;
/// the side to move is chosen at random.
pub fn random_position(rng: &mut SmallRng, n: usize, stones: usize) -> SmallPosition {
    let mut pos = SmallPosition::square(n).unwrap();
    for _ in 0..stones {
        let empty: Vec<Cell> = pos.empty_cells().iter().collect();
        if empty.is_empty() {
            break;
        }
        pos.play(empty[rng.gen_range(0..empty.len())]).unwrap();
    }
    if rng.gen_bool(0.5) {
        let c = !pos.to_move();
        pos.set_to_move(c);
    }
    pos
}

/// Checks every claim of a built connection set against the oracle; returns how many
/// connections were replayed.
fn check(pos: &SmallPosition, vc: &VcBuilder<Bitboard>) -> usize {
    let geom = pos.geometry();
    let empty = pos.empty_cells();
    let mut replayed = 0;
    let t0 = std::time::Instant::now();
    for color in Color::ALL {
        for conn in vc.all_connections(color) {
            let [a, b] = conn.ends;
            assert!(conn.carrier.is_subset(empty), "{conn} uses a non-empty cell\n{pos}");
            for end in [a, b] {
                assert!(!conn.carrier.contains(end), "{conn} has an end in its carrier\n{pos}");
            }
            if conn.carrier.len() > MAX_CARRIER {
                continue;
            }
            replayed += 1;
            let mut own = pos.stones(color);
            for end in [a, b] {
                if !end.is_edge() {
                    assert!(
                        !pos.stones(!color).contains(end),
                        "{conn} ends on an opponent stone\n{pos}"
                    );
                    own = own.with(end);
                }
            }
            let mut oracle = Oracle::new(geom, color, a, b);
            match conn.kind {
                ConnectionKind::Full => {
                    assert!(
                        oracle.owner_wins(own, conn.carrier, false),
                        "{color:?} {conn} is not a full connection in\n{pos}"
                    );
                }
                ConnectionKind::Semi { key } => {
                    assert!(conn.carrier.contains(key), "{conn}: key outside the carrier");
                    assert!(
                        oracle.owner_wins(own.with(key), conn.carrier.without(key), false),
                        "{color:?} {conn}: the key does not make it full in\n{pos}"
                    );
                }
            }
        }
    }
    let t_conn = t0.elapsed();
    let c = pos.to_move();
    let [n1, n2] = c.edges().map(Cell::edge);
    let [o1, o2] = (!c).edges().map(Cell::edge);
    let mut mine = Oracle::new(geom, c, n1, n2);
    let mut theirs = Oracle::new(geom, !c, o1, o2);
    if let Some(win) = vc.win_now() {
        assert!(mine.owner_wins(pos.stones(c), empty, true), "win_now {win:?} is wrong in\n{pos}");
        match win.key {
            Some(k) => {
                assert!(mine.owner_wins(pos.stones(c).with(k), win.carrier.without(k), false))
            }
            None => assert!(mine.owner_wins(pos.stones(c), win.carrier, false)),
        }
    }
    if let Some(carrier) = vc.opponent_won() {
        assert!(
            theirs.owner_wins(pos.stones(!c), carrier, false),
            "opponent_won is wrong in\n{pos}"
        );
    }
    if pos.winner().is_none() {
        let must = vc.mustplay();
        assert!(must.is_subset(empty));
        for m in empty - must {
            assert!(
                theirs.owner_wins(pos.stones(!c), empty.without(m), true),
                "{m} is outside the mustplay {must:?} but does not lose in\n{pos}"
            );
        }
    }
    if std::env::var("NASH_VC_TIMING").is_ok() {
        eprintln!(
            "{}x{} conn {:?} rest {:?}",
            pos.cols(),
            pos.empty_cells().len(),
            t_conn,
            t0.elapsed() - t_conn
        );
    }
    replayed
}

fn check_config(config: HSearchConfig, seed: u64, positions: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut vc = VcBuilder::new(config);
    let mut replayed = 0;
    for i in 0..positions {
        let n = 3 + i % 3;
        let max_stones = n * n - if n == 5 { 6 } else { 1 };
        let min_stones = match n {
            5 => 11,
            4 => 3,
            _ => 0,
        };
        let stones = rng.gen_range(min_stones..=max_stones);
        let pos = random_position(&mut rng, n, stones);
        vc.build(&pos);
        replayed += check(&pos, &vc);
    }
    assert!(replayed > 100 * positions / 10, "only {replayed} connections replayed");
}

#[test]
fn default_config_is_sound() {
    check_config(HSearchConfig::default(), 1, 90);
}

#[test]
fn thesis_base_is_sound() {
    check_config(HSearchConfig::thesis_base(), 2, 60);
}

#[test]
fn unlimited_exact_is_sound() {
    check_config(HSearchConfig::default().exact(), 3, 60);
}

#[test]
fn variants_are_sound() {
    for (i, words) in [
        "base,or2",
        "base,optimization",
        "base,area",
        "base,early-stop,border",
        "max-fulls=2,max-semis=2",
        "border-local=2",
        "captured",
        "or=greedy",
        "or=greedy,lean-fulls,captured",
        "lean-fulls",
        "ladders",
        "or=greedy,ladders=2,no-early-stop",
        "templates",
        "or=greedy,templates,no-early-stop",
    ]
    .iter()
    .enumerate()
    {
        check_config(words.parse().unwrap(), 10 + i as u64, 30);
    }
}

/// Connections must survive incremental updates soundly too: the same checks after each move of
/// random games played through the builder.
#[test]
fn incremental_updates_are_sound() {
    let mut rng = SmallRng::seed_from_u64(7);
    for config in [HSearchConfig::default(), HSearchConfig::thesis_base().exact()] {
        let mut vc = VcBuilder::new(config);
        for game in 0..12 {
            let n = 3 + game % 3;
            let mut pos: Position<Bitboard> = Position::square(n).unwrap();
            vc.build(&pos);
            while pos.winner().is_none() {
                let empty: Vec<Cell> = pos.empty_cells().iter().collect();
                let cell = empty[rng.gen_range(0..empty.len())];
                pos.play(cell).unwrap();
                vc.play(cell);
                if pos.empty_cells().len() <= 16 {
                    check(&pos, &vc);
                }
            }
        }
    }
}

/// A build or update cut short by its stop at any point keeps only valid connections: every
/// win, loss and mustplay read from it is still confirmed by the oracle. The stop fires at a
/// chosen reading ([`Stop::after_checks`]), so each run cuts at the same places.
#[test]
fn interrupted_builds_are_sound() {
    let mut rng = SmallRng::seed_from_u64(62);
    let mut cut = 0;
    for config in [HSearchConfig::default(), HSearchConfig::thesis_base().exact()] {
        let mut vc = VcBuilder::new(config);
        for i in 0..60 {
            let n = 3 + i % 3;
            let stones = rng.gen_range(0..=n * n / 2);
            let mut pos = random_position(&mut rng, n, stones);
            if pos.winner().is_some() {
                continue;
            }
            vc.set_stop(&Stop::after_checks(rng.gen_range(0..6)));
            vc.build(&pos);
            cut += usize::from(vc.interrupted());
            check(&pos, &vc);
            // Updates after the cut (each rebuilds what was stopped, and stops at once).
            while pos.winner().is_none() && pos.empty_cells().len() > 1 {
                let empty: Vec<Cell> = pos.empty_cells().iter().collect();
                let cell = empty[rng.gen_range(0..empty.len())];
                pos.play(cell).unwrap();
                vc.play(cell);
                if pos.empty_cells().len() <= 16 {
                    check(&pos, &vc);
                }
            }
        }
    }
    assert!(cut > 20, "only {cut} builds were cut short");
}

/// An already expired stop leaves the trivial connections only (and marks the build as cut
/// short) on a 19x19 board, whose full build takes much longer.
#[test]
fn an_expired_stop_ends_a_19x19_build_at_once() {
    let mut pos = nash_board::WidePosition::square(19).unwrap();
    for cell in ["j10", "k10", "d4", "p16"] {
        pos.play(cell.parse().unwrap()).unwrap();
    }
    let mut vc = VcBuilder::new(HSearchConfig::default());
    vc.set_stop(&Stop::after_checks(1));
    vc.build(&pos);
    assert!(vc.interrupted());
    assert!(vc.win_now().is_none() && vc.opponent_won().is_none());
    assert_eq!(vc.mustplay(), pos.empty_cells(), "a cut-short build restricts nothing");
    let mut full = VcBuilder::new(HSearchConfig::default());
    full.build(&pos);
    assert!(!full.interrupted());
}

/// A derivation from the parent's connections ([`VcBuilder::build_from`]) cut short while it
/// copies keeps only valid connections, and says it was cut short.
#[test]
fn interrupted_derivations_are_sound() {
    let mut rng = SmallRng::seed_from_u64(63);
    let mut cut = 0;
    for i in 0..60 {
        let n = 4 + i % 2;
        let stones = rng.gen_range(0..=n * n / 3);
        let pos = random_position(&mut rng, n, stones);
        if pos.winner().is_some() {
            continue;
        }
        let mut parent = VcBuilder::new(HSearchConfig::default());
        parent.build(&pos);
        let empty: Vec<Cell> = pos.empty_cells().iter().collect();
        let mut child = pos.clone();
        child.play(empty[rng.gen_range(0..empty.len())]).unwrap();
        if child.winner().is_some() {
            continue;
        }
        let mut vc = VcBuilder::new(HSearchConfig::default());
        vc.set_stop(&Stop::after_checks(rng.gen_range(1..4)));
        vc.build_from(&parent, &child);
        cut += usize::from(vc.interrupted());
        check(&child, &vc);
    }
    assert!(cut > 20, "only {cut} derivations were cut short");
}
