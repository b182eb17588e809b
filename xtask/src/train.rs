//! `cargo xtask train`: trains the policy and value net (nash-net) on self-play sample files.
//!
//! Reads every `*.nsp` file of `--data`, holds out a fixed share of the games (chosen by game
//! number, so a game's positions all land on one side), and trains with Adam on mini-batches,
//! each example turned by 180° half the time. Everything goes to `--out`:
//!
//! - `net.nnw`, the latest weights, with the optimizer's moments in `adam-m.nnw` and
//!   `adam-v.nnw` and the position in the run in `state.json`, written at every checkpoint
//!   (every epoch and every `--checkpoint-steps` steps); a rerun with the same `--out` goes on
//!   from the last checkpoint;
//! - `train.tsv`: per step the batch's loss, policy cross-entropy, value squared error, top-1
//!   move accuracy and mean absolute value error, and per epoch the same on the held-out games;
//! - `loss.svg`, `accuracy.svg` and `value.svg`: those curves.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nash_net::planes::{from_sample, rotated, Example};
use nash_net::train::{evaluate, Stats};
use nash_net::{Arch, Net, PlaneSet, Sample, SampleFile, TrainSettings, Trainer};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

mod plot;

/// Arguments of `cargo xtask train`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The folder of sample files (`*.nsp`, as self-play writes them).
    #[arg(long)]
    data: PathBuf,
    /// Where the weights, checkpoints, log and plots go (resumed when it holds a run).
    #[arg(long, default_value = "target/train")]
    out: PathBuf,
    /// Input planes: basic or bridges.
    #[arg(long, default_value = "bridges")]
    planes: PlaneSet,
    /// Channels of every convolution.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..=512))]
    filters: u16,
    /// Residual blocks.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(0..=64))]
    blocks: u8,
    /// Hidden units of the value head.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..=4096))]
    hidden: u16,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: u32,
    /// Positions per step.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    batch: u32,
    /// Stop after this many steps in all (for a quick look; the run resumes past it).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_steps: Option<u64>,
    /// Adam's step size.
    #[arg(long, default_value = "0.001", value_parser = positive)]
    lr: f32,
    /// L2 weight decay on the weights.
    #[arg(long, default_value = "0.0001", value_parser = non_negative)]
    weight_decay: f32,
    /// The value error's weight in the loss, against the policy's cross-entropy.
    #[arg(long, default_value = "1", value_parser = non_negative)]
    value_weight: f32,
    /// Percent of the games held out for measuring.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=50))]
    holdout: u8,
    /// Also checkpoint every this many steps (besides every epoch).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    checkpoint_steps: Option<u64>,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads for a batch's gradients (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Do not turn examples by 180°.
    #[arg(long)]
    no_augment: bool,
}

fn positive(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 10.0 => Ok(v),
        _ => Err(format!("invalid value {s:?}: expected a number above 0, at most 10")),
    }
}

fn non_negative(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if v.is_finite() && (0.0..=100.0).contains(&v) => Ok(v),
        _ => Err(format!("invalid value {s:?}: expected a number from 0 to 100")),
    }
}

/// Where a run stands, written with every checkpoint (format version 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct State {
    version: u32,
    arch: String,
    seed: u64,
    batch: u32,
    /// Steps taken in all.
    steps: u64,
    /// The epoch under way, from 0, and the steps of it already taken.
    epoch: u32,
    step_in_epoch: u64,
}

/// The TSV's header line.
const TSV_HEADER: &str = "step\tepoch\tset\tloss\tpolicy_loss\tvalue_mse\ttop1\tvalue_error";

/// Whether `game` is among the held-out `percent` of games: a hash of its number, so the
/// choice is fixed and spread over the numbering.
pub(crate) fn held_out(game: u64, percent: u8) -> bool {
    let mut z = game.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) % 100 < u64::from(percent)
}

