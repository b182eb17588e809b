//! `cargo xtask bench vs-ref`: Nash's df-pn against another engine's, side by side in one run.
//!
//! Both engines are HTP processes started once and asked the same questions: for each position
//! `boardsize`, `clear_board`, the moves, `dfpn-clear-tt` (every solve starts from an empty
//! table), then a timed `dfpn-solve-state COLOUR`. Which engine goes first alternates from one
//! position to the next, so neither always runs on a machine warmed (or loaded) by the other.
//! Every answer is checked against the known value: a wrong winner stops the run. Each solve's
//! counts are recorded where the engine tells: Nash's `nash-solve-stats`, MoHex's statistics
//! on its standard error (`Work`, `MID calls`, `VC builds`).
//! Results are appended to a JSON-lines file as each position ends; a rerun with the same
//! settings skips what is already there, so a long run (the 8x8 openings) survives interruption.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nash_board::{Color, Position};
use serde::{Deserialize, Serialize};

use crate::htp::{build_nash, Engine};
use crate::regress::{openings, Case};

/// Arguments of `cargo xtask bench vs-ref`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The reference engine's command line (split at spaces), e.g. MoHex with
    /// `--use-logfile=0 --quiet` (without `--quiet`, its counts are read from its log).
    #[arg(long, value_name = "COMMAND")]
    engine: String,
    /// The `nash` binary (default: `cargo build --release -p nash-cli`).
    #[arg(long)]
    nash: Option<PathBuf>,
    /// Position sets, in order (comma-separated): `7x7` (the 49 one-move openings), `8x8` (the
    /// empty board), `8x8-openings` (the 64 one-move openings), `8x8-hard` (the sixteen
    /// one-move openings that take the solvers longest; run it with `--time-limit 900`).
    #[arg(long, value_delimiter = ',', default_values_t = [Set::Seven, Set::Eight])]
    sets: Vec<Set>,
    /// Only these positions (opening cells, `-` for an empty board), space- or comma-separated.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    only: Vec<String>,
    /// Solver threads, the same for both engines (`param_dfpn threads N`).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Seconds each engine may spend on one position (`param_dfpn timelimit S`); an engine that
    /// has not answered 30 seconds later is stopped.
    #[arg(long, default_value = "600", value_parser = crate::parse_seconds)]
    time_limit: Duration,
    /// The df-pn table size in Benzene's entries, the same for both engines (`param_dfpn
    /// tt_size N`; Nash reads it as N times 128 bytes); each engine's own default without it.
    #[arg(long, value_name = "ENTRIES", value_parser = clap::value_parser!(u32).range(1..))]
    tt_size: Option<u32>,
    /// The results file (JSON lines), appended as positions end and reused by a rerun.
    #[arg(long, default_value = "target/bench-vs-ref/results.jsonl")]
    out: PathBuf,
    /// Rounds: the sets are run this many times, one round after the other, and each set's
    /// totals are summed up over the rounds by their medians. One two-thread solve lands
    /// anywhere in a wide spread (the empty 8x8 board's ratio moves by half from run to run),
    /// so a single round says little.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    repeat: u32,
}

/// A set of positions with known values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Set {
    /// The 49 one-move 7x7 openings.
    #[value(name = "7x7")]
    Seven,
    /// The empty 8x8 board.
    #[value(name = "8x8")]
    Eight,
    /// The 64 one-move 8x8 openings.
    #[value(name = "8x8-openings")]
    EightOpenings,
    /// The sixteen one-move 8x8 openings that take the solvers longest ([`HARD_8X8`]).
    #[value(name = "8x8-hard")]
    EightHard,
}

/// The hardest one-move 8x8 openings for both solvers: the ten on which Nash took longer than
/// MoHex in total (b1 to g4), and six more of the slowest of the 8x8 map (h1 to a4).
const HARD_8X8: [&str; 16] = [
    "b1", "d1", "e1", "f1", "c2", "f2", "a3", "b3", "h3", "g4", "h1", "h2", "g3", "h4", "b4", "a4",
];

impl std::fmt::Display for Set {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Set::Seven => "7x7",
            Set::Eight => "8x8",
            Set::EightOpenings => "8x8-openings",
            Set::EightHard => "8x8-hard",
        })
    }
}

