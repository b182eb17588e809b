//! `cargo xtask tournament`: games between HTP engines (Nash's players, or any engine given by
//! its command, such as Benzene's MoHex and Wolve), in a round robin or a gauntlet, with the
//! results as a table of wins, win rates with 95% intervals and Elo ratings.
//!
//! Every pairing plays each opening of the set twice, each engine once with Black, so that the
//! advantage of the opening and of the first move cancels within the pairing. The default set
//! (`--openings balanced`) is, on 9x9, the 20 openings of testdata/balanced-openings-9x9.tsv,
//! those a long Monte Carlo search judged nearest an even game; on other sizes, where no such
//! estimate was made, it is the west-edge set (`--openings west-edge`): the cells of White's
//! west edge without its corners, `a2` to `a(n-1)`. On the boards solved so far (5x5 to 8x8,
//! testdata/opening-maps.txt) some of those win for Black and some lose, none by a wide
//! margin, which is what makes an opening useful for comparing players; on 9x9 their analogues
//! are probably all decided for one side, hence the other set there. The 180° images of the
//! openings would give the same games again, so they are left out.
//!
//! Games run in parallel, each between two freshly started engines (a crash or a hang cannot
//! leak into the next game). Each finished game is appended to `games.jsonl` and saved as SGF
//! under `games/` at once; a rerun with the same settings and output directory skips the games
//! already there, so an interrupted tournament resumes where it stopped.

mod game;
pub(crate) mod stats;

use std::collections::{HashSet, VecDeque};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use anyhow::{bail, Context};
use nash_board::{Cell, Color};
use nash_cli::progress::{Display, Watch};
use serde::{Deserialize, Serialize};

use game::{EngineSpec, Played, Reason, Setup};
use stats::{elo_of_rate, ratings, wilson, Z95};

/// Arguments of `cargo xtask tournament`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A Nash player by its spec (`random`, `alphabeta:eval=resistance,depth=4`, …), played
    /// by `nash htp --player SPEC` and named by its spec. Repeatable.
    #[arg(long = "player", value_name = "SPEC")]
    pub players: Vec<String>,
    /// Any HTP engine: a name, `=`, and the command that starts it (split at spaces), such as
    /// `nash=target/release/nash htp` or `mohex=/opt/benzene/src/mohex/mohex --seed 1`.
    /// Repeatable; engines come after the players in the tables.
    #[arg(long = "engine", value_name = "NAME=COMMAND", value_parser = parse_engine)]
    pub engines: Vec<(String, Vec<String>)>,
    /// An HTP command sent to one engine before each game, after `boardsize` (for example
    /// `mohex=param_mohex max_time 1`). Repeatable.
    #[arg(long = "send", value_name = "NAME=COMMAND", value_parser = parse_send)]
    pub sends: Vec<(String, String)>,
    /// The `nash` binary that plays the `--player`s; by default `cargo build --release -p
    /// nash-cli` builds it.
    #[arg(long)]
    pub nash: Option<PathBuf>,
    /// The first engine plays every other one (and the others do not meet); without it, every
    /// engine plays every other.
    #[arg(long, conflicts_with = "ladder")]
    pub gauntlet: bool,
    /// Each engine plays its neighbours in the order given (the first the second, the second
    /// the third, …), as the levels of a strength ladder are measured.
    #[arg(long)]
    pub ladder: bool,
    /// No clock: engines are told no `time_settings`, so each plays by its own budget (its
    /// playouts or nodes), and no move is lost on time; `--time` and `--grace` are not used.
    #[arg(long)]
    pub untimed: bool,
    /// Board size (square boards; 5 to 13 are the sizes the openings are meant for).
    #[arg(long, short, default_value_t = 9, value_parser = parse_size)]
    pub size: usize,
    /// The openings, each a black first move: `balanced` (on 9x9 the 20 openings of
    /// testdata/balanced-openings-9x9.tsv, "e3 e4 f3 … d4"; on any other size the west edge),
    /// `west-edge` (a2 to a(n-1) on every size), `all` (every cell), `none` (the empty board,
    /// one game each way), or a list of cells such as "a3 b2".
    #[arg(long, default_value = "balanced")]
    pub openings: String,
    /// Seconds per move, told to engines that know `time_settings` (as `time_settings 0 T 1`).
    #[arg(long, default_value = "1", value_name = "SECONDS", value_parser = crate::parse_seconds)]
    pub time: Duration,
    /// How much longer than the time per move an answer may take before the engine loses on
    /// time.
    #[arg(long, default_value = "2", value_name = "SECONDS", value_parser = crate::parse_seconds)]
    pub grace: Duration,
    /// Games played at once (each takes two engines, mostly one of them thinking).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Where the games, the results and the settings go; a rerun with the same settings
    /// resumes there.
    #[arg(long, default_value = "target/tournament")]
    pub out: PathBuf,
    /// Plain progress lines every few seconds instead of a bar (for logs).
    #[arg(long)]
    pub progress: bool,
}

