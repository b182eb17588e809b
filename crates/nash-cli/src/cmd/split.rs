//! `nash split`: a solve cut into independent jobs, the positions a few moves ahead.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use nash_board::{BitSet, Position};
use nash_db::{Db, Key};
use nash_search::{Budget, SolverConfig};

/// Arguments of `nash split`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: crate::input::PositionArgs,
    /// How many moves ahead the jobs' positions are (1 to 4).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=4))]
    depth: u8,
    /// The database that decides positions already solved; the quick solves are stored in it.
    #[arg(long, value_name = "FILE")]
    db: PathBuf,
    /// The directory the job files are written to (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// How many job files to write (the positions are dealt out among them; a file may be
    /// empty).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    jobs: u32,
    /// Solve each position with this many nodes first: what that decides is stored, not a job
    /// (0: no quick solves).
    #[arg(long, value_name = "N", default_value_t = 100)]
    quick_nodes: u64,
    /// Threads of the quick solves.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

/// The most memory the positions of a split may take, by [`estimate`], checked before it
/// starts.
const MEMORY_LIMIT: u64 = 1 << 30;

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = crate::input::load(&args.position)?;
    let (count, bytes) = nash_board::with_position!(&pos, p => estimate(p, args.depth));
    if bytes > u128::from(MEMORY_LIMIT) {
        anyhow::bail!(
            "--depth {} is too deep for this {}x{} position: up to {count} positions, about {} \
             of memory, over the {} limit; choose a smaller --depth",
            args.depth,
            pos.cols(),
            pos.rows(),
            show_bytes(bytes),
            show_bytes(MEMORY_LIMIT.into()),
        );
    }
    let mut db = crate::files::open_db(&args.db)?;
    crate::cmd::db::warn_damage(&db);
    nash_board::with_position!(&pos, p => split(p, &mut db, &args))
}

fn split<B: BitSet>(root: &Position<B>, db: &mut Db, args: &Args) -> anyhow::Result<()> {
    // Each level's positions, one per canonical key; a finished game or a stored answer is not
    // expanded further.
    let mut level = vec![root.clone()];
    let mut known = 0usize;
    for _ in 0..args.depth {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for p in &level {
            for m in p.legal_moves().iter() {
                let mut child = p.clone();
                child.play_unchecked(m);
                if !seen.insert(Key::of(&child).0) {
                    continue;
                }
                if child.winner().is_some() || nash_db::lookup(db, &child).is_some() {
                    known += 1;
                    continue;
                }
                next.push(child);
            }
        }
        level = next;
    }
    let reached = level.len() + known;
    let mut quick = 0;
    if args.quick_nodes > 0 && !level.is_empty() {
        let cfg = SolverConfig {
            budget: Budget { nodes: Some(args.quick_nodes), ..Budget::default() },
            threads: args.threads.into(),
            ..SolverConfig::default()
        };
        let results = nash_db::solve_many(db, &level, &cfg)?;
        let before = level.len();
        let mut undecided = Vec::new();
        for (p, (r, _)) in level.into_iter().zip(results) {
            if r.outcome.wins().is_none() {
                undecided.push(p);
            }
        }
        level = undecided;
        quick = before - level.len();
    }
    db.sync()?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    // Every job file is written, empty or not, so that a job array's size is --jobs.
    let jobs = args.jobs as usize;
    let mut files = vec![String::new(); jobs];
    for (i, p) in level.iter().enumerate() {
        let (key, _) = Key::of(p);
        let _ = writeln!(files[i % jobs], "{}", key.sgf());
    }
    for (i, text) in files.iter().enumerate() {
        write(&args.out.join(format!("job-{}.txt", i + 1)), text)?;
    }
    outln!(
        "{} positions {} moves ahead: {known} decided already, {quick} by quick solves; {} left in {jobs} job files ({}/job-1.txt to job-{jobs}.txt)",
        reached,
        args.depth,
        level.len(),
        args.out.display()
    );
    Ok(())
}

/// How many positions `depth` moves ahead of `root` there are at most, and an upper bound on
/// the memory they take. With `e` empty cells, `a` moves of the side to move and `b` of the
/// other, there are at most C(e, a)·C(e − a, b) positions (fewer once symmetric ones and
/// finished games are left out); each is held as a position with its history, and its key in
/// the set of those seen. The count grows like e^depth, so one level more is a factor of
/// the board's size.
fn estimate<B: BitSet>(root: &Position<B>, depth: u8) -> (u128, u128) {
    /// The bytes of one move of a position's history (its undo step and logs), rounded up.
    const PER_MOVE: u128 = 64;
    /// The bytes of one key in the set of positions seen, with the set's overhead.
    const PER_KEY: u128 = 64;
    let empty = root.empty_cells().len() as u128;
    let depth = u128::from(depth);
    let (mine, theirs) = (depth.div_ceil(2), depth / 2);
    let count = choose(empty, mine).saturating_mul(choose(empty.saturating_sub(mine), theirs));
    let moves = root.history().len() as u128 + depth;
    let each = std::mem::size_of::<Position<B>>() as u128 + PER_MOVE * moves + PER_KEY;
    (count, count.saturating_mul(each))
}

/// The binomial coefficient C(n, k).
fn choose(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// A byte count in MB, GB or TB, for messages.
fn show_bytes(bytes: u128) -> String {
    const MB: f64 = (1u64 << 20) as f64;
    let b = bytes as f64;
    if b < 1024.0 * MB {
        format!("{:.0} MB", b / MB)
    } else if b < 1024.0 * 1024.0 * MB {
        format!("{:.1} GB", b / (1024.0 * MB))
    } else {
        format!("{:.1} TB", b / (1024.0 * 1024.0 * MB))
    }
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}
