//! Board pictures: the Hex rhombus drawn as SVG, with coordinates, the four coloured edges,
//! stones, the last move, overlays that mark sets of cells (winning moves, carriers, dead,
//! captured and inferior cells, the mustplay) with a legend, and numbers on cells (a player's
//! scores of its moves) shown as a heat map.
//!
//! The drawing is plain text built in memory; writing it anywhere is the caller's business.
//! Every number is written with at most two decimals, so one position and one set of overlays
//! always give the same bytes.
//!
//! The cells are pointy-top hexagons. Row 1 is at the top and each row is shifted half a cell
//! to the right of the one above, so `a1` is the acute corner at the top left, as in HexGui.

use std::fmt::{self, Write as _};

use crate::bitboard::BitSet;
use crate::cell::Cell;
use crate::color::Color;
use crate::moves::Move;
use crate::position::Position;

/// The circumradius of a cell in picture units (pixels at 100%).
const R: f64 = 20.0;
/// `sqrt(3)`: a cell is `SQRT3 * R` wide.
const SQRT3: f64 = 1.732_050_807_568_877_2;
/// Space around the drawing.
const PAD: f64 = 10.0;
/// The height of one legend line.
const LEGEND_LINE: f64 = 24.0;
/// The width of a character of legend text, a little more than the average of common fonts
/// at 13 px.
const CHAR_WIDTH: f64 = 7.5;

const BOARD_FILL: &str = "#ecd9b0";
const GRID: &str = "#6b5a3e";
const BLACK_STONE: &str = "#1c1c1c";
const WHITE_STONE: &str = "#fbfbfb";
const BLACK_EDGE: &str = "#1c1c1c";
const WHITE_EDGE: &str = "#fbfbfb";
const OUTLINE: &str = "#555555";
const LAST_MOVE: &str = "#d62728";
const TEXT: &str = "#333333";
const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// How an overlay marks its cells. Tints colour the whole cell under any stone; the other
/// styles draw a mark in the cell's centre, over the stones.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Style {
    /// A winning move: a green dot.
    Winning,
    /// A losing move: a small red cross.
    Losing,
    /// A proof carrier: the cells tinted orange.
    Carrier,
    /// A virtual connection's carrier: the cells tinted blue.
    Connection,
    /// The mustplay: a blue ring.
    Mustplay,
    /// A dead cell: a grey cross.
    Dead,
    /// A cell captured by this colour (filled in for it): a small stone of that colour.
    Captured(Color),
    /// An inferior (dominated or vulnerable) cell: a small grey ring.
    Inferior,
    /// A key cell (a semi connection's key): a purple diamond.
    Key,
}

impl Style {
    /// The tint of the cell, for the styles that colour whole cells.
    fn tint(self) -> Option<&'static str> {
        match self {
            Style::Carrier => Some("#f6b26b"),
            Style::Connection => Some("#a4c8ec"),
            _ => None,
        }
    }
}

/// A set of cells drawn in one style, with an optional label for the legend.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Overlay<B: BitSet> {
    /// The cells marked (edges are ignored).
    pub cells: B,
    /// How they are marked.
    pub style: Style,
    /// The legend's text for this overlay; an overlay without one, or without cells, is not
    /// listed.
    pub label: Option<String>,
}

impl<B: BitSet> Overlay<B> {
    /// An overlay without a legend entry.
    pub fn new(cells: B, style: Style) -> Overlay<B> {
        Overlay { cells, style, label: None }
    }

    /// An overlay listed in the legend as `label`.
    pub fn labelled(cells: B, style: Style, label: impl Into<String>) -> Overlay<B> {
        Overlay { cells, style, label: Some(label.into()) }
    }
}

