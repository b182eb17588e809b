//! Showing the work: `--svg` pictures, the principal variation after a solve, and `--progress`
//! lines on stderr.

use crate::nash;
use std::path::PathBuf;

use nash_board::{Bitboard, Cell, Color, MoveList, Position};

/// A path for a picture in a fresh temporary directory.
fn temp_svg(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nash-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs `nash args… --svg FILE`, checks that it succeeds, and returns the picture.
fn picture(name: &str, args: &[&str]) -> String {
    let path = temp_svg(name);
    let mut all = args.to_vec();
    all.extend(["--svg", path.to_str().unwrap()]);
    let (code, _, stderr) = nash(&all);
    assert_eq!(code, 0, "nash {all:?}: {stderr}");
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    svg
}

#[test]
fn every_drawing_command_writes_its_picture() {
    let shown = picture("show.svg", &["show", "a1 b2", "--size", "3"]);
    // Nine cells, two stones and the last move's mark.
    assert_eq!(shown.matches("<polygon").count(), 9);
    assert_eq!(shown.matches("<circle").count(), 3);

    // 4x4 after a1: White wins exactly with c2 b3 a4 (testdata/solved.tsv).
    let winning = picture("winning.svg", &["winning", "a1", "--size", "4"]);
    assert!(winning.contains(">winning moves for white</text>"), "{winning}");
    assert_eq!(winning.matches("fill=\"#2ca02c\"").count(), 3 + 1, "three moves and the legend");

    let solved = picture("solve.svg", &["solve", "a1", "--size", "4"]);
    assert!(solved.contains(">proof carrier</text>") && solved.contains(">winning move</text>"));
    assert!(solved.contains(">white to move wins; numbered: the principal variation</text>"));

    let ica = picture("ica.svg", &["ica", "a1 b2 c3", "--size", "5"]);
    assert!(ica.contains("to move</text>"), "{ica}");

    let vc = picture("vc.svg", &["vc", "b2", "--size", "5", "--color", "b"]);
    assert!(vc.contains(">carrier of black's"), "{vc}");
    assert!(vc.contains(">mustplay for white</text>"), "{vc}");
}

#[test]
fn a_picture_that_cannot_be_written_is_one_line() {
    let (code, stdout, stderr) =
        nash(&["show", "a1", "--size", "3", "--svg", "/nonexistent-dir/board.svg"]);
    assert_ne!(code, 0);
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot write the picture /nonexistent-dir/board.svg"), "{stderr}");
    let (code, _, stderr) = nash(&["solve", "--batch", "x.txt", "--svg", "x.svg"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("--svg"), "{stderr}");
}

/// The principal variation of `nash solve … --json`, checked as a line of play: legal moves,
/// alternating from the side to move, ending when the winner the solve named connects.
fn check_line(moves: &str, size: usize) {
    let (code, stdout, stderr) = nash(&["solve", moves, "--size", &size.to_string(), "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let winner: Color = report["winner"].as_str().unwrap().parse().unwrap();
    let line: Vec<Cell> = report["principal_variation"]
        .as_array()
        .unwrap_or_else(|| panic!("no line in {stdout}"))
        .iter()
        .map(|c| c.as_str().unwrap().parse().unwrap())
        .collect();
    let mut pos = Position::<Bitboard>::square(size).unwrap();
    moves.parse::<MoveList>().unwrap().play_on(&mut pos).unwrap();
    if report["result"] == "win" {
        assert_eq!(report["winning_move"].as_str(), Some(line[0].to_string().as_str()));
    }
    for (i, &cell) in line.iter().enumerate() {
        assert_eq!(pos.winner(), None, "{moves}: the game ended before move {i} of {line:?}");
        pos.play(cell).unwrap_or_else(|e| panic!("{moves}: {cell} in {line:?}: {e}"));
    }
    assert_eq!(pos.winner(), Some(winner), "{moves}: {line:?}");
}

#[test]
fn the_principal_variation_is_a_won_game() {
    check_line("-", 3);
    check_line("a1", 4);
    check_line("b2", 4);
    check_line("c3", 5);
    // The empty 6x6 board: the line once started d3 where the solve named c4.
    check_line("-", 6);
    let (code, stdout, _) = nash(&["solve", "a1", "--size", "4"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("principal variation ("), "{stdout}");
    assert!(stdout.contains("(white connects)"), "{stdout}");
    // A finished game has no line.
    let (code, stdout, _) = nash(&["solve", "b1 a1 b2 a2 b3", "--size", "3"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("black wins") && !stdout.contains("principal variation"), "{stdout}");
    // --no-pv skips it: the value alone, and `null` in JSON.
    let (code, stdout, _) = nash(&["solve", "a1", "--size", "4", "--no-pv"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("white wins") && !stdout.contains("principal variation"), "{stdout}");
    let (code, stdout, _) = nash(&["solve", "a1", "--size", "4", "--no-pv", "--json"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("\"principal_variation\": null"), "{stdout}");
}

#[test]
fn progress_lines_go_to_stderr_when_asked() {
    // stderr is a pipe here: no bar, and without --progress nothing at all.
    let (code, _, stderr) = nash(&["winning", "a1", "--size", "4"]);
    assert_eq!(code, 0);
    assert!(stderr.is_empty(), "{stderr}");
    let (code, stdout, stderr) = nash(&["winning", "a1", "--size", "4", "--progress"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("c2 b3 a4"), "{stdout}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("deciding every move: done, "), "{stderr}");
    assert!(last.contains("15 of 15 decided"), "{stderr}");
    let (code, _, stderr) = nash(&["solve", "a1", "--size", "4", "--progress"]);
    assert_eq!(code, 0);
    assert!(stderr.starts_with("solving: done, "), "{stderr}");
}

/// The pictures of docs/pictures and the commands that draw them (with `--svg FILE` added).
/// Each follows from exact answers (a winning set, the inferior cell analysis, H-search) or a
/// player's fixed playouts and seed, so a difference is a change of behaviour or of the
/// drawing; but a solve's carrier and line
/// depend on the search's move order, so the solve's picture is compared only in shape.
/// `NASH_BLESS=1` draws them all anew.
const DOCS_PICTURES: &[(&str, &[&str])] = &[
    ("winning-5x5.svg", &["winning", "-", "--size", "5"]),
    ("winning-6x6-a1.svg", &["winning", "a1", "--size", "6"]),
    ("ica-6x6.svg", &["ica", "b2 c2 d4 b4 e2", "--size", "6"]),
    ("vc-5x5.svg", &["vc", "b2", "--size", "5", "--color", "b"]),
    ("solve-5x5-a2.svg", &["solve", "a2", "--size", "5"]),
    (
        "genmove-9x9-e5.svg",
        &[
            "genmove",
            "e5",
            "--size",
            "9",
            "--player",
            "best:playouts=2000",
            "--solve-time",
            "0",
            "--no-swap",
        ],
    ),
];

#[test]
fn the_docs_pictures_are_what_the_commands_draw() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/pictures");
    let bless = std::env::var_os("NASH_BLESS").is_some();
    for (name, args) in DOCS_PICTURES {
        let drawn = picture(name, args);
        let path = dir.join(name);
        if bless {
            std::fs::write(&path, &drawn).unwrap();
            continue;
        }
        let kept = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (NASH_BLESS=1 draws it)", path.display()));
        if name.starts_with("solve") {
            let cells = |svg: &str| svg.matches("<polygon").count();
            assert_eq!(cells(&drawn), cells(&kept), "{name}");
            assert!(kept.contains(">winning move</text>"), "{name}");
        } else {
            assert!(
                drawn == kept,
                "docs/pictures/{name} is not what `nash {}` draws",
                args.join(" ")
            );
        }
    }
}
