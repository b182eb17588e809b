//! `nash htp` as a child process: a scripted session over real pipes, with bad input that must
//! neither stop nor crash the engine.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The `nash` binary of this build, brought up to date first (`cargo build -p nash-cli` into
/// the same target directory and profile as this test).
fn nash_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/integration-<hash>
    let profile_dir = exe.parent().and_then(|d| d.parent()).expect("target/<profile>/deps");
    let target_dir = profile_dir.parent().expect("target dir");
    let nash = profile_dir.join(format!("nash{}", std::env::consts::EXE_SUFFIX));
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .args(["build", "-p", "nash-cli"])
        .current_dir(&workspace)
        .env("CARGO_TARGET_DIR", target_dir);
    // The same profile as this test, so that the dependencies this test was built with are
    // reused and the build is quick.
    if profile_dir.file_name().is_some_and(|n| n == "release") {
        build.arg("--release");
    } else {
        build.args(["--profile", "test"]);
    }
    let status = build.status().expect("cargo runs");
    assert!(status.success(), "cargo build -p nash-cli failed");
    assert!(nash.is_file(), "no nash binary at {}", nash.display());
    nash
}

#[test]
fn a_session_over_pipes_survives_bad_input() {
    let dir = std::env::temp_dir().join(format!("nash-htp-child-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("broken.sgf"), "(;GM[11]SZ[5];B[zz]").unwrap();
    let mut child = Command::new(nash_binary())
        .arg("htp")
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("nash htp starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |cmd: &str| -> String {
        writeln!(stdin, "{cmd}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert_ne!(stdout.read_line(&mut line).unwrap(), 0, "engine exited after {cmd:?}");
            if line == "\n" {
                return answer;
            }
            answer.push_str(&line);
        }
    };
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
    assert_eq!(ask("quit"), "= \n");
    let status = child.wait().unwrap();
    assert!(status.success(), "nash htp exit status {status}");
    std::fs::remove_dir_all(&dir).unwrap();
}