/// A picture of a position: build it, add overlays, and take its SVG text with `to_string()`
/// (or write it with `{}`).
///
/// ```
/// use nash_board::svg::{Overlay, Picture, Style};
/// use nash_board::{bitboard, Bitboard, Position};
///
/// let mut pos = Position::<Bitboard>::square(3).unwrap();
/// pos.play("b2".parse().unwrap()).unwrap();
/// let svg = Picture::new(&pos)
///     .overlay(Overlay::labelled(bitboard![a1 c3], Style::Winning, "winning moves"))
///     .to_string();
/// assert!(svg.starts_with("<svg"));
/// assert!(svg.contains("winning moves"));
/// ```
#[derive(Clone, Debug)]
pub struct Picture<'a, B: BitSet> {
    pos: &'a Position<B>,
    overlays: Vec<Overlay<B>>,
    last_move: Option<Cell>,
    line: Vec<Cell>,
    caption: Option<String>,
    values: Vec<(Cell, f64)>,
    values_label: Option<String>,
}

impl<'a, B: BitSet> Picture<'a, B> {
    /// A picture of `pos`, its last move (from the position's history) marked.
    pub fn new(pos: &'a Position<B>) -> Picture<'a, B> {
        Picture {
            pos,
            overlays: Vec::new(),
            last_move: last_move(pos),
            line: Vec::new(),
            caption: None,
            values: Vec::new(),
            values_label: None,
        }
    }

    /// Adds an overlay; later overlays are drawn over earlier ones.
    #[must_use]
    pub fn overlay(mut self, overlay: Overlay<B>) -> Picture<'a, B> {
        self.overlays.push(overlay);
        self
    }

    /// Marks `cell` as the last move instead of the one the history gives (`None`: no mark).
    #[must_use]
    pub fn last_move(mut self, cell: Option<Cell>) -> Picture<'a, B> {
        self.last_move = cell;
        self
    }

    /// A line of play from the position, drawn as numbered translucent stones (the side to
    /// move plays the first); cells already taken and repeats are skipped.
    #[must_use]
    pub fn line(mut self, moves: &[Cell]) -> Picture<'a, B> {
        self.line = moves.to_vec();
        self
    }

    /// A line of text under the board.
    #[must_use]
    pub fn caption(mut self, text: impl Into<String>) -> Picture<'a, B> {
        self.caption = Some(text.into());
        self
    }

    /// Numbers on empty cells, each written in its cell and the cell tinted by it, from red at
    /// the lowest through pale yellow to green at the highest (a player's scores of its
    /// moves, say); the legend's line is `label` with the range. Numbers that are not finite
    /// and cells that are taken or off the board are left out; a tint overlay does not show
    /// under a number.
    ///
    /// ```
    /// use nash_board::svg::Picture;
    /// use nash_board::{Bitboard, Position};
    ///
    /// let pos = Position::<Bitboard>::square(3).unwrap();
    /// let scores = [("b2".parse().unwrap(), 0.25), ("a1".parse().unwrap(), -0.5)];
    /// let svg = Picture::new(&pos).values(&scores, "score").to_string();
    /// assert!(svg.contains(">0.25</text>") && svg.contains(">-0.5</text>"));
    /// ```
    #[must_use]
    pub fn values(mut self, values: &[(Cell, f64)], label: impl Into<String>) -> Picture<'a, B> {
        let empty = self.pos.empty_cells();
        self.values =
            values.iter().copied().filter(|&(c, v)| v.is_finite() && empty.contains(c)).collect();
        self.values_label = Some(label.into());
        self
    }

    /// The lowest and highest of the numbers on cells, if there are any.
    fn value_range(&self) -> Option<(f64, f64)> {
        let first = self.values.first()?.1;
        Some(self.values.iter().fold((first, first), |(lo, hi), &(_, v)| (lo.min(v), hi.max(v))))
    }

    /// The colour of a cell whose number is `v`, by its rank among the numbers (the lowest
    /// red, the middle pale yellow, the highest green), so that one outlier (a lost move's -1)
    /// does not wash out the others; ties share their mean rank.
    fn value_colour(&self, v: f64) -> [u8; 3] {
        let n = self.values.len();
        let below = self.values.iter().filter(|&&(_, w)| w < v).count();
        let equal = self.values.iter().filter(|&&(_, w)| w == v).count();
        let t = if n > 1 {
            (below as f64 + (equal as f64 - 1.0) / 2.0) / (n as f64 - 1.0)
        } else {
            0.5
        };
        let (a, b) = if t < 0.5 { (HEAT[0], HEAT[1]) } else { (HEAT[1], HEAT[2]) };
        let u = if t < 0.5 { t * 2.0 } else { t * 2.0 - 1.0 };
        [0, 1, 2].map(|i| (f64::from(a[i]) + (f64::from(b[i]) - f64::from(a[i])) * u).round() as u8)
    }
}

