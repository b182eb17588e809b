//! Patterns compiled for one board size: for every image of every pattern and every anchor
//! cell where it fits, the bitboard masks of cells that must be empty, Black or White. Matching
//! at an anchor is then three subset tests.

use nash_board::{BitSet, Cell, Color, Geometry, OptIndex};

use crate::pattern::{Kind, Pattern, PatternSet, Req};

/// One pattern image placed at one anchor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<B> {
    /// Cells that must be empty (targets and dominator included).
    pub empty: B,
    /// Cells that must hold Black stones.
    pub black: B,
    /// Cells that must hold White stones.
    pub white: B,
    /// The cells the claim is about.
    pub targets: B,
    /// The dominating cell (kind `dominated`), else empty.
    pub dominator: B,
    /// Index of the pattern in the compiled set's name table.
    pub rule: u16,
}

impl<B: BitSet> Entry<B> {
    /// Whether the entry matches a position given by its stones and empty cells.
    #[inline]
    pub fn matches(&self, black: B, white: B, empty: B) -> bool {
        self.empty.is_subset(empty) && self.black.is_subset(black) && self.white.is_subset(white)
    }
}

/// The six neighbours of every cell by direction, as bit indexes (none off the board).
#[derive(Clone, Debug)]
pub(crate) struct Ring {
    bits: Vec<[OptIndex; 6]>,
}

/// Axial directions, in the order of the signature's 2-bit fields.
const DIRS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

impl Ring {
    fn new<B: BitSet>(geom: &Geometry<B>) -> Ring {
        let mut bits = vec![[OptIndex::NONE; 6]; B::CAPACITY];
        for cell in geom.cells() {
            for (d, (dc, dr)) in DIRS.iter().enumerate() {
                let (c, r) = (cell.col() as i32 + dc, cell.row() as i32 + dr);
                if c >= 0 && r >= 0 && (c as usize) < geom.cols() && (r as usize) < geom.rows() {
                    let n = B::bit_of(Cell::at(c as u8, r as u8)) as u16;
                    bits[B::bit_of(cell)][d] = OptIndex::some(n);
                }
            }
        }
        Ring { bits }
    }

    /// The anchor's neighbourhood code: two bits per direction, `01` Black, `10` White, `00`
    /// empty or off the board.
    #[inline]
    pub fn code<B: BitSet>(&self, bit: usize, black: B, white: B) -> u16 {
        let mut code = 0u16;
        for (d, &n) in self.bits[bit].iter().enumerate() {
            if let Some(n) = n.index() {
                code |= (black.has_bit(n) as u16 | (white.has_bit(n) as u16) << 1) << (2 * d);
            }
        }
        code
    }

    /// The signature of an entry: which codes at its anchor are compatible with it, as a
    /// `(mask, value)` pair packed into `mask << 16 | value`.
    fn signature<B: BitSet>(&self, bit: usize, e: &Entry<B>) -> u32 {
        let (mut mask, mut value) = (0u32, 0u32);
        for (d, &n) in self.bits[bit].iter().enumerate() {
            let Some(n) = n.index() else { continue };
            let v = if e.empty.has_bit(n) {
                0
            } else if e.black.has_bit(n) {
                1
            } else if e.white.has_bit(n) {
                2
            } else {
                continue;
            };
            mask |= 3 << (2 * d);
            value |= v << (2 * d);
        }
        mask << 16 | value
    }
}

/// Entries grouped by anchor bit (compressed rows): the entries anchored at bit `i` are
/// `entries[start[i]..start[i + 1]]`, and `sigs` holds their neighbourhood signatures in the
/// same order, so most entries are rejected by one comparison on a small array.
#[derive(Clone, Debug)]
pub(crate) struct Table<B> {
    pub entries: Vec<Entry<B>>,
    sigs: Vec<u32>,
    start: Vec<u32>,
}

