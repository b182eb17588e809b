//! Carriers across fill-in: a proof of the filled position, with the cells the fill needs for
//! its winner ([`Analysis::fill_carrier`]), is a proof of the position before the fill. Checked
//! on positions where a pair capture or a capture pattern with `.` cells fires, against solves
//! without fill-in: the value agrees, and with the loser on every cell outside the carrier the
//! winner still wins.

use nash_board::{BitSet, Bitboard, Color, Position};
use nash_patterns::Ice;
use nash_search::{solve, Analyser, Knowledge, Outcome, SolverConfig, Verdict};

use crate::support::random_position;

/// A solve without fill-in, which shares no inferior-cell reasoning with what it checks.
fn plain() -> SolverConfig {
    SolverConfig {
        tt_mib: 8,
        knowledge: Knowledge { fill_in: false, ..Knowledge::default() },
        ..SolverConfig::default()
    }
}

fn plain_wins(p: &Position<Bitboard>) -> bool {
    match p.winner() {
        Some(w) => w == p.to_move(),
        None => solve(p, &plain()).outcome.wins().expect("small boards are solved"),
    }
}

/// Whether the capture rule named `rule` filled a cell of `p`, and for patterns whether its
/// match needed empty cells.
fn fires(p: &Position<Bitboard>, rule: &str) -> bool {
    let ice = Ice::<Bitboard>::shared(p.geometry());
    let a = ice.analyse(p);
    let captured = a.captured[0] | a.captured[1];
    captured.iter().any(|c| {
        let name = a.rule(c).map_or("", |r| ice.rule_name(r));
        if rule == "pattern" {
            name.starts_with("edge-") && !(a.needs[0] | a.needs[1]).is_empty()
        } else {
            name == rule
        }
    })
}

/// Checks the carrier of a proof of `p` for `winner`: the loser on every empty cell outside it
/// still loses.
fn check_carrier(p: &Position<Bitboard>, winner: Color, carrier: Bitboard) {
    let mut q = p.clone();
    q.fill(!winner, q.empty_cells() - carrier);
    let holds = match q.winner() {
        Some(w) => w == winner,
        None => plain_wins(&q) == (winner == q.to_move()),
    };
    assert!(holds, "carrier {carrier:?} for {winner} of\n{p}");
}

/// Analyses `p` one move below a root (so the fill is placed), solves the filled position and
/// checks the composed proof against `p`.
fn check_fill(p: &Position<Bitboard>) {
    let mut analyser = Analyser::new(&Knowledge::default(), p.geometry(), 8);
    let mut filled = p.clone();
    let a = analyser.analyse(&mut filled, 1);
    let me = p.to_move();
    let wins = plain_wins(p);
    let (win, carrier) = match a.verdict() {
        Verdict::Win { carrier, .. } => (true, carrier),
        Verdict::Loss { carrier } => (false, carrier),
        Verdict::Open => {
            let (win, carrier) = match solve(&filled, &plain()).outcome {
                Outcome::Win { carrier, .. } => (true, carrier),
                Outcome::Loss { carrier } => (false, carrier),
                Outcome::Unknown { .. } => panic!("unknown on\n{filled}"),
            };
            let winner = if win { me } else { !me };
            (win, carrier | a.fill_carrier(winner))
        }
    };
    assert_eq!(win, wins, "value of\n{p}\nfilled\n{filled}");
    check_carrier(p, if win { me } else { !me }, carrier);
}

/// Random positions (a fixed sequence) of `n` x `n` where `rule` fires, up to `want` of them
/// out of at most `tries`.
fn positions(n: usize, rule: &str, want: usize, tries: usize) -> Vec<Position<Bitboard>> {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    };
    let mut out = Vec::new();
    for _ in 0..tries {
        let stones = 3 + next() % (n * n / 2);
        let cells: Vec<usize> = (0..stones).map(|_| next() % 64).collect();
        let p = random_position(n, &cells);
        if p.winner().is_none() && fires(&p, rule) {
            out.push(p);
            if out.len() == want {
                break;
            }
        }
    }
    out
}

/// Pair captures rest on deadness, which stones added anywhere keep: their proofs need only
/// the captured pair in the carrier.
#[test]
fn pair_captures_keep_carriers_sound() {
    let mut seen = 0;
    for n in [4, 5] {
        for p in positions(n, "captured-pair-clique", 40, 2000) {
            check_fill(&p);
            seen += 1;
        }
    }
    assert!(seen >= 60, "{seen} positions with pair captures");
}

/// Capture patterns with `.` cells: those cells join the capturer's carrier.
#[test]
fn pattern_captures_keep_carriers_sound() {
    let mut seen = 0;
    for n in [4, 5] {
        for p in positions(n, "pattern", 30, 3000) {
            check_fill(&p);
            seen += 1;
        }
    }
    assert!(seen >= 10, "{seen} positions with capture patterns");
}
