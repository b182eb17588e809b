//! Playing through HTP: `genmove` with a chosen player, `param_player` and Benzene's names for
//! its settings, time control, and the swap reply.

use std::time::Duration;

use nash_board::{AnyPosition, BitSet, Move, MoveList};
use nash_htp::Engine;
use nash_play::{decide, DecidedBy, MoveSettings};
use nash_play::{Choice, MoveBudget, Player};
use nash_search::SolverConfig;

use crate::{answers, check_session};

/// Runs `input` through an engine playing `spec`.
fn transcript_with(spec: &str, input: &str) -> Vec<String> {
    let mut out = Vec::new();
    Engine::with_player(spec).expect("spec builds").run(input.as_bytes(), &mut out).unwrap();
    answers(&String::from_utf8(out).unwrap())
}

const DEFAULT_LISTING: &str = "= \n[string] player best\n[string] max_time 0\n[string] max_nodes 0\n[string] max_playouts 0\n[string] solve_time 1\n[bool] allow_swap 0";

#[test]
fn param_player_lists_and_sets_its_settings() {
    check_session(&[
        ("param_player", DEFAULT_LISTING),
        ("param_player player random:seed=5", "= "),
        ("param_player max_time 2.5", "= "),
        ("param_player max_nodes 1000", "= "),
        ("param_player solve_time 0", "= "),
        ("param_player allow_swap 0", "= "),
        (
            "param_player",
            "= \n[string] player random:seed=5\n[string] max_time 2.5\n[string] max_nodes 1000\n[string] max_playouts 0\n[string] solve_time 0\n[bool] allow_swap 0",
        ),
        // A spec may be typed with spaces after its commas.
        ("param_player player random: seed=6", "= "),
        ("param_player max_time 0", "= "),
        ("param_player allow_swap 1", "= "),
        (
            "param_player",
            "= \n[string] player random: seed=6\n[string] max_time 0\n[string] max_nodes 1000\n[string] max_playouts 0\n[string] solve_time 0\n[bool] allow_swap 1",
        ),
    ]);
}

#[test]
fn bad_player_values_are_refused_by_name_and_change_nothing() {
    // Players come and go in nash-play; the list must name each of them, and vc-greedy.
    let names: Vec<&str> = nash_play::players().iter().map(|p| p.name).collect();
    assert!(names.contains(&"random") && names.contains(&"vc-greedy"));
    let players = names.join(", ");
    check_session(&[
        (
            "param_player player nobody",
            "? invalid value \"nobody\" for player: unknown player 'nobody' (players: {players})",
        ),
        (
            "param_player player random:depth=3",
            "? invalid value \"random:depth=3\" for player: player 'random' has no setting 'depth' (settings: seed)",
        ),
        (
            "param_player player random:seed=x",
            "? invalid value \"random:seed=x\" for player: bad value 'x' for setting 'seed': expected a whole number",
        ),
        ("param_player max_time -1", "? invalid value \"-1\" for max_time: expected a positive number of seconds up to 1000000000, 0 for none"),
        ("param_player max_time soon", "? invalid value \"soon\" for max_time: expected a number of seconds, 0 for none"),
        ("param_player max_nodes 1.5", "? invalid value \"1.5\" for max_nodes: expected a whole number, 0 for none"),
        ("param_player allow_swap yes", "? invalid value \"yes\" for allow_swap: expected 0 or 1"),
        ("param_player colour blue", "? unknown parameter \"colour\""),
        ("param_player player", "? param_player expects no arguments, or a parameter name and a value, got \"player\""),
        ("param_mohex max_time x", "? invalid value \"x\" for max_time: expected a number of seconds, 0 for none"),
        ("param_mohex num_threads 0", "? invalid value \"0\" for num_threads: expected 1 to 256 threads"),
        ("param_mohex lock_free 1", "? unknown parameter \"lock_free\""),
        ("param_game allow_swap 3", "? invalid value \"3\" for allow_swap: expected 0 or 1"),
        ("param_dfpn tt_size none", "? invalid number \"none\""),
        ("param_dfpn tt_size 0", "? invalid value \"0\" for tt_size: expected 1 to {max} MiB"),
        ("time_settings 0 1", "? time_settings expects main time, byo-yomi time and byo-yomi stones, got \"0 1\""),
        ("time_settings 0 -1 1", "? invalid number \"-1\""),
        ("time_left b 10 many", "? invalid number \"many\""),
        ("param_player", DEFAULT_LISTING),
    ]
    .map(|(c, a)| {
        let a = a.replace("{max}", &nash_play::limits::max_tt_mib().to_string());
        (c, a.replace("{players}", &players))
    })
    .iter()
    .map(|(c, a)| (*c, a.as_str()))
    .collect::<Vec<_>>());
}

