//! `cargo xtask selfplay`: games of a Monte Carlo player against itself, written as the net's
//! training samples (nash-net's sample file), and `--summary`, the figures and the consistency
//! check of such a file.
//!
//! Every move goes through `nash_play::decide`, as in any game: a df-pn solve with a node
//! budget first, whose verdict (win or loss for the side to move) becomes the position's exact
//! value, then the player, whose root visit counts become the policy target (and whose own
//! proof of its root, if any, the exact value). Game `g` is played
//! with the player's seed plus `g`, from the opening `g` of the list in turn, the first
//! `--temperature-plies` searched moves drawn in proportion to their visits; with playout and
//! node budgets (no time budget) a game is the same whenever it is played. Games are written in
//! order, each flushed whole, and the state file beside the samples (`NAME.state.json`) says
//! which player made them and how many games are whole, so a run killed at any point goes on
//! where it stopped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nash_board::{with_position, AnyPosition, Cell, Color, Move};
use nash_net::{Net, Sample, SampleFile};
use nash_play::{decide, Choice, MoveBudget, MoveSettings, Proven, Spec};
use nash_search::SolverConfig;
use serde::{Deserialize, Serialize};

/// The player of the games when `--player` is not given: `best` with a fixed playout budget,
/// a fresh tree every move (no reuse, so a position's visits do not depend on the moves before
/// it) and the defence of lost positions (a proven loss still gets a search's visits).
pub const DEFAULT_PLAYER: &str = "best:playouts=1600,reuse=false,defend=true";

/// The solver's node budget per move when `--solver-nodes` is not given: about 0.05 s of df-pn
/// on a 9x9 middle game on this machine (docs/selfplay.md).
pub const DEFAULT_SOLVER_NODES: u64 = 300;

/// The ceiling on the solver's time per move: the node budget decides, this only bounds a
/// position whose single node takes long.
const SOLVE_TIME_CAP: Duration = Duration::from_secs(10);

/// The state file's format version.
const STATE_VERSION: u32 = 1;

/// Arguments of `cargo xtask selfplay`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Board size (square boards).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=19),
          required_unless_present = "summary")]
    size: Option<u8>,
    /// Games the file should hold: a rerun goes on until it holds this many.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000),
          required_unless_present = "summary")]
    games: Option<u64>,
    /// The sample file (`*.nsp`); its state goes beside it as NAME.state.json.
    #[arg(long, required_unless_present = "summary")]
    out: Option<PathBuf>,
    /// The player's spec (its `seed` is the first game's; `temp` is set for the first plies).
    #[arg(long, default_value = DEFAULT_PLAYER)]
    player: String,
    /// A weights file: the games are played by the player with `net=FILE` (expert iteration).
    #[arg(long)]
    net: Option<PathBuf>,
    /// The solver's node budget per move, in front of the player (0: no solver, no exact
    /// values). The solver runs on boards up to 11x11.
    #[arg(long, default_value_t = DEFAULT_SOLVER_NODES,
          value_parser = clap::value_parser!(u64).range(0..=100_000_000))]
    solver_nodes: u64,
    /// Searched moves at the start of each game drawn in proportion to their visits
    /// (temperature 1) rather than the most visited.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=400))]
    temperature_plies: u32,
    /// Black's first moves, one per game in turn: `balanced` (as the tournament: on 9x9 the 20
    /// balanced openings, elsewhere the west edge), `west-edge`, `all`, `none` (the empty
    /// board, searched) or a list of cells.
    #[arg(long, default_value = "balanced")]
    openings: String,
    /// Games played at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Print the figures of this sample file and check its exact values, instead of playing.
    #[arg(long, conflicts_with_all = ["size", "games", "out", "net"])]
    summary: Option<PathBuf>,
    /// With `--summary`: where the contradicting positions go (default NAME.contradictions.txt
    /// beside the file).
    #[arg(long, requires = "summary")]
    contradictions: Option<PathBuf>,
}

/// The state file beside the samples: who made the games, and how many of them are whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct State {
    version: u32,
    #[serde(flatten)]
    settings: Settings,
    /// Games whole in the sample file, numbered from 0.
    games: u64,
    /// Their positions.
    positions: u64,
}

