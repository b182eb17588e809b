//! Edge templates proved by the solver (the table of `nash_vc::templates`).
//!
//! A template is proved in its north frame on a board of 11 columns and `d + 1` rows: the end
//! on row `d` in the middle column, the helpers as Black stones, the carrier empty, and every
//! other cell White, except one Black stone on the extra row below the end, which joins the
//! end (and, of the end's row, only the end: the stone's other neighbour there is White) to
//! Black's south edge. So Black wins with White to move exactly when the end reaches the
//! north edge inside the carrier. The solver's H-search runs without the templates here, so
//! no template is proved by itself.

use nash_board::{BitSet, Bitboard, Cell, Color, Position};
use nash_vc::templates::EdgeTemplate;
use nash_vc::VcBuilder;

use crate::config::{Knowledge, SolverConfig};
use crate::entry::solve;
use crate::outcome::Outcome;

/// The proving board's width, and the end's column on it when a search starts (a template is
/// proved with its leftmost cell in the first column).
const COLS: i32 = 11;
const MID: i32 = 5;

/// Why a template cannot be checked.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TemplateError {
    /// A cell lies off the proving board or twice, or the template uses both cells beside the
    /// end on its row (one of them touches the stone that joins the end to the far edge).
    DoesNotFit(String),
    /// The solver did not decide it within its budget.
    Undecided(String),
}

impl std::fmt::Display for TemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TemplateError::DoesNotFit(t) => {
                write!(f, "edge template {t:?} does not fit the proving board")
            }
            TemplateError::Undecided(t) => write!(f, "edge template {t:?} was not decided"),
        }
    }
}

impl std::error::Error for TemplateError {}

/// The cells of `offsets` from the end (in column `mid`) on the proving board of a template on
/// row `d`.
fn cells(d: u8, mid: i32, offsets: &[(i8, i8)]) -> Option<Bitboard> {
    let mut b = Bitboard::EMPTY;
    for &(dc, dr) in offsets {
        let (c, r) = (mid + i32::from(dc), i32::from(d) - 1 + i32::from(dr));
        if !(0..COLS).contains(&c) || !(0..i32::from(d)).contains(&r) {
            return None;
        }
        b |= Bitboard::single(Cell::at(c as u8, r as u8));
    }
    Some(b)
}

/// The proving position: Black's end, helpers and joining stone, the empty `carrier`, White
/// everywhere else, White to move. The joining stone lies below the end and to its left
/// (touching the cell right of the end, which must be White) unless the template uses that
/// cell; then below and to the right (touching the cell left of the end).
fn proving_position(d: u8, mid: i32, helpers: Bitboard, carrier: Bitboard) -> Position<Bitboard> {
    let mut pos: Position<Bitboard> =
        Position::new(COLS as usize, usize::from(d) + 1).expect("the proving board fits");
    let r = i32::from(d) - 1;
    let end = Bitboard::single(Cell::at(mid as u8, r as u8));
    let right = cells(d, mid, &[(1, 0)]).unwrap_or(Bitboard::EMPTY);
    let jc = if (helpers | carrier).intersects(right) { mid - 1 } else { mid };
    let joint = Bitboard::single(Cell::at(jc as u8, (r + 1) as u8));
    let black = end | joint | helpers;
    pos.setup(Color::Black, black);
    pos.setup(Color::White, pos.geometry().cells() - black - carrier);
    pos.set_to_move(Color::White);
    pos
}

/// The solver's configuration for proving templates: its default knowledge without them.
pub fn template_solver() -> SolverConfig {
    let mut cfg = SolverConfig::default();
    cfg.knowledge.hsearch.templates = false;
    cfg
}

/// The end's column on the proving board of a template and its helpers and carrier there, if
/// it fits: its leftmost cell (or the joining stone's) in the first column.
fn sets(t: &EdgeTemplate) -> Result<(i32, Bitboard, Bitboard), TemplateError> {
    let err = || TemplateError::DoesNotFit(t.to_line());
    let all = t.helpers.iter().chain(&t.carrier);
    let joint = if all.clone().any(|&o| o == (1, 0)) { -1 } else { 0 };
    let mid = -all.clone().map(|&(c, _)| i32::from(c)).min().unwrap_or(0).min(joint);
    let h = cells(t.d, mid, &t.helpers).ok_or_else(err)?;
    let c = cells(t.d, mid, &t.carrier).ok_or_else(err)?;
    let end = cells(t.d, mid, &[(0, 0)]).ok_or_else(err)?;
    let both_sides = joint == -1 && all.clone().any(|&o| o == (-1, 0));
    let n = t.helpers.len() + t.carrier.len();
    if h.intersects(c) || (h | c).intersects(end) || both_sides || (h | c).len() != n {
        return Err(err());
    }
    Ok((mid, h, c))
}

