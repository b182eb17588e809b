//! Proof certificates: those of the ground truth's small positions check, and corrupted ones
//! whose claim no longer holds are refused.

use std::sync::OnceLock;

use nash_board::{BitSet, Bitboard, Cell, Color, Position};
use nash_certify::{certificate, certificate_to, CertifyConfig};
use nash_patterns::oracle::{Oracle, State};
use nash_proof::{check, At, Certificate, End, Node, Step};
use proptest::prelude::*;

use crate::support::{random_position, solved_up_to};

fn certify(pos: &Position<Bitboard>, search: usize, vc: bool) -> Certificate {
    let cfg = CertifyConfig { search, vc, ..CertifyConfig::default() };
    certificate(pos, &cfg).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn certificates_of_the_ground_truth_check() {
    // Every position up to 4x4, a sample of 5x5 and one 6x6 (`cargo xtask proofs` checks
    // them all).
    let small = solved_up_to(6);
    let sample = small
        .iter()
        .filter(|s| s.size <= 4)
        .chain(small.iter().filter(|s| s.size == 5).step_by(40));
    let six = small.iter().filter(|s| s.size == 6 && s.moves == "e1");
    for s in sample.chain(six) {
        let label = format!("{}x{} {}", s.size, s.size, s.moves);
        let ways: &[(usize, bool)] =
            if s.size < 6 { &[(0, false), (0, true), (8, true)] } else { &[(8, true)] };
        for &(search, vc) in ways {
            let cert = certify(&s.position(), search, vc);
            let checked = check(&cert).unwrap_or_else(|e| panic!("{label}: {e}"));
            assert_eq!(checked.winner, s.winner, "{label}");
            let back = Certificate::from_bytes(&cert.to_bytes()).expect("reads back");
            assert_eq!(back, cert, "{label}");
        }
        // Written node by node to a spool, the same bytes.
        let cfg = CertifyConfig::default();
        let mut spool = Vec::new();
        let streamed = certificate_to(&s.position(), &cfg, &mut spool).expect("streams");
        assert_eq!(streamed.bytes, spool.len() as u64, "{label}");
        let mut bytes = streamed.head.binary_head(streamed.nodes);
        bytes.extend(spool);
        assert_eq!(bytes, certify(&s.position(), cfg.search, cfg.vc).to_bytes(), "{label}");
    }
}

#[test]
fn certificates_with_fill_in_or_decompositions_check() {
    // Re-solves with fill-in, with decompositions, without fill-in but handing each
    // position to a worker with it after one node or after 50, with the winner's fill-in, and
    // on two and three threads.
    let ways = [
        CertifyConfig { fill_in: true, ..CertifyConfig::default() },
        CertifyConfig { decompositions: true, ..CertifyConfig::default() },
        CertifyConfig { fill_in_beyond: Some(1), ..CertifyConfig::default() },
        CertifyConfig { fill_in_beyond: Some(50), ..CertifyConfig::default() },
        CertifyConfig { winner_fill_in: true, ..CertifyConfig::default() },
        CertifyConfig { threads: 2, ..CertifyConfig::default() },
        CertifyConfig { threads: 3, fill_in_beyond: Some(50), ..CertifyConfig::default() },
    ];
    let small = solved_up_to(6);
    let sample = small
        .iter()
        .filter(|s| s.size == 5)
        .step_by(40)
        .chain(small.iter().filter(|s| s.size == 6 && s.moves == "e1"));
    let mut filled = 0;
    for s in sample {
        for (i, cfg) in ways.iter().enumerate() {
            let label = format!("{}x{} {} (way {i})", s.size, s.size, s.moves);
            let mut spool = Vec::new();
            let made = certificate_to(&s.position(), cfg, &mut spool).expect("certifies");
            if i == 2 {
                filled += made.filled;
            }
            let mut bytes = made.head.binary_head(made.nodes);
            bytes.extend(spool);
            let cert = Certificate::from_bytes(&bytes).expect("reads back");
            let checked = check(&cert).unwrap_or_else(|e| panic!("{label}: {e}"));
            assert_eq!(checked.winner, s.winner, "{label}");
        }
    }
    assert!(filled > 0, "no position was handed to fill-in");
}

/// 4x4 positions with their certificates written out to won boards (no virtual connections,
/// no search), and the position at
/// which each node is first reached.
struct Fixture {
    cert: Certificate,
    reached: Vec<Option<Position<Bitboard>>>,
}

fn fixtures() -> &'static [Fixture] {
    static F: OnceLock<Vec<Fixture>> = OnceLock::new();
    F.get_or_init(|| {
        let mut out = Vec::new();
        for moves in ["", "b2", "a4", "c2 b3"] {
            let mut pos = Position::<Bitboard>::square(4).expect("4x4");
            moves.parse::<nash_board::MoveList>().expect("moves").play_on(&mut pos).expect("legal");
            let cert = certify(&pos, 0, false);
            let mut reached = vec![None; cert.nodes.len()];
            walk(&cert, cert.nodes.len() - 1, &mut pos, &mut reached);
            out.push(Fixture { cert, reached });
        }
        out
    })
}