/// Every sample of the `*.nsp` files of `dir`, in file-name order; each is checked.
fn read_samples(dir: &Path, planes: PlaneSet, say: &dyn Fn(String)) -> anyhow::Result<Vec<Sample>> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "nsp"))
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("{}: no sample files (*.nsp)", dir.display());
    }
    let mut samples = Vec::new();
    for file in &files {
        let read = SampleFile::read(file)?;
        if read.torn_bytes > 0 {
            say(format!(
                "{}: left out a torn last record ({} bytes)",
                file.display(),
                read.torn_bytes
            ));
        }
        for s in &read.samples {
            from_sample(s, planes).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        }
        samples.extend(read.samples);
    }
    Ok(samples)
}

/// One TSV row.
fn row(step: u64, epoch: u32, set: &str, s: &Stats, value_weight: f32) -> String {
    format!(
        "{step}\t{epoch}\t{set}\t{:.5}\t{:.5}\t{:.5}\t{:.4}\t{:.4}",
        s.mean_loss(value_weight),
        s.mean_policy_loss(),
        s.mean_value_loss(),
        s.top1_accuracy(),
        s.mean_value_error()
    )
}

/// The run's files in `out`.
struct Files {
    net: PathBuf,
    adam_m: PathBuf,
    adam_v: PathBuf,
    state: PathBuf,
    tsv: PathBuf,
}

impl Files {
    fn new(out: &Path) -> Files {
        Files {
            net: out.join("net.nnw"),
            adam_m: out.join("adam-m.nnw"),
            adam_v: out.join("adam-v.nnw"),
            state: out.join("state.json"),
            tsv: out.join("train.tsv"),
        }
    }
}

/// Writes a checkpoint: the moments and the weights first, the state (which says they are
/// whole) last, each atomically.
fn checkpoint(files: &Files, net: &Net, trainer: &Trainer, state: &State) -> anyhow::Result<()> {
    Net::from_params(net.arch(), trainer.m.clone())?.save(&files.adam_m)?;
    Net::from_params(net.arch(), trainer.v.clone())?.save(&files.adam_v)?;
    net.save(&files.net)?;
    let tmp = files.state.with_extension("json.tmp");
    std::fs::write(&tmp, serde_json::to_string_pretty(state)? + "\n")
        .and_then(|()| std::fs::rename(&tmp, &files.state))
        .with_context(|| format!("cannot write {}", files.state.display()))
}

/// The run's net, optimizer and state: the last checkpoint's when `out` holds one, else new.
fn start(
    args: &Args,
    arch: Arch,
    settings: TrainSettings,
    files: &Files,
) -> anyhow::Result<(Net, Trainer, State)> {
    let fresh = State {
        version: 1,
        arch: arch.to_string(),
        seed: args.seed,
        batch: args.batch,
        steps: 0,
        epoch: 0,
        step_in_epoch: 0,
    };
    if !files.state.exists() {
        let net = Net::random(arch, args.seed);
        let trainer = Trainer::new(&net, settings);
        return Ok((net, trainer, fresh));
    }
    let text = std::fs::read_to_string(&files.state)
        .with_context(|| format!("cannot read {}", files.state.display()))?;
    let state: State = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: not a training state ({e})", files.state.display()))?;
    if state.version != 1 {
        bail!(
            "{}: training state version {}; this program reads version 1",
            files.state.display(),
            state.version
        );
    }
    if (&state.arch, state.seed, state.batch) != (&fresh.arch, fresh.seed, fresh.batch) {
        bail!(
            "{} holds a run of {} with seed {} and batch {}: give the same settings or another --out",
            files.state.display(),
            state.arch,
            state.seed,
            state.batch
        );
    }
    let net = Net::load(&files.net)?;
    let (m, v) = (Net::load(&files.adam_m)?, Net::load(&files.adam_v)?);
    if net.arch() != arch || m.arch() != arch || v.arch() != arch {
        bail!("{}: its weights files are not of {arch}", args.out.display());
    }
    let trainer =
        Trainer { settings, steps: state.steps, m: m.params().to_vec(), v: v.params().to_vec() };
    Ok((net, trainer, state))
}

