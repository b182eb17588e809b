//! `nash htp` as a child process: scripted sessions over real pipes, with bad input and values
//! at the edges that must neither stop nor crash the engine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

/// A running `nash htp`.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn start(dir: &std::path::Path) -> Session {
        Session::start_with(dir, &[])
    }

    /// A `nash htp` with more options (`--player SPEC`).
    fn start_with(dir: &std::path::Path, options: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nash"))
            .arg("htp")
            .args(options)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("nash htp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session { child, stdin, stdout }
    }

    /// Sends one command and returns its answer, without the empty line that ends it.
    fn ask(&mut self, cmd: &str) -> String {
        writeln!(self.stdin, "{cmd}").unwrap();
        self.stdin.flush().unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert_ne!(self.stdout.read_line(&mut line).unwrap(), 0, "engine exited after {cmd:?}");
            if line == "\n" {
                return answer;
            }
            answer.push_str(&line);
        }
    }
}

#[test]
fn a_session_over_pipes_survives_bad_input() {
    let dir = std::env::temp_dir().join(format!("nash-htp-child-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("broken.sgf"), "(;GM[11]SZ[5];B[zz]").unwrap();
    let mut engine = Session::start(&dir);
    let mut ask = |cmd: &str| engine.ask(cmd);
    let steps: &[(&str, &str)] = &[
        ("1 name", "=1 nash\n"),
        ("boardsize 5", "= \n"),
        ("@@@ ### ;;;", "? unknown command\n"),
        ("play b", "? play expects a colour and a move, got \"b\"\n"),
        ("play b f1", "? cell f1 is not on the 5x5 board\n"),
        ("play b e5", "= \n"),
        ("play w e5", "? cell e5 is already occupied\n"),
        ("boardsize 0", "? invalid board size 0x0: columns and rows must be 1 to 19\n"),
        ("boardsize 30", "? invalid board size 30x30: columns and rows must be 1 to 19\n"),
        (
            "2 all_legal_moves",
            "=2 a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 a3 b3 c3 d3 e3 a4 b4 c4 d4 e4 a5 b5 c5 d5\n",
        ),
        ("3 boardsize 3 2", "=3 \n"),
        (
            "showboard",
            "= \n   a  b  c\n1  .  .  .  1\n 2  .  .  .  2\n    a  b  c\nblack to move\n",
        ),
    ];
    for (cmd, want) in steps {
        assert_eq!(ask(cmd), *want, "answer to {cmd:?}");
    }
    let sgf = ask("loadsgf broken.sgf");
    assert!(sgf.starts_with("? cannot load \"broken.sgf\": ") && sgf.lines().count() == 1, "{sgf}");
    assert_eq!(ask("name"), "= nash\n");
    // Values that used to kill the engine are refused, and it still solves.
    let huge_tt = format!("param_dfpn tt_mib {}", nash_play::limits::max_tt_mib() + 1);
    assert!(ask(&huge_tt).starts_with("? invalid value"));
    assert!(ask("param_dfpn timelimit 1e19").starts_with("? invalid value \"1e19\""));
    assert_eq!(ask("dfpn-solve-state"), "= black\n");
    // A finished game takes no more moves.
    for cmd in ["boardsize 2", "play b a1", "play w b1", "play b a2"] {
        assert_eq!(ask(cmd), "= \n", "{cmd}");
    }
    assert_eq!(ask("play w b2"), "? the game is over: black has won\n");
    std::fs::write(dir.join("late.sgf"), "(;SZ[2];B[a1];W[b1];B[a2];W[b2])").unwrap();
    assert_eq!(
        ask("loadsgf late.sgf"),
        "? cannot load \"late.sgf\": sgf move 4 (white b2): the game is over: black has won\n"
    );
    assert_eq!(ask("quit"), "= \n");
    let status = engine.child.wait().unwrap();
    assert!(status.success(), "nash htp exit status {status}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_time_limit_bounds_a_whole_command() {
    // Deciding every move of the empty 9x9 board takes far longer than a second. With the limit
    // on each solve, the 81 solves of dfpn-solver-find-winning would take at least 81 seconds;
    // as one deadline for the command, the answer comes after about one. The bound checked is
    // loose, so that a loaded machine does not fail the test.
    let mut engine = Session::start(&std::env::temp_dir());
    assert_eq!(engine.ask("boardsize 9"), "= \n");
    assert_eq!(engine.ask("param_dfpn timelimit 1"), "= \n");
    let start = Instant::now();
    let answer = engine.ask("dfpn-solver-find-winning b");
    let took = start.elapsed().as_secs_f64();
    assert!(answer.starts_with("? undecided within the budget (time limit reached): "), "{answer}");
    assert!(took < 40.0, "dfpn-solver-find-winning took {took:.1}s with a 1s limit");
    let start = Instant::now();
    assert_eq!(engine.ask("dfpn-solve-state"), "= unknown (time limit reached)\n");
    assert!(start.elapsed().as_secs_f64() < 40.0);
    assert_eq!(engine.ask("quit"), "= \n");
    assert!(engine.child.wait().unwrap().success());
}

#[test]
fn the_player_is_chosen_on_the_command_line_and_keeps_its_time() {
    let options =
        ["--player", "random:seed=4", "--move-time", "2.5", "--solve-time", "0", "--no-swap"];
    let mut engine = Session::start_with(&std::env::temp_dir(), &options);
    assert_eq!(
        engine.ask("param_player"),
        "= \n[string] player random:seed=4\n[string] max_time 2.5\n[string] max_nodes 0\n\
         [string] max_playouts 0\n[string] solve_time 0\n[bool] allow_swap 0\n"
    );
    assert_eq!(engine.ask("boardsize 11"), "= \n");
    let first = engine.ask("genmove b");
    assert!(first.starts_with("= ") && first.trim_end().len() > 2, "{first}");
    // Two seconds a move: the default player (H-search on 11x11 after a solve of at most a
    // third of the time) answers well within it. The bound checked is loose, so that a loaded
    // machine does not fail the test.
    assert_eq!(engine.ask("param_player player vc-greedy"), "= \n");
    assert_eq!(engine.ask("param_player solve_time 1"), "= \n");
    assert_eq!(engine.ask("time_settings 0 2 1"), "= \n");
    let start = Instant::now();
    let answer = engine.ask("genmove w");
    assert!(answer.starts_with("= "), "{answer}");
    assert!(start.elapsed().as_secs_f64() < 20.0);
    assert_eq!(engine.ask("quit"), "= \n");
    assert!(engine.child.wait().unwrap().success());
}

#[test]
fn a_bad_player_spec_is_one_line_and_a_failure() {
    for (spec, says) in [
        ("nobody", "unknown player 'nobody' (players: "),
        ("random:seed=-1", "bad value '-1' for setting 'seed'"),
        ("random:seed", "bad player spec"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_nash"))
            .args(["htp", "--player", spec])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{spec}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says) && err.contains(spec), "{err}");
    }
}

#[test]
fn swap_is_off_in_htp_until_the_controller_allows_it() {
    let dir = std::env::temp_dir();
    let mut engine = Session::start_with(&dir, &[]);
    assert_eq!(engine.ask("param_game"), "= \n[bool] allow_swap 0\n");
    assert_eq!(engine.ask("boardsize 3"), "= \n");
    assert_eq!(engine.ask("play b b2"), "= \n");
    assert_ne!(engine.ask("genmove w"), "= swap-pieces\n");
    let mut engine = Session::start_with(&dir, &["--swap"]);
    assert_eq!(engine.ask("param_game"), "= \n[bool] allow_swap 1\n");
    assert_eq!(engine.ask("boardsize 3"), "= \n");
    assert_eq!(engine.ask("play b b2"), "= \n");
    assert_eq!(engine.ask("genmove w"), "= swap-pieces\n");
}