/// Everything that decides the games: a rerun goes on only with the same.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Settings {
    size: u8,
    /// The player's canonical spec (every setting spelled out); game `g` is played with its
    /// `seed` plus `g`.
    player: String,
    /// The weights file `--net` named, its length and FNV-1a hash.
    net: Option<NetFile>,
    solver_nodes: u64,
    temperature_plies: u32,
    /// The openings in turn (`-` for the empty board).
    openings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct NetFile {
    path: String,
    bytes: u64,
    fnv64: String,
}

/// What one game needs.
#[derive(Debug)]
struct Setup {
    size: usize,
    player: String,
    seed: u64,
    temperature_plies: u32,
    openings: Vec<Option<Cell>>,
    solver: SolverConfig,
    moves: MoveSettings,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(file) = &args.summary {
        let (text, ok) = summary(file, args.contradictions.as_deref())?;
        print!("{text}");
        if !ok {
            bail!("{}: exact values contradict each other (see above)", file.display());
        }
        return Ok(());
    }
    run_with(&args, &|line| eprintln!("{line}"))
}

fn run_with(args: &Args, say: &dyn Fn(String)) -> anyhow::Result<()> {
    let (Some(size), Some(games), Some(out)) = (args.size, args.games, args.out.as_deref()) else {
        bail!("--size, --games and --out are needed to play");
    };
    let (settings, setup) = settings(args, size)?;
    let state_path = state_path(out);
    let (mut file, mut state) = resume(out, &state_path, settings, say)?;
    if state.games >= games {
        say(format!(
            "{}: {} games ({} positions) already, {games} asked",
            out.display(),
            state.games,
            state.positions
        ));
        return Ok(());
    }
    say(format!(
        "{}: {} games of {}, {} already; {} threads",
        out.display(),
        games,
        state.settings.player,
        state.games,
        args.threads
    ));
    let start = Instant::now();
    let first = state.games;
    let next = AtomicU64::new(first);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, anyhow::Result<Vec<Sample>>)>();
    let result = std::thread::scope(|s| -> anyhow::Result<()> {
        for _ in 0..args.threads {
            let (tx, next, stop, setup) = (tx.clone(), &next, &stop, &setup);
            s.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games || tx.send((g, play_game(setup, g))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Games finish out of order; they are written in order, so the file's games are
        // always 0 to n-1.
        let mut waiting = BTreeMap::new();
        for (g, samples) in rx {
            let samples = match samples {
                Ok(s) => s,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e.context(format!("game {g}")));
                }
            };
            waiting.insert(g, samples);
            while let Some(samples) = waiting.remove(&state.games) {
                for sample in &samples {
                    file.push(sample)?;
                }
                file.flush()?;
                state.games += 1;
                state.positions += samples.len() as u64;
                save_state(&state_path, &state)?;
                say(progress(&state, games, first, start.elapsed()));
            }
        }
        Ok(())
    });
    result?;
    say(format!(
        "{}: {} games, {} positions; summary: cargo xtask selfplay --summary {}",
        out.display(),
        state.games,
        state.positions,
        out.display()
    ));
    Ok(())
}

