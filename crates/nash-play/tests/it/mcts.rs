//! The Monte Carlo players: playout statistics on boards small enough to know the answer,
//! solved nodes backed up, specs, threads and reuse.

use nash_board::{with_position, AnyPosition, Color, Move};
use nash_play::{build, playouts, MoveBudget, MoveScore, Proven, SpecError};

use crate::common::{cell, empty_cell, nodes, position, PROVEN};

/// (board size, moves, side to move, policy, the share of playouts the side to move wins, the
/// tolerance): exact shares where the fill decides alone.
const PLAYOUT_SHARES: &[(usize, &str, Color, &str, f64, f64)] = &[
    // One cell: whoever fills it connects.
    (1, "", Color::Black, "random", 1.0, 0.0),
    (1, "", Color::White, "random", 1.0, 0.0),
    (1, "", Color::White, "bridge", 1.0, 0.0),
    // 2x2: the side to move gets two random cells of four; three of the six pairs connect
    // Black (a1 a2, b1 a2, b1 b2) and the other three White.
    (2, "", Color::Black, "random", 0.5, 0.02),
    (2, "", Color::White, "random", 0.5, 0.02),
    // 3x3 with Black's b1 b2 b3 column: Black has won whatever the fill.
    (3, "b1 a1 b2 a2 b3", Color::White, "random", 0.0, 0.0),
    (3, "b1 a1 b2 a2 b3", Color::White, "bridge", 0.0, 0.0),
    (3, "b1 a1 b2 a2 b3", Color::White, "patterns", 0.0, 0.0),
    (1, "", Color::Black, "patterns", 1.0, 0.0),
    (3, "b1 a1 b2 a2 b3", Color::White, "reply", 0.0, 0.0),
    (1, "", Color::Black, "reply", 1.0, 0.0),
];

#[test]
fn playouts_win_as_often_as_counting_says() {
    for &(size, moves, to_move, policy, share, tolerance) in PLAYOUT_SHARES {
        let mut pos = position(size, moves);
        with_position!(&mut pos, p => p.set_to_move(to_move));
        let s = playouts(&pos, policy, 20_000, 3).unwrap();
        let got = s.wins as f64 / s.playouts as f64;
        assert!(
            (got - share).abs() <= tolerance,
            "{size}x{size} {moves:?} {to_move} {policy}: won {got}, expected {share}"
        );
    }
}

#[test]
fn bridge_playouts_save_every_bridge() {
    // 3x3: Black's b1 (on the north edge) and a3 (on the south edge) form a bridge over a2
    // and b2, Black to move. Bridge playouts answer White's a2 with b2 and the other way
    // round, so Black always connects; random playouts sometimes give White both.
    let pos = position(3, "b1 c1 a3 c2");
    let random = playouts(&pos, "random", 5_000, 1).unwrap();
    // Pattern and reply playouts save bridges first.
    for policy in ["bridge", "patterns", "reply"] {
        let bridge = playouts(&pos, policy, 5_000, 1).unwrap();
        assert_eq!(bridge.wins, bridge.playouts, "{policy} playouts lost a bridge");
    }
    assert!(random.wins < random.playouts, "random playouts always won: the test shows nothing");
}

#[test]
fn a_bad_policy_is_named() {
    let pos = AnyPosition::new(3, 3).unwrap();
    let e = playouts(&pos, "smart", 1, 1).unwrap_err();
    assert!(e.to_string().contains("'smart'"), "{e}");
}

#[test]
fn proven_nodes_decide_the_root() {
    // 4x4, Black's column b1 b2 b3 wins at a4 or b4; with White to move both cannot be
    // blocked: White is lost, and the MCTS-solver proves it from the terminal nodes.
    let mut pos = position(4, "b1 a1 b2 c2 b3 d1");
    with_position!(&mut pos, p => p.set_to_move(Color::White));
    for name in ["mcts", "amaf", "amaf-bridge", "amaf:threads=2,parallel=tree"] {
        let c = build(name).unwrap().choose(&pos, &nodes(5_000));
        assert!(c.value.unwrap() <= -PROVEN, "{name}: {:?}", c.value);
        let sep = if name.contains(':') { ',' } else { ':' };
        let off = build(&format!("{name}{sep}solver=false")).unwrap().choose(&pos, &nodes(5_000));
        assert!(off.value.unwrap() > -PROVEN, "{name} without the solver: {:?}", off.value);
    }
    // Black to move wins at once, and says so.
    let pos = position(4, "b1 a1 b2 c2 b3 d1");
    let c = build("mcts").unwrap().choose(&pos, &nodes(5_000));
    assert!(c.value.unwrap() >= PROVEN, "{:?}", c.value);
}

