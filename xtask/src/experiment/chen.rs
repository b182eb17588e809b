//! Chen 2025's solver experiments: featureless expected-work search on the empty boards
//! (s.4.5), the solver variants on Table 5.1's positions and the 6x6 openings (s.5.11, s.5.12)
//! and the EWS settings (s.5.2, s.5.6, s.5.9). Each prints the thesis's figure beside Nash's
//! with the ratio (Nash over the thesis) and writes its rows into docs/seeds.md, between the
//! markers `<!-- experiment NAME -->` and `<!-- end experiment NAME -->` of the 002 section.

use std::path::PathBuf;

use anyhow::{bail, Context};
use nash_board::{Bitboard, MoveList, Position};
use nash_search::{Chen2025, EwsConfig, ResultTable, SolverConfig};

use super::{budgeted, empty, measure, testdata, Args};

/// One row of a docs table: what, the thesis's figure, Nash's, the ratio, a note.
struct Row {
    what: String,
    paper: String,
    nash: String,
    ratio: String,
    note: String,
}

fn ratio(nash: f64, paper: f64) -> String {
    if paper <= 0.0 || !nash.is_finite() {
        return "-".into();
    }
    let r = nash / paper;
    if r >= 0.1 {
        format!("{r:.2}")
    } else {
        format!("1/{:.0}", 1.0 / r)
    }
}

/// `n` with thousands separators.
fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The load average now, for the figures' record.
fn load() -> String {
    crate::load_average().unwrap_or_else(|| "?".into())
}

/// Prints the rows and writes them into docs/seeds.md between the experiment's markers.
fn record(args: &Args, name: &str, command: &str, rows: &[Row]) -> anyhow::Result<()> {
    let mut table = vec![
        format!(
            "`{command}` (one thread; load average {} at the end; ratio: Nash over the thesis):",
            load()
        ),
        String::new(),
        "| result | thesis | Nash | ratio | note |".to_string(),
        "|---|---|---|---|---|".to_string(),
    ];
    for r in rows {
        table.push(format!("| {} | {} | {} | {} | {} |", r.what, r.paper, r.nash, r.ratio, r.note));
    }
    for line in &table {
        say!(args, "{line}");
    }
    let path = docs_seeds();
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let open = format!("<!-- experiment {name} -->");
    let close = format!("<!-- end experiment {name} -->");
    let (Some(a), Some(b)) = (text.find(&open), text.find(&close)) else {
        bail!("{} has no markers {open} ... {close}", path.display());
    };
    if b < a {
        bail!("{}: {close} comes before {open}", path.display());
    }
    let new = format!("{}{open}\n{}\n{}", &text[..a], table.join("\n"), &text[b..]);
    std::fs::write(&path, new).with_context(|| format!("cannot write {}", path.display()))?;
    say!(args, "\nwritten into {}", path.display());
    Ok(())
}

fn docs_seeds() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/seeds.md")
}

/// One-thread configuration of a variant within the experiment's budget and memory.
fn config(args: &Args, v: Chen2025) -> SolverConfig {
    let cfg = SolverConfig { tt_mib: args.mib, threads: 1, ..SolverConfig::chen_2025(v) };
    budgeted(cfg, args)
}

/// `cargo xtask experiment featureless`: featureless EWS on the empty 4x4, 5x5 and 6x6 boards
/// (up to `--max-size`).
pub(super) fn featureless(args: &Args) -> anyhow::Result<()> {
    let sizes: Vec<usize> = (4..=args.max_size.clamp(4, 6)).collect();
    args.solves(sizes.len());
    say!(args, "Featureless expected-work search on the empty board (Chen 2025 s.4.5)\n");
    let cfg = config(args, Chen2025::Featureless);
    let mut rows = Vec::new();
    for n in sizes {
        let (nodes, secs, solved) = measure(args, &empty(n)?, &cfg);
        let shown = if solved { grouped(nodes) } else { format!(">{}", grouped(nodes)) };
        let (paper, r, note) = if n == 6 {
            let note = if solved {
                format!("{secs:.0} s against the thesis's 1,520 s")
            } else {
                format!("not solved in {secs:.0} s")
            };
            ("93,963,192 nodes, 1,520 s".to_string(), ratio(nodes as f64, 93_963_192.0), note)
        } else {
            ("-".to_string(), "-".to_string(), format!("{secs:.1} s"))
        };
        rows.push(Row {
            what: format!("featureless EWS, empty {n}x{n}, nodes"),
            paper,
            nash: shown,
            ratio: r,
            note,
        });
    }
    let command = format!(
        "cargo xtask experiment featureless --nodes {} --time-limit {} --mib {} --max-size {}",
        args.nodes,
        args.time_limit.as_secs(),
        args.mib,
        args.max_size
    );
    record(args, "featureless", &command, &rows)
}

