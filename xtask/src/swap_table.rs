//! `cargo xtask swap-table`: the swap table of crates/nash-play/src/swap-table.tsv, which tells
//! White which one-stone openings to take over by `swap-pieces`, and its pictures.
//!
//! Each opening's value for Black comes from the best source there is. Proofs first: the
//! solved openings maps (testdata/opening-maps.txt: every 7x7 and 8x8 opening, solved by
//! `cargo xtask openings`), else on boards up to `--solve-max` a df-pn solve within
//! `--time-limit`. Beyond, a Monte Carlo search of the position after the opening with White
//! to move: `best` (its default settings, seed 1) at `--playouts` playouts, Black's value being
//! one minus the root's win rate for White (as in testdata/balanced-openings-9x9.tsv, whose
//! 300,000-playout estimates of the 9x9 openings are taken as they are). A proof found by the
//! search itself counts as a proof.
//!
//! An opening and its 180-degree rotation have the same value (the reply rotates with it), so
//! only the first of each pair in board order is worked out, and both rows are written. The
//! table is the checkpoint: it is written afresh (to a temporary file, then renamed) after
//! every opening, and a rerun skips the openings it holds with a proof or with a search of at
//! least `--playouts` playouts, so an interrupted run resumes and a run with more playouts
//! refines only the estimates made with fewer. The picture of each size (docs/pictures/
//! swap-NxN.svg) is drawn from the table at the end of the size.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use nash_board::svg::{Overlay, Picture, Style};
use nash_board::{AnyPosition, BitSet, Bitboard, Cell, Color, Move, Position};
use nash_cli::progress::{Display, Watch};
use nash_play::eval::PROVEN;
use nash_play::swap_table::{rotate, BlackValue, Entry, Source, SwapTable, HEADER};
use nash_play::MoveBudget;
use nash_search::{solve, SolverConfig};

/// Arguments of `cargo xtask swap-table`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board sizes, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "7,8,9,10,11,12,13",
          value_parser = clap::value_parser!(u8).range(3..=19))]
    sizes: Vec<u8>,
    /// Playouts of each opening's search (the openings without a proof); a row made with
    /// fewer is searched again.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    playouts: u64,
    /// Search threads (root parallelism: the same answer at any count).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// The largest board on which an opening without a known proof is given to df-pn first.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(0..=11))]
    solve_max: u8,
    /// Seconds df-pn may take per opening (on boards up to --solve-max).
    #[arg(long, default_value = "60", value_parser = crate::parse_seconds)]
    time_limit: Duration,
    /// Memory limit in MiB of each df-pn solve.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    tt_mib: u32,
    /// The table; default crates/nash-play/src/swap-table.tsv.
    #[arg(long)]
    table: Option<PathBuf>,
    /// The pictures' folder; default docs/pictures.
    #[arg(long)]
    svg_dir: Option<PathBuf>,
    /// Write a progress line to stderr every few seconds (a bar is shown on a terminal anyway).
    #[arg(long)]
    progress: bool,
}