fn parse_engine(s: &str) -> Result<(String, Vec<String>), String> {
    let (name, command) = parse_send(s)?;
    let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
    if words.is_empty() {
        return Err(format!("invalid engine {s:?}: expected NAME=COMMAND"));
    }
    Ok((name, words))
}

fn parse_send(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, rest)) if valid_name(name) && !rest.trim().is_empty() => {
            Ok((name.to_owned(), rest.trim().to_owned()))
        }
        _ => Err(format!(
            "invalid value {s:?}: expected NAME=COMMAND, NAME made of letters, digits, '-', '_', '.', ':', ',' and '='"
        )),
    }
}

/// Names go into file names and tables: no spaces or path separators.
fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.:,=".contains(c))
}

fn parse_size(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (2..=19).contains(&n) => Ok(n),
        _ => Err(format!("invalid size {s:?}: expected 2 to 19")),
    }
}

/// Everything that decides which games are played and how: a rerun resumes only with the
/// same settings.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Settings {
    size: usize,
    openings: Vec<Option<String>>,
    time_per_move: f64,
    grace: f64,
    gauntlet: bool,
    #[serde(default)]
    ladder: bool,
    #[serde(default)]
    untimed: bool,
    engines: Vec<(String, Vec<String>, Vec<String>)>,
}

/// One game of the schedule.
#[derive(Clone, Debug)]
struct Job {
    id: String,
    black: usize,
    white: usize,
    opening: Option<Cell>,
}

