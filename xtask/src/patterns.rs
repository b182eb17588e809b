//! `cargo xtask patterns`: learns the local-pattern weights of the Monte Carlo players from
//! positions the solver decides. Random positions (random stones, Black and White in turn) are
//! solved move by move (`nash_search::winning_moves`); in a position that has winning and
//! losing moves, each winning move is a win of its pattern over the patterns of all the legal
//! moves, and a Bradley-Terry model (a strength per inner ring and per whole pattern, a move's
//! strength their product) is fitted to those wins by minorisation-maximisation (Coulom 2007),
//! with one virtual win and one virtual loss against strength 1 per pattern. Every fifth
//! position is held out to measure how often the strongest move wins, against the solvers'
//! circuit order's first move and a move drawn at random. Deterministic given the seed.

use std::path::PathBuf;

use anyhow::Context;
use nash_board::{BitSet, Position};
use nash_play::patterns::{Matcher, Weights, RING_CODES};
use nash_search::{Analyser, Knowledge, MoveOrdering, SolverConfig};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Arguments of `cargo xtask patterns`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board sizes to draw positions on, comma-separated.
    #[arg(long, default_value = "7,8", value_delimiter = ',', value_parser = clap::value_parser!(u8).range(3..=11))]
    sizes: Vec<u8>,
    /// Positions to draw per size (those without both winning and losing moves are skipped).
    #[arg(long, default_value_t = 1000)]
    positions: usize,
    /// Stones on the board, as a fraction of its cells: from this much ...
    #[arg(long, default_value_t = 0.1)]
    min_fill: f64,
    /// ... to this much.
    #[arg(long, default_value_t = 0.45)]
    max_fill: f64,
    /// Solver nodes per move at most (a position with an undecided move is skipped).
    #[arg(long, default_value_t = 200_000)]
    nodes: u64,
    /// Occurrences in training a whole pattern needs for a weight of its own.
    #[arg(long, default_value_t = 20)]
    min_count: u32,
    /// Minorisation-maximisation rounds.
    #[arg(long, default_value_t = 40)]
    rounds: usize,
    /// Threads deciding positions (the result does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Seed of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the weights.
    #[arg(long, default_value = "crates/nash-play/src/patterns.txt")]
    out: PathBuf,
}