#[test]
fn late_knowledge_proves_what_the_solver_proves() {
    // 5x5 positions: with `know`, a node gets its knowledge call only after some playouts, and
    // until then has every empty cell as a child; the moves its knowledge then prunes count as
    // lost for the proofs, as the moves left out at expansion do. Whatever it proves, the
    // solver agrees with, and it proves something.
    let mut proven = 0;
    for moves in ["-", "a1", "c3", "a5", "b2 c3", "e1 c3 a2", "c2 c3 d3"] {
        let pos = position(5, moves);
        let solved = with_position!(&pos, p => {
            nash_search::solve(p, &nash_search::SolverConfig::default()).outcome.wins()
        })
        .expect("5x5 solves");
        for spec in [
            "best:know=5,playouts=3000",
            "best:know=20,expand=1,playouts=3000",
            // Playouts from the knowledge's fill and the progressive bias change what is
            // searched, never what is proven.
            "best:know=5,playouts=3000,playfill=true,bias=0.5",
            // So do the priors and the bias of the learned patterns.
            "best:know=5,playouts=3000,order=patterns,bias=0.5",
            "best:know=5,playouts=3000,order=both,spread=strength",
        ] {
            let c = build(spec).unwrap().choose(&pos, &MoveBudget::default());
            let v = c.value.unwrap();
            if v.abs() >= PROVEN {
                assert_eq!(v > 0.0, solved, "{spec} on {moves}: {v}");
                proven += 1;
            }
            empty_cell(&pos, &c);
        }
    }
    assert!(proven >= 4, "only {proven} proofs: the test shows little");
}

#[test]
fn a_lost_root_is_defended() {
    // 4x4, White to move against Black's two threats (a4, b4): lost, as the knowledge sees at
    // once. With `defend`, the rest of the move goes to a search without proofs, which blocks
    // one threat (the opponent may miss the other) and plays every playout of the budget.
    // Random playouts: bridge playouts always save Black's b3's bridge to the edge, and every
    // move would look equally lost.
    let mut pos = position(4, "b1 a1 b2 c2 b3 d1");
    with_position!(&mut pos, p => p.set_to_move(Color::White));
    let quick = build("best").unwrap().choose(&pos, &nodes(2_000));
    assert!(quick.value.unwrap() <= -PROVEN && quick.nodes < 2_000, "{quick:?}");
    let c = build("best:defend=true,playout=random").unwrap().choose(&pos, &nodes(2_000));
    assert!(c.value.unwrap() <= -PROVEN && c.nodes == 2_000, "{c:?}");
    assert!(["a4", "b4"].contains(&cell(&c).to_string().as_str()), "{c:?}");
}

#[test]
fn specs_read_and_write_every_setting() {
    let p = build("mcts:c=0.5,playouts=5000,seed=1,threads=2").unwrap();
    assert_eq!(
        p.spec(),
        "mcts:c=0.5,rave=0,fpu=1,playout=random,playouts=5000,expand=1,know=0,fillin=false,\
         mustplay=false,vc=false,solver=true,prior=0,value=0,vscale=1,widen=0,order=circuit,spread=rank,bias=0,puct=0,playfill=false,reuse=false,solve=0,defend=false,threads=2,parallel=root,mem=256,\
         seed=1,swap=false,temp=0,net=off"
    );
    let err = |s: &str| build(s).unwrap_err();
    assert!(matches!(err("amaf:playout=smart"), SpecError::BadValue { .. }));
    assert!(matches!(err("mcts:threads=0"), SpecError::BadValue { .. }));
    assert!(matches!(err("best:order=magic"), SpecError::BadValue { .. }));
    assert!(matches!(err("best:spread=wide"), SpecError::BadValue { .. }));
    assert!(matches!(err("best:value=-1"), SpecError::BadValue { .. }));
    assert!(matches!(err("best:vscale=NaN"), SpecError::BadValue { .. }));
    assert!(matches!(err("best:vscale=0"), SpecError::BadValue { .. }));
    assert!(matches!(err("best:widen=some"), SpecError::BadValue { .. }));
    assert!(matches!(err("best:depth=3"), SpecError::UnknownSetting { .. }));
    assert!(build("best:net=").is_err());
}

