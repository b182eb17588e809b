//! `nash analyze`: a player's search on a position, reported every interval while it runs and
//! once at its end, as text or as JSON lines.

use std::time::Duration;

use nash_play::{Choice, MoveBudget};
use serde::Serialize;

use super::genmove::{move_table, MoveReport};

/// Arguments of `nash analyze`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: crate::input::PositionArgs,
    /// The player: NAME or NAME:KEY=VALUE,... (an unknown name lists the players).
    #[arg(long, value_name = "SPEC", default_value = nash_play::DEFAULT_PLAYER, value_parser = crate::player::player_spec)]
    player: String,
    /// Playouts (or search nodes) for the whole search; without it and --time, the player's
    /// own default.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    playouts: Option<u64>,
    /// Seconds for the whole search.
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    time: Option<f64>,
    /// Centiseconds between two reports while the search runs.
    #[arg(long, value_name = "CS", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=360_000))]
    interval: u64,
    /// One JSON object a line: each report, then the final one.
    #[arg(long)]
    json: bool,
}

/// A positive number of seconds within the time limits.
fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 => nash_play::limits::time_limit(x).map(|_| x).map_err(|e| e.to_string()),
        _ => Err(format!("invalid number of seconds {s:?} (more than 0)")),
    }
}

/// One JSON line: a report while the search runs (`final: false`) or its end.
#[derive(Serialize)]
struct Line {
    /// Whether this is the last line, the search's answer.
    #[serde(rename = "final")]
    last: bool,
    to_move: String,
    /// The move the player would play now.
    #[serde(rename = "move")]
    mv: String,
    /// Playouts (or nodes) so far.
    playouts: u64,
    /// Seconds so far.
    time: f64,
    /// The root moves, best first.
    moves: Vec<MoveReport>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = crate::input::load(&args.position)?;
    let mut player = nash_play::build(&args.player)
        .map_err(|e| anyhow::anyhow!("invalid value {:?} for --player: {e}", args.player))?;
    let to_move = pos.to_move().to_string();
    if pos.winner().is_some() {
        anyhow::bail!(
            "the game is over: {} has won",
            pos.winner().map(|w| w.to_string()).unwrap_or_default()
        );
    }
    let budget = MoveBudget {
        time: args.time.map(Duration::from_secs_f64),
        nodes: args.playouts,
        playouts: args.playouts,
        ..MoveBudget::default()
    };
    let every = Duration::from_millis(args.interval * 10);
    let json = args.json;
    let write = |c: &Choice, last: bool| -> anyhow::Result<()> {
        if json {
            let line = Line {
                last,
                to_move: to_move.clone(),
                mv: c.mv.to_string(),
                playouts: c.nodes,
                time: c.elapsed.as_secs_f64(),
                moves: c.moves.iter().map(MoveReport::new).collect(),
            };
            outln!("{}", serde_json::to_string(&line)?);
        } else {
            let what = if last { "final" } else { "so far" };
            outln!(
                "{to_move} to move, {what}: {} after {} playouts, {:.2}s",
                c.mv,
                c.nodes,
                c.elapsed.as_secs_f64()
            );
            for line in move_table(&c.moves, SHOWN_MOVES) {
                outln!("{line}");
            }
        }
        Ok(())
    };
    let mut failed = None;
    let last = player.analyse(&pos, &budget, every, &mut |c| {
        if failed.is_none() {
            failed = write(c, false).err();
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    write(&last, true)
}

/// The plain report's moves, at most this many.
const SHOWN_MOVES: usize = 8;