/// One decided position: its legal moves' canonical codes (inner ring, whole pattern), which
/// of them win, and the rank of each in the circuit order.
#[derive(Debug)]
struct Sample {
    moves: Vec<(u32, u32)>,
    winning: Vec<bool>,
    circuit_first: usize,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    anyhow::ensure!(
        0.0 <= a.min_fill && a.min_fill <= a.max_fill && a.max_fill < 1.0,
        "invalid fill range {}..{}: expected 0 <= min <= max < 1",
        a.min_fill,
        a.max_fill
    );
    let start = std::time::Instant::now();
    let mut samples = Vec::new();
    for &size in &a.sizes {
        let jobs: Vec<usize> = (0..a.positions).collect();
        let chunks: Vec<Vec<usize>> = (0..usize::from(a.threads))
            .map(|t| jobs.iter().copied().filter(|i| i % usize::from(a.threads) == t).collect())
            .collect();
        let mut found: Vec<(usize, Sample)> = std::thread::scope(|s| {
            let handles: Vec<_> = chunks
                .iter()
                .map(|chunk| {
                    let a = &a;
                    s.spawn(move || {
                        chunk
                            .iter()
                            .filter_map(|&i| {
                                if i % 200 == 0 {
                                    eprintln!("{size}x{size}: position {i}");
                                }
                                decide(size, i, a).map(|s| (i, s))
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().expect("a worker thread")).collect()
        });
        found.sort_by_key(|f| f.0);
        eprintln!(
            "{size}x{size}: {} of {} positions have winning and losing moves ({:.0} s)",
            found.len(),
            a.positions,
            start.elapsed().as_secs_f64()
        );
        samples.extend(found.into_iter().map(|f| f.1));
    }
    let (train, test): (Vec<_>, Vec<_>) = samples.iter().enumerate().partition(|(i, _)| i % 5 != 0);
    let train: Vec<&Sample> = train.into_iter().map(|t| t.1).collect();
    let test: Vec<&Sample> = test.into_iter().map(|t| t.1).collect();
    let weights = fit(&train, a.min_count, a.rounds);
    let ring_only = Weights::new(&ring_table(&weights), &[]);
    let acc = |w: &Weights| top_rate(&test, |s| argmax(s, w));
    let report = format!(
        "Local-pattern weights of the Monte Carlo players' priors (order=patterns).\n\
         Written by: cargo xtask patterns --sizes {} --positions {} --seed {} --nodes {} --min-count {} --rounds {}\n\
         {} positions decided ({} training, {} held out), {} whole patterns with a weight.\n\
         Held out, the first move wins: patterns {:.1}%, inner ring only {:.1}%, circuit order {:.1}%, random {:.1}%.",
        a.sizes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(","),
        a.positions,
        a.seed,
        a.nodes,
        a.min_count,
        a.rounds,
        samples.len(),
        train.len(),
        test.len(),
        weights.full_len(),
        100.0 * acc(&weights),
        100.0 * acc(&ring_only),
        100.0 * top_rate(&test, |s| s.circuit_first),
        100.0 * test
            .iter()
            .map(|s| s.winning.iter().filter(|&&w| w).count() as f64 / s.moves.len() as f64)
            .sum::<f64>()
            / test.len().max(1) as f64,
    );
    std::fs::write(&a.out, weights.format(&report))
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    println!("{report}\nwrote {} ({:.0} s)", a.out.display(), start.elapsed().as_secs_f64());
    Ok(())
}

/// Draws position `index` of `size` and decides every move; `None` when it is over, has a
/// move the budget left open, or has no winning or no losing move.
fn decide(size: u8, index: usize, a: &Args) -> Option<Sample> {
    let seed =
        a.seed ^ (u64::from(size) << 56) ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut rng = SmallRng::seed_from_u64(seed);
    let pos = nash_board::AnyPosition::new(usize::from(size), usize::from(size)).ok()?;
    nash_board::with_position!(&pos, p => decide_in(p.clone(), &mut rng, a))
}

fn decide_in<B: BitSet>(mut pos: Position<B>, rng: &mut SmallRng, a: &Args) -> Option<Sample> {
    let geom = pos.geometry();
    let cells = geom.cells().len();
    let lo = (a.min_fill * cells as f64) as usize;
    let hi = ((a.max_fill * cells as f64) as usize).max(lo);
    let stones = rng.gen_range(lo..=hi);
    for _ in 0..stones {
        let empty: Vec<_> = pos.empty_cells().iter().collect();
        pos.play(empty[rng.gen_range(0..empty.len())]).ok()?;
    }
    if pos.winner().is_some() {
        return None;
    }
    let mut cfg = SolverConfig { tt_mib: 32, ..SolverConfig::default() };
    cfg.budget.nodes = Some(a.nodes);
    let w = nash_search::winning_moves(&pos, &cfg);
    if !w.unknown.is_empty() || w.winning.is_empty() || w.losing.is_empty() {
        return None;
    }
    let matcher = Matcher::new(geom);
    let legal = pos.empty_cells();
    let moves: Vec<(u32, u32)> = legal.bits().map(|b| matcher.codes(&pos, b)).collect();
    let winning: Vec<bool> = legal.bits().map(|b| w.winning.has_bit(b)).collect();
    // The circuit order of the players' knowledge (`best`'s), over every legal move.
    let knowledge = Knowledge {
        threats: true,
        fill_in: true,
        vc: true,
        mustplay: true,
        ordering: MoveOrdering::Resistance,
        ..Knowledge::default()
    };
    let mut an = Analyser::new(&knowledge, geom, 8);
    let analysis = an.analyse(&mut pos, 0);
    let mut order = Vec::new();
    an.order(&pos, legal, &mut order);
    an.undo(&mut pos, &analysis);
    let first = order.first().map(|&c| B::bit_of(c))?;
    let circuit_first = legal.bits().position(|b| b == first)?;
    Some(Sample { moves, winning, circuit_first })
}

/// The index of the strongest move of `s` by `w` (the first of equals).
fn argmax(s: &Sample, w: &Weights) -> usize {
    let mut best = (0, f32::NEG_INFINITY);
    for (i, &(r, f)) in s.moves.iter().enumerate() {
        let g = w.gamma(r, f);
        if g > best.1 {
            best = (i, g);
        }
    }
    best.0
}

/// How often the move `pick` chooses wins.
fn top_rate(test: &[&Sample], pick: impl Fn(&Sample) -> usize) -> f64 {
    let hits = test.iter().filter(|s| s.winning[pick(s)]).count();
    hits as f64 / test.len().max(1) as f64
}

fn ring_table(w: &Weights) -> Vec<(u32, f32)> {
    (0..RING_CODES as u32).map(|c| (c, w.gamma(c, u32::MAX))).collect()
}

/// A move's features: its inner ring, and its whole pattern when that has a weight.
type Features = (usize, Option<usize>);

/// Fits the strengths by minorisation-maximisation: each winning move of a sample is a win of
/// its pattern over all the sample's moves.
fn fit(train: &[&Sample], min_count: u32, rounds: usize) -> Weights {
    use std::collections::HashMap;
    // Whole patterns seen often enough get an index of their own.
    let mut count: HashMap<u32, u32> = HashMap::new();
    for s in train {
        for &(_, f) in &s.moves {
            *count.entry(f).or_default() += 1;
        }
    }
    let mut fulls: Vec<u32> =
        count.iter().filter(|(_, &n)| n >= min_count).map(|(&f, _)| f).collect();
    fulls.sort_unstable();
    let full_index: HashMap<u32, usize> = fulls.iter().enumerate().map(|(i, &f)| (f, i)).collect();
    // The samples as feature indices: ring, whole pattern (or none).
    let data: Vec<(Vec<Features>, &Vec<bool>)> = train
        .iter()
        .map(|s| {
            let m = s.moves.iter().map(|&(r, f)| (r as usize, full_index.get(&f).copied()));
            (m.collect(), &s.winning)
        })
        .collect();
    let mut ring_wins = vec![0.0f64; RING_CODES];
    let mut full_wins = vec![0.0f64; fulls.len()];
    let mut ring_seen = vec![false; RING_CODES];
    for (moves, winning) in &data {
        for (&(r, f), &w) in moves.iter().zip(winning.iter()) {
            ring_seen[r] = true;
            if w {
                ring_wins[r] += 1.0;
                if let Some(f) = f {
                    full_wins[f] += 1.0;
                }
            }
        }
    }
    let mut ring = vec![1.0f64; RING_CODES];
    let mut full = vec![1.0f64; fulls.len()];
    for _ in 0..rounds {
        for group in 0..2 {
            let mut denom = vec![0.0f64; if group == 0 { RING_CODES } else { fulls.len() }];
            for (moves, winning) in &data {
                let n_wins = winning.iter().filter(|&&w| w).count() as f64;
                let gamma = |&(r, f): &Features| ring[r] * f.map_or(1.0, |f| full[f]);
                let total: f64 = moves.iter().map(gamma).sum();
                for m in moves {
                    let mate = if group == 0 { m.1.map_or(1.0, |f| full[f]) } else { ring[m.0] };
                    match (group, m.1) {
                        (0, _) => denom[m.0] += n_wins * mate / total,
                        (_, Some(f)) => denom[f] += n_wins * mate / total,
                        _ => {}
                    }
                }
            }
            let (g, wins) =
                if group == 0 { (&mut ring, &ring_wins) } else { (&mut full, &full_wins) };
            for ((g, w), d) in g.iter_mut().zip(wins).zip(&denom) {
                // One virtual win and one virtual loss against strength 1.
                *g = (w + 1.0) / (d + 2.0 / (*g + 1.0));
            }
        }
    }
    let ring_table: Vec<(u32, f32)> =
        (0..RING_CODES).filter(|&r| ring_seen[r]).map(|r| (r as u32, ring[r] as f32)).collect();
    let full_table: Vec<(u32, f32)> =
        fulls.iter().zip(&full).map(|(&f, &g)| (f, g as f32)).collect();
    Weights::new(&ring_table, &full_table)
}