/// Records the position where each node is first reached, following the checker's rules.
fn walk(
    cert: &Certificate,
    id: usize,
    pos: &mut Position<Bitboard>,
    reached: &mut [Option<Position<Bitboard>>],
) {
    if reached[id].is_some() {
        return;
    }
    reached[id] = Some(pos.clone());
    let loser = !Color::from(cert.winner);
    match &cert.nodes[id] {
        Node::Won | Node::Search | Node::Vc { .. } => {}
        Node::Play { at, next } => {
            pos.play(at.0).expect("legal");
            walk(cert, *next as usize, pos, reached);
            pos.undo();
        }
        Node::Restrict { keep, next } => {
            pos.fill(loser, pos.empty_cells() - cells(keep));
            walk(cert, *next as usize, pos, reached);
            pos.undo();
        }
        Node::Cover { options } => {
            for (keep, next) in options {
                pos.fill(loser, pos.empty_cells() - cells(keep));
                pos.pass();
                walk(cert, *next as usize, pos, reached);
                pos.undo();
                pos.undo();
            }
        }
        Node::Replies { replies } => {
            for (at, next) in replies {
                pos.play(at.0).expect("legal");
                walk(cert, *next as usize, pos, reached);
                pos.undo();
            }
        }
    }
}

fn cells(list: &[At]) -> Bitboard {
    list.iter().map(|a| a.0).collect()
}

/// Whether `winner` wins `pos` with perfect play, by the independent exhaustive oracle.
fn truly_wins(pos: &Position<Bitboard>, winner: Color) -> bool {
    thread_local! {
        static ORACLE: std::cell::RefCell<Oracle> = std::cell::RefCell::new(Oracle::new(4, 4));
    }
    ORACLE.with_borrow_mut(|o| {
        let s = State {
            black: o.compact(pos.black()),
            white: o.compact(pos.white()),
            black_to_move: pos.to_move() == Color::Black,
        };
        o.value(s) == winner
    })
}

/// A corruption of one node, and whether it certainly breaks the certificate.
#[derive(Clone, Copy, Debug)]
enum Corruption {
    /// Drop one option of a `Cover` node (breaks it when a cell is left unanswered).
    DropReply(usize),
    /// Play the winner's stone of a `Play` node on another cell (breaks it when that move
    /// loses).
    MoveStone(usize),
    /// Take one cell out of a carrier: a `Restrict` node's, or an option's of a `Cover` node
    /// (breaks it when the loser wins once given that cell too).
    ShrinkCarrier(usize, usize),
}