/// The positions of Table 5.1: label, moves, position.
fn table_5_1() -> anyhow::Result<Vec<(String, Position<Bitboard>)>> {
    let text = std::fs::read_to_string(testdata("hsearch-table-5.1.txt"))
        .context("cannot read testdata/hsearch-table-5.1.txt")?;
    let mut positions = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (_, moves) = line.split_once('\t').context("label<TAB>moves")?;
        let mut p = empty(6)?;
        moves.parse::<MoveList>()?.play_on(&mut p)?;
        positions.push((moves.to_string(), p));
    }
    Ok(positions)
}

/// The empty 6x6 board and its 36 one-move openings.
fn openings_6x6() -> anyhow::Result<Vec<Position<Bitboard>>> {
    let mut out = vec![empty(6)?];
    for c in empty(6)?.empty_cells() {
        let mut p = empty(6)?;
        p.play(c)?;
        out.push(p);
    }
    Ok(out)
}

/// Solves every position with `cfg`: (solved, seconds over the solved ones, nodes in all).
fn run_set(args: &Args, positions: &[Position<Bitboard>], cfg: &SolverConfig) -> (usize, f64, u64) {
    let (mut solved, mut secs, mut nodes) = (0, 0.0, 0);
    for p in positions {
        let (n, s, ok) = measure(args, p, cfg);
        nodes += n;
        if ok {
            solved += 1;
            secs += s;
        }
    }
    (solved, secs, nodes)
}

/// A variant's figures in the thesis: solved of Table 5.1's 50, mean seconds of the solved
/// ones, solved of the 37 6x6 positions (when it was run on them) and their mean seconds.
type Thesis = (Chen2025, usize, Option<f64>, Option<usize>, Option<f64>);

/// `cargo xtask experiment variants`: the thesis's solvers on the 50 positions of Table 5.1
/// (s.5.11) and on the empty 6x6 board and its openings (s.5.12).
pub(super) fn variants(args: &Args) -> anyhow::Result<()> {
    let table: Vec<_> = table_5_1()?.into_iter().map(|(_, p)| p).collect();
    let openings = openings_6x6()?;
    let thesis: [Thesis; 6] = [
        (Chen2025::Mmx1, 33, None, Some(17), None),
        (Chen2025::Mmx2, 34, None, None, None),
        (Chen2025::Ews1, 49, Some(44.15), None, None),
        (Chen2025::Ews2, 49, Some(47.10), Some(33), Some(500.00)),
        (Chen2025::Ews3, 49, Some(32.36), Some(35), Some(357.35)),
        (Chen2025::Ews4, 49, Some(14.85), Some(35), Some(157.75)),
    ];
    let with_openings = thesis.iter().filter(|t| t.3.is_some()).count();
    args.solves(thesis.len() * table.len() + with_openings * openings.len());
    say!(args, "Chen 2025 s.5.11 and s.5.12: the thesis's solver variants\n");
    let mut rows = Vec::new();
    let mut means = Vec::new();
    for (v, solved50, mean50, solved37, mean37) in thesis {
        let cfg = config(args, v);
        let (ok, secs, nodes) = run_set(args, &table, &cfg);
        let mean = secs / ok.max(1) as f64;
        means.push((v, mean));
        say!(args, "{}: Table 5.1 {ok}/50 solved, {mean:.3} s each, {nodes} nodes", v.name());
        rows.push(Row {
            what: format!("s.5.11, {}, Table 5.1 positions solved", v.name()),
            paper: format!("{solved50}/50"),
            nash: format!("{ok}/50"),
            ratio: ratio(ok as f64, solved50 as f64),
            note: format!("{mean:.3} s per solved position, {} nodes in all", grouped(nodes)),
        });
        if let Some(m) = mean50 {
            rows.push(Row {
                what: format!("s.5.11, {}, seconds per solved position", v.name()),
                paper: format!("{m:.2}"),
                nash: format!("{mean:.3}"),
                ratio: ratio(mean, m),
                note: "Python against Rust".into(),
            });
        }
        if let Some(s37) = solved37 {
            let (ok, secs, nodes) = run_set(args, &openings, &cfg);
            let mean = secs / ok.max(1) as f64;
            say!(args, "{}: 6x6 openings {ok}/37 solved, {mean:.3} s each", v.name());
            rows.push(Row {
                what: format!("s.5.12, {}, empty 6x6 and its openings solved", v.name()),
                paper: format!("{s37}/37"),
                nash: format!("{ok}/37"),
                ratio: ratio(ok as f64, s37 as f64),
                note: format!(
                    "{mean:.3} s per solved position{}, {} nodes in all",
                    mean37.map_or(String::new(), |m| format!(" (thesis {m:.2} s)")),
                    grouped(nodes)
                ),
            });
        }
    }
    // The thesis's ordering of the EWS variants by time: EWS4 < EWS3 < EWS1 < EWS2.
    let mut ews: Vec<_> = means.iter().filter(|(v, _)| v.name().starts_with("EWS")).collect();
    ews.sort_by(|a, b| a.1.total_cmp(&b.1));
    let order: Vec<&str> = ews.iter().map(|(v, _)| v.name()).collect();
    rows.push(Row {
        what: "s.5.11, EWS variants from fastest".into(),
        paper: "EWS4, EWS3, EWS1, EWS2".into(),
        nash: order.join(", "),
        ratio: "-".into(),
        note: "mean seconds per solved Table 5.1 position".into(),
    });
    let command = format!(
        "cargo xtask experiment variants --nodes {} --time-limit {} --mib {}",
        args.nodes,
        args.time_limit.as_secs(),
        args.mib
    );
    record(args, "variants", &command, &rows)
}