impl Set {
    fn cases(self) -> anyhow::Result<Vec<Case>> {
        Ok(match self {
            Set::Seven => openings(7)?,
            Set::EightOpenings => openings(8)?,
            Set::EightHard => {
                let hard: Vec<Case> = openings(8)?
                    .into_iter()
                    .filter(|c| HARD_8X8.contains(&c.label.as_str()))
                    .collect();
                anyhow::ensure!(
                    hard.len() == HARD_8X8.len(),
                    "8x8-hard: the 8x8 map lacks an opening"
                );
                hard
            }
            // First player wins every empty n×n board.
            Set::Eight => vec![Case {
                label: "-".into(),
                pos: Position::square(8)?,
                winner: Color::Black,
                winning: None,
            }],
        })
    }
}

/// One engine's answer on one position.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Solve {
    /// `black`, `white`, or `unknown` (stopped by the time limit).
    winner: String,
    seconds: f64,
    /// The counts of the search, where the engine tells (Nash's `nash-solve-stats`, MoHex's
    /// statistics on its standard error, which `--quiet` leaves out).
    #[serde(default, skip_serializing_if = "Counts::is_empty")]
    counts: Counts,
}

/// What a solve visited, in units both engines give: every node entered (MoHex's `Work`:
/// its `MID calls` and its `Terminal` nodes), the nodes whose children were searched (its
/// `MID calls`) and the analyses run (its `VC builds`). The last two are comparable only
/// roughly: each engine decides in its own way what it analyses at once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Counts {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    visits: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expanded: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    analyses: Option<u64>,
}

impl Counts {
    fn is_empty(&self) -> bool {
        *self == Counts::default()
    }

    /// Nash's `nodes N expanded E analyses A seconds S`.
    fn from_stats(answer: &str) -> Counts {
        let words: Vec<&str> = answer.split_whitespace().collect();
        let get = |name: &str| {
            let i = words.iter().position(|w| *w == name)?;
            words.get(i + 1)?.parse().ok()
        };
        Counts { visits: get("nodes"), expanded: get("expanded"), analyses: get("analyses") }
    }

    /// The last `Work`, `MID calls` and `VC builds` lines of a MoHex log.
    fn from_log(lines: &[String]) -> Counts {
        let last = |label: &str| {
            lines.iter().rev().find_map(|l| l.strip_prefix(label)?.trim().parse().ok())
        };
        Counts { visits: last("Work"), expanded: last("MID calls"), analyses: last("VC builds") }
    }
}

/// One line of the results file.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Record {
    set: String,
    position: String,
    /// The round of `--repeat` (0 for the first, and in files written before rounds).
    #[serde(default, skip_serializing_if = "is_zero")]
    round: u32,
    threads: u16,
    time_limit: f64,
    engine: String,
    nash: Solve,
    reference: Solve,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// What makes two records the same measurement: the position, the round and the settings.
type Key = (String, String, u32, u16, u64, String);

impl Record {
    fn key(&self) -> Key {
        (
            self.set.clone(),
            self.position.clone(),
            self.round,
            self.threads,
            self.time_limit.to_bits(),
            self.engine.clone(),
        )
    }
}

/// The records already in `path` (a line cut short by an interruption is dropped).
fn load(path: &Path) -> anyhow::Result<HashMap<Key, Record>> {
    let mut out = HashMap::new();
    let Ok(file) = File::open(path) else { return Ok(out) };
    for line in BufReader::new(file).lines() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        if let Ok(r) = serde_json::from_str::<Record>(&line) {
            out.insert(r.key(), r);
        }
    }
    Ok(out)
}

/// A started engine and what its answers are checked against.
struct Side {
    engine: Engine,
    name: &'static str,
    /// Where the solve's counts come from.
    source: Source,
}

/// Where a side's counts come from.
enum Source {
    /// Nash's `nash-solve-stats` after the solve.
    Command,
    /// The statistics the engine wrote to its standard error during the solve (MoHex's df-pn
    /// statistics); the lines are cleared before each solve.
    Log(Arc<Mutex<Vec<String>>>),
}