/// Applies `c` to node `id` of `f`'s certificate: the corrupted certificate, if the
/// corruption certainly makes it false (so a sound checker must refuse it).
fn corrupt(f: &Fixture, id: usize, c: Corruption) -> Option<Certificate> {
    let mut cert = f.cert.clone();
    let pos = f.reached[id].as_ref()?;
    let winner = Color::from(cert.winner);
    let loser = !winner;
    match (&mut cert.nodes[id], c) {
        (Node::Cover { options }, Corruption::DropReply(i)) => {
            options.remove(i % options.len());
            let common = options.iter().fold(pos.empty_cells(), |acc, (keep, _)| acc & cells(keep));
            (!common.is_empty() || options.is_empty()).then_some(())?;
        }
        (Node::Play { at, .. }, Corruption::MoveStone(i)) => {
            let empty: Vec<Cell> = (pos.empty_cells().without(at.0)).iter().collect();
            let to = *empty.get(i % empty.len().max(1))?;
            *at = At(to);
            let mut after = pos.clone();
            after.play(to).expect("empty");
            (!truly_wins(&after, winner)).then_some(())?;
        }
        (Node::Restrict { keep, .. }, Corruption::ShrinkCarrier(i, _)) => {
            (!keep.is_empty()).then_some(())?;
            let n = keep.len();
            keep.remove(i % n);
            let mut after = pos.clone();
            after.fill(loser, pos.empty_cells() - cells(keep));
            (!truly_wins(&after, winner)).then_some(())?;
        }
        (Node::Cover { options }, Corruption::ShrinkCarrier(i, j)) => {
            let n = options.len();
            let (keep, _) = options.get_mut(i % n)?;
            (!keep.is_empty()).then_some(())?;
            keep.remove(j % keep.len());
            let mut after = pos.clone();
            after.fill(loser, pos.empty_cells() - cells(keep));
            after.pass();
            (!truly_wins(&after, winner)).then_some(())?;
        }
        _ => return None,
    }
    Some(cert)
}

fn corruption() -> impl Strategy<Value = Corruption> {
    prop_oneof![
        (0..8usize).prop_map(Corruption::DropReply),
        (0..16usize).prop_map(Corruption::MoveStone),
        (0..8usize, 0..16usize).prop_map(|(i, j)| Corruption::ShrinkCarrier(i, j)),
    ]
}

