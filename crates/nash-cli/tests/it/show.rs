//! `nash show` on good and bad inputs: move lists, SGF files and text, diagrams.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What a run of `nash` gave.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn nash(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_nash")).args(args).output().expect("nash runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A file with these contents in a fresh temporary directory.
fn temp_file(name: &str, contents: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("nash-show-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// Succeeds and prints exactly `expected` (a diagram, or SGF).
fn check_ok(args: &[&str], expected: &str) {
    let r = nash(args);
    assert_eq!(r.code, 0, "nash {args:?} failed: {}", r.stderr);
    assert_eq!(r.stdout.trim_end(), expected.trim_end(), "nash {args:?}");
    assert!(r.stderr.is_empty(), "nash {args:?} wrote to stderr: {}", r.stderr);
}

/// Fails with a non-zero code and one line on stderr that contains `expected`.
fn check_err(args: &[&str], expected: &str) {
    let r = nash(args);
    assert_ne!(r.code, 0, "nash {args:?} should fail, printed {}", r.stdout);
    assert_eq!(r.stderr.lines().count(), 1, "nash {args:?}: stderr is not one line: {}", r.stderr);
    assert!(r.stderr.contains(expected), "nash {args:?}: {} lacks {expected:?}", r.stderr);
    assert!(r.stdout.is_empty(), "nash {args:?} printed {}", r.stdout);
}

const THREE_BY_TWO: &str = "   a  b  c
1  B  .  .  1
 2  .  W  .  2
    a  b  c
black to move";

#[test]
fn move_lists() {
    check_ok(&["show", "a1 b2", "--size", "3x2"], THREE_BY_TWO);
    check_ok(&["show", "a1,b2", "-s", "3:2"], THREE_BY_TWO);
    check_ok(&["show", "a1 b2 c1", "--size", "3x2", "--move", "2"], THREE_BY_TWO);
    check_ok(
        &["show", "b1 swap-pieces", "--size", "2"],
        "   a  b\n1  .  .  1\n 2  W  .  2\n    a  b\nblack to move",
    );
    check_ok(&["show", "-", "--size", "1"], "   a\n1  .  1\n   a\nblack to move");
    // resign ends the game and leaves the position as it is.
    check_ok(
        &["show", "b1 a2 resign", "--size", "2"],
        "   a  b\n1  .  B  1\n 2  W  .  2\n    a  b\nblack to move",
    );
    // Without a position: the empty board of --size, 7x7 by default.
    let r = nash(&["show"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("      7  .  .  .  .  .  .  .  7\n"), "{}", r.stdout);
    assert!(!r.stdout.contains('B'), "{}", r.stdout);
    check_ok(&["show", "--size", "2"], "   a  b\n1  .  .  1\n 2  .  .  2\n    a  b\nblack to move");
    // One rule for every command: a move list is on the board of --size too, 7x7 by default
    // (`nash solve d4` is the 7x7 centre opening).
    let r = nash(&["show", "d4"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("   4  .  .  .  B  .  .  .  4\n"), "{}", r.stdout);
    assert!(r.stdout.contains("      7  .  .  .  .  .  .  .  7\n"), "{}", r.stdout);
}

#[test]
fn sgf_files_and_text() {
    let game = "(;FF[4]GM[11]SZ[3:2]PB[a]PW[b];B[a1];W[b2];B[c1])";
    let path = temp_file("game.sgf", game);
    let path = path.to_str().unwrap();
    check_ok(&["show", path, "--move", "2"], THREE_BY_TWO);
    check_ok(&["show", game, "--move", "2"], THREE_BY_TWO);
    let r = nash(&["show", path]);
    assert!(r.stdout.contains("1  B  .  B  1"), "{}", r.stdout);
    assert!(r.stdout.ends_with("white to move\n"), "{}", r.stdout);
    // An SGF file without the .sgf extension is recognised by its contents.
    let other = temp_file("game.txt", game);
    check_ok(&["show", other.to_str().unwrap(), "--move", "2"], THREE_BY_TWO);
    // Little Golem's dialect.
    let lg = temp_file("lg.sgf", "(;FF[4]SZ[4]SO[http://www.littlegolem.com];W[cd];B[swap];W[aa])");
    let r = nash(&["show", lg.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("1  B  .  .  .  1") && r.stdout.contains("3  .  .  .  W  3"));
    // Written back as SGF in HexGui's form, the resignation kept.
    let resigned = temp_file(
        "lg-resign.sgf",
        "(;FF[4]SZ[4]RE[W]SO[http://www.littlegolem.com];W[cd];B[swap];W[aa];B[resign])",
    );
    check_ok(
        &["show", resigned.to_str().unwrap(), "--sgf"],
        "(;FF[4]GM[11]SZ[4]AP[Nash:0.1.0]RE[W]SO[http://www.littlegolem.com]\n\
         ;B[c4];W[swap-pieces];W[a1];B[resign])",
    );
    // And back out as SGF.
    check_ok(
        &["show", path, "--move", "2", "--sgf"],
        "(;FF[4]GM[11]SZ[3:2]AP[Nash:0.1.0]PB[a]PW[b]\n;B[a1];W[b2])",
    );
}

#[test]
fn diagrams() {
    let path = temp_file("pos.txt", THREE_BY_TWO);
    check_ok(&["show", path.to_str().unwrap()], THREE_BY_TWO);
    check_ok(&["show", THREE_BY_TWO], THREE_BY_TWO);
    check_ok(
        &["show", "1 . B\n2 W .\n"],
        "   a  b\n1  .  B  1\n 2  W  .  2\n    a  b\nblack to move",
    );
}

#[test]
fn bad_inputs_fail_with_one_line() {
    check_err(&["show", "a1 zz"], "invalid move \"zz\"");
    check_err(&["show", "a1 h1"], "move 2 (h1): cell h1 is not on the 7x7 board");
    check_err(&["show", "a1 b1 a1"], "move 3 (a1): cell a1 is already occupied");
    // A move list is one game: nothing after a win or a resignation, even with --move.
    check_err(&["show", "a1 b1 a2 b2", "-s", "2"], "move 4 (b2): the game is over: black has won");
    check_err(
        &["show", "a1 b1 a2 b2", "-s", "2", "--move", "1"],
        "move 4 (b2): the game is over: black has won",
    );
    check_err(
        &["show", "a1 resign b2", "-s", "2"],
        "move 3 (b2): the game is over: white resigned",
    );
    check_err(&["solve", "a1 b1 a2 resign", "-s", "2"], "move 4 (resign): the game is over");
    let late = temp_file("late.sgf", "(;SZ[2];B[a1];W[b1];B[a2];W[b2])");
    check_err(
        &["show", late.to_str().unwrap(), "--move", "2"],
        "late.sgf: sgf move 4 (white b2): the game is over: black has won",
    );
    check_err(&["show", "a1", "--size", "0"], "invalid board size 0x0");
    check_err(&["show", "a1", "--size", "20"], "invalid board size 20x20");
    check_err(&["show", "a1", "--size", "7xq"], "invalid board size \"7xq\"");
    check_err(&["show", "missing.sgf"], "cannot read missing.sgf");
    check_err(&["show", "(;SZ[3];B[a1]"], "sgf syntax error at line 1, column 14");
    check_err(
        &["show", "(;SZ[3];B[a1];W[a1])"],
        "sgf move 2 (white a1): cell a1 is already occupied",
    );
    let bad = temp_file("bad.sgf", "(;GM[11]SZ[4]\n;B[a1]\n;W[e9])");
    let bad = bad.to_str().unwrap();
    check_err(
        &["show", bad],
        &format!("{bad}: sgf property W[e9]: cell e9 is not on the 4x4 board"),
    );
    let torn = temp_file("torn.sgf", "(;GM[11]SZ[4]\n;B[a1\n");
    check_err(&["show", torn.to_str().unwrap()], "value of property B is not closed");
    let diagram = temp_file("bad.txt", "1 . .\n2 . Q\n");
    check_err(&["show", diagram.to_str().unwrap()], "line 2: unexpected character 'Q' in row 2");
    check_err(&["show", "1 . .\n3 . .\n"], "expected row 2, found row 3");
    check_err(&["show", "a1", "--move", "x"], "--move");
    check_err(&["show", "a1", "--bogus"], "--bogus");
}

#[test]
fn help_lists_every_subcommand() {
    let r = nash(&["--help"]);
    assert_eq!(r.code, 0);
    for sub in ["show", "solve", "winning", "htp"] {
        assert!(r.stdout.contains(sub), "--help lacks {sub}: {}", r.stdout);
    }
    let r = nash(&["show", "--help"]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains("--move") && r.stdout.contains("--size") && r.stdout.contains("--sgf")
    );
}

#[test]
fn sgf_output_keeps_the_game_information() {
    let game = "(;FF[4]GM[11]SZ[3]AP[HexGui:0.9]PB[alice]PW[bob]RE[B+]EV[cup]SO[club];B[a1];W[b2])";
    check_ok(
        &["show", game, "--sgf"],
        "(;FF[4]GM[11]SZ[3]AP[Nash:0.1.0]PB[alice]PW[bob]RE[B+]EV[cup]SO[club]\n;B[a1];W[b2])",
    );
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let bom = "\u{feff}";
    let diagram = temp_file("bom.txt", &format!("{bom}{THREE_BY_TWO}"));
    check_ok(&["show", diagram.to_str().unwrap()], THREE_BY_TWO);
    let sgf = temp_file("bom.sgf", &format!("{bom}(;SZ[3:2];B[a1];W[b2])"));
    check_ok(&["show", sgf.to_str().unwrap()], THREE_BY_TWO);
    let moves = temp_file("bom-moves.txt", &format!("{bom}a1 b2\n"));
    check_ok(&["show", moves.to_str().unwrap(), "--size", "3x2"], THREE_BY_TWO);
}

/// Runs `nash` with `input` on standard input.
fn nash_with_input(args: &[&str], input: &str) -> Run {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_nash"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nash runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn standard_input() {
    for input in ["(;SZ[3:2];B[a1];W[b2])", THREE_BY_TWO, "a1 b2\n", "\u{feff}a1 b2"] {
        let r = nash_with_input(&["show", "-", "--size", "3x2"], input);
        assert_eq!(r.code, 0, "{input:?}: {}", r.stderr);
        assert_eq!(r.stdout.trim_end(), THREE_BY_TWO, "{input:?}");
    }
    // Nothing on standard input: the empty board.
    let r = nash_with_input(&["show", "-", "--size", "1"], "");
    assert_eq!(r.stdout.trim_end(), "   a\n1  .  1\n   a\nblack to move");
    let r = nash_with_input(&["show", "-", "--size", "3"], "(;SZ[3];B[a1]");
    assert_ne!(r.code, 0);
    assert!(r.stderr.starts_with("error: standard input: sgf syntax error"), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::process::Stdio;
    // The reader is gone before nash writes (its end of the pipe is closed at once, while nash
    // is still starting), as with `nash show … | head -0`.
    for args in [&["show", "--size", "19"][..], &["--help"][..], &["solve", "--size", "3"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nash"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("nash runs");
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "nash {args:?}: {}", out.status);
        assert!(out.stderr.is_empty(), "nash {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
