//! `nash genmove`: one move for a position from a chosen player, with what it saw.

use nash_board::svg::Picture;
use nash_board::{with_position, BitSet, Cell, Move, Position};
use nash_play::{decide, DecidedBy, Decision, MoveScore, Proven};
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

/// One root move as the player saw it (`nash_play::MoveScore`); what the player does not
/// measure is `null` (a Monte Carlo player's `value`, an alpha-beta player's `visits`).
#[derive(Serialize)]
pub(crate) struct MoveReport {
    cell: String,
    visits: Option<u64>,
    win_rate: Option<f64>,
    prior: Option<f64>,
    value: Option<f64>,
    /// `win`, `loss` or `unknown`.
    proven: &'static str,
    pv: Vec<String>,
}

impl MoveReport {
    pub(crate) fn new(m: &MoveScore) -> MoveReport {
        MoveReport {
            cell: m.cell.to_string(),
            visits: m.visits,
            win_rate: m.win_rate.filter(|r| r.is_finite()),
            prior: m.prior.filter(|p| p.is_finite()),
            value: m.value.filter(|v| v.is_finite()),
            proven: m.proven.name(),
            pv: m.pv.iter().map(|c| c.to_string()).collect(),
        }
    }
}

/// The plain report's table of root moves, best first, at most `limit`: a header naming the
/// columns, then one line per move. A player without visits says so in the header, and a
/// proven move shows `win` or `loss` in place of its number.
pub(crate) fn move_table(moves: &[MoveScore], limit: usize) -> Vec<String> {
    if moves.is_empty() {
        return Vec::new();
    }
    let rates = moves.iter().any(|m| m.visits.is_some());
    let mut lines = vec![if rates {
        "move   visits  win rate   prior  line".to_owned()
    } else {
        "move   value (no visits: the player's own scale)  line".to_owned()
    }];
    let dash = || "-".to_owned();
    for m in moves.iter().take(limit) {
        let line: Vec<String> = m.pv.iter().map(|c| c.to_string()).collect();
        let number = |x: Option<f64>| x.map_or_else(dash, |v| format!("{v:.4}"));
        let proven = match m.proven {
            Proven::Win => Some("win"),
            Proven::Loss => Some("loss"),
            Proven::Unknown => None,
        };
        let text = if rates {
            let rate = proven.map_or_else(|| number(m.win_rate), str::to_owned);
            let visits = m.visits.map_or_else(dash, |v| v.to_string());
            let prior = number(m.prior);
            format!("{:<6} {visits:>6}  {rate:>8}  {prior:>6}  {}", m.cell, line.join(" "))
        } else {
            let value = proven.map_or_else(|| number(m.value), str::to_owned);
            format!("{:<6} {value:>10}  {}", m.cell, line.join(" "))
        };
        lines.push(text.trim_end().to_owned());
    }
    lines
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
    /// The root moves the player looked at, best first.
    moves: Vec<MoveReport>,
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
            moves: c.moves.iter().map(MoveReport::new).collect(),
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
    let scores: Vec<(Cell, f64)> =
        d.choice.moves.iter().map(|m| (m.cell, m.score())).filter(|(_, s)| s.is_finite()).collect();
    Picture::new(p)
        .values(&scores, "the player's score of each move")
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
    match rep.value {
        Some(v) if v >= nash_play::eval::PROVEN => outln!("value: a proven win"),
        Some(v) if v <= -nash_play::eval::PROVEN => outln!("value: a proven loss"),
        Some(v) => outln!("value: {v:.4}"),
        None => {}
    }
    if !rep.pv.is_empty() {
        outln!("line: {}", rep.pv.join(" "));
    }
    for line in move_table(&d.choice.moves, SHOWN_SCORES) {
        outln!("{line}");
    }
    outln!("depth {}, nodes {}, time {:.3}s", rep.depth, rep.nodes, rep.time);
    Ok(())
}