/// A colour as SVG writes it.
fn hex_colour([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Ink that reads on `background`: white on dark colours, the text colour on light ones.
fn ink_on([r, g, b]: [u8; 3]) -> &'static str {
    let luma = 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
    if luma < 110.0 {
        "#ffffff"
    } else {
        TEXT
    }
}

/// The heat map's colours at the lowest, middle and highest number.
const HEAT: [[u8; 3]; 3] = [[0xd7, 0x30, 0x27], [0xff, 0xf5, 0xc0], [0x1a, 0x98, 0x50]];

/// The cell of the last move in the position's history, if it left a stone.
fn last_move<B: BitSet>(pos: &Position<B>) -> Option<Cell> {
    let cell = match pos.history().last()?.1 {
        Move::Cell(c) => Some(c),
        // Both swaps leave one stone on the board: it is the last move's.
        Move::SwapPieces | Move::SwapSides => pos.occupied().iter().next(),
        Move::Pass | Move::Resign => None,
    };
    cell.filter(|&c| pos.color_at(c).is_some())
}

/// Writes `x` with at most two decimals and no trailing zeros (`12.5`, `-3`, `0.25`).
fn num(x: f64) -> String {
    let s = format!("{:.2}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_owned()
    } else {
        s.to_owned()
    }
}

/// Text with the XML special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(ch),
        }
    }
    out
}

/// Where things go: cell centres in picture units.
struct Layout {
    cols: usize,
    rows: usize,
    ox: f64,
    oy: f64,
}

/// How far the coordinates stand from the centre of the nearest cell: clear of the edge
/// bands, which reach `1.25 * R` from a cell's centre across a side.
const LABEL_OFFSET: f64 = 1.75 * R;
/// Room between the outermost cell centres and the picture's sides.
const MARGIN: f64 = LABEL_OFFSET + 0.6 * R;

impl Layout {
    fn new(cols: usize, rows: usize) -> Layout {
        Layout { cols, rows, ox: PAD + MARGIN, oy: PAD + MARGIN }
    }

    /// The centre of the cell at column `c`, row `r`.
    fn centre(&self, c: f64, r: f64) -> (f64, f64) {
        (self.ox + (c + r / 2.0) * SQRT3 * R, self.oy + r * 1.5 * R)
    }

    fn width(&self) -> f64 {
        let span = (self.cols as f64 - 1.0 + (self.rows as f64 - 1.0) / 2.0) * SQRT3 * R;
        2.0 * (PAD + MARGIN) + span
    }

    fn board_height(&self) -> f64 {
        2.0 * (PAD + MARGIN) + (self.rows as f64 - 1.0) * 1.5 * R
    }
}

/// The six corners of a hexagon of circumradius `radius` around `(x, y)`, from the top
/// clockwise: top, upper right, lower right, bottom, lower left, upper left.
fn corners(x: f64, y: f64, radius: f64) -> [(f64, f64); 6] {
    let h = radius * SQRT3 / 2.0;
    [
        (x, y - radius),
        (x + h, y - radius / 2.0),
        (x + h, y + radius / 2.0),
        (x, y + radius),
        (x - h, y + radius / 2.0),
        (x - h, y - radius / 2.0),
    ]
}

