//! `cargo xtask templates`: finds the edge templates with helper stones
//! (crates/nash-vc/templates/edge.txt) with the solver, or checks the shipped table
//! (`--check`). docs/vc.md, "Edge templates with helper stones", says how.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context};
use nash_search::{edge_template_holds, found_by_rules, minimal_templates, template_solver};
use nash_vc::templates::EdgeTemplate;

/// Arguments of `cargo xtask templates`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Solve every template of the table again instead of searching for new ones.
    #[arg(long)]
    check: bool,
    /// The table to write (or, with `--check`, to read).
    #[arg(long, default_value = "crates/nash-vc/templates/edge.txt")]
    file: PathBuf,
    /// Orders of taking cells out tried per shape (each gives a minimal carrier).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1000))]
    tries: u32,
    /// The rows (4 or 5) whose ends are also tried with two helper stones.
    #[arg(long, value_delimiter = ',', default_value = "4", value_parser = clap::value_parser!(u8).range(4..=5))]
    pair_rows: Vec<u8>,
    /// The window's half width on the end's row, in columns (it widens towards the edge).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(i32).range(1..=5))]
    half: i32,
}

/// The helper cells tried: the end's row and the two rows towards the edge, three columns
/// either way (not the end, nor the cell right of it, which the proving board gives White).
fn helper_cells() -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for dr in [0i8, -1, -2] {
        for dc in -3i8..=3 {
            if (dc, dr) != (0, 0) && (dc, dr) != (1, 0) {
                out.push((dc, dr));
            }
        }
    }
    out
}

fn header() -> &'static str {
    "% Edge templates with helper stones (crates/nash-vc/src/templates.rs, docs/vc.md), written\n\
     % by `cargo xtask templates`. A line is `D h HELPERS c CARRIER`: the end on row D from\n\
     % Black's north edge; the helper stones and the carrier's empty cells as column,row offsets\n\
     % from the end, rows negative towards the edge. Each template holds mirrored too (the\n\
     % loader adds the image); those the solver's H-search finds without them are left out.\n"
}

/// Whether `b` adds nothing next to `a` (or its mirror image): no more helpers, and its
/// carrier and helpers hold all of `a`'s carrier.
fn dominated(a: &EdgeTemplate, b: &EdgeTemplate) -> bool {
    [a.clone(), a.mirrored()].iter().any(|a| {
        a.d == b.d
            && a.helpers.iter().all(|h| b.helpers.contains(h))
            && a.carrier.iter().all(|c| b.carrier.contains(c) || b.helpers.contains(c))
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let cfg = template_solver();
    if args.check {
        let text = std::fs::read_to_string(&args.file)
            .with_context(|| format!("cannot read {}", args.file.display()))?;
        let (mut n, mut bad) = (0, 0);
        let t0 = Instant::now();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('%')) {
            let t = EdgeTemplate::parse(line).map_err(anyhow::Error::msg)?;
            for image in [t.clone(), t.mirrored()] {
                n += 1;
                match edge_template_holds(&image, &cfg) {
                    Ok(true) => {}
                    Ok(false) => {
                        bad += 1;
                        println!("FALSE: {}", image.to_line());
                    }
                    Err(e) => {
                        bad += 1;
                        println!("{e}");
                    }
                }
            }
        }
        println!(
            "{n} templates and images checked in {:.1}s, {bad} failed",
            t0.elapsed().as_secs_f64()
        );
        if bad > 0 {
            bail!("{bad} edge templates do not hold");
        }
        return Ok(());
    }
    let t0 = Instant::now();
    let hs = helper_cells();
    let mut shapes: Vec<(u8, Vec<(i8, i8)>)> = Vec::new();
    for d in [4u8, 5] {
        for &h in &hs {
            shapes.push((d, vec![h]));
        }
    }
    for &d in &args.pair_rows {
        for i in 0..hs.len() {
            for j in i + 1..hs.len() {
                shapes.push((d, vec![hs[i], hs[j]]));
            }
        }
    }
    let mut found: Vec<EdgeTemplate> = Vec::new();
    for (k, (d, helpers)) in shapes.iter().enumerate() {
        let ts = minimal_templates(*d, helpers, args.half, args.tries as usize, &cfg)?;
        let mut new = 0;
        for t in ts {
            if !found_by_rules(&t)? {
                found.push(t);
                new += 1;
            }
        }
        eprintln!(
            "[{}/{}] row {d}, helpers {helpers:?}: {new} not found by the rules ({:.0}s)",
            k + 1,
            shapes.len(),
            t0.elapsed().as_secs_f64()
        );
    }
    // Fewest helpers and cells first; then drop what an earlier one dominates.
    found.sort_by_key(|t| (t.d, t.helpers.len(), t.carrier.len(), t.to_line()));
    let mut keep: Vec<EdgeTemplate> = Vec::new();
    for t in found {
        if !keep.iter().any(|k| dominated(k, &t)) {
            keep.push(t);
        }
    }
    let mut text = header().to_string();
    for t in &keep {
        text.push_str(&t.to_line());
        text.push('\n');
    }
    std::fs::write(&args.file, text)
        .with_context(|| format!("cannot write {}", args.file.display()))?;
    println!(
        "{} templates written to {} in {:.0}s",
        keep.len(),
        args.file.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}
