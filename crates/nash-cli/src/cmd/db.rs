//! `nash db`: what a solved-position database holds, exported, merged and checked again.

use std::path::PathBuf;

use anyhow::Context;
use nash_board::{BitSet, Position};
use nash_db::{Db, Entry, Key};
use nash_search::{Outcome, SolverConfig};
use serde::Serialize;

use crate::cmd::solve::SolverArgs;

/// Arguments of `nash db`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Positions, records and bytes of each file, and positions by board size and value.
    Stats {
        /// Database files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Every position of a database, one a line: TSV (the columns of testdata/solved.tsv's
    /// kind) or JSON lines. Positions are written as one-line SGF, which every command reads.
    Export {
        /// The database.
        file: PathBuf,
        /// The output form.
        #[arg(long, value_enum, default_value_t = Format::Tsv)]
        format: Format,
    },
    /// Several databases into one (created if missing, added to otherwise); a position with
    /// different values in two of them is an error naming it.
    Merge {
        /// The databases to merge.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The database they are merged into.
        #[arg(long, value_name = "FILE")]
        into: PathBuf,
    },
    /// Rewrite a database with one record for each position it serves, leaving out damaged
    /// bytes, a torn last record and positions whose records disagree. The new file is
    /// written beside the old one and renamed over it: a failure leaves the old file as it was.
    Repair {
        /// The database.
        file: PathBuf,
    },
    /// Solve stored positions again (all, or a sample) and compare: each value, and that each
    /// stored winning move wins; exits with 1 on a disagreement.
    Verify {
        /// The database.
        file: PathBuf,
        /// Check this many positions, chosen at random (all without it).
        #[arg(long, value_name = "N")]
        sample: Option<usize>,
        /// The seed of the sample.
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        solver: SolverArgs,
    },
}

/// The forms of `nash db export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Tab-separated columns with a header line.
    Tsv,
    /// One JSON object a line.
    Jsonl,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::Stats { files } => stats(&files),
        Command::Export { file, format } => export(&file, format),
        Command::Merge { files, into } => merge(&files, &into),
        Command::Verify { file, sample, seed, solver } => verify(&file, sample, seed, &solver),
        Command::Repair { file } => repair(&file),
    }
}

/// Opens a database for reading, saying on stderr when a torn tail was left out.
fn open_read(path: &std::path::Path) -> anyhow::Result<Db> {
    let db = crate::files::open_db_read(path)?;
    warn_damage(&db);
    Ok(db)
}

/// Says on stderr what of the file was left out: a torn last record, damage skipped over,
/// positions whose records disagree.
pub fn warn_damage(db: &Db) {
    if db.dropped_bytes() > 0 {
        eprintln!(
            "warning: {}: a torn last record ({} bytes, a write cut short) was left out",
            db.path().display(),
            db.dropped_bytes()
        );
    }
    if db.conflicts() > 0 {
        eprintln!(
            "warning: {}: {} positions have records that disagree on the value (not served)",
            db.path().display(),
            db.conflicts()
        );
    }
    if db.damaged_bytes() > 0 {
        eprintln!(
            "warning: {}: {} damaged bytes inside the file were skipped (the records after them are kept)",
            db.path().display(),
            db.damaged_bytes()
        );
    }
}

fn repair(path: &std::path::Path) -> anyhow::Result<()> {
    let r = nash_db::repair(path)?;
    outln!(
        "{}: {} positions kept ({} records before); left out: {} damaged bytes, {} torn bytes, {} positions whose records disagreed",
        path.display(),
        r.positions,
        r.records_before,
        r.damaged_bytes,
        r.torn_bytes,
        r.conflicts
    );
    Ok(())
}

fn size(key: &Key) -> String {
    if key.cols() == key.rows() {
        key.cols().to_string()
    } else {
        format!("{}x{}", key.cols(), key.rows())
    }
}

fn stats(files: &[PathBuf]) -> anyhow::Result<()> {
    for path in files {
        let db = open_read(path)?;
        let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or_default();
        outln!(
            "{}: {} positions, {} records, {bytes} bytes",
            path.display(),
            db.len(),
            db.records()
        );
        let by_size = db.by_size();
        if by_size.is_empty() {
            continue;
        }
        outln!("  size   positions  wins  losses  winning sets  carriers  nodes");
        for r in by_size {
            outln!(
                "  {:<6} {:>9}  {:>4}  {:>6}  {:>12}  {:>8}  {}",
                format!("{}x{}", r.cols, r.rows),
                r.positions,
                r.wins,
                r.losses,
                r.winning_sets,
                r.carriers,
                r.nodes
            );
        }
    }
    Ok(())
}

/// One position as `nash db export` writes it.
#[derive(Serialize)]
struct Exported {
    /// The TSV's size column, `N` or `CxR`; JSON has the numbers.
    #[serde(skip)]
    size: String,
    cols: usize,
    rows: usize,
    position: String,
    to_move: String,
    winner: String,
    winning_move: Option<String>,
    winning_set: Option<Vec<String>>,
    carrier: Option<Vec<String>>,
    nodes: u64,
}