/// The TSV's rows up to step `steps` (a run stopped after its last checkpoint logged steps
/// that it takes again).
fn tsv_rows(path: &Path, steps: u64) -> anyhow::Result<Vec<String>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(text
        .lines()
        .skip(1)
        .filter(|l| {
            l.split('\t').next().and_then(|s| s.parse::<u64>().ok()).is_some_and(|s| s <= steps)
        })
        .map(str::to_owned)
        .collect())
}

/// Draws the curves of the TSV's rows into `out`.
fn draw(out: &Path, rows: &[String]) -> anyhow::Result<()> {
    let series = |set: &str, col: usize| -> Vec<(f64, f64)> {
        rows.iter()
            .filter_map(|r| {
                let f: Vec<&str> = r.split('\t').collect();
                (f.get(2) == Some(&set))
                    .then(|| Some((f[0].parse().ok()?, f.get(col)?.parse().ok()?)))?
            })
            .collect()
    };
    let charts = [
        ("loss.svg", "Training loss (cross-entropy + value MSE)", "loss", 3),
        ("accuracy.svg", "Top-1 move prediction", "share of positions", 6),
        ("value.svg", "Mean absolute value error", "|value - target|", 7),
    ];
    for (file, title, y_label, col) in charts {
        let svg = plot::line_chart(
            title,
            "step",
            y_label,
            &[
                plot::Series {
                    name: "train (batch)",
                    color: "steelblue",
                    points: series("train", col),
                },
                plot::Series {
                    name: "held out",
                    color: "darkorange",
                    points: series("holdout", col),
                },
            ],
        );
        let path = out.join(file);
        std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<()> {
    run_with(args, &|line| println!("{line}"))
}

fn run_with(args: Args, say: &dyn Fn(String)) -> anyhow::Result<()> {
    if let Some(n) = args.threads {
        // Fails only if the pool was built already (a second run in one process): keep it.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(usize::from(n)).build_global();
    }
    let arch = Arch {
        planes: args.planes,
        filters: usize::from(args.filters),
        blocks: usize::from(args.blocks),
        hidden: usize::from(args.hidden),
    };
    let settings = TrainSettings {
        learning_rate: args.lr,
        weight_decay: args.weight_decay,
        value_weight: args.value_weight,
        ..TrainSettings::default()
    };
    let samples = read_samples(&args.data, args.planes, say)?;
    let (holdout, train): (Vec<Sample>, Vec<Sample>) =
        samples.into_iter().partition(|s| held_out(s.game, args.holdout));
    if train.is_empty() {
        bail!(
            "{}: no training positions left after holding out {}% of the games",
            args.data.display(),
            args.holdout
        );
    }
    let holdout: Vec<Example> =
        holdout.iter().map(|s| from_sample(s, args.planes)).collect::<Result<_, _>>()?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let files = Files::new(&args.out);
    let (mut net, mut trainer, mut state) = start(&args, arch, settings, &files)?;
    let mut rows = tsv_rows(&files.tsv, state.steps)?;
    let batch = args.batch as usize;
    let per_epoch = train.len().div_ceil(batch) as u64;
    let total = u64::from(args.epochs) * per_epoch;
    let end = args.max_steps.map_or(total, |m| m.min(total));
    say(format!(
        "net {arch} ({} parameters); {} training and {} held-out positions; {per_epoch} steps an epoch{}",
        arch.param_count(),
        train.len(),
        holdout.len(),
        if state.steps > 0 { format!("; resuming at step {}", state.steps) } else { String::new() }
    ));

    let bar = ProgressBar::with_draw_target(Some(end), ProgressDrawTarget::hidden());
    if std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} steps, {per_sec}, eta {eta} {msg}")
            .expect("a valid template"),
    );
    bar.set_position(state.steps);

    let write_log = |rows: &[String]| -> anyhow::Result<()> {
        let text = std::iter::once(TSV_HEADER.to_owned())
            .chain(rows.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n")
            + "\n";
        let tmp = files.tsv.with_extension("tsv.tmp");
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, &files.tsv))
            .with_context(|| format!("cannot write {}", files.tsv.display()))?;
        draw(&args.out, rows)
    };

    let mut order: Vec<usize> = (0..train.len()).collect();
    while state.epoch < args.epochs && state.steps < end {
        order.sort_unstable();
        order.shuffle(&mut SmallRng::seed_from_u64(
            args.seed ^ u64::from(state.epoch).wrapping_mul(0x9E37_79B9),
        ));
        let mut epoch_stats = Stats::default();
        while state.step_in_epoch < per_epoch && state.steps < end {
            let from = state.step_in_epoch as usize * batch;
            let examples = order[from..(from + batch).min(order.len())]
                .iter()
                .enumerate()
                .map(|(i, &k)| {
                    // A fair coin from the step and the slot (the hash of `held_out`), so
                    // that a resumed run turns the same examples.
                    let turn = !args.no_augment && held_out(state.steps * 65_537 + i as u64, 50);
                    if turn {
                        from_sample(&rotated(&train[k]), args.planes)
                    } else {
                        from_sample(&train[k], args.planes)
                    }
                })
                .collect::<Result<Vec<Example>, _>>()?;
            let stats = trainer.step(&mut net, &examples);
            epoch_stats = merge(epoch_stats, stats);
            state.steps += 1;
            state.step_in_epoch += 1;
            rows.push(row(state.steps, state.epoch, "train", &stats, args.value_weight));
            bar.set_position(state.steps);
            bar.set_message(format!("loss {:.3}", stats.mean_loss(args.value_weight)));
            if args.checkpoint_steps.is_some_and(|n| state.steps % n == 0)
                && state.step_in_epoch < per_epoch
            {
                checkpoint(&files, &net, &trainer, &state)?;
                write_log(&rows)?;
            }
        }
        if state.step_in_epoch == per_epoch {
            let held = evaluate(&net, &holdout, args.value_weight);
            if !holdout.is_empty() {
                rows.push(row(state.steps, state.epoch, "holdout", &held, args.value_weight));
            }
            bar.suspend(|| {
                say(format!(
                    "epoch {}: train loss {:.4} top-1 {:.3}; held out loss {:.4} top-1 {:.3} value error {:.3}",
                    state.epoch + 1,
                    epoch_stats.mean_loss(args.value_weight),
                    epoch_stats.top1_accuracy(),
                    held.mean_loss(args.value_weight),
                    held.top1_accuracy(),
                    held.mean_value_error()
                ))
            });
            state.epoch += 1;
            state.step_in_epoch = 0;
        }
        checkpoint(&files, &net, &trainer, &state)?;
        write_log(&rows)?;
    }
    bar.finish_and_clear();
    say(format!(
        "{} steps; weights in {}, curves in {} (loss.svg, accuracy.svg, value.svg)",
        state.steps,
        files.net.display(),
        files.tsv.display()
    ));
    Ok(())
}