#[test]
fn benzene_names_set_the_same_settings() {
    check_session(&[
        ("param_mohex", "= \n[string] max_time 0\n[string] max_games 0\n[string] num_threads 1"),
        ("param_mohex max_time 1", "= "),
        ("param_mohex max_games 500", "= "),
        ("param_mohex num_threads 2", "= "),
        ("param_mohex", "= \n[string] max_time 1\n[string] max_games 500\n[string] num_threads 2"),
        ("param_wolve max_time 3", "= "),
        ("param_wolve", "= \n[string] max_time 3"),
        ("param_game allow_swap 0", "= "),
        ("param_game", "= \n[bool] allow_swap 0"),
        (
            "param_player",
            "= \n[string] player best\n[string] max_time 3\n[string] max_nodes 0\n[string] max_playouts 500\n[string] solve_time 1\n[bool] allow_swap 0",
        ),
        // Benzene's inferior-cell switches are kept and listed, without effect.
        ("param_solver_ice find_permanently_inferior 0", "= "),
        (
            "param_solver_ice",
            "= \n[bool] backup_opponent_dead 0\n[bool] find_all_pattern_dominators 0\n[bool] find_all_pattern_killers 1\n[bool] find_permanently_inferior 0\n[bool] find_presimplicial_pairs 1\n[bool] find_three_sided_dead_regions 0\n[bool] iterative_dead_regions 0\n[bool] use_hand_coded_patterns 1",
        ),
        (
            "param_player_ice",
            "= \n[bool] backup_opponent_dead 0\n[bool] find_all_pattern_dominators 0\n[bool] find_all_pattern_killers 1\n[bool] find_permanently_inferior 1\n[bool] find_presimplicial_pairs 1\n[bool] find_three_sided_dead_regions 0\n[bool] iterative_dead_regions 0\n[bool] use_hand_coded_patterns 1",
        ),
        ("param_solver_ice use_ice 1", "? unknown parameter \"use_ice\""),
        (
            "param_player_ice find_permanently_inferior 2",
            "? invalid value \"2\" for find_permanently_inferior: expected 0 or 1",
        ),
        ("param_dfpn tt_size 2097152", "= "),
        ("param_dfpn", "= \n[string] parallel auto\n[string] threads 2\n[string] timelimit 0\n[string] tt_mib 256\n[bool] use_guifx 0"),
    ]);
}

#[test]
fn genmove_asks_the_chosen_player_and_plays_its_move() {
    let script = "boardsize 9\nparam_player solve_time 0\ngenmove b\ngenmove w\ngenmove b\nall_legal_moves\n";
    let a = transcript_with("random:seed=11", script);
    let b = transcript_with("random:seed=11", script);
    assert_eq!(a, b, "a seeded player plays the same game twice");
    assert_eq!(a.len(), 6);
    let moves: Vec<&str> = a[2..5].iter().map(|m| m.trim_start_matches("= ")).collect();
    let legal = a[5].trim_start_matches("= ");
    assert_eq!(legal.split_whitespace().count(), 81 - 3, "{a:?}");
    for m in &moves {
        assert!(m.parse::<nash_board::Cell>().is_ok(), "{m}");
        assert!(!legal.split_whitespace().any(|c| c == *m), "{m} was not played");
    }
    // Another seed, another game (the same one would be a 1 in 81^3 chance).
    assert_ne!(transcript_with("random:seed=12", script)[2..5], a[2..5]);
}

#[test]
fn a_proven_win_is_played_whatever_the_player() {
    // 4x4 after b3 c2: Black to move has winning moves; the solver plays one even for the
    // random player, and the game goes on from it.
    for spec in ["random:seed=1", "random:seed=2", "vc-greedy"] {
        let a = transcript_with(spec, "boardsize 3\nplay b a1\ngenmove w\n");
        // On 3x3 after a1, White wins only with b2.
        assert_eq!(a[2], "= b2", "{spec}");
    }
}

#[test]
fn time_settings_and_time_left_are_taken() {
    check_session(&[
        ("boardsize 5", "= "),
        ("time_settings 0 2 1", "= "),
        ("genmove b", "= c3"),
        ("time_left w 30 0", "= "),
        ("time_settings 60 0 0", "= "),
        ("time_settings 0 1 0", "= "),
        ("clear_board", "= "),
        ("genmove b", "= c3"),
    ]);
}

#[test]
fn a_lost_second_move_is_answered_by_swapping() {
    // On 3x3 the centre wins: White swaps when swap is allowed, and plays on otherwise.
    check_session(&[
        ("boardsize 3", "= "),
        ("play b b2", "= "),
        // Swap is off until the controller allows it, as in MoHex.
        ("genmove w", "= a1"),
        ("undo", "= "),
        ("param_game allow_swap 1", "= "),
        ("genmove w", "= swap-pieces"),
        (
            "showboard",
            "= \n   a  b  c\n1  .  .  .  1\n 2  .  B  .  2\n  3  .  .  .  3\n     a  b  c\nwhite to move",
        ),
        // The stone stays black (the swapper now owns it) and the board still wins for Black.
        ("dfpn-solve-state", "= black"),
        ("undo", "= "),
        ("param_game allow_swap 0", "= "),
        // Every move loses; the player's choice among them (deterministic given its seed).
        ("genmove w", "= a1"),
    ]);
}

