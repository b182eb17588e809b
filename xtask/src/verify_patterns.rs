//! `cargo xtask verify-patterns`: checks every inferior-cell pattern by brute force.
//!
//! Each image of each pattern (the 12 lattice symmetries with and without the colour swap,
//! and the dominations its captures imply) is placed at every anchor where it fits on small
//! boards (boards of six rows or columns too for the images larger than 5x5). The cells outside
//! the pattern are completed every possible way (or, where there are
//! too many completions, by random sampling), and for both players to move a minimax oracle
//! confirms the claim:
//! - `dead`: filling the targets (all together or one at a time, with either colour) keeps
//!   the value;
//! - `captured C`: filling the targets with C keeps the value;
//! - `dominated C`: with C to move, if a move to a target wins then the move to the dominator
//!   wins too (so a pruned move is never the only winning move).
//!
//! The task exits non-zero if any claim fails, printing the counterexample, or if a pattern
//! fits on none of the boards (it would pass without a single check). With `--large-only` a
//! pattern none of whose images is larger than 5x5 is skipped instead.

use std::path::PathBuf;

use anyhow::{bail, Context};
use nash_board::{BitSet, Bitboard, Cell, Color, Geometry, Position};
use nash_patterns::{Kind, Pattern, PatternSet, Placement};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use nash_patterns::oracle::{Oracle, State};

/// Arguments of `cargo xtask verify-patterns`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A pattern file to verify instead of the shipped set.
    #[arg(long)]
    file: Option<PathBuf>,
    /// Completions to sample per placement where enumerating all of them is too much (boards
    /// of up to 16 cells).
    #[arg(long, default_value_t = 1000)]
    samples: usize,
    /// Completions to sample per placement and share of `--empty-shares` on the boards of
    /// more than 16 cells (4x5, 5x4, 5x5 and those of six rows or columns), where each needs a
    /// fresh search.
    #[arg(long, default_value_t = 40)]
    samples_5x5: usize,
    /// Enumerate every completion when there are at most this many.
    #[arg(long, default_value_t = 20_000)]
    exhaustive_limit: usize,
    /// On the boards of more than 16 cells, enumerate every completion when there are at most
    /// this many (a pattern that covers most of the board leaves few free cells).
    #[arg(long, default_value_t = 729)]
    exhaustive_large: usize,
    /// Only these boards, as `CxR` separated by commas, with every image placed on each
    /// unless `--large-only` is given (default: 3x3, 4x4, 3x5, 5x3, 4x3, 4x5, 5x4, 5x5 with
    /// every image, then 3x6, 6x3, 4x6, 6x4 with the images larger than 5x5). One board per
    /// run lets boards run side by side, each in its own process.
    #[arg(long, value_delimiter = ',', value_parser = parse_board)]
    boards: Vec<(usize, usize)>,
    /// Place only the images that span more than five rows or columns, on every board.
    /// `--boards 6x4 --large-only` is exactly the 6x4 part of the default run.
    #[arg(long)]
    large_only: bool,
    /// Shares of empty cells among the free cells of the sampled completions on the boards of
    /// more than 16 cells, separated by commas; `--samples-5x5` completions are drawn at each
    /// share (default: 0.25 on 4x5, 5x4 and 5x5; 0.25 and 0.5 on the boards of six rows or
    /// columns, where mostly filled completions missed a false capture).
    #[arg(long, value_delimiter = ',', value_parser = parse_share)]
    empty_shares: Vec<f64>,
}

/// A share of empty cells: a number from 0 to 1.
fn parse_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("bad share {s:?}: expected a number from 0 to 1, e.g. 0.5")),
    }
}

/// A board of at most 25 cells written `CxR` (columns x rows).
fn parse_board(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("bad board {s:?}: expected CxR with at most 25 cells, e.g. 4x6");
    let (c, r) = s.split_once('x').ok_or_else(bad)?;
    let (c, r) = (c.parse::<usize>().map_err(|_| bad())?, r.parse::<usize>().map_err(|_| bad())?);
    if c == 0 || r == 0 || c * r > 25 {
        return Err(bad());
    }
    Ok((c, r))
}