/// One finished game as `games.jsonl` keeps it.
#[derive(Debug, Serialize, Deserialize)]
struct GameLine {
    id: String,
    black: String,
    white: String,
    opening: Option<String>,
    winner: String,
    reason: String,
    #[serde(default)]
    detail: Option<String>,
    moves: usize,
    seconds: f64,
    /// Per colour (Black first): seconds spent answering `genmove`, and how many (absent in
    /// results written before they were recorded).
    #[serde(default)]
    think: Option<[f64; 2]>,
    #[serde(default)]
    genmoves: Option<[usize; 2]>,
    /// Per colour: the same over the moves that took at least a tenth of the time a move, and
    /// the longest move (absent in results written before they were recorded).
    #[serde(default)]
    think_slow: Option<[f64; 2]>,
    #[serde(default)]
    genmoves_slow: Option<[usize; 2]>,
    #[serde(default)]
    longest: Option<[f64; 2]>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let engines = engine_specs(&args)?;
    if engines.len() < 2 {
        bail!("a tournament needs at least two engines (--player or --engine)");
    }
    let openings = openings(&args.openings, args.size)?;
    let settings = Settings {
        size: args.size,
        openings: openings.iter().map(|o| o.map(|c| c.to_string())).collect(),
        time_per_move: args.time.as_secs_f64(),
        grace: args.grace.as_secs_f64(),
        gauntlet: args.gauntlet,
        ladder: args.ladder,
        untimed: args.untimed,
        engines: engines
            .iter()
            .map(|e| (e.name.clone(), e.command.clone(), e.setup.clone()))
            .collect(),
    };
    let out = &args.out;
    std::fs::create_dir_all(out.join("games"))
        .with_context(|| format!("cannot create {}", out.display()))?;
    check_settings(out, &settings)?;
    let pairing = if args.gauntlet {
        Pairing::Gauntlet
    } else if args.ladder {
        Pairing::Ladder
    } else {
        Pairing::RoundRobin
    };
    let schedule = schedule(&engines, &openings, pairing);
    let mut lines = read_games(out)?;
    let done: HashSet<String> = lines.iter().map(|g| g.id.clone()).collect();
    let todo: VecDeque<Job> = schedule.iter().filter(|j| !done.contains(&j.id)).cloned().collect();
    let clock = if args.untimed {
        "untimed".to_owned()
    } else {
        format!("{}s a move", settings.time_per_move)
    };
    println!(
        "{} games: {} engines, {} openings on {}x{}, {clock}; {} already played",
        schedule.len(),
        engines.len(),
        openings.len(),
        args.size,
        args.size,
        schedule.len() - todo.len()
    );
    let setup = Setup {
        size: args.size,
        time: (!args.untimed).then_some(args.time),
        grace: args.grace,
        dir: std::env::current_dir().context("no working directory")?,
    };
    let watch = Watch::start("playing", Display::from_flag(args.progress));
    watch.count(todo.len());
    let total = todo.len();
    let queue = Arc::new(Mutex::new(todo));
    let engines = Arc::new(engines);
    let (tx, rx) = mpsc::channel::<(Job, Played)>();
    let workers: Vec<_> = (0..usize::from(args.threads).min(total.max(1)))
        .map(|_| {
            let (queue, engines, tx, setup) =
                (queue.clone(), engines.clone(), tx.clone(), setup.clone());
            std::thread::spawn(move || loop {
                let Some(job) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front() else {
                    return;
                };
                let played =
                    game::play(&setup, &engines[job.black], &engines[job.white], job.opening);
                if tx.send((job, played)).is_err() {
                    return;
                }
            })
        })
        .collect();
    drop(tx);
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out.join("games.jsonl"))
        .context("cannot open games.jsonl")?;
    for (job, played) in rx {
        let (black, white) = (&engines[job.black].name, &engines[job.white].name);
        let sgf = played.to_sgf(args.size, black, white, "Nash tournament");
        let path = out.join("games").join(format!("{}.sgf", job.id));
        std::fs::write(&path, sgf).with_context(|| format!("cannot write {}", path.display()))?;
        let line = GameLine {
            id: job.id.clone(),
            black: black.clone(),
            white: white.clone(),
            opening: job.opening.map(|c| c.to_string()),
            winner: played.winner.to_string(),
            reason: reason_name(played.reason).to_owned(),
            detail: played.detail.clone(),
            moves: played.moves.len(),
            seconds: played.seconds,
            think: Some(played.think),
            genmoves: Some(played.genmoves),
            think_slow: Some(played.think_slow),
            genmoves_slow: Some(played.genmoves_slow),
            longest: Some(played.longest),
        };
        // One line per game, written whole: an interruption loses at most the games running.
        writeln!(log, "{}", serde_json::to_string(&line)?)
            .context("cannot append to games.jsonl")?;
        log.flush()?;
        if let Some(d) = &played.detail {
            watch.suspend(|| println!("{}: {} wins ({}: {d})", job.id, line.winner, line.reason));
        }
        lines.push(line);
        watch.done_one();
    }
    for w in workers {
        let _ = w.join();
    }
    drop(watch);
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    let report = Report::new(&names, &lines);
    print!("{}", report.table());
    let json = serde_json::to_string_pretty(&report)?;
    std::fs::write(out.join("results.json"), json + "\n").context("cannot write results.json")?;
    println!("games and results in {}", out.display());
    Ok(())
}

