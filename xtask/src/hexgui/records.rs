//! The records step of `cargo xtask hexgui`: game records that `nash` writes are opened in
//! HexGui with `nash htp` attached, one HexGui per record, and HexGui must read each as the
//! game `nash` reads: the moves it sends the engine, in order and with their colours, and the
//! position they make, are those of the record.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nash_board::sgf::{self, GameRecord};
use nash_board::{Color, Move, Position, WideBitboard};

use super::{exchanges, Exchange, Killed};

/// A record `nash` writes: its name, the `nash` arguments that write it (`{file}` stands for
/// the record's file, where `nash` writes it there rather than on standard output) and what
/// they read on standard input.
struct Written {
    name: &'static str,
    args: &'static [&'static str],
    stdin: &'static str,
}

/// A HexGui record with its swap (the stone stays, White moves again), written back by Nash.
const HEXGUI_SWAP: &str = "(;FF[4]GM[11]SZ[11];B[h4];W[swap-pieces];W[g7])\n";

/// The records: Little Golem's (its swap is the board-transform one), HexGui's swap, a club
/// game and a set-up position written back by `nash show`, and a game `nash play` saved.
const RECORDS: &[Written] = &[
    Written {
        name: "littlegolem-13x13",
        args: &["show", "testdata/games/littlegolem-13x13.sgf", "--sgf"],
        stdin: "",
    },
    Written { name: "hexgui-swap-11x11", args: &["show", "-", "--sgf"], stdin: HEXGUI_SWAP },
    Written {
        name: "club-5x5",
        args: &["show", "testdata/games/club-5x5.sgf", "--sgf"],
        stdin: "",
    },
    Written {
        name: "setup-5x5",
        args: &["show", "testdata/games/board-5x5.txt", "--sgf"],
        stdin: "",
    },
    Written {
        name: "play-3x3",
        args: &["play", "--size", "3", "--color", "white", "--sgf", "{file}"],
        stdin: include_str!("../../../testdata/play/3x3.txt"),
    },
];

/// Opens every record of [`RECORDS`] in HexGui on `display`; the problems found, one line
/// each (an empty list when HexGui read every record as Nash does).
pub(super) fn check(
    root: &Path,
    nash: &Path,
    jar: &Path,
    display: &str,
    out: &Path,
) -> anyhow::Result<Vec<String>> {
    let dir = out.join("records");
    std::fs::create_dir_all(dir.join("home"))?;
    let mut problems = Vec::new();
    for w in RECORDS {
        let file = dir.join(format!("{}.sgf", w.name));
        let text = write_record(root, nash, w, &file)?;
        let record = sgf::parse(&text).with_context(|| format!("nash wrote {}", file.display()))?;
        let log = open_in_hexgui(nash, jar, display, &dir, w.name, &file)?;
        let found = compare(&record, &log);
        println!(
            "{:<20} {}",
            w.name,
            if found.is_empty() { "HexGui reads the same game" } else { "DIFFERS" }
        );
        problems.extend(found.into_iter().map(|p| format!("{}: {p}", w.name)));
    }
    Ok(problems)
}

/// Runs `nash` as `w` says and writes what it wrote to `file`; the record's text.
fn write_record(root: &Path, nash: &Path, w: &Written, file: &Path) -> anyhow::Result<String> {
    use std::io::Write;
    let to_file = w.args.contains(&"{file}");
    let args: Vec<String> =
        w.args.iter().map(|a| a.replace("{file}", &file.display().to_string())).collect();
    let mut child = Command::new(nash)
        .args(&args)
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot run {}", nash.display()))?;
    child.stdin.take().context("no stdin")?.write_all(w.stdin.as_bytes())?;
    let output = child.wait_with_output()?;
    if !output.status.success() {
        bail!("nash {} failed: {}", args.join(" "), String::from_utf8_lossy(&output.stderr).trim());
    }
    if to_file {
        return std::fs::read_to_string(file)
            .with_context(|| format!("reading {}", file.display()));
    }
    let text = String::from_utf8(output.stdout)?;
    std::fs::write(file, &text)?;
    Ok(text)
}

