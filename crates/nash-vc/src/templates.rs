//! Edge templates with helper stones: full connections from a cell to one of its player's
//! edges that need a second stone of the player nearby, which the AND and OR rules do not find
//! (docs/vc.md, "Edge templates with helper stones").
//!
//! The table (`templates/edge.txt`) was found by the solver: `cargo xtask templates` places an
//! end on the fourth or fifth row with one or two helper stones, leaves a window of the rows
//! between it and the edge empty, gives every other cell to the opponent and takes cells out of
//! the window one at a time (in random orders) while the end still reaches the edge with the
//! opponent to move; what remains is a minimal carrier. Those the solver's own H-search already
//! finds are left out. `cargo xtask templates --check` and the tests of nash-search solve every
//! template again.
//!
//! A template holds wherever its helpers are the player's stones and its carrier and end are
//! empty or the player's: everything else is as good as the opponent's in the position where
//! it was proved.

use std::sync::OnceLock;

use nash_board::{BitSet, Cell, Color, Edge, Geometry};

/// One template, drawn against Black's north edge: the end is at distance `d` from the edge
/// (row `d`), and the helpers and the carrier are (column, row) offsets from the end, rows
/// negative towards the edge, each list sorted by row, then column.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EdgeTemplate {
    /// The end's row counted from the edge (the first row touches it).
    pub d: u8,
    /// The player's stones the template needs besides the end.
    pub helpers: Vec<(i8, i8)>,
    /// The empty cells of the carrier.
    pub carrier: Vec<(i8, i8)>,
}

impl EdgeTemplate {
    /// The mirror image across the line through the end perpendicular to the edge (rows stay,
    /// a cell `(c, r)` goes to `(-c - r, r)` on the skewed grid).
    pub fn mirrored(&self) -> EdgeTemplate {
        let m = |v: &[(i8, i8)]| {
            let mut out: Vec<(i8, i8)> = v.iter().map(|&(c, r)| (-c - r, r)).collect();
            out.sort_unstable_by_key(|&(c, r)| (r, c));
            out
        };
        EdgeTemplate { d: self.d, helpers: m(&self.helpers), carrier: m(&self.carrier) }
    }

    /// The line of the table file that describes the template.
    pub fn to_line(&self) -> String {
        let list = |v: &[(i8, i8)]| {
            v.iter().map(|(c, r)| format!("{c},{r}")).collect::<Vec<_>>().join(" ")
        };
        format!("{} h {} c {}", self.d, list(&self.helpers), list(&self.carrier))
    }

    /// Parses a line of the table (`D h C,R ... c C,R ...`).
    pub fn parse(line: &str) -> Result<EdgeTemplate, String> {
        let bad = || format!("bad edge template line {line:?}");
        let mut words = line.split_whitespace();
        let d: u8 = words
            .next()
            .and_then(|w| w.parse().ok())
            .filter(|d| (2..=8).contains(d))
            .ok_or_else(bad)?;
        if words.next() != Some("h") {
            return Err(bad());
        }
        let (mut helpers, mut carrier) = (Vec::new(), Vec::new());
        let mut in_carrier = false;
        for w in words {
            if w == "c" {
                in_carrier = true;
                continue;
            }
            let (c, r) = w.split_once(',').ok_or_else(bad)?;
            let cell: (i8, i8) = (c.parse().map_err(|_| bad())?, r.parse().map_err(|_| bad())?);
            if cell.1 > 0 || i32::from(cell.1) <= -i32::from(d) || cell == (0, 0) {
                return Err(bad());
            }
            if in_carrier {
                carrier.push(cell)
            } else {
                helpers.push(cell)
            }
        }
        if !in_carrier || carrier.is_empty() {
            return Err(bad());
        }
        helpers.sort_unstable_by_key(|&(c, r)| (r, c));
        carrier.sort_unstable_by_key(|&(c, r)| (r, c));
        Ok(EdgeTemplate { d, helpers, carrier })
    }
}

/// The shipped table, each template with its mirror image (where it differs).
pub fn edge_templates() -> &'static [EdgeTemplate] {
    static TABLE: OnceLock<Vec<EdgeTemplate>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut out = Vec::new();
        for line in include_str!("../templates/edge.txt").lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('%') {
                continue;
            }
            let t = EdgeTemplate::parse(line).expect("the shipped edge-template table parses");
            let m = t.mirrored();
            out.push(t.clone());
            if !out.contains(&m) {
                out.push(m);
            }
        }
        out
    })
}