/// The engines in table order: the players, then the other engines, each with its setup.
fn engine_specs(args: &Args) -> anyhow::Result<Vec<EngineSpec>> {
    let mut specs = Vec::new();
    if !args.players.is_empty() {
        let nash = match &args.nash {
            Some(p) => p.clone(),
            None => crate::htp::build_nash()?,
        };
        let nash = nash.to_str().context("the nash path is not UTF-8")?.to_owned();
        for p in &args.players {
            if !valid_name(p) {
                bail!("invalid player spec {p:?}: letters, digits and '-_.:,=' only");
            }
            let command = vec![nash.clone(), "htp".into(), "--player".into(), p.clone()];
            specs.push(EngineSpec { name: p.clone(), command, setup: Vec::new() });
        }
    }
    for (name, command) in &args.engines {
        specs.push(EngineSpec { name: name.clone(), command: command.clone(), setup: Vec::new() });
    }
    let mut seen = HashSet::new();
    for s in &specs {
        if !seen.insert(s.name.clone()) {
            bail!("two engines are named {:?}", s.name);
        }
    }
    for (name, command) in &args.sends {
        let Some(spec) = specs.iter_mut().find(|s| &s.name == name) else {
            bail!("--send {name}=…: no engine is named {name:?}");
        };
        spec.setup.push(command.clone());
    }
    Ok(specs)
}

/// The openings of `--openings` on an `n`×`n` board.
pub(crate) fn openings(text: &str, n: usize) -> anyhow::Result<Vec<Option<Cell>>> {
    let cell = |col: usize, row: usize| Cell::new(col as u8, row as u8).expect("on the board");
    Ok(match text {
        "balanced" if n == 9 => balanced_9x9()?.into_iter().map(Some).collect(),
        "balanced" | "west-edge" => {
            if n < 3 {
                bail!("no {text} openings on {n}x{n}: give them with --openings");
            }
            west_edge(n).into_iter().map(Some).collect()
        }
        "all" => (0..n).flat_map(|row| (0..n).map(move |col| Some(cell(col, row)))).collect(),
        "none" => vec![None],
        list => {
            let mut out = Vec::new();
            for word in list.split([' ', ',']).filter(|w| !w.is_empty()) {
                let c: Cell =
                    word.parse().map_err(|_| anyhow::anyhow!("invalid opening {word:?}"))?;
                if c.is_edge() || usize::from(c.col()) >= n || usize::from(c.row()) >= n {
                    bail!("opening {word} is not on the {n}x{n} board");
                }
                if out.contains(&Some(c)) {
                    bail!("opening {word} is given twice");
                }
                out.push(Some(c));
            }
            if out.is_empty() {
                bail!("no openings in {list:?}");
            }
            out
        }
    })
}

/// The cells of White's west edge without its corners, `a2` to `a(n-1)`, on an `n`×`n` board
/// (`n` at least 3).
fn west_edge(n: usize) -> Vec<Cell> {
    (1..n - 1).map(|row| Cell::at(0, row as u8)).collect()
}

/// The balanced openings of 9x9, built into the binary so that the set cannot drift from the
/// file that documents how it was chosen.
const BALANCED_9X9: &str = include_str!("../../testdata/balanced-openings-9x9.tsv");

/// The openings marked `yes` in the `balanced` column of testdata/balanced-openings-9x9.tsv,
/// in the order of its `rank` column (the estimate nearest 50% first).
fn balanced_9x9() -> anyhow::Result<Vec<Cell>> {
    balanced_openings(BALANCED_9X9).context("testdata/balanced-openings-9x9.tsv")
}

/// The balanced openings of a table in the format of testdata/balanced-openings-9x9.tsv: `#`
/// comment lines, a tab-separated header naming the columns `opening`, `rank` and `balanced`,
/// and one row per opening.
fn balanced_openings(text: &str) -> anyhow::Result<Vec<Cell>> {
    let mut rows = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let header: Vec<&str> = rows.next().context("no header line")?.split('\t').collect();
    let column = |name: &str| {
        header.iter().position(|h| *h == name).with_context(|| format!("no column {name:?}"))
    };
    let (opening, rank, balanced) = (column("opening")?, column("rank")?, column("balanced")?);
    let mut chosen = Vec::new();
    for line in rows {
        let fields: Vec<&str> = line.split('\t').collect();
        let field =
            |i: usize| fields.get(i).copied().with_context(|| format!("row {line:?} is too short"));
        match field(balanced)? {
            "yes" => {}
            "no" => continue,
            other => bail!("row {line:?}: balanced is {other:?}, expected yes or no"),
        }
        let cell: Cell =
            field(opening)?.parse().map_err(|_| anyhow::anyhow!("row {line:?}: bad opening"))?;
        let place: u32 =
            field(rank)?.parse().map_err(|_| anyhow::anyhow!("row {line:?}: bad rank"))?;
        chosen.push((place, cell));
    }
    if chosen.is_empty() {
        bail!("no opening is marked balanced");
    }
    chosen.sort_by_key(|&(place, _)| place);
    Ok(chosen.into_iter().map(|(_, c)| c).collect())
}

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pairing {
    /// Every engine every other.
    RoundRobin,
    /// The first engine every other.
    Gauntlet,
    /// Each engine the next in the order given.
    Ladder,
}