/// The repository's `path`.
fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let table_path =
        args.table.clone().unwrap_or_else(|| repo("crates/nash-play/src/swap-table.tsv"));
    let svg_dir = args.svg_dir.clone().unwrap_or_else(|| repo("docs/pictures"));
    let mut table = load(&table_path)?;
    let start = Instant::now();
    let mut searched = 0;
    let mut sizes = args.sizes.clone();
    sizes.dedup();
    // Every opening up to rotation, with what is known of it already.
    let mut work: Vec<(usize, Cell, Option<Entry>)> = Vec::new();
    for &n in &sizes {
        let n = usize::from(n);
        let known = known(n)?;
        for cell in representatives(n) {
            let have = [table.get(n, cell).copied(), known.get(&cell).copied()]
                .into_iter()
                .flatten()
                .max_by_key(|e| (e.source == Source::Proof, e.playouts));
            work.push((n, cell, have));
        }
    }
    let todo =
        work.iter().filter(|(_, _, have)| !have.is_some_and(|e| enough(&e, args.playouts))).count();
    let watch = Watch::start("swap-table", Display::from_flag(args.progress));
    watch.count(todo);
    let mut last_size = None;
    for (n, cell, have) in work {
        if last_size.is_some_and(|s| s != n) {
            write_svg(&svg_dir, last_size.expect("a size"), &table)?;
        }
        last_size = Some(n);
        let entry = match have.filter(|e| enough(e, args.playouts)) {
            Some(e) => e,
            None => {
                let t = Instant::now();
                let e = work_out(n, cell, &args)?;
                watch.done_one();
                searched += 1;
                watch.suspend(|| {
                    println!(
                        "{n}x{n} {cell:<4} {:<6} black {:<6} swap {:<3} {:>7.1}s",
                        e.source.name(),
                        e.black.to_string(),
                        if e.swap() { "yes" } else { "no" },
                        t.elapsed().as_secs_f64()
                    )
                });
                e
            }
        };
        let changed = table.get(n, cell) != Some(&entry);
        table.insert(entry);
        table.insert(Entry { cell: rotate(n, cell), ..entry });
        if changed {
            write_table(&table_path, &table)?;
        }
    }
    drop(watch);
    if let Some(n) = last_size {
        write_svg(&svg_dir, n, &table)?;
    }
    for &n in &sizes {
        let n = usize::from(n);
        let rows: Vec<&Entry> = table.entries().into_iter().filter(|e| e.size == n).collect();
        let swapped = rows.iter().filter(|e| e.swap()).count();
        let proofs = rows.iter().filter(|e| e.source == Source::Proof).count();
        println!("{n}x{n}: White swaps {swapped} of {} openings ({proofs} by proof)", rows.len());
    }
    println!(
        "{searched} openings worked out in {:.1}s ({})",
        start.elapsed().as_secs_f64(),
        table_path.display()
    );
    Ok(())
}

/// Whether a row needs no more work: a proof, or a search of at least `playouts`.
fn enough(e: &Entry, playouts: u64) -> bool {
    e.source == Source::Proof || e.playouts.is_some_and(|p| p >= playouts)
}

/// The openings of the `n` x `n` board that come first in board order among themselves and
/// their rotations.
fn representatives(n: usize) -> Vec<Cell> {
    let mut out = Vec::new();
    for row in 0..n as u8 {
        for col in 0..n as u8 {
            let c = Cell::at(col, row);
            if c <= rotate(n, c) {
                out.push(c);
            }
        }
    }
    out
}

/// The table at `path`, or an empty one when there is none yet.
fn load(path: &Path) -> anyhow::Result<SwapTable> {
    if !path.exists() {
        return Ok(SwapTable::default());
    }
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    SwapTable::parse(&text).with_context(|| format!("{}", path.display()))
}

/// What the project knows of the `n` x `n` openings already: the proofs of the solved maps
/// (testdata/opening-maps.txt, or the empty board's exact winning set in solved.tsv), and on
/// 9x9 the long searches of testdata/balanced-openings-9x9.tsv.
fn known(n: usize) -> anyhow::Result<HashMap<Cell, Entry>> {
    let mut out = HashMap::new();
    if let Ok(cases) = crate::regress::openings(n) {
        for case in cases {
            let cell: Cell =
                case.label.parse().map_err(|e| anyhow::anyhow!("{}: {e}", case.label))?;
            let black =
                if case.winner == Color::Black { BlackValue::Win } else { BlackValue::Loss };
            out.insert(cell, Entry { size: n, cell, source: Source::Proof, black, playouts: None });
        }
        return Ok(out);
    }
    if n == 9 {
        let path = crate::regress::testdata("balanced-openings-9x9.tsv");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.starts_with("opening\t") || line.trim().is_empty() {
                continue;
            }
            let bad = || anyhow::anyhow!("{}:{}: bad row {line:?}", path.display(), i + 1);
            let f: Vec<&str> = line.split('\t').collect();
            let [opening, rotation, black_win, ..] = f[..] else { return Err(bad()) };
            let pct: f64 = black_win.parse().map_err(|_| bad())?;
            if !(0.0..=100.0).contains(&pct) {
                return Err(bad());
            }
            for c in [opening, rotation] {
                let cell: Cell = c.parse().map_err(|_| bad())?;
                let black = BlackValue::Rate(pct / 100.0);
                let e =
                    Entry { size: 9, cell, source: Source::Search, black, playouts: Some(300_000) };
                out.insert(cell, e);
            }
        }
    }
    Ok(out)
}