/// Boards the patterns are placed on: the dense oracle serves up to 16 cells; 4x5, 5x4 and
/// 5x5 use the hash oracle, enumerated where a placement leaves few free cells and sampled
/// elsewhere. The oblong boards put a pattern near two parallel edges of one colour at
/// distances the square boards do not.
const BOARDS: [(usize, usize); 8] =
    [(3, 3), (4, 4), (3, 5), (5, 3), (4, 3), (4, 5), (5, 4), (5, 5)];

/// Boards where only the images that do not fit whole on 5x5 (more than five rows or columns)
/// are placed. On the boards above such an image fits only with its outer `b` and `w` cells
/// off the board, so they are checked as edges and never as stones; six rows or columns
/// let one more of them be stones. The mined capture f10 (docs/solving.md) passed the boards
/// above and fails on 6x4.
const TALL_BOARDS: [(usize, usize); 4] = [(3, 6), (6, 3), (4, 6), (6, 4)];

/// Default shares of empty cells in the sampled completions on 4x5, 5x4 and 5x5: mostly
/// filled keeps each search of the hash oracle short.
const EMPTY_SHARES: &[f64] = &[0.25];

/// Default shares on [`TALL_BOARDS`]. With some seeds f10 passed 40 completions a quarter
/// empty on 4x6, and edge-line-three-a on 4x6 and 6x4, though both are false there; these
/// boards have few placements, so 40 more completions are drawn, half empty, to reach the
/// positions with more empty cells as well (each costs the hash oracle far more: emptier
/// still is too slow for a routine run).
const TALL_EMPTY_SHARES: &[f64] = &[0.25, 0.5];

/// Whether an image spans more than five rows or five columns.
fn larger_than_5x5(p: &Pattern) -> bool {
    let span = |f: fn(&nash_patterns::PatternCell) -> i8| {
        let (lo, hi) =
            p.cells.iter().map(f).fold((i8::MAX, i8::MIN), |(l, h), x| (l.min(x), h.max(x)));
        hi - lo + 1
    };
    span(|c| c.dr) > 5 || span(|c| c.dc) > 5
}

#[derive(Debug, Default)]
struct Outcome {
    images: usize,
    placements: usize,
    positions: u64,
    failure: Option<String>,
    /// No image to place (`--large-only`): neither a pass nor a failure.
    skipped: bool,
}

/// How one pattern was checked on one board.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    /// Images placed at least once.
    images: usize,
    placements: usize,
    positions: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, t: Tally) {
        self.images += t.images;
        self.placements += t.placements;
        self.positions += t.positions;
    }
}