/// The settings the command line gives, and what the games need.
fn settings(args: &Args, size: u8) -> anyhow::Result<(Settings, Setup)> {
    let net = match &args.net {
        None => None,
        Some(path) => {
            Net::load(path)?;
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            Some(NetFile {
                path: path.display().to_string(),
                bytes: bytes.len() as u64,
                fnv64: format!("{:016x}", fnv64(&bytes)),
            })
        }
    };
    let mut spec = args.player.clone();
    if let Some(path) = &args.net {
        spec =
            format!("{spec}{}net={}", if spec.contains(':') { "," } else { ":" }, path.display());
    }
    let player = nash_play::build(&spec).map_err(|e| anyhow::anyhow!("--player {spec}: {e}"))?;
    let canonical = player.spec();
    let parsed: Spec = canonical.parse().map_err(|e| anyhow::anyhow!("--player {spec}: {e}"))?;
    let Some(seed) = parsed.settings.iter().find(|(k, _)| k == "seed") else {
        bail!("--player {spec}: not a Monte Carlo player (it has no seed and no visits)");
    };
    let seed: u64 = seed.1.parse().map_err(|e| anyhow::anyhow!("--player {spec}: seed: {e}"))?;
    if !parsed.settings.iter().any(|(k, _)| k == "temp") {
        bail!("--player {spec}: not a Monte Carlo player (it has no visits)");
    }
    let n = usize::from(size);
    let openings = crate::tournament::openings(&args.openings, n)?;
    let mut solver = SolverConfig { tt_mib: 16, ..SolverConfig::default() };
    solver.budget.nodes = Some(args.solver_nodes);
    let solve_time = if args.solver_nodes == 0 { Duration::ZERO } else { SOLVE_TIME_CAP };
    let settings = Settings {
        size,
        player: canonical.clone(),
        net,
        solver_nodes: args.solver_nodes,
        temperature_plies: args.temperature_plies,
        openings: openings.iter().map(|o| o.map_or("-".to_owned(), |c| c.to_string())).collect(),
    };
    let setup = Setup {
        size: n,
        player: canonical,
        seed,
        temperature_plies: args.temperature_plies,
        openings,
        solver,
        moves: MoveSettings { solve_time, allow_swap: false },
    };
    Ok((settings, setup))
}

/// FNV-1a, 64 bits: names a weights file's contents in the state.
fn fnv64(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// `NAME.state.json` beside `NAME.nsp`.
fn state_path(out: &Path) -> PathBuf {
    out.with_extension("state.json")
}

fn save_state(path: &Path, state: &State) -> anyhow::Result<()> {
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, serde_json::to_string_pretty(state)? + "\n")
        .and_then(|()| std::fs::rename(&tmp, path))
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Opens the sample file for appending after its last whole game, with the state that says how
/// many there are: a record torn by a kill is cut off, and a game the state does not count
/// (killed before the state was written) is dropped, to be played again.
fn resume(
    out: &Path,
    state_path: &Path,
    settings: Settings,
    say: &dyn Fn(String),
) -> anyhow::Result<(SampleFile, State)> {
    let fresh = State { version: STATE_VERSION, settings, games: 0, positions: 0 };
    let state: Option<State> = if state_path.exists() {
        let text = std::fs::read_to_string(state_path)
            .with_context(|| format!("cannot read {}", state_path.display()))?;
        let state: State = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!("{}: not a self-play state ({e})", state_path.display())
        })?;
        if state.version != STATE_VERSION {
            bail!(
                "{}: self-play state version {}; this program reads version {STATE_VERSION}",
                state_path.display(),
                state.version
            );
        }
        if state.settings != fresh.settings {
            bail!(
                "{} holds games of other settings ({}): give the same settings or another --out",
                out.display(),
                differences(&state.settings, &fresh.settings)
            );
        }
        Some(state)
    } else {
        None
    };
    if !out.exists() {
        if let Some(s) = state.as_ref().filter(|s| s.games > 0) {
            bail!(
                "{} is missing, but {} counts {} games",
                out.display(),
                state_path.display(),
                s.games
            );
        }
        let file = SampleFile::append(out)?;
        save_state(state_path, &fresh)?;
        return Ok((file, fresh));
    }
    let read = SampleFile::read(out)?;
    let Some(state) = state else {
        if !read.samples.is_empty() {
            bail!(
                "{} has no state file {}: which player made its games is unknown",
                out.display(),
                state_path.display()
            );
        }
        let file = SampleFile::append(out)?;
        save_state(state_path, &fresh)?;
        return Ok((file, fresh));
    };
    if read.torn_bytes > 0 {
        say(format!("{}: cut off a torn last record ({} bytes)", out.display(), read.torn_bytes));
    }
    // The file's games in order, 0 to n-1, as the writer leaves them.
    let mut present = 0;
    for s in &read.samples {
        if s.game == present {
            present += 1;
        } else if s.game + 1 != present {
            bail!("{}: game {} out of order (expected {present})", out.display(), s.game);
        }
    }
    // Whole games: those the state counts; when the file holds fewer (an older copy), all but
    // its last, which may be cut short.
    let whole = if present >= state.games { state.games } else { present.saturating_sub(1) };
    let kept: Vec<&Sample> = read.samples.iter().filter(|s| s.game < whole).collect();
    if kept.len() < read.samples.len() {
        say(format!(
            "{}: dropped {} positions of games past the {whole} whole ones",
            out.display(),
            read.samples.len() - kept.len()
        ));
        let tmp = out.with_extension("nsp.tmp");
        let _ = std::fs::remove_file(&tmp);
        let mut f = SampleFile::append(&tmp)?;
        for s in &kept {
            f.push(s)?;
        }
        f.flush()?;
        std::fs::rename(&tmp, out).with_context(|| format!("cannot write {}", out.display()))?;
    }
    let state = State { games: whole, positions: kept.len() as u64, ..state };
    save_state(state_path, &state)?;
    Ok((SampleFile::append(out)?, state))
}

