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
fn a_level_is_the_player_of_the_ladder() {
    let mut engine = Session::start_with(&std::env::temp_dir(), &["--level", "1"]);
    let shown = engine.ask("param_player");
    assert!(shown.contains("[string] player best:level=1\n"), "{shown}");
    assert_eq!(engine.ask("boardsize 5"), "= \n");
    let answer = engine.ask("genmove b");
    assert!(answer.starts_with("= ") && answer.trim_end().len() > 2, "{answer}");
    assert_eq!(engine.ask("param_player player best:level=9"), "= \n");
    assert!(engine.ask("param_player player best:level=12").starts_with("? "));
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

/// One field of a `nash-analyze` line, as a GUI reads it.
#[derive(Debug, Default)]
struct Info {
    cell: String,
    visits: u64,
    winrate: f64,
    proven: Option<String>,
    order: usize,
    pv: Vec<String>,
}

/// Parses an `info` line of `nash-analyze`; an unknown field or a bad number fails the test.
fn parse_info(line: &str) -> Info {
    let mut words = line.split_whitespace();
    assert_eq!(words.next(), Some("info"), "{line:?}");
    let mut info = Info::default();
    while let Some(key) = words.next() {
        let mut value = || words.next().unwrap_or_else(|| panic!("{key} without a value: {line}"));
        match key {
            "move" => info.cell = value().to_owned(),
            "visits" => info.visits = value().parse().unwrap(),
            "winrate" => info.winrate = value().parse().unwrap(),
            "prior" => assert!((0.0..=1.0).contains(&value().parse::<f64>().unwrap()), "{line}"),
            "proven" => info.proven = Some(value().to_owned()),
            "order" => info.order = value().parse().unwrap(),
            "pv" => {
                info.pv = words.map(str::to_owned).collect();
                break;
            }
            other => panic!("unknown field {other}: {line}"),
        }
    }
    assert_eq!(info.pv.first(), Some(&info.cell), "{line}");
    assert!((0.0..=1.0).contains(&info.winrate), "{line}");
    info
}

#[test]
fn issue_61_nash_analyze_streams_lines_until_the_next_command() {
    // As a GUI drives `kata-analyze`: `nash-analyze 10`, then lines every 10 centiseconds,
    // one per root move, read and parsed while the search runs; any next command ends it.
    let dir = crate::TempDir::new("htp-analyze");
    let mut s = Session::start(&dir.0);
    s.ask("boardsize 9");
    s.ask("play b e5");
    writeln!(s.stdin, "7 nash-analyze 10").unwrap();
    s.stdin.flush().unwrap();
    let sent = Instant::now();
    let mut line = String::new();
    s.stdout.read_line(&mut line).unwrap();
    assert_eq!(line, "=7\n");
    line.clear();
    s.stdout.read_line(&mut line).unwrap();
    let first = sent.elapsed();
    parse_info(&line);
    // One interval is 0.1 s; the machine may be loaded, so the bound is generous: the strict
    // part is that the line came while the search ran, before any other command was sent.
    assert!(first.as_secs_f64() < 10.0, "first line after {first:?}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    writeln!(s.stdin, "name").unwrap();
    s.stdin.flush().unwrap();
    // The rest of the stream, to the empty line that ends the answer.
    let mut infos = vec![parse_info(&line)];
    loop {
        line.clear();
        assert_ne!(s.stdout.read_line(&mut line).unwrap(), 0, "engine exited");
        if line == "\n" {
            break;
        }
        infos.push(parse_info(&line));
    }
    // Blocks start at order 0 and count up; within a block, the open moves by visits.
    let blocks = infos.iter().filter(|i| i.order == 0).count();
    assert!(blocks >= 2, "{blocks} blocks");
    for w in infos.windows(2) {
        if w[1].order != 0 {
            assert_eq!(w[1].order, w[0].order + 1);
            if w[0].proven.is_none() && w[1].proven.is_none() {
                assert!(w[0].visits >= w[1].visits, "{:?} then {:?}", w[0], w[1]);
            }
        }
    }
    let visits: Vec<u64> = infos.iter().filter(|i| i.order == 0).map(|i| i.visits).collect();
    assert!(visits.last() > visits.first(), "{visits:?}");
    // The next command's answer follows.
    let mut answer = String::new();
    s.stdout.read_line(&mut answer).unwrap();
    assert_eq!(answer, "= nash\n");
    line.clear();
    s.stdout.read_line(&mut line).unwrap();
    assert_eq!(s.ask("showboard").lines().last(), Some("white to move"));
    s.ask("quit");
    s.child.wait().unwrap();
}

#[test]
fn issue_61_nash_analyze_marks_proven_moves_and_waits_for_the_next_line() {
    // On 3x3 the search proves Black's win at once: its line says `proven win`, and the
    // command waits (no more lines) until the next line comes.
    let dir = crate::TempDir::new("htp-analyze-proven");
    let mut s = Session::start(&dir.0);
    s.ask("boardsize 3");
    writeln!(s.stdin, "nash-analyze 5").unwrap();
    s.stdin.flush().unwrap();
    let mut lines = Vec::new();
    loop {
        let mut line = String::new();
        assert_ne!(s.stdout.read_line(&mut line).unwrap(), 0, "engine exited");
        if line.starts_with("info") && parse_info(&line).proven.as_deref() == Some("win") {
            lines.push(line);
            break;
        }
        lines.push(line);
    }
    assert_eq!(lines[0], "=\n");
    std::thread::sleep(std::time::Duration::from_millis(100));
    writeln!(s.stdin, "# interrupt").unwrap();
    s.stdin.flush().unwrap();
    let mut rest = String::new();
    loop {
        let mut line = String::new();
        s.stdout.read_line(&mut line).unwrap();
        if line == "\n" {
            break;
        }
        rest.push_str(&line);
    }
    assert!(rest.lines().all(|l| l.starts_with("info ")), "{rest}");
    assert_eq!(s.ask("name"), "= nash\n");
    s.ask("quit");
    s.child.wait().unwrap();
}