impl Side {
    fn nash(program: &Path) -> anyhow::Result<Side> {
        let engine = Engine::start(program, &["htp".into()], Path::new("."), false)?;
        Ok(Side { engine, name: "nash", source: Source::Command })
    }

    fn reference(program: &Path, args: &[String]) -> anyhow::Result<Side> {
        let (engine, log) = Engine::start_logged(program, args, Path::new("."))?;
        Ok(Side { engine, name: "reference", source: Source::Log(log) })
    }

    /// The counts of the solve that has just answered, where the engine tells.
    fn counts(&mut self) -> Counts {
        match &self.source {
            Source::Command => {
                match self.engine.ask("nash-solve-stats", Some(Duration::from_secs(10))) {
                    Ok(Ok(a)) => Counts::from_stats(&a),
                    _ => Counts::default(),
                }
            }
            Source::Log(log) => {
                // The statistics are written before the answer, but on another pipe: give
                // the reader a moment to catch up.
                let deadline = Instant::now() + Duration::from_secs(2);
                loop {
                    let found = Counts::from_log(&log.lock().unwrap_or_else(|e| e.into_inner()));
                    // `VC builds` follows `MID calls` and `Work` comes last of the three.
                    if found.visits.is_some() || Instant::now() >= deadline {
                        return found;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        }
    }

    /// Forgets what the engine has logged so far, so that [`Side::counts`] reads the next
    /// solve's lines alone.
    fn clear_log(&self) {
        if let Source::Log(log) = &self.source {
            log.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }

    fn must(&mut self, command: &str) -> anyhow::Result<String> {
        match self.engine.ask(command, Some(Duration::from_secs(60)))? {
            Ok(a) => Ok(a),
            Err(e) => bail!("{} refused {command:?}: {e}", self.name),
        }
    }

    /// Sets up `case` with an empty table, then times the solve.
    fn solve(&mut self, case: &Case, limit: Duration) -> anyhow::Result<Solve> {
        let n = case.pos.cols();
        let m = case.pos.rows();
        self.must(&format!("boardsize {n} {m}"))?;
        self.must("clear_board")?;
        for (color, mv) in case.pos.history() {
            self.must(&format!("play {color} {mv}"))?;
        }
        self.must("dfpn-clear-tt")?;
        let to_move = case.pos.to_move();
        self.clear_log();
        let started = Instant::now();
        let answer = self
            .engine
            .ask(&format!("dfpn-solve-state {to_move}"), Some(limit + Duration::from_secs(30)))
            .with_context(|| format!("{} on {}", self.name, case.label))?;
        let seconds = started.elapsed().as_secs_f64();
        let winner = match answer {
            Ok(a) => match a.to_ascii_lowercase().as_str() {
                "black" | "b" => "black",
                "white" | "w" => "white",
                _ => "unknown",
            },
            Err(e) => bail!("{} refused dfpn-solve-state on {}: {e}", self.name, case.label),
        };
        let counts = self.counts();
        Ok(Solve { winner: winner.into(), seconds, counts })
    }
}

/// The median (of an even count, the mean of the two middle values); 0 for none.
fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let k = v.len() / 2;
    if v.len() % 2 == 0 {
        (v[k - 1] + v[k]) / 2.0
    } else {
        v[k]
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let nash = match &args.nash {
        Some(p) => p.clone(),
        None => build_nash()?,
    };
    let words: Vec<String> = args.engine.split_whitespace().map(str::to_owned).collect();
    let Some((program, rest)) = words.split_first() else {
        bail!("invalid value {:?} for --engine: empty command", args.engine);
    };
    let only: Vec<String> = args
        .only
        .iter()
        .flat_map(|s| s.split_whitespace())
        .map(|s| s.to_ascii_lowercase())
        .collect();
    let sets = args
        .sets
        .iter()
        .map(|&set| Ok((set, set.cases()?)))
        .collect::<anyhow::Result<Vec<(Set, Vec<Case>)>>>()?;
    // Every position asked for is in one of the sets (checked before any engine starts).
    let known = |o: &String| sets.iter().any(|(_, cases)| cases.iter().any(|c| &c.label == o));
    if let Some(missing) = only.iter().find(|o| !known(o)) {
        bail!(
            "invalid value {missing:?} for --only: not a position of {}",
            args.sets.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        );
    }
    let mut sides = [Side::nash(&nash)?, Side::reference(Path::new(program), rest)?];
    let limit = args.time_limit;
    for s in &mut sides {
        s.must(&format!("param_dfpn threads {}", args.threads))?;
        s.must(&format!("param_dfpn timelimit {}", limit.as_secs_f64()))?;
        if let Some(n) = args.tt_size {
            s.must(&format!("param_dfpn tt_size {n}"))?;
        }
    }
    if let Some(dir) = args.out.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let done = load(&args.out)?;
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .with_context(|| format!("cannot open {}", args.out.display()))?;
    println!(
        "nash {} against {}, {} threads each, at most {:.0}s a position; results in {}",
        nash.display(),
        args.engine,
        args.threads,
        limit.as_secs_f64(),
        args.out.display()
    );
    let sets: Vec<(Set, Vec<Case>)> = sets
        .into_iter()
        .map(|(set, cases)| {
            (
                set,
                cases.into_iter().filter(|c| only.is_empty() || only.contains(&c.label)).collect(),
            )
        })
        .filter(|(_, cases): &(Set, Vec<Case>)| !cases.is_empty())
        .collect();
    let mut bench = Bench { args: &args, sides, done, file, index: 0 };
    // Each set's totals by round: Nash's seconds, the reference's, and their ratio.
    let mut rounds: Vec<Vec<[f64; 3]>> = vec![Vec::new(); sets.len()];
    for round in 0..args.repeat {
        for ((set, cases), totals) in sets.iter().zip(&mut rounds) {
            totals.push(bench.round_of(*set, cases, round)?);
        }
    }
    if args.repeat > 1 {
        for ((set, _), totals) in sets.iter().zip(&rounds) {
            println!("{set}, {} rounds: {}", totals.len(), summary(totals));
        }
    }
    Ok(())
}

/// A running comparison: both engines, the records already measured and the file new ones go to.
struct Bench<'a> {
    args: &'a Args,
    sides: [Side; 2],
    done: HashMap<Key, Record>,
    file: File,
    /// Positions gone through so far, over every set and round: which engine goes first
    /// alternates by it.
    index: usize,
}

impl Bench<'_> {
    /// One round of one set: each position's record (measured now unless the results file
    /// has it) checked and printed, then the totals; returns Nash's total seconds, the
    /// reference's and their ratio.
    fn round_of(&mut self, set: Set, cases: &[Case], round: u32) -> anyhow::Result<[f64; 3]> {
        let (args, limit) = (self.args, self.args.time_limit);
        if args.repeat > 1 {
            println!("{set}, round {} of {}: {} positions", round + 1, args.repeat, cases.len());
        } else {
            println!("{set}: {} positions", cases.len());
        }
        println!(
            "  {:<8} {:<6} {:>16} {:>16} {:>8} {:>10} {:>10} {:>10} {:>10}",
            "position",
            "value",
            "nash",
            "reference",
            "ratio",
            "nash work",
            "ref work",
            "nash exp",
            "ref exp"
        );
        let (mut total_n, mut total_r, mut ratios) = (0.0, 0.0, Vec::new());
        let (mut open_n, mut open_r) = (0, 0);
        for case in cases {
            let record = Record {
                set: set.to_string(),
                position: case.label.clone(),
                round,
                threads: args.threads,
                time_limit: limit.as_secs_f64(),
                engine: args.engine.clone(),
                nash: Solve { winner: String::new(), seconds: 0.0, counts: Counts::default() },
                reference: Solve { winner: String::new(), seconds: 0.0, counts: Counts::default() },
            };
            let record = match self.done.get(&record.key()) {
                Some(r) => r.clone(),
                None => {
                    // Alternate which engine solves first.
                    let order = if self.index % 2 == 0 { [0, 1] } else { [1, 0] };
                    let mut got = [None, None];
                    for i in order {
                        got[i] = Some(self.sides[i].solve(case, limit)?);
                    }
                    let [n, r] = got.map(|g| g.expect("both solved"));
                    let r = Record { nash: n, reference: r, ..record };
                    writeln!(self.file, "{}", serde_json::to_string(&r)?)?;
                    self.file.flush()?;
                    r
                }
            };
            self.index += 1;
            let known = case.winner.to_string();
            for (name, s) in [("nash", &record.nash), ("the reference", &record.reference)] {
                if s.winner != "unknown" && s.winner != known {
                    bail!(
                        "{name} says {} wins {} on {set}; the known winner is {known}",
                        s.winner,
                        case.label
                    );
                }
            }
            let show = |s: &Solve| {
                let mark = if s.winner == "unknown" { " (open)" } else { "" };
                format!("{:.2}s{mark}", s.seconds)
            };
            let ratio = record.nash.seconds / record.reference.seconds.max(1e-3);
            let count = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
            let (n, r) = (record.nash.counts, record.reference.counts);
            println!(
                "  {:<8} {:<6} {:>16} {:>16} {:>8.2} {:>10} {:>10} {:>10} {:>10}",
                case.label,
                known,
                show(&record.nash),
                show(&record.reference),
                ratio,
                count(n.visits),
                count(r.visits),
                count(n.expanded),
                count(r.expanded)
            );
            total_n += record.nash.seconds;
            total_r += record.reference.seconds;
            open_n += usize::from(record.nash.winner == "unknown");
            open_r += usize::from(record.reference.winner == "unknown");
            ratios.push(ratio);
        }
        let ratio = total_n / total_r.max(1e-3);
        println!(
            "  total: nash {total_n:.1}s ({open_n} open), reference {total_r:.1}s ({open_r} open); \
             nash/reference {ratio:.2} (median per position {:.2})",
            median(&mut ratios)
        );
        Ok([total_n, total_r, ratio])
    }
}

/// The medians and ranges of a set's totals over the rounds, in one line.
fn summary(totals: &[[f64; 3]]) -> String {
    let list = totals.iter().map(|t| format!("{:.2}", t[2])).collect::<Vec<_>>().join(" ");
    // A column's median, least and greatest value.
    let column = |i: usize| {
        let mut v: Vec<f64> = totals.iter().map(|t| t[i]).collect();
        let m = median(&mut v);
        (m, v[0], v[v.len() - 1])
    };
    let ((n, nl, nh), (r, rl, rh), (q, ql, qh)) = (column(0), column(1), column(2));
    format!(
        "nash median {n:.2}s ({nl:.2} to {nh:.2}), reference median {r:.2}s ({rl:.2} to {rh:.2}); \
         nash/reference median {q:.2} ({ql:.2} to {qh:.2}; by round {list})"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hard_set_is_sixteen_8x8_openings() {
        let hard = Set::EightHard.cases().expect("the hard set");
        assert_eq!(hard.len(), 16);
        assert!(hard.iter().all(|c| c.pos.cols() == 8 && c.pos.num_steps() == 1));
    }

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&mut []), 0.0);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    #[test]
    fn rounds_summed_up_by_medians_and_ranges() {
        let totals = [[5.0, 15.0, 5.0 / 15.0], [4.0, 16.0, 0.25], [7.0, 14.0, 0.5]];
        assert_eq!(
            summary(&totals),
            "nash median 5.00s (4.00 to 7.00), reference median 15.00s (14.00 to 16.00); \
             nash/reference median 0.33 (0.25 to 0.50; by round 0.33 0.25 0.50)"
        );
    }

    #[test]
    fn records_without_a_round_are_the_first_round() {
        let line = r#"{"set":"8x8","position":"-","threads":2,"time_limit":600.0,"engine":"e",
            "nash":{"winner":"black","seconds":5.0},"reference":{"winner":"black","seconds":15.0}}"#;
        let r: Record = serde_json::from_str(line).expect("a record");
        assert_eq!(r.round, 0);
        let again = serde_json::to_string(&r).expect("json");
        assert!(!again.contains("round"), "the first round is written as before: {again}");
        let later = Record { round: 3, ..r };
        assert_ne!(later.key(), serde_json::from_str::<Record>(&again).expect("a record").key());
    }
}
