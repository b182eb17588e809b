//! `cargo xtask bench prior`: how often each of the player's priors names the move its search
//! chose (the most visited move of a self-play sample), on the held-out games of a sample file
//! (the games `cargo xtask train` holds out with the same `--holdout`). The priors: the policy
//! net, the learned local patterns (`order=patterns`), and the circuit order of the knowledge
//! (Anshelevich 2000's resistance, `order=circuit`, `best`'s default without a net). Each ranks
//! the moves the knowledge leaves open (mustplay, inferior cells pruned), as it does in `best`;
//! the net is also ranked over every empty cell.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::Context;
use nash_board::{BitSet, Cell, Geometry, Position, WideBitboard};
use nash_net::{Evaluator, Net, SampleFile};
use nash_play::patterns::{self, Matcher};
use nash_search::{Analyser, Knowledge, MoveOrdering, Verdict};

/// Arguments of `cargo xtask bench prior`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The sample file (written by `cargo xtask selfplay`).
    #[arg(long, default_value = "data/selfplay/9x9.nsp")]
    data: PathBuf,
    /// The net: `builtin` (the weights that ship in nash-play) or a weights file.
    #[arg(long, default_value = "builtin")]
    net: String,
    /// Percent of the games held out (those measured), as `cargo xtask train --holdout`.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=100))]
    holdout: u8,
    /// At most this many positions measured.
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u32).range(1..))]
    positions: u32,
}

/// Top-1 and top-3 hits of one prior.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Hits {
    positions: u32,
    top1: u32,
    top3: u32,
    /// The sum of `1 / moves`, a uniform random prior's expected top-1 hits.
    chance: f64,
}

impl Hits {
    /// Counts a position where the chosen move came `rank`-th (from 0; `None`: not among the
    /// ranked moves) of `moves`.
    fn add(&mut self, rank: Option<usize>, moves: usize) {
        self.positions += 1;
        self.top1 += u32::from(rank == Some(0));
        self.top3 += u32::from(rank.is_some_and(|r| r < 3));
        self.chance += 1.0 / moves.max(1) as f64;
    }

    /// The share `hits / positions` with its 95% normal-approximation half-width.
    fn share(&self, hits: u32) -> (f64, f64) {
        let n = f64::from(self.positions.max(1));
        let p = f64::from(hits) / n;
        (p, 1.96 * (p * (1.0 - p) / n).sqrt())
    }
}

/// The rank (from 0) of `target` among `moves` by `score`, highest first, ties counted against
/// it (a move scored the same as the target is ranked above it); `None` if absent.
fn rank_of(moves: &[Cell], target: Cell, score: impl Fn(Cell) -> f32) -> Option<usize> {
    if !moves.contains(&target) {
        return None;
    }
    let t = score(target);
    Some(moves.iter().filter(|&&m| m != target && score(m) >= t).count())
}

/// The knowledge of `best`: fill-in, inferior cells, virtual connections, the mustplay, and
/// the circuit order.
fn knowledge() -> Knowledge {
    Knowledge {
        threats: true,
        fill_in: true,
        vc: true,
        mustplay: true,
        ordering: MoveOrdering::Resistance,
        hsearch: Knowledge::or5_hsearch(),
        ..Knowledge::default()
    }
}

/// Per board size: the analyser and the pattern matcher.
struct Tools {
    analyser: Analyser<WideBitboard>,
    matcher: Matcher<WideBitboard>,
}

/// The measured hits: the net over every empty cell, then the three priors over the
/// knowledge's moves.
#[derive(Debug, Default, PartialEq)]
struct Table {
    net_all: Hits,
    net: Hits,
    patterns: Hits,
    circuit: Hits,
    /// Positions the knowledge decided (no prior is asked there).
    decided: u32,
}