fn points(corners: &[(f64, f64)]) -> String {
    let v: Vec<String> = corners.iter().map(|&(x, y)| format!("{},{}", num(x), num(y))).collect();
    v.join(" ")
}

/// The colour owning the board side that a cell's hexagon side `i` (numbered as the corners
/// it starts from, clockwise from the top) lies on, if it lies on one.
fn side_owner(col: usize, row: usize, cols: usize, rows: usize, i: usize) -> Option<Color> {
    let (first_row, last_row) = (row == 0, row + 1 == rows);
    let (first_col, last_col) = (col == 0, col + 1 == cols);
    // Sides and the neighbour across them: 0 upper right (c+1, r-1), 1 right (c+1, r),
    // 2 lower right (c, r+1), 3 lower left (c-1, r+1), 4 left (c-1, r), 5 upper left (c, r-1).
    // A corner cell's side facing two board sides goes to the rows' owner, Black.
    match i {
        0 if first_row => Some(Color::Black),
        0 if last_col => Some(Color::White),
        1 if last_col => Some(Color::White),
        2 if last_row => Some(Color::Black),
        3 if last_row => Some(Color::Black),
        3 if first_col => Some(Color::White),
        4 if first_col => Some(Color::White),
        5 if first_row => Some(Color::Black),
        _ => None,
    }
}

