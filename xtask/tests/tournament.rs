//! `cargo xtask tournament` end to end, on 4x4 with a few games: Nash engines against each
//! other, engines that crash, hang or play illegal moves, and a resumed tournament.

use std::path::{Path, PathBuf};
use std::process::Command;

const XTASK: &str = env!("CARGO_BIN_EXE_xtask");

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nash-tournament-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the tournament with `args` and the output in `out`; its exit success and stdout.
fn tournament(out: &Path, args: &[&str]) -> (bool, String, String) {
    let o = Command::new(XTASK)
        .arg("tournament")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("xtask runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (o.status.success(), text(&o.stdout), text(&o.stderr))
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn game_lines(out: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// A Nash engine: the hidden `xtask htp` serves the same engine as `nash htp`.
fn nash_engine(name: &str, player: &str) -> String {
    format!("{name}={XTASK} htp --player {player}")
}

#[test]
fn two_nash_players_play_both_colours_of_each_opening() {
    let out = scratch("nash");
    let (ok, stdout, stderr) = tournament(
        &out,
        &["--player", "random:seed=3", "--player", "greedy", "--nash", XTASK, "--size", "4"],
    );
    assert!(ok, "{stdout}\n{stderr}");
    // Two openings (a2, a3), each with both colours.
    let games = game_lines(&out);
    assert_eq!(games.len(), 4, "{stdout}");
    for g in &games {
        assert!(["connection", "resignation"].contains(&g["reason"].as_str().unwrap()), "{g}");
    }
    let sgfs: Vec<_> = std::fs::read_dir(out.join("games")).unwrap().collect();
    assert_eq!(sgfs.len(), 4);
    let first =
        std::fs::read_to_string(out.join("games/0001-random_seed_3-greedy-a2.sgf")).unwrap();
    assert!(first.starts_with("(;FF[4]GM[11]SZ[4]PB[random:seed=3]PW[greedy]RE["), "{first}");
    assert!(first.contains(";B[a2]"), "{first}");
    let results = json(&out.join("results.json"));
    assert_eq!(results["games"], 4);
    let wins: u64 =
        results["engines"].as_array().unwrap().iter().map(|e| e["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, 4);
    assert_eq!(results["pairings"][0]["games"], 4);
    assert!(stdout.contains("win rate (95%)") && stdout.contains("Elo (95%)"), "{stdout}");
    std::fs::remove_dir_all(&out).unwrap();
}

/// An HTP engine in POSIX shell that accepts every command and fails at `genmove` as `mode`
/// says: `crash` exits, `hang` never answers, `illegal` plays the occupied a2.
const FAKE: &str = r#"
while read -r cmd rest; do
  case "$cmd" in
    genmove)
      case "$1" in
        crash) exit 3 ;;
        hang) exec sleep 30 ;;
        illegal) printf '= a2\n\n' ;;
      esac ;;
    quit) printf '= \n\n'; exit 0 ;;
    *) printf '= \n\n' ;;
  esac
done
"#;

#[test]
fn engines_that_crash_hang_or_play_illegal_moves_lose_and_the_games_go_on() {
    let out = scratch("faults");
    let script = out.join("fake.sh");
    std::fs::write(&script, FAKE).unwrap();
    let fake = |mode: &str| format!("{mode}=sh {} {mode}", script.display());
    let (crash, hang, illegal) = (fake("crash"), fake("hang"), fake("illegal"));
    let nash = nash_engine("nash", "random:seed=1");
    let args = [
        "--gauntlet",
        "--engine",
        &nash,
        "--engine",
        &crash,
        "--engine",
        &hang,
        "--engine",
        &illegal,
        "--size",
        "4",
        "--openings",
        "a2",
        "--time",
        "0.2",
        "--grace",
        "0.3",
        "--threads",
        "3",
    ];
    let started = std::time::Instant::now();
    let (ok, stdout, stderr) = tournament(&out, &args);
    assert!(ok, "{stdout}\n{stderr}");
    // The hung engine is given up on after its time and grace, not after its 30 s sleep.
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    let games = game_lines(&out);
    assert_eq!(games.len(), 6, "{stdout}");
    for g in &games {
        let nash_colour = if g["black"] == "nash" { "black" } else { "white" };
        assert_eq!(g["winner"], nash_colour, "{g}");
        let loser = if g["black"] == "nash" { &g["white"] } else { &g["black"] };
        let want = match loser.as_str().unwrap() {
            "crash" => "crash",
            "hang" => "time",
            _ => "illegal",
        };
        assert_eq!(g["reason"], want, "{g}");
        assert!(g["detail"].as_str().is_some_and(|d| !d.is_empty()), "{g}");
    }
    let sgf = std::fs::read_to_string(out.join("games/0002-crash-nash-a2.sgf")).unwrap();
    assert!(sgf.contains("RE[W+F]") && sgf.contains("GC["), "{sgf}");
    let results = json(&out.join("results.json"));
    let forfeits: Vec<u64> = results["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["forfeits"].as_u64().unwrap())
        .collect();
    assert_eq!(forfeits, [0, 2, 2, 2]);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_rerun_skips_the_games_already_played_and_refuses_other_settings() {
    let out = scratch("resume");
    let (a, b) = (nash_engine("a", "random:seed=1"), nash_engine("b", "random:seed=2"));
    let args = ["--engine", &a, "--engine", &b, "--size", "4", "--openings", "a2 a3"];
    let (ok, stdout, stderr) = tournament(&out, &args);
    assert!(ok, "{stdout}\n{stderr}");
    let full = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert_eq!(full.lines().count(), 4);
    // An interruption: one game finished, and the next one's line cut short.
    let first = full.lines().next().unwrap();
    std::fs::write(out.join("games.jsonl"), format!("{first}\n{{\"id\":\"00")).unwrap();
    let (ok, stdout, stderr) = tournament(&out, &args);
    assert!(ok, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("4 games: 2 engines, 2 openings on 4x4, 1s a move; 1 already played"),
        "{stdout}"
    );
    let games = game_lines(&out);
    assert_eq!(games.len(), 4);
    let mut ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 4, "every game once: {ids:?}");
    // A complete tournament plays nothing more.
    let (ok, stdout, _) = tournament(&out, &args);
    assert!(ok && stdout.contains("4 already played"), "{stdout}");
    assert_eq!(game_lines(&out).len(), 4);
    // Other settings in the same directory are refused, naming it.
    let (ok, _, stderr) = tournament(&out, &["--engine", &a, "--engine", &b, "--size", "5"]);
    assert!(!ok && stderr.contains("other settings"), "{stderr}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn bad_arguments_get_one_line_errors() {
    let out = scratch("args");
    let cases: [(&[&str], &str); 5] = [
        (&["--engine", "a=x"], "at least two engines"),
        (&["--engine", "a=x", "--engine", "a=y"], "two engines are named \"a\""),
        (&["--engine", "a b=x"], "expected NAME=COMMAND"),
        (
            &["--engine", "a=x", "--engine", "b=y", "--openings", "e5", "--size", "4"],
            "opening e5 is not on the 4x4 board",
        ),
        (&["--engine", "a=x", "--engine", "b=y", "--send", "c=name"], "no engine is named \"c\""),
    ];
    for (args, want) in cases {
        let (ok, _, stderr) = tournament(&out, args);
        assert!(!ok && stderr.contains(want), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&out).unwrap();
}