fn measure(
    samples: impl Iterator<Item = nash_net::Sample>,
    net: std::sync::Arc<Net>,
    limit: u32,
) -> anyhow::Result<Table> {
    let mut evaluator = Evaluator::new(net);
    let mut tools: HashMap<(u8, u8), Tools> = HashMap::new();
    let weights = patterns::builtin();
    let mut table = Table::default();
    let mut order = Vec::new();
    for sample in samples {
        if table.net.positions + table.decided >= limit {
            break;
        }
        let Some(best) = sample.visits.iter().max_by_key(|m| m.visits) else { continue };
        let target = Cell::at(best.col, best.row);
        let mut pos: Position<WideBitboard> =
            sample.position().context("a sample that is no position")?;
        if pos.winner().is_some() {
            continue;
        }
        let geom: &'static Geometry<WideBitboard> = pos.geometry();
        let t = tools.entry((sample.cols, sample.rows)).or_insert_with(|| Tools {
            analyser: Analyser::new(&knowledge(), geom, 64),
            matcher: Matcher::new(geom),
        });
        let empty: Vec<Cell> = pos.empty_cells().iter().collect();
        let eval = evaluator.evaluate_one(&pos);
        let cols = pos.cols();
        let policy = |c: Cell| eval.policy[usize::from(c.row()) * cols + usize::from(c.col())];
        let an = t.analyser.analyse(&mut pos, 0);
        let moves = match an.verdict() {
            Verdict::Open if !an.moves().is_empty() => an.moves(),
            _ => {
                t.analyser.undo(&mut pos, &an);
                table.decided += 1;
                continue;
            }
        };
        table.net_all.add(rank_of(&empty, target, policy), empty.len());
        t.analyser.order(&pos, moves, &mut order);
        t.analyser.undo(&mut pos, &an);
        let open: Vec<Cell> = moves.iter().collect();
        table.net.add(rank_of(&open, target, policy), open.len());
        let gamma = |c: Cell| {
            let (ring, full) = t.matcher.codes(&pos, WideBitboard::bit_of(c));
            weights.gamma(ring, full)
        };
        table.patterns.add(rank_of(&open, target, gamma), open.len());
        let circuit = order.iter().position(|&c| c == target);
        table.circuit.add(circuit, open.len());
    }
    Ok(table)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let net = match args.net.as_str() {
        "builtin" => nash_play::builtin_net()?,
        path => Net::load(std::path::Path::new(path))?,
    };
    let read = SampleFile::read(&args.data)?;
    let held = read.samples.into_iter().filter(|s| crate::train::held_out(s.game, args.holdout));
    let table = measure(held, std::sync::Arc::new(net), args.positions)?;
    println!(
        "{}: {} held-out positions ({}% of the games) where the knowledge leaves moves open, {} \
         decided by it; net {}",
        args.data.display(),
        table.net.positions,
        args.holdout,
        table.decided,
        args.net
    );
    println!();
    println!("| prior | moves ranked | top-1 | top-3 | uniform top-1 |");
    println!("|---|---|---|---|---|");
    let rows = [
        ("net", "every empty cell", &table.net_all),
        ("net", "the knowledge's", &table.net),
        ("patterns", "the knowledge's", &table.patterns),
        ("circuit", "the knowledge's", &table.circuit),
    ];
    for (name, over, h) in rows {
        let (p1, e1) = h.share(h.top1);
        let (p3, e3) = h.share(h.top3);
        let uniform = h.chance / f64::from(h.positions.max(1));
        println!("| {name} | {over} | {:.3} ± {e1:.3} | {p3:.3} ± {e3:.3} | {uniform:.3} |", p1);
    }
    println!();
    println!("load average {}", crate::load_average().unwrap_or_else(|| "?".into()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_ties_against_the_target() {
        let cells: Vec<Cell> = (0..4).map(|c| Cell::at(c, 0)).collect();
        let score = |c: Cell| [0.5, 0.2, 0.5, 0.1][usize::from(c.col())];
        assert_eq!(rank_of(&cells, cells[0], score), Some(1));
        assert_eq!(rank_of(&cells, cells[3], score), Some(3));
        assert_eq!(rank_of(&cells[1..], cells[0], score), None);
        let mut h = Hits::default();
        h.add(Some(0), 4);
        h.add(Some(2), 4);
        h.add(None, 2);
        assert_eq!((h.positions, h.top1, h.top3), (3, 1, 2));
        assert!((h.chance - 1.0).abs() < 1e-12);
    }

    #[test]
    fn every_prior_is_measured_on_a_sample() {
        let mut pos = nash_board::WidePosition::square(5).unwrap();
        for m in ["c3", "b3"] {
            pos.play(m.parse().unwrap()).unwrap();
        }
        let visits = [(Cell::at(2, 1), 30), (Cell::at(1, 1), 5)];
        let sample = nash_net::Sample::new(&pos, &visits, true, None, 1, 2);
        let net = std::sync::Arc::new(Net::random(nash_net::Arch::default(), 3));
        let table = measure(std::iter::repeat_n(sample, 3), net, 2).unwrap();
        assert_eq!(table.net.positions + table.decided, 2);
        assert_eq!(table.net.positions, table.circuit.positions);
        assert_eq!(table.net.positions, table.patterns.positions);
    }
}