impl<B: BitSet> fmt::Display for Picture<'_, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = self.pos;
        let (cols, rows) = (pos.cols(), pos.rows());
        let lay = Layout::new(cols, rows);
        // An overlay with no cell on the board has nothing to explain.
        let legend: Vec<&Overlay<B>> = self
            .overlays
            .iter()
            .filter(|o| o.label.is_some() && o.cells.iter().any(|c| pos.geometry().is_on_board(c)))
            .collect();
        // The numbers' legend line: their label and range.
        let heat = self.value_range().map(|(lo, hi)| {
            let label = self.values_label.as_deref().unwrap_or_default();
            format!("{label}: from {} (red) to {} (green), coloured by rank", num(lo), num(hi))
        });
        let extra =
            legend.len() + usize::from(heat.is_some()) + usize::from(self.caption.is_some());
        // Room for the longest legend line, at a generous average width per character.
        let longest = legend
            .iter()
            .filter_map(|o| o.label.as_deref())
            .chain(heat.as_deref())
            .chain(self.caption.as_deref())
            .map(|t| t.chars().count())
            .max()
            .unwrap_or(0);
        let width = lay.width().max(2.0 * PAD + 2.0 * R + longest as f64 * CHAR_WIDTH);
        let height = lay.board_height() + extra as f64 * LEGEND_LINE;
        writeln!(
            f,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}">"#,
            w = num(width),
            h = num(height)
        )?;
        writeln!(f, r#"<rect width="{}" height="{}" fill="white"/>"#, num(width), num(height))?;
        self.edges(f, &lay)?;
        self.cells(f, &lay)?;
        self.coordinates(f, &lay)?;
        self.stones(f, &lay)?;
        let line = self.line_stones(f, &lay)?;
        for o in &self.overlays {
            if o.style.tint().is_none() {
                for cell in o.cells.iter().filter(|&c| pos.geometry().is_on_board(c)) {
                    let (x, y) = lay.centre(cell.col() as f64, cell.row() as f64);
                    mark(f, o.style, x, y, pos.color_at(cell), line.contains(cell))?;
                }
            }
        }
        for &(cell, v) in &self.values {
            if line.contains(cell) {
                continue;
            }
            let (x, y) = lay.centre(cell.col() as f64, cell.row() as f64);
            writeln!(
                f,
                r#"<text x="{}" y="{}" font-size="9" fill="{}" text-anchor="middle">{}</text>"#,
                num(x),
                num(y + 0.35 * 9.0),
                ink_on(self.value_colour(v)),
                num(v)
            )?;
        }
        if let Some(c) = self.last_move {
            let (x, y) = lay.centre(c.col() as f64, c.row() as f64);
            writeln!(
                f,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{LAST_MOVE}"/>"#,
                num(x),
                num(y),
                num(0.2 * R)
            )?;
        }
        let mut y = lay.board_height() - PAD + LEGEND_LINE / 2.0;
        for o in legend {
            let x = PAD + R;
            if let Some(tint) = o.style.tint() {
                let hex = points(&corners(x, y, 0.55 * R));
                writeln!(f, r#"<polygon points="{hex}" fill="{tint}" stroke="{GRID}"/>"#)?;
            } else {
                let hex = points(&corners(x, y, 0.55 * R));
                writeln!(f, r#"<polygon points="{hex}" fill="{BOARD_FILL}" stroke="{GRID}"/>"#)?;
                mark(f, o.style, x, y, None, false)?;
            }
            let label = escape(o.label.as_deref().unwrap_or_default());
            text(f, x + R, y, "start", &label)?;
            y += LEGEND_LINE;
        }
        if let Some(heat) = &heat {
            let x = PAD + R;
            for (i, dx) in [(0, -0.5), (2, 0.5)] {
                let hex = points(&corners(x + dx * R, y, 0.45 * R));
                let fill = hex_colour(HEAT[i]);
                writeln!(f, r#"<polygon points="{hex}" fill="{fill}" stroke="{GRID}"/>"#)?;
            }
            text(f, x + 1.2 * R, y, "start", &escape(heat))?;
            y += LEGEND_LINE;
        }
        if let Some(c) = &self.caption {
            text(f, PAD, y, "start", &escape(c))?;
        }
        writeln!(f, "</svg>")
    }
}

/// A line of text centred vertically on `y`.
fn text(f: &mut fmt::Formatter<'_>, x: f64, y: f64, anchor: &str, s: &str) -> fmt::Result {
    writeln!(
        f,
        r#"<text x="{}" y="{}" font-size="13" fill="{TEXT}" text-anchor="{anchor}">{s}</text>"#,
        num(x),
        // Most fonts put a digit's middle about 0.35 em above the baseline.
        num(y + 0.35 * 13.0)
    )
}

/// The mark of a non-tint style at `(x, y)`; `under` is the stone there, if any, and `in_line`
/// says that a numbered stone of the line of play is there.
fn mark(
    f: &mut fmt::Formatter<'_>,
    style: Style,
    x: f64,
    y: f64,
    under: Option<Color>,
    in_line: bool,
) -> fmt::Result {
    let (sx, sy) = (num(x), num(y));
    let cross = |f: &mut fmt::Formatter<'_>, colour: &str, size: f64| {
        let d = size * R;
        writeln!(
            f,
            r#"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="{colour}" stroke-width="{}" stroke-linecap="round"/>"#,
            num(x - d),
            num(y - d),
            num(x + d),
            num(y + d),
            num(x - d),
            num(y + d),
            num(x + d),
            num(y - d),
            num(0.14 * R)
        )
    };
    match style {
        // The line's first stone is usually the winning move: ring it, keeping its number.
        Style::Winning if in_line => writeln!(
            f,
            r##"<circle cx="{sx}" cy="{sy}" r="{}" fill="none" stroke="#2ca02c" stroke-width="{}"/>"##,
            num(0.8 * R),
            num(0.15 * R)
        ),
        Style::Winning => writeln!(
            f,
            r##"<circle cx="{sx}" cy="{sy}" r="{}" fill="#2ca02c" stroke="#145214"/>"##,
            num(0.3 * R)
        ),
        Style::Losing => cross(f, "#c0392b", 0.22),
        Style::Dead => cross(f, "#7f7f7f", 0.3),
        Style::Mustplay => writeln!(
            f,
            r##"<circle cx="{sx}" cy="{sy}" r="{}" fill="none" stroke="#1f5fbf" stroke-width="{}"/>"##,
            num(0.55 * R),
            num(0.12 * R)
        ),
        Style::Captured(c) => {
            let (fill, stroke) = match c {
                Color::Black => (BLACK_STONE, BLACK_STONE),
                Color::White => (WHITE_STONE, OUTLINE),
            };
            writeln!(
                f,
                r#"<circle cx="{sx}" cy="{sy}" r="{}" fill="{fill}" stroke="{stroke}" stroke-dasharray="2 2" fill-opacity="0.6"/>"#,
                num(0.4 * R)
            )
        }
        Style::Inferior => {
            let stroke = if under == Some(Color::Black) { "#bbbbbb" } else { "#7f7f7f" };
            writeln!(
                f,
                r#"<circle cx="{sx}" cy="{sy}" r="{}" fill="none" stroke="{stroke}" stroke-width="{}"/>"#,
                num(0.25 * R),
                num(0.1 * R)
            )
        }
        Style::Key => {
            let d = 0.3 * R;
            writeln!(
                f,
                r##"<path d="M{sx} {}L{} {sy}L{sx} {}L{} {sy}Z" fill="#8e44ad"/>"##,
                num(y - d),
                num(x + d),
                num(y + d),
                num(x - d)
            )
        }
        Style::Carrier | Style::Connection => Ok(()),
    }
}

impl<B: BitSet> Picture<'_, B> {
    /// The four board sides as thick bands in their owners' colours, drawn before the cells
    /// so that the cells cover their inner half.
    fn edges(&self, f: &mut fmt::Formatter<'_>, lay: &Layout) -> fmt::Result {
        let (cols, rows) = (lay.cols, lay.rows);
        let mut paths = [String::new(), String::new()];
        for r in 0..rows {
            for c in 0..cols {
                let (x, y) = lay.centre(c as f64, r as f64);
                let k = corners(x, y, R);
                for i in 0..6 {
                    if let Some(owner) = side_owner(c, r, cols, rows, i) {
                        let (a, b) = (k[i], k[(i + 1) % 6]);
                        let d = &mut paths[owner.index()];
                        let _ = write!(d, "M{} {}L{} {}", num(a.0), num(a.1), num(b.0), num(b.1));
                    }
                }
            }
        }
        let band = num(0.5 * R);
        // White's band needs an outline to stand out from the white page.
        writeln!(
            f,
            r#"<path d="{}" stroke="{OUTLINE}" stroke-width="{}" stroke-linecap="round" fill="none"/>"#,
            paths[1],
            num(0.5 * R + 3.0)
        )?;
        writeln!(
            f,
            r#"<path d="{}" stroke="{WHITE_EDGE}" stroke-width="{band}" stroke-linecap="round" fill="none"/>"#,
            paths[1]
        )?;
        writeln!(
            f,
            r#"<path d="{}" stroke="{BLACK_EDGE}" stroke-width="{band}" stroke-linecap="round" fill="none"/>"#,
            paths[0]
        )
    }

    /// The hexagons, tinted by their numbers or else by the tint overlays (the last one
    /// listing a cell wins).
    fn cells(&self, f: &mut fmt::Formatter<'_>, lay: &Layout) -> fmt::Result {
        writeln!(f, r#"<g stroke="{GRID}" stroke-width="1">"#)?;
        for r in 0..lay.rows {
            for c in 0..lay.cols {
                let cell = Cell::at(c as u8, r as u8);
                let tint = self
                    .overlays
                    .iter()
                    .rev()
                    .filter(|o| o.cells.contains(cell))
                    .find_map(|o| o.style.tint())
                    .unwrap_or(BOARD_FILL);
                let fill = match self.values.iter().find(|(x, _)| *x == cell) {
                    Some(&(_, v)) => hex_colour(self.value_colour(v)),
                    None => tint.to_owned(),
                };
                let (x, y) = lay.centre(c as f64, r as f64);
                writeln!(f, r#"<polygon points="{}" fill="{fill}"/>"#, points(&corners(x, y, R)))?;
            }
        }
        writeln!(f, "</g>")
    }

    /// Column letters above and below the board, row numbers on both sides.
    fn coordinates(&self, f: &mut fmt::Formatter<'_>, lay: &Layout) -> fmt::Result {
        let (last_col, last_row) = ((lay.cols - 1) as f64, (lay.rows - 1) as f64);
        for c in 0..lay.cols {
            let name = Cell::column_name(c as u8);
            let (x, y) = lay.centre(c as f64, 0.0);
            text(f, x, y - LABEL_OFFSET, "middle", &name)?;
            let (x, y) = lay.centre(c as f64, last_row);
            text(f, x, y + LABEL_OFFSET, "middle", &name)?;
        }
        for r in 0..lay.rows {
            let number = (r + 1).to_string();
            let (x, y) = lay.centre(0.0, r as f64);
            text(f, x - LABEL_OFFSET, y, "middle", &number)?;
            let (x, y) = lay.centre(last_col, r as f64);
            text(f, x + LABEL_OFFSET, y, "middle", &number)?;
        }
        Ok(())
    }

    fn stones(&self, f: &mut fmt::Formatter<'_>, lay: &Layout) -> fmt::Result {
        for color in Color::ALL {
            let (fill, stroke) = match color {
                Color::Black => (BLACK_STONE, "#000000"),
                Color::White => (WHITE_STONE, OUTLINE),
            };
            for cell in self.pos.stones(color).iter().filter(|c| c.as_edge().is_none()) {
                let (x, y) = lay.centre(cell.col() as f64, cell.row() as f64);
                writeln!(
                    f,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
                    num(x),
                    num(y),
                    num(0.72 * R)
                )?;
            }
        }
        Ok(())
    }

    /// The line of play as numbered translucent stones, alternating from the side to move;
    /// returns the cells drawn.
    fn line_stones(&self, f: &mut fmt::Formatter<'_>, lay: &Layout) -> Result<B, fmt::Error> {
        let geom = self.pos.geometry();
        let mut taken = self.pos.occupied();
        let mut color = self.pos.to_move();
        for (i, &cell) in self.line.iter().enumerate() {
            if !geom.is_on_board(cell) || taken.contains(cell) {
                continue;
            }
            taken = taken.with(cell);
            let (fill, ink) = match color {
                Color::Black => (BLACK_STONE, "#ffffff"),
                Color::White => (WHITE_STONE, "#000000"),
            };
            let (x, y) = lay.centre(cell.col() as f64, cell.row() as f64);
            writeln!(
                f,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" fill-opacity="0.75" stroke="{OUTLINE}" stroke-dasharray="3 2"/>"#,
                num(x),
                num(y),
                num(0.72 * R)
            )?;
            writeln!(
                f,
                r#"<text x="{}" y="{}" font-size="12" fill="{ink}" text-anchor="middle">{}</text>"#,
                num(x),
                num(y + 0.35 * 12.0),
                i + 1
            )?;
            color = !color;
        }
        Ok(taken - self.pos.occupied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{bitboard, Bitboard, WideBitboard};

    fn pos(moves: &str, n: usize) -> Position<Bitboard> {
        let mut p = Position::square(n).unwrap();
        let list: crate::MoveList = moves.parse().unwrap();
        list.play_on(&mut p).unwrap();
        p
    }

    #[test]
    fn numbers_have_a_fixed_form() {
        for (x, s) in [(12.5, "12.5"), (-3.0, "-3"), (0.254, "0.25"), (-0.001, "0"), (7.0, "7")] {
            assert_eq!(num(x), s, "{x}");
        }
    }

    #[test]
    fn one_hexagon_per_cell_and_one_circle_per_stone() {
        let p = pos("a1 b2 c3", 4);
        let svg = Picture::new(&p).to_string();
        assert_eq!(svg.matches("<polygon").count(), 16);
        // Three stones and the last move's dot.
        assert_eq!(svg.matches("<circle").count(), 4);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn coordinates_are_written_on_both_sides() {
        let p = pos("", 3);
        let svg = Picture::new(&p).to_string();
        for name in ["a", "b", "c", "1", "2", "3"] {
            let needle = format!(">{name}</text>");
            assert_eq!(svg.matches(&needle).count(), 2, "{name}");
        }
    }

    #[test]
    fn rows_shift_right_as_they_go_down() {
        let lay = Layout::new(3, 3);
        let (a1, a2, b1) = (lay.centre(0.0, 0.0), lay.centre(0.0, 1.0), lay.centre(1.0, 0.0));
        assert!(a2.0 > a1.0 && a2.1 > a1.1 && b1.0 > a1.0);
        assert!((a2.0 - a1.0 - (b1.0 - a1.0) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn the_last_move_is_marked() {
        let p = pos("a1 b2", 3);
        assert_eq!(last_move(&p), Some("b2".parse().unwrap()));
        let swapped = pos("b3 swap-pieces", 3);
        assert_eq!(last_move(&swapped), Some("c2".parse().unwrap()));
        let svg = Picture::new(&p).last_move(None).to_string();
        assert!(!svg.contains(LAST_MOVE));
    }

    #[test]
    fn overlays_draw_marks_tints_and_legend() {
        let p = pos("b2", 3);
        let svg = Picture::new(&p)
            .overlay(Overlay::labelled(bitboard![a1 a3], Style::Carrier, "carrier <proof>"))
            .overlay(Overlay::labelled(bitboard![c1], Style::Winning, "winning"))
            .overlay(Overlay::new(bitboard![c3], Style::Dead))
            .to_string();
        // Two tinted cells plus the legend's swatch.
        assert_eq!(svg.matches("fill=\"#f6b26b\"").count(), 3);
        assert!(svg.contains("carrier &lt;proof&gt;"));
        assert_eq!(svg.matches("#2ca02c").count(), 2);
        assert!(!svg.contains(">dead<"));
    }

    #[test]
    fn numbers_on_cells_are_written_and_tinted_by_rank() {
        let p = pos("b2", 3);
        let c = |s: &str| s.parse::<Cell>().unwrap();
        // b2 is taken and NaN is no number: both left out; a1 lowest, c3 highest.
        let values = [(c("a1"), -1.0), (c("b1"), 0.5), (c("c3"), 0.75), (c("b2"), 0.0)];
        let values = [&values[..], &[(c("c1"), f64::NAN)]].concat();
        let svg = Picture::new(&p).values(&values, "score").to_string();
        for text in [">-1</text>", ">0.5</text>", ">0.75</text>"] {
            assert_eq!(svg.matches(text).count(), 1, "{text}");
        }
        assert!(!svg.contains(">0</text>") && !svg.contains("NaN"));
        assert!(svg.contains("score: from -1 (red) to 0.75 (green), coloured by rank"));
        // The lowest and highest in the heat map's end colours, and again in the legend.
        assert_eq!(svg.matches(&hex_colour(HEAT[0])).count(), 2);
        assert_eq!(svg.matches(&hex_colour(HEAT[2])).count(), 2);
        assert_eq!(svg.matches(&hex_colour(HEAT[1])).count(), 1);
        // No numbers, no legend line.
        assert!(!Picture::new(&p).values(&[], "score").to_string().contains("score"));
    }

    #[test]
    fn the_output_does_not_depend_on_the_width() {
        let small = pos("a1 b2", 5);
        let mut wide = Position::<WideBitboard>::square(5).unwrap();
        wide.play("a1".parse().unwrap()).unwrap();
        wide.play("b2".parse().unwrap()).unwrap();
        let a = Picture::new(&small).line(&["c3".parse().unwrap()]).to_string();
        let b = Picture::new(&wide).line(&["c3".parse().unwrap()]).to_string();
        assert_eq!(a, b);
        assert_eq!(a, Picture::new(&small).line(&["c3".parse().unwrap()]).to_string());
    }
}