/// A player that answers every first move by swapping, and plays the first empty cell
/// otherwise.
#[derive(Debug)]
struct Swapper;

impl Player for Swapper {
    fn spec(&self) -> String {
        "swapper".into()
    }

    fn choose(&mut self, pos: &AnyPosition, _budget: &MoveBudget) -> Choice {
        let cell = nash_board::with_position!(pos, p => p.empty_cells().iter().next());
        match nash_board::with_position!(pos, p => p.occupied().len()) {
            1 => Choice::bare(Move::SwapSides),
            _ => Choice::bare(cell.map_or(Move::Resign, Move::Cell)),
        }
    }
}

fn position(size: usize, moves: &str) -> AnyPosition {
    let mut pos = AnyPosition::new(size, size).unwrap();
    nash_board::with_position!(&mut pos, p => moves.parse::<MoveList>().unwrap().play_on(p).unwrap());
    pos
}

#[test]
fn a_player_that_swaps_is_answered_swap_pieces() {
    let cfg = SolverConfig::default();
    let no_solver = MoveSettings { solve_time: Duration::ZERO, allow_swap: true };
    // 6x6 is not in the swap table: the player's swap stands.
    let d = decide(&position(6, "c3"), &mut Swapper, &MoveBudget::default(), &no_solver, &cfg);
    assert_eq!((d.mv, d.by), (Move::SwapPieces, DecidedBy::Player));
    // On 9x9 the table swaps e5 before the player is asked.
    let d = decide(&position(9, "e5"), &mut Swapper, &MoveBudget::default(), &no_solver, &cfg);
    assert_eq!((d.mv, d.by), (Move::SwapPieces, DecidedBy::Table));
    // Not on the first move, not later, not when swapping is off, and not when the table says
    // to answer the opening (a1): the player's swap is replaced by a legal cell.
    for (moves, allow_swap) in [("", true), ("e5 d4", true), ("e5", false), ("a1", true)] {
        let settings = MoveSettings { allow_swap, ..no_solver.clone() };
        let pos = position(9, moves);
        let d = decide(&pos, &mut Swapper, &MoveBudget::default(), &settings, &cfg);
        assert!(matches!(d.mv, Move::Cell(_)), "{moves:?} {allow_swap}: {:?}", d.mv);
    }
    // A finished game is answered `resign`.
    let d =
        decide(&position(2, "a1 b1 a2"), &mut Swapper, &MoveBudget::default(), &no_solver, &cfg);
    assert_eq!((d.mv, d.by), (Move::Resign, DecidedBy::GameOver));
}

/// A player that plays the first empty cell and keeps the budgets it was given.
#[derive(Debug, Default)]
struct Recorder {
    budgets: Vec<MoveBudget>,
}

impl Player for Recorder {
    fn spec(&self) -> String {
        "recorder".into()
    }

    fn choose(&mut self, pos: &AnyPosition, budget: &MoveBudget) -> Choice {
        self.budgets.push(budget.clone());
        let cell = nash_board::with_position!(pos, p => p.empty_cells().iter().next());
        Choice::bare(cell.map_or(Move::Resign, Move::Cell))
    }
}

#[test]
fn the_player_gets_what_the_solver_leaves_and_knows_it_ran() {
    let cfg = SolverConfig::default();
    let settings = MoveSettings { solve_time: Duration::from_secs(1), allow_swap: false };
    let second = Duration::from_secs(1);
    let budget = MoveBudget { time: Some(second), ..MoveBudget::default() };
    // 9x9 after one move: too many empty cells for a solve, the whole second is the player's.
    let mut p = Recorder::default();
    let d = decide(&position(9, "e5"), &mut p, &budget, &settings, &cfg);
    assert_eq!((d.by, d.proven, d.solve_elapsed), (DecidedBy::Player, None, Duration::ZERO));
    let [b] = p.budgets.as_slice() else { panic!("one move, {} budgets", p.budgets.len()) };
    assert!(!b.solved && b.time.is_some_and(|t| t <= second), "{b:?}");
    // 3x3 after b2 without swap: the solver proves White lost and the player moves with the
    // rest of the second, told that the position was solved for.
    let mut p = Recorder::default();
    let d = decide(&position(3, "b2"), &mut p, &budget, &settings, &cfg);
    assert_eq!((d.by, d.proven), (DecidedBy::Player, Some(nash_board::Color::Black)));
    let [b] = p.budgets.as_slice() else { panic!("one move, {} budgets", p.budgets.len()) };
    assert!(b.solved && b.time.is_some_and(|t| t <= second - d.solve_elapsed), "{b:?}");
}