/// Where and how densely one board is checked.
struct BoardPlan<'a> {
    cols: usize,
    rows: usize,
    /// Only the images larger than 5x5 are placed.
    large_only: bool,
    /// Shares of empty cells in sampled completions (boards of more than 16 cells).
    empty_shares: &'a [f64],
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let set = match &args.file {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?
            .parse::<PatternSet>()
            .with_context(|| path.display().to_string())?,
        None => PatternSet::builtin(),
    };
    let mut all: Vec<Pattern> = set.patterns.clone();
    for p in &set.patterns {
        all.extend(p.implied_dominations());
    }
    let mut outcomes: Vec<(String, Outcome)> =
        all.iter().map(|p| (p.name.clone(), Outcome::default())).collect();
    // Each board, and whether only the images larger than 5x5 are placed there.
    let boards: Vec<((usize, usize), bool)> = if args.boards.is_empty() {
        let tall = TALL_BOARDS.iter().map(|&b| (b, true));
        BOARDS.iter().map(|&b| (b, false)).chain(tall).collect()
    } else {
        args.boards.iter().map(|&b| (b, false)).collect()
    };
    for ((cols, rows), large_only) in boards {
        let default_shares =
            if TALL_BOARDS.contains(&(cols, rows)) { TALL_EMPTY_SHARES } else { EMPTY_SHARES };
        let plan = BoardPlan {
            cols,
            rows,
            large_only: large_only || args.large_only,
            empty_shares: if args.empty_shares.is_empty() {
                default_shares
            } else {
                &args.empty_shares
            },
        };
        // One oracle per board, shared by every pattern, so that its table is built once.
        let mut o = Oracle::new(cols, rows);
        let started = std::time::Instant::now();
        let mut board = Tally::default();
        for (p, (name, out)) in all.iter().zip(&mut outcomes) {
            if out.failure.is_some() {
                continue;
            }
            let t0 = std::time::Instant::now();
            let t = verify(p, &args, &plan, &mut o, out);
            board += t;
            // One line per pattern and board, so that a run stopped early still tells what
            // it checked.
            if t.placements > 0 || out.failure.is_some() {
                eprintln!(
                    "{cols}x{rows} {:<4} {name:<28} {:>3} images {:>5} placements {:>9} positions {:>8.1} s",
                    if out.failure.is_some() { "FAIL" } else { "ok" },
                    t.images,
                    t.placements,
                    t.positions,
                    t0.elapsed().as_secs_f64()
                );
            }
        }
        eprintln!(
            "{cols}x{rows} done: {} images {} placements {} positions checked in {:.1} s",
            board.images,
            board.placements,
            board.positions,
            started.elapsed().as_secs_f64()
        );
    }
    // A pattern that fits on none of the boards was checked nowhere: that is no pass, unless
    // `--large-only` left it nothing to place.
    let mut skipped = 0;
    for (p, (_, o)) in all.iter().zip(&mut outcomes) {
        if o.failure.is_none() && o.placements == 0 {
            if args.large_only && !p.variants().iter().any(larger_than_5x5) {
                o.skipped = true;
                skipped += 1;
            } else {
                o.failure =
                    Some("fits on none of the verification boards: nothing was checked".into());
            }
        }
    }
    let mut failed = 0;
    for (name, o) in &outcomes {
        match &o.failure {
            None if o.skipped => println!("skip  {name:<28} no image larger than 5x5"),
            None => println!(
                "ok    {name:<28} {:>3} images {:>5} placements {:>10} positions checked",
                o.images, o.placements, o.positions
            ),
            Some(f) => {
                failed += 1;
                println!("FAIL  {name:<28} {f}");
            }
        }
    }
    let total = outcomes.len();
    println!("{} passed, {skipped} skipped, {failed} failed", total - failed - skipped);
    if failed > 0 {
        bail!("{failed} of {total} patterns failed verification");
    }
    Ok(())
}

