//! Local Hex patterns as data: the text format of docs/patterns.md, its parser, and the
//! symmetries under which a pattern is applied.
//!
//! A pattern is a set of cells at offsets from an anchor, each with a requirement (empty, a
//! stone of a colour, a stone or edge of a colour, off the board), and a claim about its target
//! cells (`*`): they are dead, captured by a colour, or dominated by the cell marked `+`.
//! Offsets are axial: a cell's six neighbours are at (±1, 0), (0, ±1), (1, −1) and (−1, 1),
//! the same directions as on the board (`b1` is (1, 0) from `a1`, `a2` is (0, 1)).

use std::fmt;

use nash_board::Color;

/// What a pattern requires of one cell.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Req {
    /// `.`: an empty cell of the board.
    Empty,
    /// `*`: an empty cell the claim is about (filled, dead, or pruned).
    Target,
    /// `+`: the empty cell that dominates the targets (kind `dominated` only).
    Dominator,
    /// `B` / `W`: a stone of the colour.
    Stone(Color),
    /// `b` / `w`: a stone of the colour, or a position off the board beyond one of that
    /// colour's edges (an edge behaves as an endless row of connected stones).
    StoneOrEdge(Color),
    /// `#`: a position off the board.
    OffBoard,
}

impl Req {
    fn from_char(ch: char) -> Option<Req> {
        Some(match ch {
            '.' => Req::Empty,
            '*' => Req::Target,
            '+' => Req::Dominator,
            'B' => Req::Stone(Color::Black),
            'W' => Req::Stone(Color::White),
            'b' => Req::StoneOrEdge(Color::Black),
            'w' => Req::StoneOrEdge(Color::White),
            '#' => Req::OffBoard,
            _ => return None,
        })
    }

    fn to_char(self) -> char {
        match self {
            Req::Empty => '.',
            Req::Target => '*',
            Req::Dominator => '+',
            Req::Stone(Color::Black) => 'B',
            Req::Stone(Color::White) => 'W',
            Req::StoneOrEdge(Color::Black) => 'b',
            Req::StoneOrEdge(Color::White) => 'w',
            Req::OffBoard => '#',
        }
    }

    /// Whether the cell must be an empty cell of the board.
    pub fn is_empty_cell(self) -> bool {
        matches!(self, Req::Empty | Req::Target | Req::Dominator)
    }

    fn swap_colors(self) -> Req {
        match self {
            Req::Stone(c) => Req::Stone(!c),
            Req::StoneOrEdge(c) => Req::StoneOrEdge(!c),
            r => r,
        }
    }
}

/// What a pattern claims about its target cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    /// The targets are dead: each may be filled with either colour.
    Dead,
    /// The targets form a set captured by the colour: fill them with it (Chen 2025 s.3.3,
    /// Theorem 6).
    Captured(Color),
    /// A move of the colour to any target is inferior to its move to the dominator: the
    /// colour playing the dominator captures the targets (Chen 2025 s.3.3, Definition 5).
    Dominated(Color),
}

impl Kind {
    fn swap_colors(self) -> Kind {
        match self {
            Kind::Dead => Kind::Dead,
            Kind::Captured(c) => Kind::Captured(!c),
            Kind::Dominated(c) => Kind::Dominated(!c),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Dead => f.write_str("dead"),
            Kind::Captured(c) => write!(f, "captured {c}"),
            Kind::Dominated(c) => write!(f, "dominated {c}"),
        }
    }
}

/// One cell of a pattern: its axial offset from the anchor and its requirement.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PatternCell {
    /// Column offset.
    pub dc: i8,
    /// Row offset.
    pub dr: i8,
    /// What the cell must hold.
    pub req: Req,
}

/// A local pattern: named cells with requirements and a claim about the targets.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Pattern {
    /// The pattern's name, unique within its set.
    pub name: String,
    /// The claim.
    pub kind: Kind,
    /// The cells, sorted by row then column; offsets relative to the first target.
    pub cells: Vec<PatternCell>,
}

/// A pattern file that does not parse, or a pattern that makes no sense.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("invalid pattern file, line {line}: {reason}")]
pub struct PatternError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong there.
    pub reason: String,
}

/// The 12 symmetries of the hexagonal lattice, as maps of cube coordinates
/// `(x, y, z) = (dc, −dc−dr, dr)`: a permutation of the three axes and an optional negation.
const LATTICE: [([usize; 3], bool); 12] = [
    ([0, 1, 2], false),
    ([1, 2, 0], false),
    ([2, 0, 1], false),
    ([0, 2, 1], false),
    ([2, 1, 0], false),
    ([1, 0, 2], false),
    ([0, 1, 2], true),
    ([1, 2, 0], true),
    ([2, 0, 1], true),
    ([0, 2, 1], true),
    ([2, 1, 0], true),
    ([1, 0, 2], true),
];