impl Exported {
    fn new(key: &Key, e: &Entry) -> Exported {
        let names = |cells: &Vec<u16>| cells.iter().map(|&i| key.cell(i).to_string()).collect();
        let to_move = key.to_move();
        Exported {
            size: size(key),
            cols: key.cols(),
            rows: key.rows(),
            position: key.sgf(),
            to_move: to_move.to_string(),
            winner: if e.wins { to_move } else { !to_move }.to_string(),
            winning_move: e.winning_move.map(|i| key.cell(i).to_string()),
            winning_set: e.winning_set.as_ref().map(names),
            carrier: e.carrier.as_ref().map(names),
            nodes: e.nodes,
        }
    }
}

fn export(path: &std::path::Path, format: Format) -> anyhow::Result<()> {
    let db = open_read(path)?;
    if format == Format::Tsv {
        outln!("# size\tposition\tto_move\twinner\twinning_move\twinning_moves\tcarrier\tnodes");
    }
    let list = |cells: &Option<Vec<String>>| match cells {
        None => "?".to_owned(),
        Some(c) if c.is_empty() => "-".to_owned(),
        Some(c) => c.join(" "),
    };
    for (key, e) in db.entries() {
        let x = Exported::new(key, e);
        match format {
            Format::Jsonl => outln!("{}", serde_json::to_string(&x)?),
            Format::Tsv => outln!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                x.size,
                x.position,
                x.to_move,
                x.winner,
                x.winning_move.as_deref().unwrap_or("-"),
                list(&x.winning_set),
                list(&x.carrier),
                x.nodes
            ),
        }
    }
    Ok(())
}

fn merge(files: &[PathBuf], into: &std::path::Path) -> anyhow::Result<()> {
    let mut out = crate::files::open_db(into)?;
    warn_damage(&out);
    let before = out.len();
    for path in files {
        let db = open_read(path)?;
        out.merge_from(&db)
            .with_context(|| format!("merging {} into {}", path.display(), into.display()))?;
    }
    out.sync()?;
    outln!(
        "{}: {} positions ({} new from {} files)",
        into.display(),
        out.len(),
        out.len() - before,
        files.len()
    );
    Ok(())
}

/// A small deterministic generator for the sample (splitmix64). Not `rand`'s `StdRng`: a
/// sample is named by its seed (`--sample 20 --seed 1` in docs/cluster.md), and `rand`
/// documents `StdRng`'s stream as free to change between its versions, which would make the
/// same command check other positions.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn verify(
    path: &std::path::Path,
    sample: Option<usize>,
    seed: u64,
    solver: &SolverArgs,
) -> anyhow::Result<()> {
    let db = open_read(path)?;
    let cfg = solver.config()?;
    let mut entries = db.entries();
    if let Some(n) = sample {
        // A partial Fisher-Yates shuffle: the first n are the sample.
        let mut state = seed;
        let n = n.min(entries.len());
        for i in 0..n {
            let j = i + (splitmix(&mut state) % (entries.len() - i) as u64) as usize;
            entries.swap(i, j);
        }
        entries.truncate(n);
    }
    let (mut agree, mut disagree, mut unknown) = (0, 0, 0);
    {
        let (_watch, cfg) = solver.watch("verifying", &cfg);
        for (key, e) in &entries {
            let pos = key.position();
            let check = nash_board::with_position!(&pos, p => check_one(p, e, &cfg));
            match check {
                Check::Agrees => agree += 1,
                Check::Unknown => unknown += 1,
                Check::Disagrees(why) => {
                    disagree += 1;
                    outln!("{}: {why}", key.sgf());
                }
            }
        }
    }
    outln!(
        "{}: {} positions checked: {agree} agree, {disagree} disagree, {unknown} undecided within the budget",
        path.display(),
        entries.len()
    );
    if disagree > 0 {
        anyhow::bail!("{}: {disagree} stored positions disagree with the solver", path.display());
    }
    if db.conflicts() > 0 {
        anyhow::bail!(
            "{}: {} positions have records that disagree on the value",
            path.display(),
            db.conflicts()
        );
    }
    if db.damaged_bytes() > 0 || db.dropped_bytes() > 0 {
        anyhow::bail!(
            "{}: damaged: {} bytes skipped inside the file, {} bytes of torn tail",
            path.display(),
            db.damaged_bytes(),
            db.dropped_bytes()
        );
    }
    Ok(())
}

enum Check {
    Agrees,
    Disagrees(String),
    Unknown,
}

/// Solves `p` (a key's canonical position, so the entry's cells are its cells) and compares.
fn check_one<B: BitSet>(p: &Position<B>, e: &Entry, cfg: &SolverConfig) -> Check {
    let value = |w: bool| if w { "win" } else { "loss" };
    let Some(wins) = nash_search::solve(p, cfg).outcome.wins() else { return Check::Unknown };
    if wins != e.wins {
        return Check::Disagrees(format!(
            "stored {} for {} to move, solved {}",
            value(e.wins),
            p.to_move(),
            value(wins)
        ));
    }
    if let Some(i) = e.winning_move {
        let (key, _) = Key::of(p);
        let m = key.cell(i);
        let mut after = p.clone();
        if after.play(m).is_err() {
            return Check::Disagrees(format!("stored winning move {m} is not legal"));
        }
        match nash_search::solve(&after, cfg).outcome {
            Outcome::Loss { .. } => {}
            Outcome::Win { .. } => {
                return Check::Disagrees(format!("stored winning move {m} loses"));
            }
            Outcome::Unknown { .. } => return Check::Unknown,
        }
    }
    Check::Agrees
}