/// Whether the end of `t` reaches its edge inside the carrier with the opponent to move.
pub fn edge_template_holds(t: &EdgeTemplate, cfg: &SolverConfig) -> Result<bool, TemplateError> {
    let (mid, h, c) = sets(t)?;
    holds(t.d, mid, h, c, cfg).ok_or_else(|| TemplateError::Undecided(t.to_line()))
}

fn holds(
    d: u8,
    mid: i32,
    helpers: Bitboard,
    carrier: Bitboard,
    cfg: &SolverConfig,
) -> Option<bool> {
    match solve(&proving_position(d, mid, helpers, carrier), cfg).outcome {
        Outcome::Loss { .. } => Some(true),
        Outcome::Win { .. } => Some(false),
        Outcome::Unknown { .. } => None,
    }
}

/// Whether the solver's H-search without templates already joins the end to the edge inside
/// the carrier (then the template adds nothing).
pub fn found_by_rules(t: &EdgeTemplate) -> Result<bool, TemplateError> {
    let (mid, h, c) = sets(t)?;
    let mut vc = VcBuilder::new(Knowledge::solver_hsearch_without_templates());
    vc.build(&proving_position(t.d, mid, h, c));
    Ok(vc.opponent_won().is_some())
}

/// Minimal carriers for an end on row `d` with `helpers`: the window of rows 1 to `d` within
/// `half` columns of the end (wider towards the edge), and `tries` orders of taking cells out
/// (a seeded generator, so the result is reproducible). Each carrier is minimal: no cell can
/// go. Empty when the end does not reach the edge within the window.
pub fn minimal_templates(
    d: u8,
    helpers: &[(i8, i8)],
    half: i32,
    tries: usize,
    cfg: &SolverConfig,
) -> Result<Vec<EdgeTemplate>, TemplateError> {
    let probe = EdgeTemplate { d, helpers: helpers.to_vec(), carrier: vec![(0, -1)] };
    let h = cells(d, MID, helpers).ok_or_else(|| TemplateError::DoesNotFit(probe.to_line()))?;
    let er = i32::from(d) - 1;
    let mut window = Vec::new();
    for r in 0..i32::from(d) {
        for c in 0..COLS {
            let (dc, dr) = (c - MID, r - er);
            if (dc + dr / 2).abs() <= half + (-dr) / 2 + 1
                && (dc, dr) != (0, 0)
                && (dc, dr) != (1, 0)
            {
                let o = (dc as i8, dr as i8);
                if !helpers.contains(&o) {
                    window.push(o);
                }
            }
        }
    }
    let region = cells(d, MID, &window).expect("the window fits");
    if holds(d, MID, h, region, cfg) != Some(true) {
        return Ok(Vec::new());
    }
    let mut out: Vec<EdgeTemplate> = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(d);
    for &(c, r) in helpers {
        seed = seed.rotate_left(11) ^ ((c as u64 & 0xff) << 8 | (r as u64 & 0xff));
    }
    for _ in 0..tries {
        let mut order: Vec<usize> = region.bits().collect();
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        let mut cur = region;
        for b in order {
            let less = cur - Bitboard::from_bit(b);
            if holds(d, MID, h, less, cfg) == Some(true) {
                cur = less;
            }
        }
        let mut carrier: Vec<(i8, i8)> = cur
            .iter()
            .map(|c| ((i32::from(c.col()) - MID) as i8, (i32::from(c.row()) - er) as i8))
            .collect();
        carrier.sort_unstable_by_key(|&(c, r)| (r, c));
        let mut hs = helpers.to_vec();
        hs.sort_unstable_by_key(|&(c, r)| (r, c));
        let t = EdgeTemplate { d, helpers: hs, carrier };
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Ok(out)
}