fn map_offset(dc: i8, dr: i8, (perm, neg): ([usize; 3], bool)) -> (i8, i8) {
    let cube = [dc, -dc - dr, dr];
    let s = if neg { -1 } else { 1 };
    (s * cube[perm[0]], s * cube[perm[2]])
}

impl Pattern {
    /// Builds a pattern from cells at arbitrary offsets: sorts them and moves the anchor to
    /// the first target in reading order (row, then column).
    pub fn new(name: String, kind: Kind, mut cells: Vec<PatternCell>) -> Pattern {
        cells.sort_by_key(|c| (c.dr, c.dc, c.req));
        if let Some(anchor) = cells.iter().find(|c| c.req == Req::Target).copied() {
            for c in &mut cells {
                c.dc -= anchor.dc;
                c.dr -= anchor.dr;
            }
        }
        Pattern { name, kind, cells }
    }

    /// The target cells' offsets.
    pub fn targets(&self) -> impl Iterator<Item = (i8, i8)> + '_ {
        self.cells.iter().filter(|c| c.req == Req::Target).map(|c| (c.dc, c.dr))
    }

    /// The pattern seen through one of the 12 lattice symmetries, with colours swapped or not.
    pub fn transformed(&self, sym: usize, swap_colors: bool) -> Pattern {
        let cells = self
            .cells
            .iter()
            .map(|c| {
                let (dc, dr) = map_offset(c.dc, c.dr, LATTICE[sym % 12]);
                let req = if swap_colors { c.req.swap_colors() } else { c.req };
                PatternCell { dc, dr, req }
            })
            .collect();
        let kind = if swap_colors { self.kind.swap_colors() } else { self.kind };
        Pattern::new(self.name.clone(), kind, cells)
    }

    /// Every distinct image of the pattern under the 12 lattice symmetries and the colour swap.
    ///
    /// The claims are local (a cell's neighbourhood in the graph where edges are endless rows of
    /// stones), so they do not depend on the direction of the board's edges: every image is a
    /// valid pattern. `cargo xtask verify-patterns` confirms each image by brute force.
    pub fn variants(&self) -> Vec<Pattern> {
        let mut out: Vec<Pattern> = Vec::new();
        for swap in [false, true] {
            for sym in 0..12 {
                let p = self.transformed(sym, swap);
                if !out.iter().any(|q| q.kind == p.kind && q.cells == p.cells) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// The patterns of kind `dominated` that a capture implies: if a stone of the capturing
    /// colour on one cell makes the targets captured, then the colour's move there dominates
    /// its moves to the targets (Chen 2025 s.3.3, Definition 5: "a P-move to k captures j").
    pub fn implied_dominations(&self) -> Vec<Pattern> {
        let Kind::Captured(color) = self.kind else { return Vec::new() };
        let stones = self.cells.iter().filter(|c| c.req == Req::Stone(color)).count();
        let mut out = Vec::new();
        for (i, c) in self.cells.iter().enumerate() {
            if c.req != Req::Stone(color) {
                continue;
            }
            let mut cells = self.cells.clone();
            cells[i].req = Req::Dominator;
            let name = if stones == 1 {
                format!("{}>dominated", self.name)
            } else {
                format!("{}>dominated{}", self.name, out.len() + 1)
            };
            out.push(Pattern::new(name, Kind::Dominated(color), cells));
        }
        out
    }

    /// Writes the diagram lines of the pattern (without the header).
    pub fn diagram(&self) -> String {
        let Some(min_r) = self.cells.iter().map(|c| c.dr).min() else { return String::new() };
        let max_r = self.cells.iter().map(|c| c.dr).max().unwrap_or(min_r);
        let min_x = self.cells.iter().map(|c| 2 * c.dc as i32 + c.dr as i32).min().unwrap_or(0);
        let mut out = String::new();
        for r in min_r..=max_r {
            let mut line = String::new();
            for c in self.cells.iter().filter(|c| c.dr == r) {
                let x = (2 * c.dc as i32 + c.dr as i32 - min_x) as usize;
                while line.len() < x {
                    line.push(' ');
                }
                line.push(c.req.to_char());
            }
            out.push_str(&line);
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "pattern {}", self.name)?;
        writeln!(f, "kind {}", self.kind)?;
        f.write_str(&self.diagram())?;
        writeln!(f, "end")
    }
}

/// A list of patterns, as read from a pattern file.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PatternSet {
    /// The patterns in file order.
    pub patterns: Vec<Pattern>,
}

/// The pattern set shipped with Nash (crates/nash-patterns/patterns/default.txt).
pub const DEFAULT_PATTERNS: &str = include_str!("../patterns/default.txt");

impl PatternSet {
    /// The shipped pattern set.
    pub fn builtin() -> PatternSet {
        DEFAULT_PATTERNS.parse().expect("the shipped pattern file parses")
    }

    /// The three patterns of Chen 2025 Figure 3.3 only (capture, dead, and the inferior pattern
    /// that the capture implies).
    pub fn figure_3_3() -> PatternSet {
        let all = PatternSet::builtin();
        PatternSet {
            patterns: all.patterns.into_iter().filter(|p| p.name.starts_with("fig3.3-")).collect(),
        }
    }

    /// Looks a pattern up by name.
    pub fn get(&self, name: &str) -> Option<&Pattern> {
        self.patterns.iter().find(|p| p.name == name)
    }
}

fn parse_kind(words: &[&str]) -> Option<Kind> {
    let color = |w: Option<&&str>| w.and_then(|w| w.parse::<Color>().ok());
    match words.first().copied() {
        Some("dead") if words.len() == 1 => Some(Kind::Dead),
        Some("captured") if words.len() == 2 => color(words.get(1)).map(Kind::Captured),
        Some("dominated") if words.len() == 2 => color(words.get(1)).map(Kind::Dominated),
        _ => None,
    }
}

fn check(p: &Pattern, line: usize) -> Result<(), PatternError> {
    let err = |reason: String| Err(PatternError { line, reason });
    let targets = p.cells.iter().filter(|c| c.req == Req::Target).count();
    let doms = p.cells.iter().filter(|c| c.req == Req::Dominator).count();
    if targets == 0 {
        return err(format!("pattern {:?} has no target cell '*'", p.name));
    }
    match p.kind {
        Kind::Dominated(_) if doms != 1 => {
            err(format!("dominated pattern {:?} needs exactly one '+' cell", p.name))
        }
        Kind::Dead | Kind::Captured(_) if doms != 0 => {
            err(format!("pattern {:?}: '+' is only allowed in dominated patterns", p.name))
        }
        _ => Ok(()),
    }
}

impl std::str::FromStr for PatternSet {
    type Err = PatternError;

    /// Reads the format of docs/patterns.md: blocks of `pattern NAME`, `kind KIND`, diagram
    /// lines, `end`; `%` starts a comment line.
    fn from_str(s: &str) -> Result<PatternSet, PatternError> {
        let mut set = PatternSet::default();
        let mut lines = s.lines().enumerate().map(|(i, l)| (i + 1, l));
        while let Some((n, line)) = lines.next() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('%') {
                continue;
            }
            let err = |line: usize, reason: String| PatternError { line, reason };
            let name = match t.split_whitespace().collect::<Vec<_>>().as_slice() {
                ["pattern", name] => name.to_string(),
                _ => return Err(err(n, format!("expected `pattern NAME`, found {t:?}"))),
            };
            if set.get(&name).is_some() {
                return Err(err(n, format!("duplicate pattern name {name:?}")));
            }
            let (kn, kline) = lines.next().ok_or_else(|| err(n, "missing `kind` line".into()))?;
            let words: Vec<&str> = kline.split_whitespace().collect();
            let kind = match words.split_first() {
                Some((&"kind", rest)) => parse_kind(rest),
                _ => None,
            }
            .ok_or_else(|| {
                err(
                    kn,
                    format!(
                        "expected `kind dead|captured COLOUR|dominated COLOUR`, found {:?}",
                        kline.trim()
                    ),
                )
            })?;
            let mut cells = Vec::new();
            let mut parity = None;
            let mut row = 0i32;
            let mut closed = false;
            for (dn, dline) in lines.by_ref() {
                if dline.trim() == "end" {
                    closed = true;
                    break;
                }
                for (x, ch) in dline.char_indices() {
                    if ch.is_whitespace() || ch == '?' {
                        continue;
                    }
                    let req = Req::from_char(ch).ok_or_else(|| {
                        err(
                            dn,
                            format!(
                                "unknown pattern character {ch:?} (expected . * + B W b w # ?)"
                            ),
                        )
                    })?;
                    let x = x as i32;
                    let p = *parity.get_or_insert((x - row).rem_euclid(2));
                    if (x - row).rem_euclid(2) != p {
                        return Err(err(dn, format!("character {ch:?} at column {} is off the hex grid: cells of a row are two columns apart and each row is shifted one column right", x + 1)));
                    }
                    let c = (x - row - p).div_euclid(2);
                    let (dc, dr) = (i8::try_from(c), i8::try_from(row));
                    let (Ok(dc), Ok(dr)) = (dc, dr) else {
                        return Err(err(dn, "pattern too large".into()));
                    };
                    cells.push(PatternCell { dc, dr, req });
                }
                row += 1;
            }
            if !closed {
                return Err(err(n, format!("pattern {name:?} has no `end` line")));
            }
            let p = Pattern::new(name, kind, cells);
            check(&p, n)?;
            set.patterns.push(p);
        }
        Ok(set)
    }
}