/// A template placed on a board against one of a player's edges.
#[derive(Clone, Copy, Debug)]
pub struct Placement<B> {
    /// The end's bit.
    pub end: usize,
    /// The helper stones.
    pub helpers: B,
    /// The carrier.
    pub carrier: B,
    /// The edge.
    pub edge: Edge,
}

/// The cell at offset `(dc, dr)` from an end on row `d` of `edge` at position `x` along it
/// (column for the north and south edges, row for the west and east ones), if on the board.
/// The north frame is mapped by the half turn (south), the transposition (west, Black's
/// stones becoming White's) and both (east).
fn place(cols: i32, rows: i32, edge: Edge, d: i32, x: i32, (dc, dr): (i32, i32)) -> Option<Cell> {
    let (c, r) = match edge {
        Edge::North => (x + dc, d - 1 + dr),
        Edge::South => (x - dc, rows - d - dr),
        Edge::West => (d - 1 + dr, x + dc),
        Edge::East => (cols - d - dr, x - dc),
    };
    if c < 0 || r < 0 || c >= cols || r >= rows {
        return None;
    }
    Some(Cell::at(c as u8, r as u8))
}

/// Every placement of `templates` against `edge` that fits on the board.
pub fn placements<B: BitSet>(
    geom: &Geometry<B>,
    edge: Edge,
    templates: &[EdgeTemplate],
) -> Vec<Placement<B>> {
    let (cols, rows) = (geom.cols() as i32, geom.rows() as i32);
    let len = match edge {
        Edge::North | Edge::South => cols,
        Edge::West | Edge::East => rows,
    };
    let mut out = Vec::new();
    for t in templates {
        let d = i32::from(t.d);
        'x: for x in 0..len {
            let at = |o: (i8, i8)| place(cols, rows, edge, d, x, (i32::from(o.0), i32::from(o.1)));
            let Some(end) = at((0, 0)) else { continue };
            let (mut helpers, mut carrier) = (B::EMPTY, B::EMPTY);
            for &h in &t.helpers {
                let Some(c) = at(h) else { continue 'x };
                helpers |= B::single(c);
            }
            for &h in &t.carrier {
                let Some(c) = at(h) else { continue 'x };
                carrier |= B::single(c);
            }
            out.push(Placement { end: B::bit_of(end), helpers, carrier, edge });
        }
    }
    out
}

/// The templates of one player placed on one board, indexed by helper cell: the placements
/// with a helper on bit `b` are `items[start[b]..start[b + 1]]`. Built once per board size and
/// player in the process ([`TemplateIndex::shared`]).
#[derive(Debug)]
pub(crate) struct TemplateIndex<B: BitSet> {
    /// The board it was placed on.
    pub(crate) geom: &'static Geometry<B>,
    /// Every placement against the player's two edges, with the edge's index in
    /// `Color::edges`.
    pub(crate) placements: Vec<(Placement<B>, u8)>,
    pub(crate) start: Vec<u32>,
    pub(crate) items: Vec<u32>,
}

/// The key of a [`TemplateIndex`] among a geometry's shared values.
#[derive(PartialEq)]
struct IndexKey(Color);

impl<B: BitSet> TemplateIndex<B> {
    /// The index of `color`'s templates on `geom`, shared by the whole process.
    pub(crate) fn shared(geom: &'static Geometry<B>, color: Color) -> &'static TemplateIndex<B> {
        geom.shared(IndexKey(color), |g| TemplateIndex::build(g, color))
    }

    fn build(geom: &'static Geometry<B>, color: Color) -> TemplateIndex<B> {
        let mut placed = Vec::new();
        for (i, edge) in color.edges().into_iter().enumerate() {
            let on_edge = placements(geom, edge, edge_templates());
            placed.extend(on_edge.into_iter().map(|p| (p, i as u8)));
        }
        let bits = B::EDGE_BASE;
        let mut start = vec![0u32; bits + 1];
        for (p, _) in &placed {
            for h in p.helpers.bits() {
                start[h + 1] += 1;
            }
        }
        for i in 0..bits {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut items = vec![0; start[bits] as usize];
        for (i, (p, _)) in placed.iter().enumerate() {
            for h in p.helpers.bits() {
                items[next[h] as usize] = i as u32;
                next[h] += 1;
            }
        }
        TemplateIndex { geom, placements: placed, start, items }
    }

    /// The placements with a helper on bit `bit`.
    pub(crate) fn with_helper(&self, bit: usize) -> impl Iterator<Item = (Placement<B>, u8)> + '_ {
        let (from, to) = (self.start[bit] as usize, self.start[bit + 1] as usize);
        self.items[from..to].iter().map(|&i| self.placements[i as usize])
    }
}