/// The `n` x `n` board after Black's opening `cell`.
fn opening(n: usize, cell: Cell) -> anyhow::Result<AnyPosition> {
    let mut pos = AnyPosition::new(n, n)?;
    pos.apply(Move::Cell(cell)).map_err(|e| anyhow::anyhow!("opening {cell}: {e}"))?;
    Ok(pos)
}

/// The opening's value by df-pn when the board is small enough and it decides in time, else by
/// the search.
fn work_out(n: usize, cell: Cell, args: &Args) -> anyhow::Result<Entry> {
    if n <= usize::from(args.solve_max) {
        if let Some(e) = solve_opening(n, cell, args.time_limit, args.tt_mib)? {
            return Ok(e);
        }
    }
    search_opening(n, cell, args.playouts, args.threads)
}

/// df-pn's verdict on the opening within `limit`, if it gives one.
fn solve_opening(
    n: usize,
    cell: Cell,
    limit: Duration,
    tt_mib: u32,
) -> anyhow::Result<Option<Entry>> {
    let mut pos = Position::<Bitboard>::square(n)?;
    pos.play(cell).map_err(|e| anyhow::anyhow!("opening {cell}: {e}"))?;
    let mut cfg = SolverConfig { tt_mib: tt_mib as usize, ..SolverConfig::default() };
    cfg.budget.time = Some(limit);
    let r = solve(&pos, &cfg);
    Ok(r.outcome.winner(pos.to_move()).map(|w| Entry {
        size: n,
        cell,
        source: Source::Proof,
        black: if w == Color::Black { BlackValue::Win } else { BlackValue::Loss },
        playouts: None,
    }))
}

/// The opening's value from `best`'s search of the position after it at `playouts` playouts:
/// one minus White's win rate at the root, or a proof when the search proves the root.
fn search_opening(n: usize, cell: Cell, playouts: u64, threads: u16) -> anyhow::Result<Entry> {
    let pos = opening(n, cell)?;
    let spec = format!("best:playouts={playouts},threads={threads}");
    let mut player = nash_play::build(&spec)?;
    let budget = MoveBudget { playouts: Some(playouts), ..MoveBudget::default() };
    let choice = player.choose(&pos, &budget);
    let v = choice.value.context("the search gave no value")?;
    let black = if v >= PROVEN {
        BlackValue::Loss
    } else if v <= -PROVEN {
        BlackValue::Win
    } else {
        // Three decimals, as the table writes it, so that a row reads back as it was made.
        BlackValue::Rate((((1.0 - v) / 2.0).clamp(0.0, 1.0) * 1000.0).round() / 1000.0)
    };
    let source = if matches!(black, BlackValue::Rate(_)) { Source::Search } else { Source::Proof };
    Ok(Entry { size: n, cell, source, black, playouts: Some(playouts) })
}