/// Checks the images of `p` on the board of `plan`, recording the first failure in `out`, and
/// returns what it checked there.
fn verify(
    p: &Pattern,
    args: &Args,
    plan: &BoardPlan<'_>,
    o: &mut Oracle,
    out: &mut Outcome,
) -> Tally {
    let variants = p.variants();
    out.images = variants.len();
    let geom = Geometry::<Bitboard>::get(plan.cols, plan.rows).expect("small board");
    let dense = plan.cols * plan.rows <= 16;
    let mut tally = Tally::default();
    // Seeded by the pattern and the board alone, so that a run of one board or one pattern
    // file samples what the same pattern gets on that board in a run of all of them.
    let seed = p
        .name
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    let mut rng = SmallRng::seed_from_u64(seed ^ (plan.cols * 8 + plan.rows) as u64);
    for v in &variants {
        if plan.large_only && !larger_than_5x5(v) {
            continue;
        }
        let mut placed = false;
        for anchor in geom.cells() {
            let Some(pl) = v.place(geom, anchor) else { continue };
            if !placed {
                placed = true;
                tally.images += 1;
            }
            out.placements += 1;
            tally.placements += 1;
            let free: Vec<u32> = (geom.cells() - pl.empty - pl.black - pl.white)
                .iter()
                .map(|c| o.index(c))
                .collect();
            let total = 3f64.powi(free.len() as i32);
            let mut check = |o: &mut Oracle, black: u32, white: u32| -> Result<(), String> {
                for btm in [true, false] {
                    out.positions += 1;
                    tally.positions += 1;
                    let state = State { black, white, black_to_move: btm };
                    claim(o, v, &pl, state).map_err(|e| failure(geom, v, anchor, state, &e, o))?;
                }
                Ok(())
            };
            let base_b = o.compact(pl.black);
            let base_w = o.compact(pl.white);
            let limit = if dense { args.exhaustive_limit } else { args.exhaustive_large };
            if total <= limit as f64 {
                for k in 0..total as u64 {
                    let (mut b, mut w, mut k) = (base_b, base_w, k);
                    for &i in &free {
                        match k % 3 {
                            1 => b |= 1 << i,
                            2 => w |= 1 << i,
                            _ => {}
                        }
                        k /= 3;
                    }
                    if let Err(e) = check(o, b, w) {
                        out.failure = Some(e);
                        return tally;
                    }
                }
                if !dense {
                    o.clear();
                }
            } else {
                // The dense table answers any completion at once; on the larger boards each
                // share of empty cells gets its own samples.
                let dense_share = [0.34];
                let (shares, samples) = if dense {
                    (&dense_share[..], args.samples)
                } else {
                    (plan.empty_shares, args.samples_5x5)
                };
                for &p_empty in shares {
                    for _ in 0..samples {
                        let (mut b, mut w) = (base_b, base_w);
                        for &i in &free {
                            if rng.gen_bool(p_empty) {
                                continue;
                            }
                            if rng.gen_bool(0.5) {
                                b |= 1 << i;
                            } else {
                                w |= 1 << i;
                            }
                        }
                        if let Err(e) = check(o, b, w) {
                            out.failure = Some(e);
                            return tally;
                        }
                    }
                }
                if !dense {
                    o.clear();
                }
            }
        }
    }
    tally
}

fn fill(s: State, color: Color, set: u32) -> State {
    match color {
        Color::Black => State { black: s.black | set, ..s },
        Color::White => State { white: s.white | set, ..s },
    }
}

/// Checks the pattern's claim in one completed position.
fn claim(o: &mut Oracle, p: &Pattern, pl: &Placement<Bitboard>, s: State) -> Result<(), String> {
    if o.winner(s.black, s.white).is_some() {
        return Ok(());
    }
    let targets = o.compact(pl.targets);
    match p.kind {
        Kind::Dead => {
            let v = o.value(s);
            for color in Color::ALL {
                let mut sets = vec![targets];
                if targets.count_ones() > 1 {
                    sets.extend(pl.targets.iter().map(|c| 1 << o.index(c)));
                }
                for set in sets {
                    if o.value(fill(s, color, set)) != v {
                        return Err(format!("filling {set:#x} with {color} changes the value"));
                    }
                }
            }
        }
        Kind::Captured(color) => {
            let v = o.value(s);
            if o.value(fill(s, color, targets)) != v {
                return Err(format!("filling the targets with {color} changes the value"));
            }
        }
        Kind::Dominated(color) => {
            if s.black_to_move != (color == Color::Black) {
                return Ok(());
            }
            let d = pl.dominator.first().map(|c| o.index(c)).ok_or("no dominator")?;
            let dom_wins = !o.wins(o.child(s, d));
            for t in pl.targets.iter() {
                if !o.wins(o.child(s, o.index(t))) && !dom_wins {
                    return Err(format!("{t} wins but its dominator does not"));
                }
            }
        }
    }
    Ok(())
}