/// The pairs of engines (by index, the earlier first) that meet among `n`.
fn pairs(n: usize, pairing: Pairing) -> Vec<(usize, usize)> {
    match pairing {
        Pairing::RoundRobin => (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect(),
        Pairing::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Pairing::Ladder => (1..n).map(|j| (j - 1, j)).collect(),
    }
}

/// Every game: per opening, each pairing with both colours. Ids are stable for the same
/// settings, which is what resuming relies on.
fn schedule(engines: &[EngineSpec], openings: &[Option<Cell>], pairing: Pairing) -> Vec<Job> {
    let pairs = pairs(engines.len(), pairing);
    let mut jobs = Vec::new();
    for opening in openings {
        for &(i, j) in &pairs {
            for (black, white) in [(i, j), (j, i)] {
                let o = opening.map_or("empty".to_owned(), |c| c.to_string());
                let id = format!(
                    "{:04}-{}-{}-{o}",
                    jobs.len() + 1,
                    file_safe(&engines[black].name),
                    file_safe(&engines[white].name)
                );
                jobs.push(Job { id, black, white, opening: *opening });
            }
        }
    }
    jobs
}

/// A name as part of a file name: the spec characters `:`, `=` and `,` become `_`, which every
/// file system takes.
fn file_safe(name: &str) -> String {
    name.replace([':', '=', ','], "_")
}

/// Writes the settings on a first run; on a rerun, refuses to mix games of other settings.
fn check_settings(out: &Path, settings: &Settings) -> anyhow::Result<()> {
    let path = out.join("tournament.json");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let old: Settings = serde_json::from_str(&text)
                .with_context(|| format!("{} is not a tournament's settings", path.display()))?;
            if &old != settings {
                bail!(
                    "{} holds a tournament with other settings (engines, size, openings or time): \
                     give another --out, or remove it",
                    out.display()
                );
            }
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let text = serde_json::to_string_pretty(settings)? + "\n";
            std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
        }
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The games already played. A last line cut short by an interruption is dropped (that game
/// is played again).
fn read_games(out: &Path) -> anyhow::Result<Vec<GameLine>> {
    let path = out.join("games.jsonl");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut games = Vec::new();
    let mut cut = false;
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        match serde_json::from_str::<GameLine>(line) {
            Ok(g) => games.push(g),
            Err(_) if !cut && i + 1 == text.lines().count() => cut = true,
            Err(e) => bail!("{} line {}: {e}", path.display(), i + 1),
        }
    }
    if cut {
        // Rewrite the file without the broken tail so the next appends start on a fresh line.
        let mut whole = String::new();
        for g in &games {
            whole += &serde_json::to_string(g)?;
            whole.push('\n');
        }
        std::fs::write(&path, whole)
            .with_context(|| format!("cannot rewrite {}", path.display()))?;
    }
    Ok(games)
}

fn reason_name(r: Reason) -> &'static str {
    match r {
        Reason::Connection => "connection",
        Reason::Resignation => "resignation",
        Reason::Time => "time",
        Reason::Crash => "crash",
        Reason::Illegal => "illegal",
    }
}

/// The results of a tournament: per engine and per pairing.
#[derive(Debug, Serialize)]
struct Report {
    games: usize,
    engines: Vec<EngineRow>,
    pairings: Vec<PairRow>,
}