/// Starts HexGui with `nash htp` attached and `file` opened, waits until it has sent the
/// record's moves and asked for the board, and returns its log.
fn open_in_hexgui(
    nash: &Path,
    jar: &Path,
    display: &str,
    dir: &Path,
    name: &str,
    file: &Path,
) -> anyhow::Result<String> {
    let log_path = dir.join(format!("{name}.log"));
    let log_file = std::fs::File::create(&log_path)?;
    let program = format!("{} htp", nash.display());
    let hexgui = Killed(
        Command::new("java")
            .arg("-jar")
            .arg(jar)
            .arg("-program")
            .arg(&program)
            .arg(file)
            .env("DISPLAY", display)
            .env("HOME", dir.join("home"))
            .stdout(log_file.try_clone()?)
            .stderr(log_file)
            .spawn()
            .context("cannot start java")?,
    );
    // Done when a `showboard` sent after the moves has its answer and the log then rests.
    let start = Instant::now();
    let mut last_len = 0;
    let mut quiet_since = Instant::now();
    loop {
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        let answered = log.rfind("sending 'showboard'").is_some_and(|at| {
            log[at..].contains("controller: success:") || log[at..].contains("controller: error:")
        });
        if log.len() != last_len {
            last_len = log.len();
            quiet_since = Instant::now();
        } else if answered && quiet_since.elapsed() > Duration::from_millis(1500) {
            drop(hexgui);
            return Ok(log);
        }
        if start.elapsed() > Duration::from_secs(90) {
            bail!("HexGui did not show {} within 90 s (its log: {})", name, log_path.display());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The commands HexGui sent from its last `boardsize` on.
fn sent_commands(log: &str) -> Vec<Exchange> {
    let all = exchanges(log);
    let from = all.iter().rposition(|x| x.command.starts_with("boardsize")).unwrap_or(0);
    all.into_iter().skip(from).collect()
}

/// How HexGui's commands differ from the record: its moves (HexGui sends setup stones as the
/// `play` commands before the record's first move, and a resignation as a `play`), the
/// position they make, and HexGui's errors.
fn compare(record: &GameRecord, log: &str) -> Vec<String> {
    let mut problems: Vec<String> = ["Caught error", "Disconnected", "controller: invalid"]
        .iter()
        .flat_map(|bad| log.lines().filter(move |l| l.contains(bad)))
        .map(|l| format!("HexGui: {l}"))
        .collect();
    let sent = sent_commands(log);
    let Some(Exchange { command: size, .. }) = sent.first() else {
        problems.push("HexGui sent no boardsize".into());
        return problems;
    };
    let want_size = format!("boardsize {} {}", record.cols, record.rows);
    if *size != want_size {
        problems.push(format!("HexGui sent {size:?}, the record is {want_size:?}"));
        return problems;
    }
    let mut played: Vec<(Color, Move)> = Vec::new();
    for Exchange { command, error, .. } in &sent {
        let words: Vec<&str> = command.split_whitespace().collect();
        if let ["play", color, mv] = words.as_slice() {
            if error.is_some() {
                problems.push(format!("HexGui's {command:?} was refused"));
            }
            match (color.parse::<Color>(), mv.parse::<Move>()) {
                // HTP's `swap-pieces` is the stone-stays swap, nash-board's `swap-sides`.
                (Ok(c), Ok(Move::SwapPieces)) => played.push((c, Move::SwapSides)),
                // HexGui tells the engine a resignation as a move; it changes no stone.
                (Ok(_), Ok(Move::Resign)) => {}
                (Ok(c), Ok(m)) => played.push((c, m)),
                _ => problems.push(format!("cannot read HexGui's {command:?}")),
            }
        }
    }
    let moves: Vec<(Color, Move)> =
        record.moves.iter().copied().filter(|&(_, m)| m != Move::Resign).collect();
    let setup = played.len().saturating_sub(moves.len());
    if played[setup..] != moves[..] {
        problems.push(format!(
            "HexGui played {}, the record has {}",
            show_moves(&played[setup..]),
            show_moves(&moves)
        ));
    }
    // The position: the commands replayed (setup stones as HexGui placed them) against the
    // record's own.
    let want = match record.position::<WideBitboard>(None) {
        Ok(p) => p,
        Err(e) => {
            problems.push(format!("nash cannot replay its own record: {e}"));
            return problems;
        }
    };
    let Ok(mut got) = Position::<WideBitboard>::new(record.cols, record.rows) else {
        return problems;
    };
    for &(c, m) in &played {
        if let Err(e) = got.apply_as(c, m) {
            problems.push(format!("{c} {m} on HexGui's board: {e}"));
        }
    }
    if got.black() != want.black() || got.white() != want.white() {
        problems.push(format!("HexGui's board:\n{got}\nNash's:\n{want}"));
    }
    if setup == 0 && got.to_move() != want.to_move() {
        problems.push(format!("HexGui has {} to move, Nash {}", got.to_move(), want.to_move()));
    }
    problems
}

fn show_moves(moves: &[(Color, Move)]) -> String {
    let list: Vec<String> = moves.iter().map(|(c, m)| format!("{c} {m}")).collect();
    format!("[{}]", list.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(commands: &[&str]) -> String {
        commands
            .iter()
            .map(|c| format!("controller: sending '{c}'\ncontroller: success: ''\n"))
            .collect()
    }

    #[test]
    fn a_swap_read_as_the_record_says_is_no_problem() {
        let record = sgf::parse(HEXGUI_SWAP).unwrap();
        let log = log(&[
            "boardsize 11 11",
            "play black h4",
            "play white swap-pieces",
            "play white g7",
            "showboard",
        ]);
        assert_eq!(compare(&record, &log), Vec::<String>::new());
    }

    #[test]
    fn setup_stones_and_a_resignation_sent_as_plays_are_no_problem() {
        let record =
            sgf::parse("(;FF[4]GM[11]SZ[5];AB[d2][c3]AW[c2][b4]PL[W];W[e1];B[resign])").unwrap();
        let log = log(&[
            "boardsize 5 5",
            "play black d2",
            "play black c3",
            "play white c2",
            "play white b4",
            "play white e1",
            "play black resign",
            "showboard",
        ]);
        assert_eq!(compare(&record, &log), Vec::<String>::new());
    }

    #[test]
    fn another_threads_line_inside_an_answer_is_no_refusal() {
        let record = sgf::parse("(;FF[4]GM[11]SZ[5];B[b3];W[c3])").unwrap();
        let log = "controller: sending 'boardsize 5 5'\ncontroller: success: ''\n\
                   controller: sending 'play black b3'\n\
                   controller: success: sendCommand: 'showboard'\n''\n\
                   controller: sending 'play white c3'\ncontroller: error: 'cell occupied'\n";
        let problems = compare(&record, log);
        assert_eq!(problems, ["HexGui's \"play white c3\" was refused"], "{problems:#?}");
    }

    #[test]
    fn a_swap_read_as_a_board_transform_differs() {
        let record = sgf::parse(HEXGUI_SWAP).unwrap();
        let log = log(&["boardsize 11 11", "play black h4", "play white d8", "play white g7"]);
        let problems = compare(&record, &log);
        assert!(problems.iter().any(|p| p.starts_with("HexGui played")), "{problems:#?}");
    }
}