/// Writes the table afresh: to a temporary file beside it, then renamed over it, so that an
/// interrupted run leaves the last whole table.
fn write_table(path: &Path, table: &SwapTable) -> anyhow::Result<()> {
    let mut text = String::from(
        "# Whether White should swap Black's one-stone opening (cargo xtask swap-table; read by\n\
         # crates/nash-play/src/swap_table.rs, used by `decide` when swap is allowed).\n\
         # black: the opening's value for Black, `win` or `loss` when proven (the solved 7x7 and\n\
         # 8x8 openings maps, or df-pn), else Black's win rate from `best`'s search of the\n\
         # position after it at `playouts` playouts (one minus White's win rate at the root).\n\
         # swap: yes when Black's value is a win or above 0.5. An opening and its 180-degree\n\
         # rotation share one value; both rows are written.\n",
    );
    text.push_str(HEADER);
    text.push('\n');
    for e in table.entries() {
        text.push_str(&e.to_string());
        text.push('\n');
    }
    // The table must read back as it is: a bad row is caught here, not in a later build.
    SwapTable::parse(&text).context("the table written")?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let tmp = path.with_extension("tsv.tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

/// Draws the `n` x `n` table on the empty board: proven openings by a green dot (White
/// swaps) or a red cross (White answers), searched ones by Black's win rate in percent as a
/// heat map, a blue ring around those White swaps; openings not in the table yet are grey.
fn write_svg(dir: &Path, n: usize, table: &SwapTable) -> anyhow::Result<()> {
    let pos = AnyPosition::new(n, n)?;
    nash_board::with_position!(&pos, p => write_svg_of(dir, p, table))
}

fn write_svg_of<B: BitSet>(dir: &Path, pos: &Position<B>, table: &SwapTable) -> anyhow::Result<()> {
    let n = pos.cols();
    let (mut won, mut lost, mut swapped, mut open) = (B::EMPTY, B::EMPTY, B::EMPTY, B::EMPTY);
    let mut rates = Vec::new();
    let mut playouts = Vec::new();
    for cell in pos.empty_cells().iter() {
        match table.get(n, cell) {
            None => open.insert(cell),
            Some(e) => match e.black {
                BlackValue::Win => won.insert(cell),
                BlackValue::Loss => lost.insert(cell),
                BlackValue::Rate(r) => {
                    rates.push((cell, (r * 1000.0).round() / 10.0));
                    playouts.extend(e.playouts);
                    if e.swap() {
                        swapped.insert(cell);
                    }
                }
            },
        }
    }
    let swaps = won.len() + swapped.len();
    playouts.sort_unstable();
    playouts.dedup();
    let how = match playouts.as_slice() {
        [] => "all by proof".to_owned(),
        [p] => format!("searches at {p} playouts"),
        ps => format!("searches at {} to {} playouts", ps[0], ps[ps.len() - 1]),
    };
    let mut picture = Picture::new(pos);
    if !rates.is_empty() {
        picture = picture.values(&rates, "Black's win rate (%) after the opening, by search");
    }
    let picture = picture
        .overlay(Overlay::labelled(
            won,
            Style::Winning,
            format!("proven win for Black: swap ({})", won.len()),
        ))
        .overlay(Overlay::labelled(
            lost,
            Style::Losing,
            format!("proven loss for Black: no swap ({})", lost.len()),
        ))
        .overlay(Overlay::labelled(
            swapped,
            Style::Mustplay,
            format!("above 50%: swap ({})", swapped.len()),
        ))
        .overlay(Overlay::labelled(
            open,
            Style::Inferior,
            format!("not in the table ({})", open.len()),
        ))
        .caption(format!("{n}x{n}: White swaps {swaps} of {} openings ({how})", n * n));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(format!("swap-{n}x{n}.svg"));
    std::fs::write(&path, picture.to_string())
        .with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(s: &str) -> Cell {
        s.parse().expect("a cell")
    }

    #[test]
    fn each_opening_and_its_rotation_are_worked_out_once() {
        for n in [3, 4, 9, 10, 13] {
            let reps = representatives(n);
            assert_eq!(reps.len(), (n * n).div_ceil(2), "{n}x{n}");
            for c in &reps {
                let r = rotate(n, *c);
                assert!(r == *c || !reps.contains(&r), "{n}x{n}: {c} and {r}");
            }
        }
        assert!(representatives(9).contains(&cell("e5")));
        assert!(!representatives(9).contains(&cell("i9")));
    }

    #[test]
    fn a_search_with_fewer_playouts_is_redone_and_a_proof_never() {
        let e = |source, playouts| Entry {
            size: 9,
            cell: cell("a1"),
            source,
            black: if source == Source::Proof { BlackValue::Loss } else { BlackValue::Rate(0.4) },
            playouts,
        };
        assert!(enough(&e(Source::Proof, None), 1_000_000));
        assert!(enough(&e(Source::Search, Some(4000)), 4000));
        assert!(!enough(&e(Source::Search, Some(4000)), 8000));
    }

    #[test]
    fn the_known_openings_are_the_maps_and_the_balanced_openings_table() {
        let seven = known(7).expect("7x7");
        assert_eq!(seven.len(), 49);
        assert_eq!(seven[&cell("a1")].black, BlackValue::Loss);
        assert_eq!(seven[&cell("d4")].black, BlackValue::Win);
        assert_eq!(known(8).expect("8x8").len(), 64);
        let nine = known(9).expect("9x9");
        assert_eq!(nine.len(), 81);
        assert_eq!(
            (nine[&cell("e5")].black, nine[&cell("e5")].playouts),
            (BlackValue::Rate(0.585), Some(300_000))
        );
        assert!(known(11).expect("11x11").is_empty());
    }

    /// A solve and a search of small boards agree with what is known, and a run resumes: a
    /// second run over a whole table works nothing out and leaves it as it was.
    #[test]
    fn a_run_fills_the_table_and_a_rerun_skips_it() {
        // 3x3: b2 wins for Black, a1 loses.
        let won = solve_opening(3, cell("b2"), Duration::from_secs(10), 16).expect("solve");
        assert_eq!(won.map(|e| e.black), Some(BlackValue::Win));
        let e = search_opening(5, cell("a1"), 200, 1).expect("search");
        assert_eq!(e, search_opening(5, cell("a1"), 200, 1).expect("search"), "reproducible");
        assert!(!e.swap(), "{e:?}");
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            args: Args,
        }
        let dir = std::env::temp_dir().join(format!("nash-swap-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let table = dir.join("swap.tsv").display().to_string();
        let svgs = dir.display().to_string();
        let argv = ["swap-table", "--sizes", "3,4", "--table", &table, "--svg-dir", &svgs];
        run(Cli::try_parse_from(argv).expect("arguments").args).expect("a run");
        let first = std::fs::read_to_string(&table).expect("the table");
        let t = SwapTable::parse(&first).expect("it reads");
        assert_eq!(t.entries().len(), 9 + 16);
        assert!(t.get(3, cell("b2")).expect("b2").swap());
        assert!(!t.get(3, cell("a1")).expect("a1").swap());
        let svg = std::fs::read_to_string(dir.join("swap-3x3.svg")).expect("the picture");
        assert!(svg.contains("White swaps 5 of 9 openings"), "{svg}");
        let modified = std::fs::metadata(&table).and_then(|m| m.modified()).expect("mtime");
        run(Cli::try_parse_from(argv).expect("arguments").args).expect("a rerun");
        assert_eq!(std::fs::read_to_string(&table).expect("the table"), first);
        let again = std::fs::metadata(&table).and_then(|m| m.modified()).expect("mtime");
        assert_eq!(modified, again, "a rerun wrote the table");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Boards beyond 11x11 are drawn on the wide bitboard.
    #[test]
    fn every_size_is_drawn() {
        let dir = std::env::temp_dir().join(format!("nash-swap-svg-{}", std::process::id()));
        let mut t = SwapTable::default();
        let e = |c: &str| Entry {
            size: 13,
            cell: cell(c),
            source: Source::Search,
            black: BlackValue::Rate(0.53),
            playouts: Some(10),
        };
        t.insert(e("g7"));
        write_svg(&dir, 13, &t).expect("13x13");
        let svg = std::fs::read_to_string(dir.join("swap-13x13.svg")).expect("the picture");
        assert!(svg.contains("White swaps 1 of 169 openings (searches at 10 playouts)"), "{svg}");
        assert!(svg.contains("not in the table (168)"), "{svg}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_bad_table_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("nash-swap-table-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("bad.tsv");
        std::fs::write(&path, "7\ta1\tproof\tmaybe\t-\tno\n").expect("write");
        let err = format!("{:#}", load(&path).expect_err("a bad table"));
        assert!(err.contains("bad.tsv") && err.contains("line 1"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