impl<B: BitSet> Table<B> {
    fn build(ring: &Ring, mut items: Vec<(usize, Entry<B>)>) -> Table<B> {
        items.sort_by_key(|(bit, _)| *bit);
        // Drop exact duplicates (images that coincide once placed), keeping the first rule.
        let mut entries: Vec<Entry<B>> = Vec::with_capacity(items.len());
        let mut sigs = Vec::with_capacity(items.len());
        let mut start = vec![0u32; B::CAPACITY + 1];
        let mut bit_start = 0;
        let mut cur = usize::MAX;
        for (bit, e) in items {
            if bit != cur {
                cur = bit;
                bit_start = entries.len();
            }
            let dup = entries[bit_start..].iter().any(|o| {
                o.empty == e.empty
                    && o.black == e.black
                    && o.white == e.white
                    && o.targets == e.targets
                    && o.dominator == e.dominator
            });
            if !dup {
                sigs.push(ring.signature(bit, &e));
                entries.push(e);
                start[bit + 1] += 1;
            }
        }
        for i in 0..B::CAPACITY {
            start[i + 1] += start[i];
        }
        Table { entries, sigs, start }
    }

    /// Calls `f` on every entry anchored at `bit` whose signature fits the anchor's
    /// neighbourhood `code` (the caller then runs the full test).
    #[inline]
    pub fn candidates(&self, bit: usize, code: u16, mut f: impl FnMut(&Entry<B>)) {
        let (a, b) = (self.start[bit] as usize, self.start[bit + 1] as usize);
        let code = code as u32;
        for (i, &s) in self.sigs[a..b].iter().enumerate() {
            if code & (s >> 16) == s & 0xffff {
                f(&self.entries[a + i]);
            }
        }
    }
}

/// Where a pattern offset lands relative to the board.
enum Spot {
    On(Cell),
    /// Off the board beyond the edges of one colour.
    Beyond(Color),
    /// The position beyond both edges that touches an obtuse corner cell. That cell touches
    /// both edges anyway, and the position touches no other cell, so the board is the same
    /// whichever colour the position is given: it satisfies `b` and `w` alike.
    Obtuse,
    /// Further off the board beyond two edges: touches no cell; only `#` matches it.
    Corner,
}

fn spot(cols: i32, rows: i32, c: i32, r: i32) -> Spot {
    let out_r = r < 0 || r >= rows;
    let out_c = c < 0 || c >= cols;
    match (out_c, out_r) {
        (false, false) => Spot::On(Cell::at(c as u8, r as u8)),
        (false, true) => Spot::Beyond(Color::Black),
        (true, false) => Spot::Beyond(Color::White),
        (true, true) if (c, r) == (cols, -1) || (c, r) == (-1, rows) => Spot::Obtuse,
        (true, true) => Spot::Corner,
    }
}

/// A pattern image placed on a board: the masks it requires and the cells its claim is about.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Placement<B> {
    /// Cells that must be empty (targets and dominator included).
    pub empty: B,
    /// Cells that must hold Black stones.
    pub black: B,
    /// Cells that must hold White stones.
    pub white: B,
    /// The cells the claim is about.
    pub targets: B,
    /// The dominating cell of a `dominated` pattern, else empty.
    pub dominator: B,
}

impl Pattern {
    /// This pattern (one image, as it is) with its anchor on `anchor`, or `None` where it does
    /// not fit the board. Off-board offsets count as edges: `b`/`w` match beyond an edge of that
    /// colour, `#` anywhere off the board.
    pub fn place<B: BitSet>(&self, geom: &Geometry<B>, anchor: Cell) -> Option<Placement<B>> {
        place(geom, self, anchor, 0).map(|e| Placement {
            empty: e.empty,
            black: e.black,
            white: e.white,
            targets: e.targets,
            dominator: e.dominator,
        })
    }
}

