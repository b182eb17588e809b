//! `cargo xtask regress`: the solvers against the 7x7 ground truth: every one-move 7x7 opening
//! of testdata/opening-maps.txt and every 7x7 position of testdata/solved.tsv. Prints a table
//! and exits non-zero on any disagreement or undecided position.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nash_board::{BitSet, Bitboard, Cell, Color, MoveList, Position};
use nash_search::{
    solve, solve_many, winning_moves, Knowledge, MoveOrdering, SolverConfig, SolverKind,
};

/// Arguments of `cargo xtask regress`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Worker threads for each solve.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Memory limit in MiB for the table and the caches of each solve.
    #[arg(long, default_value_t = 512)]
    tt_mib: usize,
    /// Seconds allowed per position.
    #[arg(long, default_value_t = 120.0)]
    time_limit: f64,
    /// Knowledge: all, fill (fill-in and inferior cells only) or none.
    #[arg(long, default_value = "all")]
    knowledge: String,
    /// Also check the exact winning sets of solved.tsv (every legal move decided; slow).
    #[arg(long)]
    sets: bool,
    /// Board size to check.
    #[arg(long, default_value_t = 7)]
    size: usize,
    /// Solve the positions side by side on the threads, one thread each (`solve_many`, one
    /// shared table), instead of one after another with every thread on each.
    #[arg(long)]
    batch: bool,
}

/// The knowledge switch named on the command line.
pub fn knowledge(name: &str) -> anyhow::Result<Knowledge> {
    Ok(match name {
        "all" => Knowledge::default(),
        "fill" => Knowledge {
            vc: false,
            mustplay: false,
            ordering: MoveOrdering::Centre,
            ..Knowledge::default()
        },
        "none" => Knowledge::none(),
        other => bail!("unknown knowledge {other:?}: expected all, fill or none"),
    })
}

fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata").join(name)
}

/// A position with its known value.
pub struct Case {
    pub label: String,
    pub pos: Position<Bitboard>,
    pub winner: Color,
    pub winning: Option<Bitboard>,
}

/// The one-move openings of an n×n board from opening-maps.txt.
pub fn openings(n: usize) -> anyhow::Result<Vec<Case>> {
    let text = std::fs::read_to_string(testdata("opening-maps.txt"))
        .context("cannot read testdata/opening-maps.txt")?;
    let header = format!("{n}x{n}:");
    let mut lines = text.lines().skip_while(|l| !l.starts_with(&header));
    lines.next();
    lines.next();
    let mut out = Vec::new();
    for (row, line) in lines.take(n).enumerate() {
        let marks: Vec<&str> = line.split_whitespace().skip(1).collect();
        for (col, m) in marks.iter().enumerate() {
            let cell = Cell::new(col as u8, row as u8).context("cell in range")?;
            let mut pos = Position::square(n)?;
            pos.play(cell)?;
            let winner = if *m == "B" { Color::Black } else { Color::White };
            out.push(Case { label: cell.to_string(), pos, winner, winning: None });
        }
    }
    if out.len() != n * n {
        bail!("opening-maps.txt: expected {} openings of {n}x{n}, found {}", n * n, out.len());
    }
    Ok(out)
}

/// The positions of solved.tsv of one size.
pub fn solved(n: usize) -> anyhow::Result<Vec<Case>> {
    let text = std::fs::read_to_string(testdata("solved.tsv"))
        .context("cannot read testdata/solved.tsv")?;
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 5 || f[0].parse::<usize>().ok() != Some(n) {
            continue;
        }
        let mut pos = Position::square(n)?;
        if f[1] != "-" {
            let moves: MoveList = f[1].parse()?;
            moves.play_on(&mut pos)?;
        }
        let winner: Color = f[3].parse()?;
        let winning = match f[4] {
            "?" => None,
            "-" => Some(Bitboard::EMPTY),
            s => Some(s.split_whitespace().map(|c| c.parse()).collect::<Result<Bitboard, _>>()?),
        };
        out.push(Case { label: f[1].to_string(), pos, winner, winning });
    }
    Ok(out)
}

fn names<B: BitSet>(set: B) -> String {
    set.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut cfg = SolverConfig {
        kind: SolverKind::Dfpn,
        threads: args.threads,
        tt_mib: args.tt_mib,
        knowledge: knowledge(&args.knowledge)?,
        ..SolverConfig::default()
    };
    cfg.budget.time = Some(Duration::from_secs_f64(args.time_limit));
    let mut cases = openings(args.size)?;
    for c in &mut cases {
        c.label = format!("opening {}", c.label);
    }
    cases.extend(solved(args.size)?);
    println!(
        "{:<34} {:>8} {:>8} {:>12} {:>9}  verdict",
        "position", "expected", "got", "nodes", "seconds"
    );
    let (mut ok, mut bad, mut unknown) = (0, 0, 0);
    let start = Instant::now();
    // One after another, each line prints as its position is solved; side by side, the lines
    // follow the whole set.
    let results: Box<dyn Iterator<Item = _>> = if args.batch {
        let positions: Vec<_> = cases.iter().map(|c| c.pos.clone()).collect();
        Box::new(solve_many(&positions, &cfg).into_iter())
    } else {
        Box::new(cases.iter().map(|c| solve(&c.pos, &cfg)))
    };
    for (c, r) in cases.iter().zip(results) {
        let got = r.outcome.winner(c.pos.to_move());
        let mut verdict = match got {
            Some(w) if w == c.winner => "ok".to_string(),
            Some(_) => "WRONG".to_string(),
            None => "undecided".to_string(),
        };
        if args.sets && verdict == "ok" {
            if let Some(expected) = c.winning {
                let w = winning_moves(&c.pos, &cfg);
                if !w.unknown.is_empty() {
                    verdict = format!("set undecided: {}", names(w.unknown));
                } else if w.winning != expected {
                    verdict =
                        format!("WRONG set: [{}] expected [{}]", names(w.winning), names(expected));
                }
            }
        }
        match verdict.as_str() {
            "ok" => ok += 1,
            v if v.starts_with("WRONG") => bad += 1,
            _ => unknown += 1,
        }
        let label: String = c.label.chars().take(34).collect();
        println!(
            "{:<34} {:>8} {:>8} {:>12} {:>9.2}  {verdict}",
            label,
            c.winner.to_string(),
            got.map_or("?".to_string(), |w| w.to_string()),
            r.stats.nodes,
            r.stats.time.as_secs_f64()
        );
    }
    println!(
        "\n{} positions: {ok} agree, {bad} disagree, {unknown} undecided ({:.1}s)",
        cases.len(),
        start.elapsed().as_secs_f64()
    );
    if bad > 0 || unknown > 0 {
        bail!("{bad} disagreements and {unknown} undecided positions");
    }
    Ok(())
}