/// The settings that differ, as `name: old -> new`.
fn differences(old: &Settings, new: &Settings) -> String {
    let (a, b) = (serde_json::to_value(old), serde_json::to_value(new));
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) = (a, b) else {
        return String::new();
    };
    a.iter()
        .filter(|(k, v)| b.get(*k) != Some(v))
        .map(|(k, v)| format!("{k}: {v} -> {}", b.get(k).map_or("none".into(), |v| v.to_string())))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One game: its positions with the search's visits, the solver's verdicts and, once it is
/// over, the result for each side to move.
fn play_game(setup: &Setup, game: u64) -> anyhow::Result<Vec<Sample>> {
    let seed = setup.seed.wrapping_add(game);
    let build = |extra: &str| {
        nash_play::build(&format!("{},seed={seed}{extra}", setup.player))
            .map_err(|e| anyhow::anyhow!("{}: {e}", setup.player))
    };
    let mut drawn = build(",temp=1")?;
    let mut best = build("")?;
    let mut pos = AnyPosition::new(setup.size, setup.size)?;
    if let Some(cell) = setup.openings[(game % setup.openings.len() as u64) as usize] {
        pos.apply(Move::Cell(cell))?;
    }
    let mut samples = Vec::new();
    let mut ply = pos.history().len() as u16;
    let winner = loop {
        if let Some(w) = pos.winner() {
            break w;
        }
        let player =
            if samples.len() < setup.temperature_plies as usize { &mut drawn } else { &mut best };
        let d = decide(&pos, player.as_mut(), &MoveBudget::default(), &setup.moves, &setup.solver);
        let me = pos.to_move();
        let mut visits: Vec<(Cell, u32)> = d
            .choice
            .moves
            .iter()
            .filter_map(|m| {
                m.visits.filter(|&v| v > 0).map(|v| (m.cell, v.min(u32::MAX as u64) as u32))
            })
            .filter(|&(c, _)| pos.is_empty_cell(c))
            .collect();
        let cell = match d.mv {
            Move::Cell(c) => c,
            Move::Resign => break !me,
            other => bail!("the player answered {other} at ply {ply}"),
        };
        // A move the solver proved has no search behind it: its target is that move alone.
        if visits.is_empty() {
            visits.push((cell, 1));
        }
        let exact = d.proven.map(|w| w == me).or_else(|| searched_proof(&d.choice, cell));
        samples.push(with_position!(&pos, p => Sample::new(p, &visits, false, exact, game, ply)));
        pos.apply(Move::Cell(cell))?;
        ply += 1;
    };
    for s in &mut samples {
        s.won = s.to_move() == winner;
    }
    Ok(samples)
}

/// What the search proved of its root, when the solver in front of it did not decide: a win
/// when the move played is proven to win, a loss when every root move is proven to lose
/// (virtual connections and the MCTS-solver's backups, on boards the solver skips too).
fn searched_proof(choice: &Choice, played: Cell) -> Option<bool> {
    let moves = &choice.moves;
    if moves.iter().any(|m| m.cell == played && m.proven == Proven::Win) {
        Some(true)
    } else if !moves.is_empty() && moves.iter().all(|m| m.proven == Proven::Loss) {
        Some(false)
    } else {
        None
    }
}

