//! The analysis and solving subcommands on small positions, good input and bad.

use crate::nash;
use std::process::Command;

/// Fails with a non-zero code and one line on stderr that contains `expected`.
fn check_err(args: &[&str], expected: &str) {
    let (code, _, stderr) = nash(args);
    assert_ne!(code, 0, "nash {args:?} should fail");
    assert_eq!(stderr.lines().count(), 1, "nash {args:?}: stderr is not one line: {stderr}");
    assert!(stderr.contains(expected), "nash {args:?}: {stderr} lacks {expected:?}");
}

#[test]
fn winning_set_of_a_solved_position() {
    // testdata/solved.tsv: on 4x4 after a1, White wins exactly with c2 b3 a4.
    let (code, stdout, stderr) = nash(&["winning", "a1", "--size", "4", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    for cell in ["\"c2\"", "\"b3\"", "\"a4\""] {
        assert!(stdout.contains(cell), "{stdout}");
    }
    let (code, stdout, _) = nash(&["winning", "a1", "--size", "4"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("c2 b3 a4"), "{stdout}");
    // After the centre of 3x3 White has no winning move, and the line says so.
    let (code, stdout, _) = nash(&["winning", "b2", "--size", "3"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("winning moves (0): none\n"), "{stdout}");
}

#[test]
fn solve_names_the_winner() {
    // The empty 3x3 board is a first-player win.
    let (code, stdout, stderr) = nash(&["solve", "-", "--size", "3"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("black wins"), "{stdout}");
    // 3x3 after c1: White to move loses.
    let (code, stdout, _) = nash(&["solve", "c1", "--size", "3", "--solver", "negamax"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("black wins"), "{stdout}");
    // Another H-search for the solver's knowledge; 4x4 b2 (not a winning opening) is still
    // White's.
    let (code, stdout, _) = nash(&["solve", "b2", "--size", "4", "--hsearch", "or=3,border"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("white wins"), "{stdout}");
}

#[test]
fn solve_without_a_position_takes_the_size() {
    // No position: the empty board of the size given (7x7 without --size).
    let (code, stdout, stderr) = nash(&["solve", "--size", "4", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("black"), "{stdout}");
    let (_, shown, _) = nash(&["solve", "--size", "4"]);
    assert_eq!(shown.lines().next().map(str::trim), Some("a  b  c  d"), "{shown}");
}

#[test]
fn analysis_commands_run() {
    for args in [
        &["ica", "a1 b2 c3", "--size", "5"][..],
        &["ica", "a1 b2 c3", "--size", "5", "--json"][..],
        &["vc", "c4", "--size", "6", "--color", "w"][..],
        &["vc", "c4", "--size", "6", "--json"][..],
    ] {
        let (code, stdout, stderr) = nash(args);
        assert_eq!(code, 0, "nash {args:?}: {stderr}");
        assert!(!stdout.is_empty(), "nash {args:?} printed nothing");
    }
}

#[test]
fn bad_input_is_one_line() {
    check_err(&["solve", "a1 a1", "--size", "4"], "a1");
    check_err(&["solve", "zz9", "--size", "4"], "zz9");
    check_err(&["winning", "-", "--size", "0"], "0x0");
    check_err(&["ica", "-", "--size", "big"], "big");
    check_err(&["vc", "e5", "--size", "4"], "e5");
    check_err(&["solve", "-", "--size", "3", "--solver", "magic"], "magic");
    check_err(&["solve", "-", "--size", "3", "--hsearch", "or=3,sideways"], "sideways");
    check_err(
        &["vc", "--size", "3", "--variant", "or=3 bogus"],
        "unknown H-search variant \"bogus\"",
    );
}

/// A file of positions in a fresh temporary directory; returns its path.
fn batch_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("nash-batch-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let path = dir.join("positions.txt");
    std::fs::write(&path, text).expect("batch file");
    path
}

#[test]
fn batch_solves_every_line() {
    // testdata/solved.tsv on 4x4: a1 is White's, b3 (on the short diagonal) and the empty board
    // are Black's.
    let path = batch_file("good", "# 4x4 openings\na1\n\nb3\n-\n");
    let file = path.to_str().expect("utf-8 path");
    for threads in ["1", "2"] {
        let (code, stdout, stderr) =
            nash(&["solve", "--batch", file, "--size", "4", "--threads", threads]);
        assert_eq!(code, 0, "{stderr}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 4, "{stdout}");
        assert!(lines[0].starts_with("a1") && lines[0].contains("(white wins)"), "{stdout}");
        assert!(lines[1].starts_with("b3") && lines[1].contains("(black wins)"), "{stdout}");
        assert!(lines[2].starts_with('-') && lines[2].contains("(black wins)"), "{stdout}");
        assert!(lines[3].starts_with("3 positions"), "{stdout}");
    }
    let (code, stdout, _) = nash(&["solve", "--batch", file, "--size", "4", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v.as_array().map(Vec::len), Some(3), "{stdout}");
    assert_eq!(v[1]["position"], "b3");
    assert_eq!(v[1]["winner"], "black");
    let _ = std::fs::remove_dir_all(path.parent().expect("directory"));
}

#[test]
fn batch_names_the_bad_line() {
    let path = batch_file("bad", "a1\nb9\n");
    let file = path.to_str().expect("utf-8 path");
    check_err(&["solve", "--batch", file, "--size", "4"], "line 2: \"b9\"");
    check_err(
        &["solve", "--batch", "no/such/file.txt"],
        "batch file: cannot read no/such/file.txt",
    );
    check_err(&["solve", "a1", "--batch", file], "--batch");
    let _ = std::fs::remove_dir_all(path.parent().expect("directory"));
}

#[test]
fn a_memory_limit_below_the_smallest_plan_is_said() {
    let (code, _, err) =
        nash(&["solve", "--size", "19", "--tt-mib", "1", "--nodes", "1", "--no-pv"]);
    assert_eq!(code, 0, "{err}");
    let warned = "warning: --tt-mib 1 is below the smallest plan on 19x19 with 1 thread(s)";
    assert!(err.lines().any(|l| l.starts_with(warned)), "{err}");
    let (code, _, err) = nash(&["solve", "--size", "5", "--nodes", "1", "--no-pv"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("--tt-mib"), "{err}");
}

#[test]
fn limits_out_of_range_are_refused() {
    check_err(&["solve", "--time-limit", "1e19"], "invalid value '1e19' for '--time-limit");
    check_err(&["solve", "--time-limit", "NaN"], "'NaN'");
    check_err(&["solve", "--time-limit", "-2"], "'-2'");
    check_err(&["winning", "--time-limit", "0"], "expected a positive number of seconds");
    let huge = (nash_play::limits::max_tt_mib() + 1).to_string();
    check_err(&["solve", "--tt-mib", &huge], "more than this machine's memory");
    check_err(&["solve", "--tt-mib", "0"], "'0' for '--tt-mib");
    // The same thread range as HTP's param_dfpn threads.
    check_err(&["solve", "--threads", "0"], "expected 1 to 256 threads");
    check_err(&["winning", "--threads", "257"], "expected 1 to 256 threads");
    check_err(&["solve", "--solver", "magic"], "[possible values: dfpn, ews, pns");
    check_err(&["solve", "--parallel", "wide"], "'wide'");
    // Accepted extremes still solve.
    let (code, stdout, stderr) =
        nash(&["solve", "-s", "3", "--time-limit", "1e9", "--threads", "256"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("black wins"), "{stdout}");
}

#[test]
fn tracing_goes_to_stderr_when_asked() {
    let out = Command::new(env!("CARGO_BIN_EXE_nash"))
        .args(["solve", "--size", "3"])
        .env("RUST_LOG", "nash_search=trace")
        .output()
        .expect("nash runs");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("black wins"));
    // The solver's span, in plain text (stderr is not a terminal here).
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("solve{solver=\"dfpn\""), "{log}");
    assert!(!log.contains('\u{1b}'), "{log}");
    let out = Command::new(env!("CARGO_BIN_EXE_nash"))
        .args(["solve", "--size", "3"])
        .env("RUST_LOG", "=[")
        .output()
        .expect("nash runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: invalid RUST_LOG \"=[\""));
}

#[test]
fn the_time_limit_bounds_all_of_winning() {
    // Deciding the 81 moves of the empty 9x9 board with the limit on each solve would take at
    // least 81 seconds; as one deadline the command ends after about one. The bound checked
    // is loose, so that a loaded machine does not fail the test.
    let start = std::time::Instant::now();
    let (code, stdout, stderr) = nash(&["winning", "--size", "9", "--time-limit", "1"]);
    let took = start.elapsed().as_secs_f64();
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("undecided within the budget"), "{stdout}");
    assert!(took < 40.0, "nash winning took {took:.1}s with a 1s limit");
}

#[test]
fn genmove_reports_the_move_and_who_chose_it() {
    let json = |args: &[&str]| -> serde_json::Value {
        let (code, stdout, stderr) = nash(args);
        assert_eq!(code, 0, "nash {args:?}: {stderr}");
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
    };
    // On 3x3 the centre wins: White swaps when it may, and otherwise the player moves in a
    // position the solver proved lost.
    let v = json(&["genmove", "b2", "--size", "3", "--json"]);
    assert_eq!((v["move"].as_str(), v["by"].as_str()), (Some("swap-pieces"), Some("solver")));
    assert_eq!(v["proven_winner"], "black");
    let v = json(&["genmove", "b2", "--size", "3", "--no-swap", "--json"]);
    assert_eq!((v["by"].as_str(), v["proven_winner"].as_str()), (Some("player"), Some("black")));
    assert!(v["player"].as_str().is_some_and(|p| p.starts_with("best:")), "{v}");
    // The player alone, reproducibly from its seed.
    let args = [
        "genmove",
        "e5",
        "--size",
        "9",
        "--player",
        "random:seed=3",
        "--solve-time",
        "0",
        "--no-swap",
        "--json",
    ];
    let v = json(&args);
    assert_eq!((v["by"].as_str(), v["to_move"].as_str()), (Some("player"), Some("white")));
    assert_eq!(v["player"], "random:seed=3");
    for key in ["value", "pv", "moves", "depth", "nodes", "time"] {
        assert!(v.get(key).is_some(), "no {key} in {v}");
    }
    assert_eq!(json(&args)["move"], v["move"]);
    // A finished game: resign.
    let v = json(&["genmove", "a1 b1 a2", "--size", "2", "--json"]);
    assert_eq!((v["move"].as_str(), v["by"].as_str()), (Some("resign"), Some("game-over")));
    // The plain form names the move and the player.
    let (code, stdout, _) = nash(&["genmove", "a1", "--size", "3", "--solve-time", "0"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("white to move: ") && stdout.contains("by player (best:"), "{stdout}");
}

#[test]
fn genmove_refuses_bad_options_in_one_line() {
    check_err(&["genmove", "--player", "nobody"], "unknown player 'nobody'");
    check_err(&["genmove", "--move-time=-2"], "invalid value '-2' for '--move-time");
    check_err(&["genmove", "--solve-time", "x"], "invalid number \"x\"");
    check_err(&["genmove", "z9", "--size", "5"], "z9");
}

#[test]
fn a_proof_is_written_and_checked() {
    let dir = std::env::temp_dir().join(format!("nash-proof-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let binary = dir.join("c3.proof");
    let json = dir.join("c3.json");
    let (b, j) = (binary.to_str().unwrap(), json.to_str().unwrap());
    let (code, out, err) = nash(&["solve", "c3", "--size", "5", "--proof", b]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("proof: {b} (")), "{out}");
    let (code, out, err) = nash(&["check", b]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("valid: black wins (5x5, white to move;"), "{out}");
    let (code, _, err) = nash(&["solve", "c3", "--size", "5", "--proof", j, "--proof-json"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = nash(&["check", j]);
    assert_eq!(code, 0);
    assert!(out.starts_with("valid: black wins"), "{out}");
    // The same strategy claimed for White, and a file of another kind.
    let text = std::fs::read_to_string(&json).expect("json");
    std::fs::write(&json, text.replace("\"winner\":\"black\"", "\"winner\":\"white\""))
        .expect("write");
    check_err(&["check", j], "invalid: node");
    check_err(&["check", "Cargo.toml"], "not a nash proof certificate");
    check_err(
        &["solve", "c3", "--size", "5", "--proof", b, "--proof-search", "17"],
        "--proof-search",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_lost_position_has_no_mustplay_in_vc_and_in_htp_alike() {
    // After c3 on 5x5 Black is connected virtually: White has lost, and no move saves them.
    let (code, stdout, stderr) = nash(&["vc", "c3", "--size", "5", "--color", "b"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("white has lost"), "{stdout}");
    assert!(stdout.contains("mustplay for white: none (every move loses)"), "{stdout}");
    let (_, json, _) = nash(&["vc", "c3", "--size", "5", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["mustplay"], serde_json::json!([]), "{json}");
}

#[test]
fn issue_61_analyze_writes_json_lines_with_visits_in_order() {
    // `nash analyze --json`: one object a line, each report then the final one, every move
    // with its visits, win rate, prior, proven value and line, the open moves by visits.
    let args = ["analyze", "e5", "--size", "9", "--playouts", "3000", "--interval", "1", "--json"];
    let (code, stdout, stderr) = nash(&args);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let (last, reports) = lines.split_last().expect("a final line");
    assert_eq!(last["final"], true);
    assert!(reports.iter().all(|r| r["final"] == false));
    assert_eq!(last["to_move"], "white");
    assert!(last["playouts"].as_u64().is_some_and(|p| p > 0 && p <= 3000), "{last}");
    let moves = last["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert_eq!(moves[0]["cell"], last["move"]);
    let mut open = Vec::new();
    for m in moves {
        let rate = m["win_rate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&rate), "{m}");
        assert!(m["prior"].is_f64() && m["value"].is_null(), "{m}");
        assert_eq!(m["pv"][0], m["cell"], "{m}");
        match m["proven"].as_str().unwrap() {
            "unknown" => open.push(m["visits"].as_u64().unwrap()),
            "win" | "loss" => {}
            p => panic!("proven {p}"),
        }
    }
    assert!(open.windows(2).all(|w| w[0] >= w[1]), "{open:?}");
    // The same playouts give the same final line: the search is deterministic.
    let (_, again, _) = nash(&args);
    let again: serde_json::Value = serde_json::from_str(again.lines().last().unwrap()).unwrap();
    assert_eq!(again["moves"], last["moves"]);
    // An alpha-beta player has values, not visits, and says so with nulls.
    let (code, stdout, stderr) =
        nash(&["analyze", "c3", "--size", "5", "--player", "alphabeta:depth=2", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let m = &last["moves"][0];
    assert!(m["visits"].is_null() && m["win_rate"].is_null() && m["value"].is_f64(), "{m}");
    // Bad input: one line, a failure.
    check_err(&["analyze", "--interval", "0"], "--interval");
    check_err(&["analyze", "--time", "0"], "--time");
    check_err(&["analyze", "a1 b1 a2", "--size", "2"], "the game is over");
}

#[test]
fn issue_61_genmove_shows_visits_and_proven_moves() {
    // The plain report names its columns: visits, win rate and prior for `best`, and an
    // alpha-beta player's values with the words "no visits"; no bare -1 or 1e9.
    let (code, stdout, stderr) = nash(&[
        "genmove",
        "e5",
        "--size",
        "9",
        "--player",
        "best:playouts=1000",
        "--solve-time",
        "0",
        "--no-swap",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("move   visits  win rate   prior  line"), "{stdout}");
    let (code, stdout, stderr) = nash(&[
        "genmove",
        "c3",
        "--size",
        "5",
        "--player",
        "alphabeta:depth=3",
        "--solve-time",
        "0",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("no visits"), "{stdout}");
    assert!(!stdout.contains("1000000000") && !stdout.contains(" -1.0000"), "{stdout}");
}

#[test]
fn level_is_shorthand_for_a_player_of_the_ladder() {
    let json = |args: &[&str]| -> serde_json::Value {
        let (code, stdout, stderr) = nash(args);
        assert_eq!(code, 0, "nash {args:?}: {stderr}");
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
    };
    let with = |player: &[&str]| {
        let mut args =
            vec!["genmove", "e5", "--size", "9", "--solve-time", "0", "--no-swap", "--json"];
        args.extend_from_slice(player);
        json(&args)
    };
    let level = with(&["--level", "2"]);
    let spec = with(&["--player", "best:level=2"]);
    assert_eq!((&level["move"], &level["player"]), (&spec["move"], &spec["player"]));
    assert!(level["player"].as_str().is_some_and(|p| p.starts_with("mcts:")), "{level}");
    assert_eq!(with(&["--level", "10"])["player"], with(&[])["player"]);
    for bad in ["0", "11", "x"] {
        for command in ["genmove", "play", "htp"] {
            check_err(&[command, "--level", bad], &format!("invalid level \"{bad}\""));
        }
        check_err(
            &["genmove", "--player", &format!("best:level={bad}")],
            &format!("bad value '{bad}' for setting 'level'"),
        );
    }
    check_err(&["genmove", "--level", "3", "--player", "random"], "cannot be used with");
    check_err(&["htp", "--player", "greedy", "--level", "3"], "cannot be used with");
}