fn failure(
    geom: &'static Geometry<Bitboard>,
    p: &Pattern,
    anchor: Cell,
    state: State,
    what: &str,
    o: &Oracle,
) -> String {
    let State { black, white, black_to_move } = state;
    let mut pos = Position::empty(geom);
    let cells = |m: u32| -> Bitboard {
        geom.cells().iter().filter(|c| m >> o.index(*c) & 1 != 0).collect()
    };
    pos.setup(Color::Black, cells(black));
    pos.setup(Color::White, cells(white));
    pos.set_to_move(if black_to_move { Color::Black } else { Color::White });
    format!(
        "on {}x{} at {anchor}: {what}\nimage:\n{}position:\n{pos}",
        geom.cols(),
        geom.rows(),
        p.diagram()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mined captures that the boards of up to 5 rows and columns passed, with a position
    /// where one of their placements is false: a pattern's rows of `b`/`w` fit those boards
    /// only as edges, and these positions need them as stones.
    const REFUTED: &[(&str, &str)] = &[
        (
            // The f10 of docs/solving.md: 7x7 c2 came out a White win with it.
            "pattern f10\nkind captured white\n  b b b\n ? b b b\nw w * . .\n w w * . w\n  w w * . b\n   w w . .\n    w w .\nend\n",
            "   a  b  c  d  e  f\n\
             1  W  .  .  .  .  .  1\n\
             \x20 2  W  .  .  .  .  W  2\n\
             \x20  3  W  .  B  W  W  W  3\n\
             \x20   4  B  .  W  B  .  W  4\n\
             \x20      a  b  c  d  e  f\n\
             white to move\n",
        ),
        (
            // Shipped as edge-line-three-a until the 6x4 board refuted it (the colour-swapped
            // image along the bottom edge): White wins, and loses once c4, d4, e4 are Black.
            "pattern edge-line-three-a\nkind captured white\n  . w w\n . . w w\n. . * w w\n w . * w w\n  . . * w w\n   b b b ?\n    b b b\nend\n",
            "   a  b  c  d  e  f\n\
             1  W  .  W  W  W  B  1\n\
             \x20 2  B  B  .  B  .  W  2\n\
             \x20  3  W  .  .  .  .  W  3\n\
             \x20   4  .  .  .  .  .  W  4\n\
             \x20      a  b  c  d  e  f\n\
             white to move\n",
        ),
        (
            // The same on 4x6, the image unturned: Black wins, and loses once d3, d4, d5 are
            // White.
            "pattern edge-line-three-a\nkind captured white\n  . w w\n . . w w\n. . * w w\n w . * w w\n  . . * w w\n   b b b ?\n    b b b\nend\n",
            "   a  b  c  d\n\
             1  B  B  .  .  1\n\
             \x20 2  B  W  .  .  2\n\
             \x20  3  .  .  .  .  3\n\
             \x20   4  B  W  .  .  4\n\
             \x20    5  B  .  .  .  5\n\
             \x20     6  W  B  B  B  6\n\
             \x20        a  b  c  d\n\
             black to move\n",
        ),
    ];

    #[test]
    fn refuted_patterns_fail_their_claim_on_the_counterexample() {
        for (text, diagram) in REFUTED {
            let set: PatternSet = text.parse().expect("pattern parses");
            let pos: Position<Bitboard> = diagram.parse().expect("diagram parses");
            let geom = pos.geometry();
            let mut o = Oracle::new(geom.cols(), geom.rows());
            let s = o.state(&pos);
            let p = &set.patterns[0];
            let mut matched = 0;
            let mut refuted = 0;
            for v in p.variants() {
                for anchor in geom.cells() {
                    let Some(pl) = v.place(geom, anchor) else { continue };
                    let fits = pl.black.is_subset(pos.black())
                        && pl.white.is_subset(pos.white())
                        && pl.empty.is_subset(pos.empty_cells());
                    if !fits {
                        continue;
                    }
                    matched += 1;
                    refuted += usize::from(claim(&mut o, &v, &pl, s).is_err());
                }
            }
            assert!(matched > 0, "{}: no placement matches the position", p.name);
            assert!(refuted > 0, "{}: every matching placement holds", p.name);
        }
    }
}