/// Places a pattern image with its anchor (offset (0, 0)) on `anchor`, or `None` where it
/// does not fit the board.
pub(crate) fn place<B: BitSet>(
    geom: &Geometry<B>,
    p: &Pattern,
    anchor: Cell,
    rule: u16,
) -> Option<Entry<B>> {
    let (cols, rows) = (geom.cols() as i32, geom.rows() as i32);
    let mut e = Entry {
        empty: B::EMPTY,
        black: B::EMPTY,
        white: B::EMPTY,
        targets: B::EMPTY,
        dominator: B::EMPTY,
        rule,
    };
    for pc in &p.cells {
        let s = spot(
            cols,
            rows,
            anchor.col() as i32 + pc.dc as i32,
            anchor.row() as i32 + pc.dr as i32,
        );
        match (pc.req, s) {
            (Req::OffBoard, Spot::On(_)) => return None,
            (Req::OffBoard, _) => {}
            (r, Spot::On(cell)) => match r {
                Req::Empty => e.empty.insert(cell),
                Req::Target => {
                    e.empty.insert(cell);
                    e.targets.insert(cell);
                }
                Req::Dominator => {
                    e.empty.insert(cell);
                    e.dominator.insert(cell);
                }
                Req::Stone(Color::Black) | Req::StoneOrEdge(Color::Black) => e.black.insert(cell),
                Req::Stone(Color::White) | Req::StoneOrEdge(Color::White) => e.white.insert(cell),
                Req::OffBoard => unreachable!("handled above"),
            },
            (Req::StoneOrEdge(c), Spot::Beyond(side)) if c == side => {}
            (Req::StoneOrEdge(_), Spot::Obtuse) => {}
            _ => return None,
        }
    }
    Some(e)
}

/// Whether the neighbourhood test proves every placement of a dead pattern, so that matching
/// the pattern adds nothing while that test runs (it always runs with dead-cell analysis).
///
/// The pattern must have one target. Every completion of its six neighbours (empty, Black or
/// White where the pattern leaves a choice) is checked with a local model that is weaker than
/// the real test: only stones consecutive around the target count as one group, and only
/// consecutive neighbours as adjacent. Off-board neighbours are edges, which the model treats
/// as stones of either colour.
pub(crate) fn clique_subsumed(p: &Pattern) -> bool {
    let targets: Vec<(i8, i8)> = p.targets().collect();
    if p.kind != Kind::Dead || targets.len() != 1 {
        return false;
    }
    let (tc, tr) = targets[0];
    let mut options: [&[u8]; 6] = [&[0, 1, 2]; 6];
    for c in &p.cells {
        for (d, (dc, dr)) in DIRS.iter().enumerate() {
            if (c.dc as i32 - tc as i32, c.dr as i32 - tr as i32) == (*dc, *dr) {
                options[d] = match c.req {
                    Req::Empty | Req::Target | Req::Dominator => &[0],
                    Req::Stone(Color::Black) | Req::StoneOrEdge(Color::Black) => &[1],
                    Req::Stone(Color::White) | Req::StoneOrEdge(Color::White) => &[2],
                    Req::OffBoard => &[1, 2],
                };
            }
        }
    }
    let mut state = [0u8; 6];
    (0..3usize.pow(6)).all(|mut k| {
        for (d, s) in state.iter_mut().enumerate() {
            let o = options[d];
            *s = o[k % 3 % o.len()];
            k /= 3;
        }
        local_clique(&state, 1) || local_clique(&state, 2)
    })
}

/// The neighbourhood test on the ring alone, for the player whose stones are `color` (1 or 2).
fn local_clique(state: &[u8; 6], color: u8) -> bool {
    let next = |d: usize| (d + 1) % 6;
    let prev = |d: usize| (d + 5) % 6;
    // Arcs of the colour: count the starts of maximal runs.
    let members: Vec<usize> = (0..6).filter(|&d| state[d] == color).collect();
    let arcs = members.iter().filter(|&&d| state[prev(d)] != color).count();
    if arcs > 1 {
        return false;
    }
    let empties: Vec<usize> = (0..6).filter(|&d| state[d] == 0).collect();
    if !members.is_empty()
        && !empties.iter().all(|&u| state[next(u)] == color || state[prev(u)] == color)
    {
        return false;
    }
    empties.iter().all(|&u| empties.iter().all(|&v| u == v || next(u) == v || prev(u) == v))
}