#[derive(Debug, Serialize)]
struct EngineRow {
    name: String,
    games: usize,
    wins: usize,
    /// Wins as Black and games as Black.
    black_wins: usize,
    black_games: usize,
    /// Games lost by time, crash or illegal move.
    forfeits: usize,
    win_rate: f64,
    /// The 95% Wilson interval of the win rate.
    win_rate_95: (f64, f64),
    /// Bradley–Terry Elo (the field's mean is 0) and the half width of its 95% interval.
    elo: f64,
    elo_95: f64,
    /// The mean seconds a `genmove` took, over the games that recorded it.
    seconds_per_move: Option<f64>,
    /// The mean over the moves that took at least a tenth of the time a move (the moves not
    /// answered at once, as proven positions are): the time a search actually used.
    seconds_per_slow_move: Option<f64>,
    /// The longest move.
    longest_move: Option<f64>,
    #[serde(skip)]
    clock: (f64, usize),
    #[serde(skip)]
    slow: (f64, usize),
}

#[derive(Debug, Serialize)]
struct PairRow {
    first: String,
    second: String,
    games: usize,
    /// Wins of `first`.
    wins: usize,
    win_rate: f64,
    win_rate_95: (f64, f64),
    /// The Elo difference of `first` over `second` from the win rate, with the differences
    /// at the ends of the Wilson interval.
    elo_difference: f64,
    elo_difference_95: (f64, f64),
}

impl Report {
    fn new(names: &[String], games: &[GameLine]) -> Report {
        let n = names.len();
        let index = |name: &str| names.iter().position(|x| x == name);
        let mut wins = vec![vec![0.0; n]; n];
        let mut rows: Vec<EngineRow> = names
            .iter()
            .map(|name| EngineRow {
                name: name.clone(),
                games: 0,
                wins: 0,
                black_wins: 0,
                black_games: 0,
                forfeits: 0,
                win_rate: 0.0,
                win_rate_95: (0.0, 1.0),
                elo: 0.0,
                elo_95: f64::INFINITY,
                seconds_per_move: None,
                seconds_per_slow_move: None,
                longest_move: None,
                clock: (0.0, 0),
                slow: (0.0, 0),
            })
            .collect();
        let mut counted = 0;
        for g in games {
            let (Some(b), Some(w)) = (index(&g.black), index(&g.white)) else { continue };
            let black_won = g.winner == Color::Black.to_string();
            let (winner, loser) = if black_won { (b, w) } else { (w, b) };
            wins[winner][loser] += 1.0;
            counted += 1;
            rows[b].games += 1;
            rows[w].games += 1;
            rows[b].black_games += 1;
            rows[winner].wins += 1;
            if black_won {
                rows[b].black_wins += 1;
            }
            if !matches!(g.reason.as_str(), "connection" | "resignation") {
                rows[loser].forfeits += 1;
            }
            if let (Some(think), Some(asked)) = (g.think, g.genmoves) {
                for (side, i) in [b, w].into_iter().enumerate() {
                    rows[i].clock.0 += think[side];
                    rows[i].clock.1 += asked[side];
                }
            }
            if let (Some(think), Some(asked), Some(longest)) =
                (g.think_slow, g.genmoves_slow, g.longest)
            {
                for (side, i) in [b, w].into_iter().enumerate() {
                    rows[i].slow.0 += think[side];
                    rows[i].slow.1 += asked[side];
                    let most = rows[i].longest_move.unwrap_or(0.0).max(longest[side]);
                    rows[i].longest_move = Some(most);
                }
            }
        }
        let rated = ratings(&wins);
        for (row, r) in rows.iter_mut().zip(&rated) {
            let g = row.games as f64;
            row.win_rate = if g > 0.0 { row.wins as f64 / g } else { 0.0 };
            row.win_rate_95 = wilson(row.wins as f64, g, Z95);
            row.elo = r.elo;
            row.elo_95 = r.error;
            let (seconds, asked) = row.clock;
            row.seconds_per_move = (asked > 0).then(|| seconds / asked as f64);
            let (seconds, asked) = row.slow;
            row.seconds_per_slow_move = (asked > 0).then(|| seconds / asked as f64);
        }
        let mut pairings = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let (w, l) = (wins[i][j], wins[j][i]);
                let games = w + l;
                if games == 0.0 {
                    continue;
                }
                let (lo, hi) = wilson(w, games, Z95);
                pairings.push(PairRow {
                    first: names[i].clone(),
                    second: names[j].clone(),
                    games: games as usize,
                    wins: w as usize,
                    win_rate: w / games,
                    win_rate_95: (lo, hi),
                    elo_difference: elo_of_rate(w / games),
                    elo_difference_95: (elo_of_rate(lo), elo_of_rate(hi)),
                });
            }
        }
        Report { games: counted, engines: rows, pairings }
    }

    /// The tables as text: engines by Elo, then each pairing.
    fn table(&self) -> String {
        let mut out = String::new();
        let width = self.engines.iter().map(|e| e.name.len()).max().unwrap_or(6).max(6);
        let mut order: Vec<&EngineRow> = self.engines.iter().collect();
        order.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        let _ = writeln!(
            out,
            "{:width$}  games  wins  as black  forfeits  win rate (95%)        Elo (95%)    s/move  s/slow    max",
            "engine"
        );
        for e in order {
            let _ = writeln!(
                out,
                "{:width$}  {:5}  {:4}  {:>9}  {:8}  {:5.1}% ({:5.1}-{:5.1})  {:+6.0} ± {:<4.0}  {:>6}  {:>6}  {:>5}",
                e.name,
                e.games,
                e.wins,
                format!("{}/{}", e.black_wins, e.black_games),
                e.forfeits,
                100.0 * e.win_rate,
                100.0 * e.win_rate_95.0,
                100.0 * e.win_rate_95.1,
                e.elo,
                e.elo_95,
                seconds_text(e.seconds_per_move),
                seconds_text(e.seconds_per_slow_move),
                seconds_text(e.longest_move)
            );
        }
        let _ = writeln!(out);
        for p in &self.pairings {
            let _ = writeln!(
                out,
                "{} - {}: {}-{} of {}, {:.1}% ({:.1}-{:.1}), {}",
                p.first,
                p.second,
                p.wins,
                p.games - p.wins,
                p.games,
                100.0 * p.win_rate,
                100.0 * p.win_rate_95.0,
                100.0 * p.win_rate_95.1,
                pairing_elo_text(p.elo_difference, p.elo_difference_95)
            );
        }
        out
    }
}

