//! `cargo xtask bench play`: each searching player's speed: nodes per second and the depth it
//! completes within a time per move, on 9x9 and 11x11 (medians over a few middle-game
//! positions), the figures of docs/players.md; with `--playouts N`, the speed of the Monte
//! Carlo players' bare playouts instead (N playouts per position and policy); with
//! `--interval CS`, what the analysis stream's reports every CS centiseconds cost a player's
//! speed (`Player::analyse` beside `Player::choose`, same positions and time).

use std::time::Duration;

use anyhow::Context;
use nash_board::{AnyPosition, Move};
use nash_play::{build, MoveBudget};

/// Arguments of `cargo xtask bench play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Player specs, each measured in turn, comma-separated (`amaf:threads=2,parallel=tree,mcts`:
    /// a `key=value` without a colon belongs to the spec before it).
    #[arg(long, value_delimiter = ',', default_values_t = [
        "hexy".to_string(), "queenbee".to_string(), "yreduction".to_string(),
        "pattern-ab".to_string(), "alphabeta".to_string(), "minimax".to_string(),
        "minimax-bridge".to_string(), "beam".to_string(), "mcts".to_string(),
        "amaf".to_string(), "amaf-bridge".to_string(), "best".to_string(),
    ])]
    players: Vec<String>,
    /// Board sizes (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [9, 11], value_parser = clap::value_parser!(u8).range(3..=19))]
    sizes: Vec<u8>,
    /// Seconds per move.
    #[arg(long, default_value = "1", value_parser = crate::parse_seconds)]
    time: Duration,
    /// Positions per board size.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=50))]
    positions: u8,
    /// Measure bare playouts instead of players: this many per position and policy.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    playouts: Option<u64>,
    /// Measure the cost of the analysis reports instead: each player's speed while it reports
    /// every this many centiseconds, beside its speed without reports.
    #[arg(long, value_name = "CS", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    interval: Option<u64>,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// The positions of one size: a game opened by two random moves (seed `i`), then two moves of
/// the greedy player against itself: open positions, where no player proves a win at once
/// (a proven root ends the search and says nothing of its speed).
fn positions(size: u8, count: u8) -> anyhow::Result<Vec<AnyPosition>> {
    let n = usize::from(size);
    (1..=u64::from(count))
        .map(|seed| {
            let mut pos = AnyPosition::new(n, n)?;
            let mut random = build(&format!("random:seed={seed}"))?;
            let mut greedy = build("greedy")?;
            for ply in 0..4 {
                let p = if ply < 2 { &mut random } else { &mut greedy };
                let m = p.choose(&pos, &MoveBudget::default()).mv;
                let Move::Cell(c) = m else { break };
                pos.apply(Move::Cell(c))?;
                if pos.winner().is_some() {
                    break;
                }
            }
            Ok(pos)
        })
        .collect()
}

/// Bare playouts of each policy: playouts per second (median over the positions) and how
/// often the side to move won, from the empty board and from the middle-game positions.
fn playouts(args: &Args, count: u64) -> anyhow::Result<()> {
    println!("| policy | board | from | playouts/s | side to move wins |");
    println!("|---|---|---|---:|---:|");
    for &size in &args.sizes {
        let n = usize::from(size);
        let middle = positions(size, args.positions).context("building the positions")?;
        let sets = [("empty board", vec![AnyPosition::new(n, n)?]), ("middle game", middle)];
        for policy in ["random", "bridge", "patterns", "reply"] {
            for (from, set) in &sets {
                let (mut rate, mut wins) = (Vec::new(), 0);
                for pos in set {
                    let s = nash_play::playouts(pos, policy, count, 1)?;
                    rate.push(s.playouts as f64 / s.elapsed.as_secs_f64().max(1e-9));
                    wins += s.wins;
                }
                let share = wins as f64 / (count as f64 * set.len() as f64);
                println!(
                    "| {policy} | {size}x{size} | {from} | {:.0} | {:.1}% |",
                    median(&mut rate),
                    100.0 * share
                );
            }
        }
    }
    Ok(())
}

/// The specs of `--players`, whose commas split settings as well as specs: a piece with `=`
/// and no `:` is a setting of the spec before it.
fn specs(pieces: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in pieces {
        match out.last_mut() {
            Some(last) if p.contains('=') && !p.contains(':') => {
                last.push(',');
                last.push_str(p);
            }
            _ => out.push(p.clone()),
        }
    }
    out
}

/// Each player's nodes per second (median over the positions) without reports and while
/// `Player::analyse` reports every `cs` centiseconds, and the reports made.
fn reports(args: &Args, cs: u64) -> anyhow::Result<()> {
    let every = Duration::from_millis(cs * 10);
    println!("| player | board | nodes/s | nodes/s reporting every {cs} cs | ratio | reports |");
    println!("|---|---|---:|---:|---:|---:|");
    for &size in &args.sizes {
        let positions = positions(size, args.positions).context("building the positions")?;
        for spec in &specs(&args.players) {
            let (mut plain, mut with, mut made) = (Vec::new(), Vec::new(), Vec::new());
            for pos in &positions {
                let budget = MoveBudget { time: Some(args.time), ..MoveBudget::default() };
                let mut player = build(spec).with_context(|| format!("player {spec}"))?;
                let c = player.choose(pos, &budget);
                plain.push(c.nodes as f64 / c.elapsed.as_secs_f64().max(1e-9));
                let mut player = build(spec)?;
                let mut count = 0u32;
                let c = player.analyse(pos, &budget, every, &mut |_| count += 1);
                with.push(c.nodes as f64 / c.elapsed.as_secs_f64().max(1e-9));
                made.push(f64::from(count));
            }
            let (p, w) = (median(&mut plain), median(&mut with));
            println!(
                "| {spec} | {size}x{size} | {p:.0} | {w:.0} | {:.3} | {} |",
                w / p.max(1e-9),
                median(&mut made)
            );
        }
    }
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(count) = args.playouts {
        return playouts(&args, count);
    }
    if let Some(cs) = args.interval {
        return reports(&args, cs);
    }
    println!("| player | board | nodes/s | depth | nodes | proven |");
    println!("|---|---|---:|---:|---:|---:|");
    for &size in &args.sizes {
        let positions = positions(size, args.positions).context("building the positions")?;
        for spec in &specs(&args.players) {
            let (mut rate, mut depth, mut nodes) = (Vec::new(), Vec::new(), Vec::new());
            let mut proven = 0;
            for pos in &positions {
                let mut player = build(spec).with_context(|| format!("player {spec}"))?;
                let budget = MoveBudget { time: Some(args.time), ..MoveBudget::default() };
                let c = player.choose(pos, &budget);
                let secs = c.elapsed.as_secs_f64().max(1e-9);
                rate.push(c.nodes as f64 / secs);
                depth.push(f64::from(c.depth));
                nodes.push(c.nodes as f64);
                // Values this large are proofs in every player's scale.
                if c.value.is_some_and(|v| v.abs() >= nash_play::eval::WIN / 2.0) {
                    proven += 1;
                }
            }
            println!(
                "| {spec} | {size}x{size} | {:.0} | {} | {:.0} | {proven} of {} |",
                median(&mut rate),
                median(&mut depth),
                median(&mut nodes),
                positions.len()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn settings_stay_with_their_spec() {
        let pieces: Vec<String> =
            ["amaf:threads=2", "parallel=tree", "mcts", "best:c=0.1"].map(String::from).into();
        assert_eq!(super::specs(&pieces), ["amaf:threads=2,parallel=tree", "mcts", "best:c=0.1"]);
    }
}