/// `cargo xtask experiment settings`: the EWS settings on Table 5.1's positions (the weight W
/// of s.5.9, the H-search table of s.5.6) and the win/loss table's settings on the empty
/// featureless 4x4 and 5x5 boards (s.5.2).
pub(super) fn settings(args: &Args) -> anyhow::Result<()> {
    let table: Vec<_> = table_5_1()?.into_iter().map(|(_, p)| p).collect();
    let weights: [(f64, Option<f64>); 5] = [
        (0.0, Some(66.16)),
        (0.5, Some(54.90)),
        (1.0, Some(53.74)),
        (5.0, Some(51.78)),
        (10.0, Some(52.30)),
    ];
    let tables = [ResultTable::Off, ResultTable::Children, ResultTable::Reached];
    args.solves((weights.len() + 2) * table.len() + tables.len() * 2);
    say!(args, "Chen 2025 s.5.2, s.5.6 and s.5.9: the EWS settings\n");
    let mut rows = Vec::new();
    let base = config(args, Chen2025::Ews4);
    for (w, paper) in weights {
        let cfg = SolverConfig { ews: EwsConfig { weight: w, ..base.ews }, ..base.clone() };
        let (ok, secs, nodes) = run_set(args, &table, &cfg);
        let mean = secs / ok.max(1) as f64;
        say!(args, "W = {w}: {ok}/50, {mean:.3} s each, {nodes} nodes");
        rows.push(Row {
            what: format!("s.5.9, EWS4 with W = {w}, seconds per position"),
            paper: paper.map_or("-".into(), |p| format!("{p:.2}")),
            nash: format!("{mean:.3}"),
            ratio: paper.map_or("-".into(), |p| ratio(mean, p)),
            note: format!("{ok}/50 solved, {} nodes in all", grouped(nodes)),
        });
    }
    let mut means = [0.0; 2];
    for (i, on) in [true, false].into_iter().enumerate() {
        let cfg = SolverConfig { hsearch_table: on, ..base.clone() };
        let (ok, secs, nodes) = run_set(args, &table, &cfg);
        means[i] = secs / ok.max(1) as f64;
        rows.push(Row {
            what: format!(
                "s.5.6, EWS4 with the H-search table {}, seconds per position",
                if on { "on" } else { "off" }
            ),
            paper: if on { "1.39" } else { "1.54" }.into(),
            nash: format!("{:.3}", means[i]),
            ratio: ratio(means[i], if on { 1.39 } else { 1.54 }),
            note: format!("{ok}/50 solved, {} nodes in all", grouped(nodes)),
        });
    }
    rows.push(Row {
        what: "s.5.6, time without the H-search table over time with it".into(),
        paper: "1.1".into(),
        nash: format!("{:.2}", means[1] / means[0].max(1e-9)),
        ratio: ratio(means[1] / means[0].max(1e-9), 1.1),
        note: "the thesis's positions are not named; here Table 5.1's".into(),
    });
    for results in tables {
        for n in [4usize, 5] {
            let cfg = SolverConfig { result_table: results, ..config(args, Chen2025::Featureless) };
            let (nodes, secs, solved) = measure(args, &empty(n)?, &cfg);
            rows.push(Row {
                what: format!("s.5.2, featureless EWS, result table {results:?}, empty {n}x{n}"),
                paper: "-".into(),
                nash: if solved { grouped(nodes) } else { format!(">{}", grouped(nodes)) },
                ratio: "-".into(),
                note: format!("nodes; {secs:.1} s"),
            });
        }
    }
    let command = format!(
        "cargo xtask experiment settings --nodes {} --time-limit {} --mib {}",
        args.nodes,
        args.time_limit.as_secs(),
        args.mib
    );
    record(args, "settings", &command, &rows)
}