/// The sum of two batches' figures.
fn merge(a: Stats, b: Stats) -> Stats {
    Stats {
        examples: a.examples + b.examples,
        with_policy: a.with_policy + b.with_policy,
        policy_loss: a.policy_loss + b.policy_loss,
        value_loss: a.value_loss + b.value_loss,
        top1: a.top1 + b.top1,
        value_abs: a.value_abs + b.value_abs,
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use nash_board::{Cell, SmallPosition};

    use super::*;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn args(argv: &[&str]) -> Result<Args, clap::Error> {
        Cli::try_parse_from(std::iter::once("train").chain(argv.iter().copied())).map(|c| c.args)
    }

    /// A folder with a sample file of a few positions from `games` tiny games.
    fn data(dir: &Path, games: u64) {
        std::fs::create_dir_all(dir).unwrap();
        let mut file = SampleFile::append(&dir.join("games.nsp")).unwrap();
        for game in 0..games {
            let mut pos = SmallPosition::square(4).unwrap();
            for ply in 0..3u8 {
                let visits = [(Cell::at(ply, 1), 5), (Cell::at(3, 3 - ply), 2)];
                file.push(&Sample::new(&pos, &visits, ply % 2 == 0, None, game, u16::from(ply)))
                    .unwrap();
                pos.play(Cell::at(ply, (game % 4) as u8)).unwrap();
            }
        }
        file.flush().unwrap();
    }

    #[test]
    fn a_tiny_run_trains_checkpoints_and_resumes() {
        let root = std::env::temp_dir().join(format!("nash-xtask-train-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let (data_dir, out) = (root.join("data"), root.join("out"));
        data(&data_dir, 6);
        let argv = |steps: &str| {
            args(&[
                "--data",
                data_dir.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--filters",
                "4",
                "--blocks",
                "1",
                "--hidden",
                "4",
                "--batch",
                "4",
                "--holdout",
                "30",
                "--max-steps",
                steps,
                "--threads",
                "1",
            ])
            .unwrap()
        };
        let quiet = |_: String| {};
        run_with(argv("2"), &quiet).unwrap();
        let state: State =
            serde_json::from_str(&std::fs::read_to_string(out.join("state.json")).unwrap())
                .unwrap();
        assert_eq!(state.steps, 2);
        let tsv = std::fs::read_to_string(out.join("train.tsv")).unwrap();
        assert_eq!(tsv.lines().next(), Some(TSV_HEADER));
        assert_eq!(tsv.lines().filter(|l| l.contains("\ttrain\t")).count(), 2);
        for svg in ["loss.svg", "accuracy.svg", "value.svg"] {
            assert!(std::fs::read_to_string(out.join(svg)).unwrap().contains("<polyline"));
        }
        let first = Net::load(&out.join("net.nnw")).unwrap();
        // Run again with two more steps: it goes on from step 2.
        run_with(argv("4"), &quiet).unwrap();
        let state: State =
            serde_json::from_str(&std::fs::read_to_string(out.join("state.json")).unwrap())
                .unwrap();
        assert_eq!(state.steps, 4);
        let tsv = std::fs::read_to_string(out.join("train.tsv")).unwrap();
        let steps: Vec<&str> = tsv
            .lines()
            .filter(|l| l.contains("\ttrain\t"))
            .map(|l| l.split('\t').next().unwrap())
            .collect();
        assert_eq!(steps, ["1", "2", "3", "4"]);
        assert_ne!(Net::load(&out.join("net.nnw")).unwrap(), first);
        // Another architecture in the same folder is refused in one line.
        let mut other = argv("6");
        other.filters = 5;
        let err = run_with(other, &quiet).unwrap_err().to_string();
        assert!(err.contains("state.json holds a run of") && !err.contains('\n'), "{err}");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn bad_options_and_data_are_one_line_errors() {
        for bad in [
            &["--data", "d", "--lr", "0"][..],
            &["--data", "d", "--lr", "NaN"][..],
            &["--data", "d", "--holdout", "60"][..],
            &["--data", "d", "--batch", "0"][..],
            &["--data", "d", "--planes", "magic"][..],
            &["--data", "d", "--filters", "0"][..],
            &["--out", "o"][..],
        ] {
            assert!(args(bad).is_err(), "{bad:?} accepted");
        }
        let root =
            std::env::temp_dir().join(format!("nash-xtask-train-bad-{}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        let quiet = |_: String| {};
        let err = run_with(args(&["--data", root.to_str().unwrap()]).unwrap(), &quiet).unwrap_err();
        assert!(err.to_string().contains("no sample files"), "{err}");
        std::fs::write(root.join("bad.nsp"), b"garbage").unwrap();
        let err = run_with(args(&["--data", root.to_str().unwrap()]).unwrap(), &quiet).unwrap_err();
        assert!(err.to_string().contains("bad.nsp: not a Nash sample file"), "{err}");
        let missing =
            run_with(args(&["--data", "/nonexistent/samples"]).unwrap(), &quiet).unwrap_err();
        assert!(missing.to_string().contains("/nonexistent/samples"), "{missing}");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn held_out_games_are_a_fixed_share() {
        let share = (0..10_000).filter(|&g| held_out(g, 10)).count();
        assert!((800..1200).contains(&share), "{share}");
        assert!((0..1000).all(|g| !held_out(g, 0)));
        assert_eq!(held_out(42, 10), held_out(42, 10));
    }
}