#[test]
fn a_net_orders_the_moves_and_a_missing_one_is_no_failure() {
    let dir = std::env::temp_dir().join(format!("nash-play-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("random.nnw");
    nash_net::Net::random(nash_net::Arch::default(), 7).save(&file).unwrap();
    let pos = position(7, "d4 c5");
    let budget = MoveBudget { playouts: Some(600), ..MoveBudget::default() };
    let with = build(&format!("best:net={},threads=1", file.display())).unwrap();
    assert!(with.spec().ends_with(&format!("net={}", file.display())), "{}", with.spec());
    let mut with = with;
    let c = with.choose(&pos, &budget);
    empty_cell(&pos, &c);
    assert!(c.moves.iter().all(rate_in_range), "{c:?}");
    // A file that is not there: the player warns and plays as with `net=off`.
    let missing = dir.join("missing.nnw");
    let mut without = build(&format!("best:net={},threads=1", missing.display())).unwrap();
    let mut off = build("best:net=off,threads=1").unwrap();
    assert_eq!(without.choose(&pos, &budget).mv, off.choose(&pos, &budget).mv);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_puct_term_follows_the_builtin_net() {
    // With the PUCT term the net's policy draws the playouts to the moves it likes: a PUCT
    // search plays legal moves, repeats itself, and spends its playouts differently from the
    // same search without the term.
    let pos = position(9, "e5 d6");
    let budget = MoveBudget { playouts: Some(800), ..MoveBudget::default() };
    let run = |spec: &str| {
        let c = build(spec).unwrap().choose(&pos, &budget);
        empty_cell(&pos, &c);
        assert!(c.moves.iter().all(rate_in_range), "{spec}: {c:?}");
        c.moves.iter().map(|m| m.visits).collect::<Vec<_>>()
    };
    let puct = run("best:net=builtin,puct=2,threads=1");
    assert_eq!(puct, run("best:net=builtin,puct=2,threads=1"));
    assert_ne!(puct, run("best:net=builtin,threads=1"));
    assert!(matches!(build("best:puct=-1").unwrap_err(), SpecError::BadValue { .. }));
}

#[test]
fn threads_repeat_themselves_given_a_playout_budget() {
    let pos = position(7, "d4 c5");
    let budget = MoveBudget { playouts: Some(4_000), ..MoveBudget::default() };
    let run = |spec: &str| {
        let c = build(spec).unwrap().choose(&pos, &budget);
        (c.mv, c.value, c.moves, c.nodes)
    };
    for spec in ["amaf:threads=2", "best:threads=2"] {
        let a = run(spec);
        assert!(a.3 <= 4_000, "{spec}: {} playouts", a.3);
        assert_eq!(a, run(spec), "{spec}");
    }
}

#[test]
fn threads_share_one_tree() {
    // Two threads in one tree play the whole budget between them, and a player of one thread
    // plays the same whether its tree is called shared or not.
    let pos = position(7, "d4 c5");
    let budget = MoveBudget { playouts: Some(4_000), ..MoveBudget::default() };
    for spec in ["amaf:threads=2,parallel=tree", "best:threads=2,parallel=tree"] {
        let c = build(spec).unwrap().choose(&pos, &budget);
        assert!(c.nodes <= 4_000, "{spec}: {} playouts", c.nodes);
        assert!(spec.starts_with("best") || c.nodes == 4_000, "{spec}: {} playouts", c.nodes);
        empty_cell(&pos, &c);
        assert!(c.moves.iter().all(rate_in_range), "{spec}: {:?}", c.moves);
    }
    let run = |spec: &str| {
        let c = build(spec).unwrap().choose(&pos, &budget);
        (c.mv, c.value, c.moves, c.nodes)
    };
    assert_eq!(run("amaf:parallel=tree"), run("amaf:parallel=root"));
}

#[test]
fn the_tree_is_kept_between_moves() {
    // A game played on by the same player, with its subtree reused, answers legally and the
    // same as a player that rebuilds only when the reused tree holds nothing.
    for spec in
        ["amaf:reuse=true,playouts=2000", "amaf:reuse=true,playouts=2000,threads=2,parallel=tree"]
    {
        let mut pos = AnyPosition::new(7, 7).unwrap();
        let mut p = build(spec).unwrap();
        for _ in 0..10 {
            let c = p.choose(&pos, &MoveBudget::default());
            let m = empty_cell(&pos, &c);
            let over = with_position!(&mut pos, q => { q.play(m).unwrap(); q.winner().is_some() });
            if over {
                break;
            }
        }
    }
}

#[test]
fn a_small_position_is_solved_first() {
    // The empty 3x3 board is a first-player win: the short solve says so before any playout.
    let pos = AnyPosition::new(3, 3).unwrap();
    let c = build("mcts:solve=9").unwrap().choose(&pos, &nodes(1));
    assert!(c.value.unwrap() >= PROVEN && c.nodes == 0, "{c:?}");
    let c = build("mcts:solve=8").unwrap().choose(&pos, &nodes(1));
    assert!(c.value.unwrap() < PROVEN && c.nodes == 1, "{c:?}");
    // A position the caller's solver has tried already is not solved again.
    let tried = MoveBudget { solved: true, ..nodes(1) };
    let c = build("mcts:solve=9").unwrap().choose(&pos, &tried);
    assert!(c.value.unwrap() < PROVEN && c.nodes == 1, "{c:?}");
}

#[test]
fn a_full_tree_keeps_playing_out_from_its_leaves() {
    // One MiB holds about 37,000 nodes: 60,000 playouts on 9x9 fill it, and the search goes
    // on with playouts from the leaves it has, to the same kind of answer.
    let pos = position(9, "e5");
    let budget = MoveBudget { playouts: Some(60_000), ..MoveBudget::default() };
    for spec in ["amaf:mem=1", "amaf:mem=1,threads=2,parallel=tree"] {
        let c = build(spec).unwrap().choose(&pos, &budget);
        assert_eq!(c.nodes, 60_000, "{spec}");
        empty_cell(&pos, &c);
    }
}

#[test]
fn scores_name_only_the_moves_the_search_visited() {
    // Twenty playouts on 9x9 reach at most twenty of the 80 root moves: the others have no
    // score (an unvisited move's neutral score would outrank visited losing ones).
    let pos = position(9, "e5");
    let budget = MoveBudget { playouts: Some(20), ..MoveBudget::default() };
    for spec in ["mcts:seed=1", "amaf:seed=1"] {
        let c = build(spec).unwrap().choose(&pos, &budget);
        assert!(!c.moves.is_empty(), "{spec}");
        assert!(c.moves.len() <= 20, "{spec}: {} scores", c.moves.len());
        assert!(c.moves.iter().all(rate_in_range), "{spec}: {:?}", c.moves);
    }
}

#[test]
fn widening_holds_back_the_lower_ranked_moves() {
    // With `widen=1` the root may choose only its first move by the circuit order until its
    // playouts pass 70 (50 times 1.4); without it, 60 playouts spread over many moves.
    let pos = position(9, "e5");
    let budget = MoveBudget { playouts: Some(60), ..MoveBudget::default() };
    let narrow = build("best:widen=1,solve=0,net=off").unwrap().choose(&pos, &budget);
    assert_eq!(narrow.moves.len(), 1, "{:?}", narrow.moves);
    let wide = build("best:widen=0,solve=0,net=off").unwrap().choose(&pos, &budget);
    assert!(wide.moves.len() > 5, "{:?}", wide.moves);
}

/// A Monte Carlo move's win rate, when it has one, is a share.
fn rate_in_range(m: &MoveScore) -> bool {
    m.win_rate.map_or(true, |r| (0.0..=1.0).contains(&r))
}

#[test]
fn root_moves_carry_visits_and_come_in_their_order() {
    // Issue 61: the scores showed no visits, in an order that was not theirs. Each move now
    // says its playouts, win rate, prior and line, and the list is in the search's order:
    // proven wins, then by visits, then proven losses; the visits add up to the playouts.
    let pos = position(9, "e5");
    let budget = MoveBudget { playouts: Some(2_000), ..MoveBudget::default() };
    for spec in ["amaf:seed=1", "best:seed=1"] {
        let c = build(spec).unwrap().choose(&pos, &budget);
        let visits: Vec<u64> = c.moves.iter().map(|m| m.visits.unwrap()).collect();
        let open: Vec<u64> = c
            .moves
            .iter()
            .filter(|m| m.proven == Proven::Unknown)
            .map(|m| m.visits.unwrap())
            .collect();
        assert!(open.windows(2).all(|w| w[0] >= w[1]), "{spec}: {visits:?}");
        assert!(visits.iter().sum::<u64>() <= c.nodes + 1, "{spec}: {visits:?} {}", c.nodes);
        assert!(c.moves.iter().all(rate_in_range), "{spec}");
        assert!(c.moves.iter().all(|m| m.pv.first() == Some(&m.cell)), "{spec}");
        assert_eq!(Move::Cell(c.moves[0].cell), c.mv, "{spec}");
        assert_eq!(c.moves[0].pv, c.pv, "{spec}");
        // `best` ranks its moves by the circuit: each has the prior of its rank.
        let priors = c.moves.iter().filter(|m| m.prior.is_some()).count();
        if spec.starts_with("best") {
            assert!(priors > 0, "{spec}: {:?}", c.moves);
            assert!(c.moves.iter().flat_map(|m| m.prior).all(|p| (0.25..=0.75).contains(&p)));
        } else {
            assert_eq!(priors, 0, "{spec}");
        }
    }
}

#[test]
fn a_proven_root_move_is_marked_so() {
    // Black to move on the empty 3x3 board wins: the search proves a winning move and
    // reports it as a proven win, first, not as a bare score.
    let pos = AnyPosition::new(3, 3).unwrap();
    let c = build("best").unwrap().choose(&pos, &nodes(100));
    assert_eq!(c.moves[0].proven, Proven::Win, "{:?}", c.moves);
    assert_eq!(Move::Cell(c.moves[0].cell), c.mv);
}

#[test]
fn a_search_reports_while_it_runs() {
    // With a report every 5 ms, a search of 200 ms reports several times before it answers,
    // each report a summary like the answer's; the answer is the same search's as `choose`'s
    // given the same playouts.
    let pos = position(9, "e5");
    let budget =
        MoveBudget { time: Some(std::time::Duration::from_millis(200)), ..MoveBudget::default() };
    let mut reports = Vec::new();
    let c = build("best").unwrap().analyse(
        &pos,
        &budget,
        std::time::Duration::from_millis(5),
        &mut |c| reports.push(c.clone()),
    );
    assert!(reports.len() >= 3, "{} reports", reports.len());
    assert!(reports.iter().all(|r| r.moves.iter().all(rate_in_range)));
    let playouts: Vec<u64> = reports.iter().map(|r| r.nodes).collect();
    assert!(playouts.windows(2).all(|w| w[0] <= w[1]), "{playouts:?}");
    assert!(!c.moves.is_empty());
    let fixed = MoveBudget { playouts: Some(500), ..MoveBudget::default() };
    let a = build("best").unwrap().choose(&pos, &fixed);
    let b = build("best").unwrap().analyse(
        &pos,
        &fixed,
        std::time::Duration::from_millis(1),
        &mut |_| {},
    );
    assert_eq!((a.mv, a.moves, a.nodes), (b.mv, b.moves, b.nodes));
}

/// `temp` draws the move among the ones searched, by their visits: at 0 it is the most
/// visited, above 0 it is sometimes another, and the same again for the same seed.
#[test]
fn a_temperature_draws_among_the_searched_moves() {
    let pos = position(9, "e5");
    let choose = |spec: &str| build(spec).unwrap().choose(&pos, &MoveBudget::default());
    let mut other = 0;
    for seed in 1..=8 {
        let cold = choose(&format!("mcts:playouts=300,seed={seed}"));
        assert_eq!(cold.mv, Move::Cell(cold.moves[0].cell), "seed {seed}");
        let spec = format!("mcts:playouts=300,temp=2,seed={seed}");
        let hot = choose(&spec);
        assert_eq!(hot.mv, choose(&spec).mv, "seed {seed}: not deterministic");
        let Move::Cell(c) = hot.mv else { panic!("seed {seed}: {:?}", hot.mv) };
        assert!(hot.moves.iter().any(|m| m.cell == c && m.visits > Some(0)), "seed {seed}");
        other += usize::from(hot.mv != Move::Cell(hot.moves[0].cell));
    }
    assert!(other > 0, "temp=2 always played the most visited move");
    let e = build("mcts:temp=-1").unwrap_err().to_string();
    assert!(e.contains("'-1'") && e.contains("'temp'"), "{e}");
}