/// The progress line after a game.
fn progress(state: &State, games: u64, first: u64, elapsed: Duration) -> String {
    let played = state.games - first;
    let per_min = played as f64 / elapsed.as_secs_f64().max(1e-9) * 60.0;
    let left = games.saturating_sub(state.games);
    let eta = if per_min > 0.0 { left as f64 / per_min * 60.0 } else { 0.0 };
    let load = crate::load_average().map_or(String::new(), |l| format!(", load {l}"));
    format!(
        "{}/{games} games, {} positions, {per_min:.2} games/min, ETA {}{load}",
        state.games,
        state.positions,
        hms(eta)
    )
}

fn hms(seconds: f64) -> String {
    let s = seconds.round() as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

/// The figures of a sample file.
#[derive(Debug, Default, PartialEq)]
struct Figures {
    games: u64,
    positions: u64,
    exact: u64,
    black_wins: u64,
    /// Moves of all games together.
    moves: u64,
    /// Exact values the game's result contradicts: a mistake in the game after the proof.
    blunders: u64,
    /// A loss for the side to move followed, one ply later, by a loss for the new side to move:
    /// one of the two proofs is wrong. Each is a line of the contradictions file.
    contradictions: Vec<String>,
}

/// The summary text of `file`, writing its contradicting positions to `out` (default beside
/// the file); `false` when there are any.
fn summary(file: &Path, out: Option<&Path>) -> anyhow::Result<(String, bool)> {
    let read = SampleFile::read(file)?;
    let f = figures(&read.samples);
    let share = |n: u64, of: u64| if of == 0 { 0.0 } else { 100.0 * n as f64 / of as f64 };
    let mut text = format!("{}\n", file.display());
    let state = state_path(file);
    if let Ok(s) = std::fs::read_to_string(&state) {
        if let Ok(s) = serde_json::from_str::<State>(&s) {
            text += &format!("player             {}\n", s.settings.player);
            text += &format!("solver nodes       {}\n", s.settings.solver_nodes);
        }
    }
    if read.torn_bytes > 0 {
        text += &format!("torn last record   {} bytes (left out)\n", read.torn_bytes);
    }
    text += &format!("games              {}\n", f.games);
    text += &format!("positions          {}\n", f.positions);
    text += &format!("with exact value   {} ({:.1}%)\n", f.exact, share(f.exact, f.positions));
    text +=
        &format!("Black wins         {} ({:.1}%)\n", f.black_wins, share(f.black_wins, f.games));
    let mean = if f.games == 0 { 0.0 } else { f.moves as f64 / f.games as f64 };
    text += &format!("mean game length   {mean:.1} moves\n");
    text += &format!(
        "blunders           {} (exact values the game's result contradicts)\n",
        f.blunders
    );
    let path = out.map_or_else(|| file.with_extension("contradictions.txt"), Path::to_path_buf);
    text += &format!(
        "contradictions     {} (a proven loss followed by a proven loss)\n",
        f.contradictions.len()
    );
    if !f.contradictions.is_empty() {
        let body: String = f.contradictions.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, body).with_context(|| format!("cannot write {}", path.display()))?;
        text += &format!("                   positions in {}\n", path.display());
    }
    Ok((text, f.contradictions.is_empty()))
}

/// Counts and checks the samples, game by game.
fn figures(samples: &[Sample]) -> Figures {
    let mut games: BTreeMap<u64, Vec<&Sample>> = BTreeMap::new();
    for s in samples {
        games.entry(s.game).or_default().push(s);
    }
    let mut f = Figures { positions: samples.len() as u64, ..Figures::default() };
    for (game, mut list) in games {
        list.sort_by_key(|s| s.ply);
        let first = list[0];
        let winner = if first.won { first.to_move() } else { !first.to_move() };
        f.games += 1;
        f.black_wins += u64::from(winner == Color::Black);
        f.moves += u64::from(list[list.len() - 1].ply) + 1;
        let moves = move_list(&list);
        for (i, s) in list.iter().enumerate() {
            f.exact += u64::from(s.exact.is_some());
            f.blunders += u64::from(s.exact.is_some_and(|e| e != s.won));
            let Some(next) = list.get(i + 1) else { continue };
            if next.ply == s.ply + 1 && s.exact == Some(false) && next.exact == Some(false) {
                let line = |n: usize| moves.get(..n).map(|m| m.join(" "));
                let reached = line(usize::from(s.ply)).unwrap_or_else(|| "?".into());
                let then = moves.get(usize::from(s.ply)).map_or("?".into(), String::clone);
                f.contradictions.push(format!(
                    "game {game} ply {}: {reached} | then {then} (both sides to move proven to lose)",
                    s.ply
                ));
            }
        }
    }
    f
}