#[test]
fn fixtures_are_valid() {
    for f in fixtures() {
        check(&f.cert).expect("valid before corruption");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Every connection between a player's edges that nash-vc's H-search finds with recording
    /// on (full, or semi for the player to move) is written by its recorded derivation into a
    /// `vc` certificate that the checker accepts; under the solver's setting and with edges
    /// as midpoints.
    #[test]
    fn recorded_derivations_check(
        n in 4usize..8,
        cells in proptest::collection::vec(0usize..64, 4..20),
        border in any::<bool>(),
    ) {
        let pos = random_position(n, &cells);
        prop_assume!(pos.winner().is_none());
        let config =
            nash_vc::HSearchConfig { border_midpoint: border, ..nash_vc::HSearchConfig::default() };
        let mut vc = nash_vc::VcBuilder::new(config);
        vc.set_recording(true);
        vc.build(&pos);
        for color in Color::ALL {
            let [e1, e2] = color.edges().map(Cell::edge);
            for c in vc.connections(color, e1, e2) {
                let full = c.kind == nash_vc::ConnectionKind::Full;
                let steps = vc.derivation(&c);
                prop_assert!(steps.is_some(), "{c}: no derivation");
                let steps = steps.into_iter().flatten().map(|s| match s {
                    nash_vc::DerivationStep::Touch(a, b) => Step::Touch(End(a), End(b)),
                    nash_vc::DerivationStep::And(i, j) => Step::And(i, j),
                    nash_vc::DerivationStep::Or(list) => Step::Or(list),
                });
                if !full && pos.to_move() != color {
                    continue;
                }
                let stones = |c: Color| pos.stones(c).iter().map(At).collect();
                let cert = Certificate {
                    cols: n as u8,
                    rows: n as u8,
                    black: stones(Color::Black),
                    white: stones(Color::White),
                    to_move: pos.to_move().into(),
                    winner: color.into(),
                    nodes: vec![Node::Vc { steps: steps.collect() }],
                };
                let checked = check(&cert);
                prop_assert!(checked.is_ok(), "{c}: {}", checked.unwrap_err());
            }
        }
    }

    /// A corrupted certificate whose claim is false somewhere is refused.
    #[test]
    fn corrupted_certificates_are_refused(which in 0..4usize, node in 0..10_000usize, c in corruption()) {
        let f = &fixtures()[which];
        let id = node % f.cert.nodes.len();
        let corrupted = corrupt(f, id, c);
        prop_assume!(corrupted.is_some());
        let cert = corrupted.expect("assumed");
        prop_assert!(check(&cert).is_err(), "{c:?} at node {id} accepted");
    }
}
/// Every node of every fixture, each corruption: those that certainly make the certificate
/// false are all refused (and there are many of each kind).
#[test]
fn every_false_corruption_is_refused() {
    let mut refused = [0usize; 3];
    for (w, f) in fixtures().iter().enumerate() {
        for id in 0..f.cert.nodes.len() {
            let kinds = [
                Corruption::DropReply(id),
                Corruption::MoveStone(id + w),
                Corruption::ShrinkCarrier(id, id + w),
            ];
            for (k, c) in kinds.into_iter().enumerate() {
                if let Some(cert) = corrupt(f, id, c) {
                    assert!(check(&cert).is_err(), "{c:?} at node {id} of fixture {w} accepted");
                    refused[k] += 1;
                }
            }
        }
    }
    assert!(refused.iter().all(|&n| n >= 100), "too few corruptions tried: {refused:?}");
}

#[test]
fn a_given_first_move_starts_the_certificate_when_it_wins() {
    use nash_certify::CertifyError;
    let first = |pos: &Position<Bitboard>, m: &str, threads: usize| {
        let m: Cell = m.parse().expect("cell");
        let cfg = CertifyConfig { first_move: Some(m), threads, ..CertifyConfig::default() };
        certificate(pos, &cfg).map(|cert| (m, cert))
    };
    let empty5 = Position::<Bitboard>::square(5).expect("board");
    // The first node is the move, or a restriction then the move.
    for (m, threads) in [("c3", 1), ("b4", 1), ("c3", 2), ("d2", 2)] {
        let (m, cert) = first(&empty5, m, threads).unwrap_or_else(|e| panic!("{m}: {e}"));
        assert_eq!(check(&cert).expect("checks").winner, Color::Black, "{m}");
        let mut at = cert.nodes.len() - 1;
        if let Node::Restrict { next, .. } = &cert.nodes[at] {
            at = *next as usize;
        }
        assert!(matches!(&cert.nodes[at], Node::Play { at: a, .. } if a.0 == m), "{m}");
    }
    // A move that loses, a stone, a finished game.
    let e = first(&empty5, "a1", 1).expect_err("a1 loses on 5x5");
    assert_eq!(e, CertifyError::FirstMove("a1".parse().expect("cell"), "it does not win"));
    assert_eq!(e.to_string(), "no certificate starting with a1: it does not win");
    let mut c3 = empty5.clone();
    c3.play("c3".parse().expect("cell")).expect("legal");
    let e = first(&c3, "c3", 1).expect_err("a stone");
    assert!(e.to_string().ends_with("it is not an empty cell"), "{e}");
    let mut won = Position::<Bitboard>::square(3).expect("board");
    for m in ["a1", "b1", "a2", "b2", "a3"] {
        won.play(m.parse().expect("cell")).expect("legal");
    }
    let e = first(&won, "c3", 1).expect_err("over");
    assert!(e.to_string().ends_with("the game is over"), "{e}");
}
