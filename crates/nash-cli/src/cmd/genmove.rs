//! `nash genmove`: one move for a position from a chosen player, with what it saw.

use nash_board::svg::Picture;
use nash_board::{with_position, BitSet, Cell, Move, Position};
use nash_play::{decide, DecidedBy, Decision};
use nash_search::SolverConfig;
use serde::Serialize;

/// Arguments of `nash genmove`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: crate::input::PositionArgs,
    #[command(flatten)]
    player: crate::player::PlayerArgs,
    /// Print the move and its analysis as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    picture: crate::picture::SvgArgs,
}

/// One root move and the player's score for it.
#[derive(Serialize)]
struct Score {
    cell: String,
    score: f64,
}

/// What `--json` prints.
#[derive(Serialize)]
struct Report {
    player: String,
    to_move: String,
    #[serde(rename = "move")]
    mv: String,
    /// `solver` (a proven win), `player`, or `game-over`.
    by: &'static str,
    /// The winner the solver proved before the player moved, if it did.
    proven_winner: Option<String>,
    /// The player's value of the position, for the side to move, in its own scale.
    value: Option<f64>,
    pv: Vec<String>,
    scores: Vec<Score>,
    depth: u32,
    nodes: u64,
    /// Seconds, the solver's look included.
    time: f64,
}

impl Report {
    fn new(player: String, to_move: String, d: &Decision) -> Report {
        let c = &d.choice;
        Report {
            player,
            to_move,
            mv: d.mv.to_string(),
            by: d.by.name(),
            proven_winner: d.proven.map(|w| w.to_string()),
            value: c.value.filter(|v| v.is_finite()),
            pv: c.pv.iter().map(|c| c.to_string()).collect(),
            scores: c
                .scores
                .iter()
                .filter(|(_, s)| s.is_finite())
                .map(|(cell, score)| Score { cell: cell.to_string(), score: *score })
                .collect(),
            depth: c.depth,
            nodes: c.nodes,
            time: d.elapsed.as_secs_f64(),
        }
    }
}

/// The picture of `nash genmove`: the player's score of each root move as a heat map, and the
/// move chosen as a numbered stone.
fn picture<B: BitSet>(p: &Position<B>, d: &Decision, rep: &Report) -> String {
    let chosen: Vec<Cell> = match d.mv {
        Move::Cell(c) => vec![c],
        _ => Vec::new(),
    };
    // The player's name, without its settings.
    let name = rep.player.split(':').next().unwrap_or_default();
    Picture::new(p)
        .values(&d.choice.scores, "the player's score of each move")
        .line(&chosen)
        .caption(format!("{} to move: {} by {} ({name})", rep.to_move, rep.mv, rep.by))
        .to_string()
}

/// Shown in the plain report: the best root moves, at most this many.
const SHOWN_SCORES: usize = 8;

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = crate::input::load(&args.position)?;
    let mut player = args.player.build()?;
    let d = decide(
        &pos,
        player.as_mut(),
        &args.player.budget(),
        &args.player.settings(true),
        &SolverConfig::default(),
    );
    let to_move = pos.to_move().to_string();
    let rep = Report::new(player.spec(), to_move, &d);
    args.picture.write(|| with_position!(&pos, p => picture(p, &d, &rep)))?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&rep)?);
        return Ok(());
    }
    outln!("{pos}");
    let what = match d.mv {
        Move::Resign if d.by == DecidedBy::GameOver => "resign (the game is over)".to_owned(),
        mv => mv.to_string(),
    };
    outln!("{} to move: {what}, by {} ({})", rep.to_move, rep.by, rep.player);
    if let Some(w) = &rep.proven_winner {
        outln!("proven: {w} wins");
    }
    if let Some(v) = rep.value {
        outln!("value: {v:.4}");
    }
    if !rep.pv.is_empty() {
        outln!("line: {}", rep.pv.join(" "));
    }
    if !rep.scores.is_empty() {
        let best: Vec<String> = rep
            .scores
            .iter()
            .take(SHOWN_SCORES)
            .map(|s| format!("{} {:.4}", s.cell, s.score))
            .collect();
        outln!("scores: {}", best.join(", "));
    }
    outln!("depth {}, nodes {}, time {:.3}s", rep.depth, rep.nodes, rep.time);
    Ok(())
}
