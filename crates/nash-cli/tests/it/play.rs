//! `nash play` with its input piped: whole games, the person's commands, and the record saved.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use nash_board::sgf::GameRecord;
use nash_board::{Color, Move};

/// A scratch directory for one test's records.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nash-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `nash play ARGS` in `dir` with `input` on standard input: exit code, stdout, stderr.
fn play(dir: &Path, args: &[&str], input: impl AsRef<[u8]>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nash"))
        .arg("play")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nash play starts");
    child.stdin.take().unwrap().write_all(input.as_ref()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn record(path: &Path) -> GameRecord {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.parse().unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn a_piped_game_is_played_to_the_end_and_saved() {
    let dir = scratch("whole");
    // The person (White) tries every cell in turn; taken ones are refused and play goes on.
    let input = "help\nswap\nundo\nz9\na1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n";
    let (code, out, err) =
        play(&dir, &["--size", "3", "--color", "white", "--sgf", "game.sgf"], input);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(
        "you play white (left to right), Nash plays black with best; type help for the commands\n"
    ));
    // Black's opening on 3x3 is proven to win, and so is every move after it.
    assert!(out.contains("Nash plays b2, a proven win"), "{out}");
    assert!(out.contains("your move (white): swap\n"), "{out}");
    assert!(out.contains("? cell z9 is not on the 3x3 board"), "{out}");
    assert!(out.contains("Nash wins: black has connected"), "{out}");
    assert!(out.trim_end().ends_with("game record saved to game.sgf"), "{out}");
    let rec = record(&dir.join("game.sgf"));
    assert_eq!(rec.property("RE"), Some("B+"));
    // The player by the name given; its every setting in the game comment.
    assert_eq!(rec.property("PB"), Some("nash best"));
    assert!(
        rec.property("GC").is_some_and(|p| p.starts_with("Nash's player: best:c=")),
        "{:?}",
        rec.property("GC")
    );
    assert_eq!(rec.property("PW"), Some("human"));
    let pos = rec.any_position(None).unwrap();
    assert_eq!(nash_board::with_position!(&pos, p => p.winner()), Some(Color::Black));
    // The swap was taken back: the record is the game as it ended.
    assert!(!rec.moves.iter().any(|(_, m)| *m == Move::SwapPieces), "{:?}", rec.moves);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue62_a_line_that_is_not_utf8_is_reported_and_the_game_goes_on() {
    let dir = scratch("utf8");
    let mut input = b"b2\n\xff\xfe c3\n".to_vec();
    input.extend_from_slice(&vec![b'x'; (1 << 20) + 1]);
    input.extend_from_slice(b"\nquit\n");
    let (code, out, err) = play(&dir, &["--size", "4", "--sgf", "u.sgf"], input);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("? not UTF-8 text; type help for the commands"), "{out}");
    assert!(out.contains("? line too long; type help for the commands"), "{out}");
    assert!(out.contains("game stopped"), "{out}");
    let rec = record(&dir.join("u.sgf"));
    assert_eq!(rec.moves.first(), Some(&(Color::Black, Move::Cell("b2".parse().unwrap()))));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn swap_undo_resign_and_quit() {
    let dir = scratch("commands");
    // Swap stays in the record when not taken back; resigning ends the game.
    let (code, out, _) = play(
        &dir,
        &["--size", "5", "--color", "white", "--sgf", "r.sgf", "--player", "random:seed=2"],
        "swap\nresign\n",
    );
    assert_eq!(code, 0);
    assert!(out.contains("black wins by resignation"), "{out}");
    // The record is in HexGui's form: the stone stays, the players exchange colours, and
    // what follows is mirrored with its colours exchanged (the person resigns as Black).
    let rec = record(&dir.join("r.sgf"));
    assert_eq!(rec.property("RE"), Some("W+R"));
    assert_eq!(rec.property("PB"), Some("human"));
    assert_eq!(rec.moves.get(1), Some(&(Color::White, Move::SwapSides)), "{:?}", rec.moves);
    assert_eq!(rec.moves.last(), Some(&(Color::Black, Move::Resign)));
    // Undo with nothing to undo; then a move, undo, quit: nothing is left but the record.
    let (code, out, _) = play(&dir, &["--size", "4", "--sgf", "q.sgf"], "undo\nb2\nundo\nquit\n");
    assert_eq!(code, 0);
    assert!(out.contains("nothing to undo: you have not moved yet"), "{out}");
    assert!(out.contains("game stopped"), "{out}");
    let rec = record(&dir.join("q.sgf"));
    assert_eq!(rec.property("RE"), None);
    assert!(rec.moves.is_empty(), "{:?}", rec.moves);
    // With swapping off, a swap is refused; the end of the input stops the game, and the
    // record gets a name of its own.
    let (code, out, _) = play(&dir, &["--size", "4", "--color", "white", "--no-swap"], "swap\n");
    assert_eq!(code, 0);
    assert!(out.contains("? swapping is off (--no-swap)"), "{out}");
    let saved: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("nash-game-") && n.ends_with(".sgf"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_options_are_one_line_and_a_failure() {
    let dir = scratch("bad");
    for (args, says) in [
        (&["--color", "green"][..], "invalid value 'green' for '--color"),
        (&["--player", "nobody"][..], "unknown player 'nobody'"),
        (&["--size", "0"][..], "invalid board size 0x0"),
        (&["--sgf", "no/such/dir/g.sgf"][..], "cannot write the game record to no/such/dir/g.sgf"),
    ] {
        let (code, _, err) = play(&dir, args, "");
        assert_ne!(code, 0, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A word that is neither a cell nor a command is answered with the commands there are, and a
/// position Nash has proven lost is said in words, not as its score.
#[test]
fn issue61_bad_words_and_proven_losses_read_as_words() {
    let dir = scratch("words");
    let args = ["--size", "3", "--no-swap", "--sgf", "w.sgf"];
    let (code, out, err) = play(&dir, &args, "zz\nb2\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "? \"zz\" is neither a cell nor a command: type a cell such as b2, or swap, undo, \
             resign, quit or help"
        ),
        "{out}"
    );
    // Black's centre wins 3x3, which the player has proven before it replies.
    assert!(out.contains("Nash plays"), "{out}");
    assert!(out.contains(", though Nash has proven it lost"), "{out}");
    assert!(!out.contains("00000"), "{out}");
    // And with the alpha-beta player, whose proven scores are a little below the largest.
    let args = ["--size", "5", "--no-swap", "--player", "alphabeta", "--sgf", "a.sgf"];
    let (code, out, err) = play(&dir, &args, "c3\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(", though Nash has proven it lost"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