/// The compiled tables of a pattern set for one board size.
#[derive(Clone, Debug)]
pub(crate) struct Compiled<B> {
    /// Dead-cell patterns.
    pub dead: Table<B>,
    /// Captured-set patterns, per capturing colour.
    pub captured: [Table<B>; 2],
    /// Domination patterns, per colour of the dominated moves.
    pub dominated: [Table<B>; 2],
    /// Rule names, indexed by `Entry::rule`.
    pub names: Vec<String>,
    /// Neighbours by direction, for the anchors' neighbourhood codes.
    pub ring: Ring,
    /// The largest distance from an anchor to a cell of its pattern.
    pub radius: u32,
}

impl<B: BitSet> Compiled<B> {
    /// Compiles every image of every pattern (and the dominations implied by captures) at
    /// every anchor of the board.
    pub fn new(geom: &Geometry<B>, set: &PatternSet, first_rule: u16) -> Compiled<B> {
        let mut names = Vec::new();
        let mut dead = Vec::new();
        let mut captured = [Vec::new(), Vec::new()];
        let mut dominated = [Vec::new(), Vec::new()];
        let ring = Ring::new(geom);
        let mut radius = 0;
        let mut all: Vec<Pattern> = set.patterns.clone();
        for p in &set.patterns {
            all.extend(p.implied_dominations());
        }
        for p in &all {
            let rule = first_rule + names.len() as u16;
            names.push(p.name.clone());
            for c in &p.cells {
                let (dc, dr) = (c.dc as i32, c.dr as i32);
                radius = radius.max(((dc.abs() + dr.abs() + (dc + dr).abs()) / 2) as u32);
            }
            if clique_subsumed(p) {
                continue;
            }
            for v in p.variants() {
                for anchor in geom.cells() {
                    let Some(e) = place(geom, &v, anchor, rule) else { continue };
                    let item = (B::bit_of(anchor), e);
                    match v.kind {
                        Kind::Dead => dead.push(item),
                        Kind::Captured(c) => captured[c.index()].push(item),
                        Kind::Dominated(c) => dominated[c.index()].push(item),
                    }
                }
            }
        }
        let [cb, cw] = captured;
        let [db, dw] = dominated;
        Compiled {
            dead: Table::build(&ring, dead),
            captured: [Table::build(&ring, cb), Table::build(&ring, cw)],
            dominated: [Table::build(&ring, db), Table::build(&ring, dw)],
            names,
            ring,
            radius,
        }
    }

    /// Number of placed entries in all tables.
    pub fn len(&self) -> usize {
        self.dead.entries.len()
            + self.captured.iter().map(|t| t.entries.len()).sum::<usize>()
            + self.dominated.iter().map(|t| t.entries.len()).sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::clique_subsumed;
    use crate::pattern::PatternSet;

    fn one(text: &str) -> bool {
        let set: PatternSet = text.parse().unwrap();
        clique_subsumed(&set.patterns[0])
    }

    #[test]
    fn shipped_dead_patterns_are_instances_of_the_neighbourhood_test() {
        let set = PatternSet::builtin();
        for name in ["fig3.3-dead", "dead-four", "dead-three-two"] {
            assert!(clique_subsumed(set.get(name).unwrap()), "{name}");
        }
        assert!(!clique_subsumed(set.get("fig3.3-capture").unwrap()));
    }

    #[test]
    fn wrong_or_wider_dead_patterns_are_kept() {
        // Only two White neighbours and two Black ones with a gap: not a clique.
        assert!(!one("pattern a\nkind dead\n  b b\n w *\n  w\nend\n"));
        assert!(!one("pattern a\nkind dead\n *\nend\n"));
        assert!(!one("pattern a\nkind dead\n  b b\n w * *\n  w w\nend\n"));
        assert!(one("pattern a\nkind dead\n  b b\n b * b\n  b b\nend\n"));
    }
}
