//! The analysis and solving subcommands on small positions, good input and bad.

use std::process::Command;

fn nash(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nash")).args(args).output().expect("nash runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
}