/// The moves of a game as far as its samples show them: the first sample's stones (in board
/// order when there are several), then each stone that appears from one ply to the next.
fn move_list(list: &[&Sample]) -> Vec<String> {
    let name = |i: usize, cols: usize| Cell::at((i % cols) as u8, (i / cols) as u8).to_string();
    let first = list[0];
    let cols = usize::from(first.cols);
    let mut moves: Vec<String> =
        (0..first.cells.len()).filter(|&i| first.cells[i] != 0).map(|i| name(i, cols)).collect();
    for pair in list.windows(2) {
        if pair[1].ply != pair[0].ply + 1 || pair[1].cells.len() != pair[0].cells.len() {
            break;
        }
        let added: Vec<usize> = (0..pair[0].cells.len())
            .filter(|&i| pair[0].cells[i] == 0 && pair[1].cells[i] != 0)
            .collect();
        match added[..] {
            [i] => moves.push(name(i, cols)),
            _ => break,
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use nash_board::{Bitboard, Position};

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn args(list: &[&str]) -> Args {
        Cli::try_parse_from(std::iter::once("selfplay").chain(list.iter().copied()))
            .expect("arguments parse")
            .args
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("nash-selfplay-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn tiny(out: &Path, games: u64) -> Vec<String> {
        let said = std::sync::Mutex::new(Vec::new());
        let a = args(&[
            "--size",
            "5",
            "--games",
            &games.to_string(),
            "--out",
            out.to_str().unwrap(),
            "--player",
            "best:playouts=40,reuse=false,defend=true",
            "--solver-nodes",
            "100",
            "--temperature-plies",
            "2",
        ]);
        run_with(&a, &|l| said.lock().unwrap().push(l)).expect("self-play runs");
        said.into_inner().unwrap()
    }

    fn game_ids(out: &Path) -> Vec<u64> {
        let mut ids: Vec<u64> =
            SampleFile::read(out).unwrap().samples.iter().map(|s| s.game).collect();
        ids.dedup();
        ids
    }

    #[test]
    fn a_tiny_run_writes_whole_games_and_a_rerun_goes_on_from_them() {
        let dir = scratch("tiny");
        let out = dir.join("5x5.nsp");
        tiny(&out, 2);
        let first = SampleFile::read(&out).unwrap().samples;
        assert_eq!(game_ids(&out), [0, 1]);
        for s in &first {
            assert!(!s.visits.is_empty() && s.visits.iter().all(|m| m.visits > 0), "{s:?}");
        }
        // Each game's results alternate with the side to move, one winner per game.
        for g in [0, 1] {
            let game: Vec<&Sample> = first.iter().filter(|s| s.game == g).collect();
            let winners: Vec<Color> =
                game.iter().map(|s| if s.won { s.to_move() } else { !s.to_move() }).collect();
            assert!(winners.windows(2).all(|w| w[0] == w[1]), "{winners:?}");
        }
        let state: State =
            serde_json::from_str(&std::fs::read_to_string(state_path(&out)).unwrap()).unwrap();
        assert_eq!((state.games, state.positions), (2, first.len() as u64));
        assert!(state.settings.player.starts_with("best:"), "{}", state.settings.player);
        // The same count again: nothing to do.
        let said = tiny(&out, 2);
        assert!(said[0].contains("already"), "{said:?}");
        assert_eq!(SampleFile::read(&out).unwrap().samples, first);
        // One more: game 2 follows.
        tiny(&out, 3);
        let three = SampleFile::read(&out).unwrap().samples;
        assert_eq!(game_ids(&out), [0, 1, 2]);
        assert_eq!(three[..first.len()], first[..]);
        // Killed mid-write: a torn record of game 2 and its state not yet written. The rerun
        // plays game 2 again, the same game.
        let len = std::fs::metadata(&out).unwrap().len();
        std::fs::OpenOptions::new().write(true).open(&out).unwrap().set_len(len - 5).unwrap();
        let mut state: State =
            serde_json::from_str(&std::fs::read_to_string(state_path(&out)).unwrap()).unwrap();
        state.games = 2;
        save_state(&state_path(&out), &state).unwrap();
        let said = tiny(&out, 3);
        assert!(said.iter().any(|l| l.contains("torn")), "{said:?}");
        assert!(said.iter().any(|l| l.contains("dropped")), "{said:?}");
        assert_eq!(SampleFile::read(&out).unwrap().samples, three);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn other_settings_or_a_file_without_state_are_refused() {
        let dir = scratch("refuse");
        let out = dir.join("5x5.nsp");
        tiny(&out, 1);
        let a = args(&["--size", "5", "--games", "2", "--out", out.to_str().unwrap()]);
        let e = run_with(&a, &|_| {}).unwrap_err().to_string();
        assert!(e.contains("other settings") && e.contains("player"), "{e}");
        std::fs::remove_file(state_path(&out)).unwrap();
        let e = run_with(&a, &|_| {}).unwrap_err().to_string();
        assert!(e.contains("no state file"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The samples of the 4x4 game `moves`, with `exact[i]` the exact value of the position
    /// after the opening and `i` more moves, won by `winner`.
    fn game(id: u64, moves: &str, exact: &[Option<bool>], winner: Color) -> Vec<Sample> {
        let mut pos = Position::<Bitboard>::square(4).unwrap();
        let cells: Vec<Cell> = moves.split(' ').map(|m| m.parse().unwrap()).collect();
        pos.play(cells[0]).unwrap();
        let mut out = Vec::new();
        for (i, &cell) in cells[1..].iter().enumerate() {
            let me = pos.to_move();
            let s = Sample::new(&pos, &[(cell, 3)], me == winner, exact[i], id, i as u16 + 1);
            out.push(s);
            pos.play(cell).unwrap();
        }
        out
    }

    #[test]
    fn the_summary_counts_and_finds_contradicting_exact_values() {
        let (w, l, u) = (Some(true), Some(false), None);
        let mut samples = Vec::new();
        // Black wins down the b column; every exact value agrees with the result.
        samples.extend(game(0, "b1 a1 b2 a2 b3 a3 b4", &[l, w, l, w, l, w], Color::Black));
        // Black to move is proven lost after b1 c2, and after Black's b2 White to move is
        // proven lost too: a contradiction. Black's loss is also a blunder (Black won).
        samples.extend(game(1, "b1 c2 b2 d2 b3 a3 b4", &[u, l, l, u, u, w], Color::Black));
        // A proven win that was thrown away: a blunder, not a contradiction.
        samples.extend(game(2, "a1 a2 b1 b2 c1 c2 a3 d2", &[u, w, u, u, u, u, u], Color::White));
        let f = figures(&samples);
        assert_eq!((f.games, f.positions, f.black_wins, f.moves), (3, 19, 2, 7 + 7 + 8));
        assert_eq!((f.exact, f.blunders), (6 + 3 + 1, 2));
        assert_eq!(
            f.contradictions,
            ["game 1 ply 2: b1 c2 | then b2 (both sides to move proven to lose)"]
        );
        // Through the file: the text, and the positions written beside it.
        let dir = scratch("summary");
        let file = dir.join("hand.nsp");
        let mut out = SampleFile::append(&file).unwrap();
        for s in &samples {
            out.push(s).unwrap();
        }
        out.flush().unwrap();
        let (text, ok) = summary(&file, None).unwrap();
        assert!(!ok);
        assert!(text.contains("games              3\n"), "{text}");
        assert!(text.contains("contradictions     1 "), "{text}");
        let written = std::fs::read_to_string(dir.join("hand.contradictions.txt")).unwrap();
        assert!(written.starts_with("game 1 ply 2: b1 c2 | then b2"), "{written}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
