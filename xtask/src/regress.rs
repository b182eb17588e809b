//! `cargo xtask regress`: the solvers against the ground truth of one board size (7x7 by
//! default): every one-move opening (from testdata/opening-maps.txt, or derived from the empty
//! board's exact winning set in testdata/solved.tsv) and every position of that size in
//! solved.tsv. Prints a table and exits non-zero on any disagreement or undecided position,
//! and when the size has no known positions at all.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nash_board::{BitSet, Bitboard, Cell, Color, MoveList, Position};
use nash_cli::progress::{Display, Watch};
use nash_search::{
    solve, solve_many, winning_moves, Knowledge, MoveOrdering, SolverConfig, SolverKind,
};

/// Arguments of `cargo xtask regress`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Worker threads for each solve.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Memory limit in MiB for the table and the caches of each solve.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..))]
    tt_mib: u32,
    /// Seconds allowed per position.
    #[arg(long, default_value = "120", value_parser = crate::parse_seconds)]
    time_limit: Duration,
    /// Knowledge.
    #[arg(long, value_enum, default_value_t = KnowledgeArg::All)]
    knowledge: KnowledgeArg,
    /// Also check the exact winning sets of solved.tsv (every legal move decided; slow).
    #[arg(long)]
    sets: bool,
    /// Board size to check (its openings and solved positions).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u8).range(1..=19))]
    size: u8,
    /// Solve the positions side by side on the threads, one thread each (`solve_many`, one
    /// shared table), instead of one after another with every thread on each.
    #[arg(long)]
    batch: bool,
    /// Write a progress line to stderr every few seconds (a bar is shown on a terminal anyway).
    #[arg(long)]
    progress: bool,
}

/// The knowledge switches by their command-line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum KnowledgeArg {
    /// Everything the solver knows (the default).
    All,
    /// Everything but decompositions.
    #[value(name = "no-decompositions")]
    NoDecompositions,
    /// Fill-in and inferior cells only: no virtual connections, no mustplay.
    Fill,
    /// No knowledge at all.
    None,
}

impl KnowledgeArg {
    /// The solver's knowledge setting.
    pub fn knowledge(self) -> Knowledge {
        match self {
            KnowledgeArg::All => Knowledge::default(),
            KnowledgeArg::NoDecompositions => {
                Knowledge { decompositions: false, ..Knowledge::default() }
            }
            KnowledgeArg::Fill => Knowledge {
                vc: false,
                mustplay: false,
                ordering: MoveOrdering::Centre,
                ..Knowledge::default()
            },
            KnowledgeArg::None => Knowledge::none(),
        }
    }
}

pub fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata").join(name)
}

/// A position with its known value.
pub struct Case {
    pub label: String,
    pub pos: Position<Bitboard>,
    pub winner: Color,
    pub winning: Option<Bitboard>,
}

/// The one-move openings of an n×n board, from opening-maps.txt or, for the sizes it has no
/// map of, from the exact winning set of the empty board in solved.tsv (an opening wins for
/// Black exactly when it is in that set).
pub fn openings(n: usize) -> anyhow::Result<Vec<Case>> {
    let text = std::fs::read_to_string(testdata("opening-maps.txt"))
        .context("cannot read testdata/opening-maps.txt")?;
    let header = format!("{n}x{n}:");
    let black_wins: Box<dyn Fn(Cell) -> bool> = if text.lines().any(|l| l.starts_with(&header)) {
        let mut lines = text.lines().skip_while(|l| !l.starts_with(&header));
        lines.next();
        lines.next();
        let mut black = Bitboard::EMPTY;
        for (row, line) in lines.take(n).enumerate() {
            for (col, m) in line.split_whitespace().skip(1).enumerate() {
                let cell = Cell::new(col as u8, row as u8).context("cell in range")?;
                if m == "B" {
                    black.insert(cell);
                }
            }
        }
        Box::new(move |c| black.contains(c))
    } else {
        let empty = solved(n)?.into_iter().find(|c| c.label == "-");
        match empty.and_then(|c| c.winning) {
            Some(set) => Box::new(move |c| set.contains(c)),
            None => bail!(
                "no {n}x{n} opening values: testdata/opening-maps.txt has no {n}x{n} map and \
                 testdata/solved.tsv no exact winning set of the empty {n}x{n} board"
            ),
        }
    };
    let mut out = Vec::new();
    for cell in Position::<Bitboard>::square(n)?.empty_cells().iter() {
        let mut pos = Position::square(n)?;
        pos.play(cell)?;
        let winner = if black_wins(cell) { Color::Black } else { Color::White };
        out.push(Case { label: cell.to_string(), pos, winner, winning: None });
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
        threads: usize::from(args.threads),
        tt_mib: args.tt_mib as usize,
        knowledge: args.knowledge.knowledge(),
        ..SolverConfig::default()
    };
    cfg.budget.time = Some(args.time_limit);
    let size = usize::from(args.size);
    let mut cases = openings(size)?;
    for c in &mut cases {
        c.label = format!("opening {}", c.label);
    }
    cases.extend(solved(size)?);
    println!(
        "{:<34} {:>8} {:>8} {:>12} {:>9}  verdict",
        "position", "expected", "got", "nodes", "seconds"
    );
    let (mut ok, mut bad, mut unknown) = (0, 0, 0);
    let start = Instant::now();
    let watch = Watch::start("regress", Display::from_flag(args.progress));
    cfg.progress = Some(watch.progress());
    if !args.batch {
        // Each solve announces only itself: count the set here.
        watch.count(cases.len());
    }
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
        watch.done_one();
        watch.suspend(|| {
            println!(
                "{:<34} {:>8} {:>8} {:>12} {:>9.2}  {verdict}",
                label,
                c.winner.to_string(),
                got.map_or("?".to_string(), |w| w.to_string()),
                r.stats.nodes,
                r.stats.time.as_secs_f64()
            )
        });
    }
    drop(watch);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn black_openings(cases: &[Case]) -> Vec<String> {
        cases.iter().filter(|c| c.winner == Color::Black).map(|c| c.label.clone()).collect()
    }

    #[test]
    fn openings_come_from_the_maps_or_the_empty_boards_winning_set() {
        // 6x6 has a map: 24 of 36 openings win.
        let six = openings(6).expect("6x6 openings");
        assert_eq!((six.len(), black_openings(&six).len()), (36, 24));
        // 5x5 has none, but solved.tsv has the empty board's exact winning set.
        let five = openings(5).expect("5x5 openings");
        assert_eq!(five.len(), 25);
        assert_eq!(black_openings(&five).join(" "), "e1 b2 c2 d2 e2 b3 c3 d3 a4 b4 c4 d4 a5",);
        assert!(five.iter().all(|c| c.pos.to_move() == Color::White));
        // 9x9: neither.
        assert!(openings(9).is_err());
    }
}