fn seconds_text(s: Option<f64>) -> String {
    s.map_or("-".to_owned(), |s| format!("{s:.2}"))
}

/// A pairing's Elo difference and its 95% interval. A pairing one side won every game of has
/// no finite estimate: only the interval's finite end is said ("Elo +405 or more").
fn pairing_elo_text(d: f64, (lo, hi): (f64, f64)) -> String {
    if d == f64::INFINITY {
        format!("Elo {} or more (95%)", elo_text(lo))
    } else if d == f64::NEG_INFINITY {
        format!("Elo {} or less (95%)", elo_text(hi))
    } else {
        format!("Elo {} ({} to {})", elo_text(d), elo_text(lo), elo_text(hi))
    }
}

fn elo_text(d: f64) -> String {
    if d.is_finite() {
        // Adding 0 turns -0 (a rounded tiny negative, or an even score) into 0.
        format!("{:+.0}", d.round() + 0.0)
    } else if d > 0.0 {
        "+inf".to_owned()
    } else {
        "-inf".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_meet_who_they_say() {
        assert_eq!(pairs(4, Pairing::Ladder), [(0, 1), (1, 2), (2, 3)]);
        assert_eq!(pairs(3, Pairing::Gauntlet), [(0, 1), (0, 2)]);
        assert_eq!(pairs(3, Pairing::RoundRobin), [(0, 1), (0, 2), (1, 2)]);
        assert!(pairs(1, Pairing::Ladder).is_empty());
    }

    #[test]
    fn a_pairing_won_40_0_says_the_bound_not_an_infinity() {
        let (lo, hi) = stats::wilson(40.0, 40.0, stats::Z95);
        let text = pairing_elo_text(
            stats::elo_of_rate(1.0),
            (stats::elo_of_rate(lo), stats::elo_of_rate(hi)),
        );
        assert_eq!(text, "Elo +407 or more (95%)");
        assert_eq!(pairing_elo_text(-100.0, (-200.0, 0.0)), "Elo -100 (-200 to +0)");
    }

    /// `--openings TEXT` on an `n`×`n` board gives `expected`, the cells separated by spaces
    /// (`-` for the empty board), or an error whose message contains `expected` after `error:`.
    fn check(text: &str, n: usize, expected: &str) {
        let got = openings(text, n).map(|cells| {
            let words: Vec<String> =
                cells.iter().map(|c| c.map_or("-".to_owned(), |c| c.to_string())).collect();
            words.join(" ")
        });
        match (expected.strip_prefix("error:"), got) {
            (Some(message), Err(e)) => {
                assert!(format!("{e:#}").contains(message), "{text:?} on {n}: {e:#}")
            }
            (None, Ok(cells)) => assert_eq!(cells, expected, "{text:?} on {n}"),
            (_, got) => panic!("{text:?} on {n}: expected {expected:?}, got {got:?}"),
        }
    }

    /// The 20 openings nearest 50% in testdata/balanced-openings-9x9.tsv, by rank.
    const BALANCED_9X9_CELLS: &str = "e3 e4 f3 b5 g4 d3 c3 h3 b4 i2 h4 i1 f2 g2 c4 b3 e2 d2 c2 d4";

    #[test]
    fn named_sets_per_size() {
        check("balanced", 9, BALANCED_9X9_CELLS);
        check("west-edge", 9, "a2 a3 a4 a5 a6 a7 a8");
        // Other sizes have no estimated set: `balanced` is the west edge there.
        check("balanced", 7, "a2 a3 a4 a5 a6");
        check("west-edge", 7, "a2 a3 a4 a5 a6");
        check("balanced", 3, "a2");
        check("balanced", 2, "error:no balanced openings on 2x2");
        check("west-edge", 2, "error:no west-edge openings on 2x2");
        check("all", 2, "a1 b1 a2 b2");
        check("none", 9, "-");
    }

    #[test]
    fn lists_of_cells() {
        check("a3 b2", 5, "a3 b2");
        check("a3,b2", 5, "a3 b2");
        check("f1", 5, "error:opening f1 is not on the 5x5 board");
        check("a3 a3", 5, "error:opening a3 is given twice");
        check("9x", 5, "error:invalid opening \"9x\"");
        check("x9", 5, "error:opening x9 is not on the 5x5 board");
        check(" ", 5, "error:no openings in");
    }

    #[test]
    fn balanced_9x9_is_one_cell_of_each_rotation_pair() {
        let cells = balanced_9x9().expect("the embedded table parses");
        assert_eq!(cells.len(), 20);
        let rotated = |c: Cell| Cell::at(8 - c.col(), 8 - c.row());
        for &c in &cells {
            assert!(!cells.contains(&rotated(c)) || rotated(c) == c, "{c} and its image");
        }
    }

    #[test]
    fn balanced_table_errors_name_the_problem() {
        let check_err = |text: &str, message: &str| {
            let e = balanced_openings(text).expect_err(text);
            assert!(format!("{e:#}").contains(message), "{text:?}: {e:#}");
        };
        check_err("# only a comment\n", "no header line");
        check_err("opening\trank\n", "no column \"balanced\"");
        check_err("opening\trank\tbalanced\na1\t1\tmaybe\n", "balanced is \"maybe\"");
        check_err("opening\trank\tbalanced\n1a\t1\tyes\n", "bad opening");
        check_err("opening\trank\tbalanced\na1\tfirst\tyes\n", "bad rank");
        check_err("opening\trank\tbalanced\na1\t1\n", "too short");
        check_err("opening\trank\tbalanced\na1\t1\tno\n", "no opening is marked balanced");
        let two = "opening\trank\tbalanced\nb2\t2\tyes\na1\t1\tyes\nc3\t3\tno\n";
        assert_eq!(balanced_openings(two).expect("parses"), [Cell::at(0, 0), Cell::at(1, 1)]);
    }
}
