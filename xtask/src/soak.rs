//! `cargo xtask soak`: the release `nash` binary attacked as a hostile or careless user would,
//! within a bounded number of minutes: an HTP fuzzer with interrupts, single-bit damage and
//! truncation of a database file, time limits across solvers and board sizes, and hostile
//! inputs. Each part prints a table of counts with pass or FAIL against the bars of
//! docs/reliability.md (interrupts and limits honoured within 100 ms plus a node, no
//! position lost to single-bit damage, no panic, memory under 1 GiB); any FAIL fails the run.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

mod child;
mod damage;
mod fuzz;
mod hostile;
mod limits;

/// The memory every run must stay under; a child that passes it is killed.
const RSS_BOUND: u64 = 1 << 30;

/// What a limit or an interrupt may take beyond being reached, before a node's allowance.
const LIMIT_GRACE: Duration = Duration::from_millis(100);

/// Arguments of `cargo xtask soak`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Minutes the whole run may take (after the build); the parts share them, and what one
    /// leaves unused goes to the next.
    #[arg(long, default_value = "10", value_parser = parse_minutes)]
    minutes: Duration,
    /// The `nash` binary to attack; by default `cargo build --release -p nash-cli` builds it.
    #[arg(long)]
    nash: Option<PathBuf>,
    /// The seed of the fuzzer's lines and of the bits and lengths sampled.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The allowance for one node's cost on top of 100 ms, in milliseconds: a limit or an
    /// interrupt honoured later than that is an overrun.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    node_ms: u64,
    /// An HTP command with no answer for this many seconds has hung (the engine is killed and
    /// started again).
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = crate::parse_seconds)]
    hang: Duration,
    /// Only these parts (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',')]
    only: Vec<Part>,
}

/// The parts of the soak, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Part {
    /// The HTP fuzzer.
    Htp,
    /// Bit flips and truncations of a database file.
    Db,
    /// Time limits across solvers and board sizes.
    Limits,
    /// Hostile inputs: /dev/zero, huge files, a line without end.
    Hostile,
}

impl Part {
    const ALL: [Part; 4] = [Part::Htp, Part::Db, Part::Limits, Part::Hostile];

    /// The part's share of the run's time.
    fn share(self) -> u32 {
        match self {
            Part::Htp => 30,
            Part::Db => 25,
            Part::Limits => 30,
            Part::Hostile => 15,
        }
    }
}

/// What every part is given.
pub struct Ctx {
    /// The binary attacked.
    pub nash: PathBuf,
    /// The workspace root (testdata/ is under it).
    pub root: PathBuf,
    /// A scratch directory of the part's own.
    pub scratch: PathBuf,
    /// When the part must be done.
    pub deadline: Instant,
    pub seed: u64,
    /// How late a limit or an interrupt may be honoured: 100 ms plus a node's allowance.
    pub late: Duration,
    pub hang: Duration,
}

impl Ctx {
    /// The time left to the part.
    pub fn left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// Bounds for a run of at most `time`, cut to what is left to the part.
    pub fn bounds(&self, time: Duration) -> child::Bounds {
        child::Bounds { time: time.min(self.left()), rss: RSS_BOUND }
    }
}

/// `pass` or `FAIL`, for a table's last column.
pub fn verdict(ok: bool) -> &'static str {
    if ok {
        "pass"
    } else {
        "FAIL"
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let nash = match &args.nash {
        Some(p) => p.canonicalize().with_context(|| format!("cannot find {}", p.display()))?,
        None => crate::htp::build_nash()?,
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is in the workspace")
        .to_path_buf();
    let scratch = root.join("target/soak");
    let _ = std::fs::remove_dir_all(&scratch);
    let parts: Vec<Part> =
        Part::ALL.into_iter().filter(|p| args.only.is_empty() || args.only.contains(p)).collect();
    let start = Instant::now();
    let end = start + args.minutes;
    println!(
        "soak of {} for {:.1} minutes, seed {}",
        nash.display(),
        args.minutes.as_secs_f64() / 60.0,
        args.seed
    );
    let mut fails = 0;
    for (i, &part) in parts.iter().enumerate() {
        // The part's share of what is left, so time a part leaves goes to the next ones.
        let shares: u32 = parts[i..].iter().map(|p| p.share()).sum();
        let left = end.saturating_duration_since(Instant::now());
        let dir = scratch.join(format!("{part:?}").to_lowercase());
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let ctx = Ctx {
            nash: nash.clone(),
            root: root.clone(),
            scratch: dir,
            deadline: Instant::now() + left * part.share() / shares,
            seed: args.seed,
            late: LIMIT_GRACE + Duration::from_millis(args.node_ms),
            hang: args.hang,
        };
        println!();
        fails += match part {
            Part::Htp => fuzz::run(&ctx)?,
            Part::Db => damage::run(&ctx)?,
            Part::Limits => limits::run(&ctx)?,
            Part::Hostile => hostile::run(&ctx)?,
        };
    }
    println!();
    println!("soak: {fails} failed rows in {:.1}s", start.elapsed().as_secs_f64());
    if fails > 0 {
        bail!("{fails} soak rows failed");
    }
    Ok(())
}

/// A number of minutes on the command line: positive and at most a week.
fn parse_minutes(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(m) if m.is_finite() && m > 0.0 && m <= 7.0 * 24.0 * 60.0 => {
            Ok(Duration::from_secs_f64(m * 60.0))
        }
        _ => Err(format!("invalid minutes {s:?}: expected a positive number up to 10080")),
    }
}

/// The median and the largest of `v` (zero when empty).
pub fn median_max(v: &mut [Duration]) -> (Duration, Duration) {
    v.sort_unstable();
    match v.len() {
        0 => (Duration::ZERO, Duration::ZERO),
        n => (v[n / 2], v[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minutes_are_bounded_and_medians_taken() {
        assert!(parse_minutes("1").is_ok() && parse_minutes("0.5").is_ok());
        for bad in ["0", "-1", "NaN", "inf", "20000", "x"] {
            assert!(parse_minutes(bad).is_err(), "{bad}");
        }
        let ms = Duration::from_millis;
        assert_eq!(median_max(&mut [ms(30), ms(10), ms(20)]), (ms(20), ms(30)));
        assert_eq!(median_max(&mut []), (ms(0), ms(0)));
    }
}
