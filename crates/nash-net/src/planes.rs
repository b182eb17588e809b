//! The net's input: a position as feature planes over a grid with the board's edges drawn in.
//!
//! The side to move is normalised away. When White is to move the board is transposed
//! (column <-> row) and the colours swapped, so the net always plays the side that connects top
//! and bottom; a [`Frame`] records the change and maps the net's outputs back to the board.
//!
//! The N×M board (N columns, M rows, as the net sees it) sits in an (M+2)×(N+2) grid with a
//! one-cell ring: the ring's top and bottom rows hold stones of the side to move and its left
//! and right columns stones of the opponent (the four corners stay empty). The edges are then
//! just stones, and a 3×3 convolution sees a border cell's edge as it sees any neighbour; this
//! is how Gao, Hayward and Müller (2017) fed the board to MoHex-CNN. Planes are stored plane by
//! plane, each row by row over the grid.
//!
//! Planes of [`PlaneSet::Basic`]: own stones, opponent stones, empty board cells.
//! [`PlaneSet::Bridges`] adds, for the side to move and then for the opponent, the cells that
//! would form a new bridge with one of its stones (both carrier cells empty), the carrier cells
//! of its intact bridges, and the cell that saves a bridge the other side has intruded into
//! (the bridge patterns of the same paper; grid stones count, so a ring stone anchors too).

use nash_board::{BitSet, Cell, Color, Position};

use crate::sample::Sample;
use crate::NetError;

/// The largest board side the net takes (the widest bitboard's).
pub const MAX_SIDE: usize = nash_board::MAX_SIDE;

/// The most grid cells of any board: a `MAX_SIDE` square and its ring.
pub const MAX_PIXELS: usize = (MAX_SIDE + 2) * (MAX_SIDE + 2);

/// Which input planes a net reads; its id is stored in the weights file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PlaneSet {
    /// Own stones, opponent stones, empty board cells.
    Basic,
    /// [`PlaneSet::Basic`] and per side the bridge-forming cells, the carriers of intact
    /// bridges and the cells that save an intruded bridge.
    Bridges,
}

impl PlaneSet {
    /// Every plane set, by id.
    pub const ALL: [PlaneSet; 2] = [PlaneSet::Basic, PlaneSet::Bridges];

    /// The id stored in a weights file.
    pub const fn id(self) -> u8 {
        match self {
            PlaneSet::Basic => 1,
            PlaneSet::Bridges => 2,
        }
    }

    /// The plane set of a stored id.
    pub fn from_id(id: u8) -> Option<PlaneSet> {
        PlaneSet::ALL.into_iter().find(|p| p.id() == id)
    }

    /// The number of planes.
    pub const fn count(self) -> usize {
        match self {
            PlaneSet::Basic => 3,
            PlaneSet::Bridges => 9,
        }
    }

    /// The name on the command line (`basic`, `bridges`).
    pub const fn name(self) -> &'static str {
        match self {
            PlaneSet::Basic => "basic",
            PlaneSet::Bridges => "bridges",
        }
    }
}

impl std::str::FromStr for PlaneSet {
    type Err = String;

    fn from_str(s: &str) -> Result<PlaneSet, String> {
        PlaneSet::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown plane set {s:?}: expected basic or bridges"))
    }
}

/// How a board is laid in the net's grid: the board's size as the net sees it and whether it
/// was transposed (White to move).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Frame {
    /// The board's columns.
    pub board_cols: usize,
    /// The board's rows.
    pub board_rows: usize,
    /// Whether the board was transposed to put the side to move on top and bottom.
    pub transposed: bool,
}

impl Frame {
    /// The frame of a `cols`×`rows` board with `to_move` to play.
    pub fn new(cols: usize, rows: usize, to_move: Color) -> Frame {
        Frame { board_cols: cols, board_rows: rows, transposed: to_move == Color::White }
    }

    /// Columns of the board as the net sees it.
    pub fn cols(&self) -> usize {
        if self.transposed {
            self.board_rows
        } else {
            self.board_cols
        }
    }

    /// Rows of the board as the net sees it.
    pub fn rows(&self) -> usize {
        if self.transposed {
            self.board_cols
        } else {
            self.board_rows
        }
    }

    /// Grid width: the net's columns and the ring.
    pub fn width(&self) -> usize {
        self.cols() + 2
    }

    /// Grid height: the net's rows and the ring.
    pub fn height(&self) -> usize {
        self.rows() + 2
    }

    /// Grid cells.
    pub fn pixels(&self) -> usize {
        self.width() * self.height()
    }

    /// Board cells.
    pub fn cells(&self) -> usize {
        self.board_cols * self.board_rows
    }

    /// The grid index of board cell `(col, row)` (board coordinates).
    pub fn pixel_of(&self, col: usize, row: usize) -> usize {
        let (c, r) = if self.transposed { (row, col) } else { (col, row) };
        (r + 1) * self.width() + c + 1
    }

    /// The board cells' grid indices, in the board's order (`row * cols + col`): the map from
    /// the net's policy to the board's cells.
    pub fn board_pixels(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.board_rows)
            .flat_map(move |row| (0..self.board_cols).map(move |col| self.pixel_of(col, row)))
    }
}

/// A grid cell's content while the planes are built.
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const OPP: u8 = 2;
const OFF: u8 = 3;

/// The six bridge offsets `(dc, dr)` with their two carrier offsets: each is the sum of two
/// neighbouring directions, and those two are its carriers.
const BRIDGES: [[(isize, isize); 3]; 6] = [
    [(1, 1), (1, 0), (0, 1)],
    [(2, -1), (1, 0), (1, -1)],
    [(1, -2), (1, -1), (0, -1)],
    [(-1, -1), (-1, 0), (0, -1)],
    [(-2, 1), (-1, 0), (-1, 1)],
    [(-1, 2), (-1, 1), (0, 1)],
];

/// Writes the planes of a board into `out` (`set.count() * frame.pixels()` floats), with
/// `color_at(col, row)` giving each board cell's stone.
fn encode(
    frame: &Frame,
    set: PlaneSet,
    color_at: impl Fn(usize, usize) -> Option<Color>,
    out: &mut [f32],
) {
    let (w, h, n) = (frame.width(), frame.height(), frame.pixels());
    assert_eq!(out.len(), set.count() * n, "plane buffer of the wrong size");
    let mover = if frame.transposed { Color::White } else { Color::Black };
    let mut grid = [OFF; MAX_PIXELS];
    for y in 0..h {
        for x in 0..w {
            let (ring_y, ring_x) = (y == 0 || y == h - 1, x == 0 || x == w - 1);
            grid[y * w + x] = match (ring_y, ring_x) {
                (true, true) => OFF,
                (true, false) => OWN,
                (false, true) => OPP,
                (false, false) => {
                    let (c, r) = (x - 1, y - 1);
                    let (col, row) = if frame.transposed { (r, c) } else { (c, r) };
                    match color_at(col, row) {
                        None => EMPTY,
                        Some(c) if c == mover => OWN,
                        Some(_) => OPP,
                    }
                }
            };
        }
    }
    out.fill(0.0);
    for p in 0..n {
        match grid[p] {
            OWN => out[p] = 1.0,
            OPP => out[n + p] = 1.0,
            EMPTY => out[2 * n + p] = 1.0,
            _ => {}
        }
    }
    if set == PlaneSet::Bridges {
        let at = |x: usize, y: usize, (dx, dy): (isize, isize)| {
            let (x, y) = (x as isize + dx, y as isize + dy);
            (x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h)
                .then(|| y as usize * w + x as usize)
        };
        for y in 0..h {
            for x in 0..w {
                let p = y * w + x;
                let side = grid[p];
                if side != OWN && side != OPP {
                    continue;
                }
                let other = OWN + OPP - side;
                let base = if side == OWN { 3 } else { 6 } * n;
                for [d, c1, c2] in BRIDGES {
                    let (Some(q), Some(a), Some(b)) = (at(x, y, d), at(x, y, c1), at(x, y, c2))
                    else {
                        continue;
                    };
                    let (gq, ga, gb) = (grid[q], grid[a], grid[b]);
                    if gq == EMPTY && ga == EMPTY && gb == EMPTY {
                        out[base + q] = 1.0;
                    } else if gq == side {
                        if ga == EMPTY && gb == EMPTY {
                            out[base + n + a] = 1.0;
                            out[base + n + b] = 1.0;
                        } else if ga == EMPTY && gb == other {
                            out[base + 2 * n + a] = 1.0;
                        } else if gb == EMPTY && ga == other {
                            out[base + 2 * n + b] = 1.0;
                        }
                    }
                }
            }
        }
    }
}

/// Writes the planes of `position` into `out` (`set.count() * frame.pixels()` floats) and
/// returns its frame. Does not allocate.
///
/// # Panics
/// If `out` has the wrong length for the position's frame.
pub fn encode_position<B: BitSet>(position: &Position<B>, set: PlaneSet, out: &mut [f32]) -> Frame {
    let frame = Frame::new(position.cols(), position.rows(), position.to_move());
    encode(&frame, set, |col, row| position.color_at(Cell::at(col as u8, row as u8)), out);
    frame
}

/// One training example: the planes of a sample and its targets, in the net's frame.
#[derive(Clone, Debug)]
pub struct Example {
    /// How the board lies in the grid.
    pub frame: Frame,
    /// The planes (`set.count() * frame.pixels()` floats).
    pub planes: Vec<f32>,
    /// Per grid cell, the share of the search's visits (zero off the board and on unvisited
    /// cells); sums to 1, or to 0 when the sample has no visits.
    pub policy: Vec<f32>,
    /// The value for the side to move: the solver's exact value when known, else the game's
    /// result; +1 a win, -1 a loss.
    pub value: f32,
}

/// The training example of `sample` with the planes of `set`.
pub fn from_sample(sample: &Sample, set: PlaneSet) -> Result<Example, NetError> {
    sample.check().map_err(|e| NetError::Sample(e.to_string()))?;
    let (cols, rows) = (sample.cols as usize, sample.rows as usize);
    if cols > MAX_SIDE || rows > MAX_SIDE {
        return Err(NetError::Sample(format!(
            "board {cols}x{rows} is larger than {MAX_SIDE}x{MAX_SIDE}"
        )));
    }
    let frame = Frame::new(cols, rows, sample.to_move());
    let mut planes = vec![0.0; set.count() * frame.pixels()];
    encode(&frame, set, |col, row| sample.color_at(col, row), &mut planes);
    let mut policy = vec![0.0; frame.pixels()];
    let total: u64 = sample.visits.iter().map(|m| u64::from(m.visits)).sum();
    if total > 0 {
        for m in &sample.visits {
            policy[frame.pixel_of(m.col as usize, m.row as usize)] +=
                m.visits as f32 / total as f32;
        }
    }
    let win = sample.exact.unwrap_or(sample.won);
    Ok(Example { frame, planes, policy, value: if win { 1.0 } else { -1.0 } })
}

/// The sample turned by 180°, the symmetry every Hex board has (each player keeps its edges):
/// the same game seen the other way up, for augmenting the training set.
pub fn rotated(sample: &Sample) -> Sample {
    let (cols, rows) = (sample.cols as usize, sample.rows as usize);
    let mut out = sample.clone();
    for row in 0..rows {
        for col in 0..cols {
            out.cells[(rows - 1 - row) * cols + (cols - 1 - col)] = sample.cells[row * cols + col];
        }
    }
    for m in &mut out.visits {
        m.col = sample.cols - 1 - m.col;
        m.row = sample.rows - 1 - m.row;
    }
    out
}

#[cfg(test)]
mod tests {
    use nash_board::{Bitboard, Geometry, SmallPosition};

    use super::*;

    /// The planes of a diagram position, as one text grid per plane (`#` set, `.` clear).
    fn planes_text(diagram: &str, set: PlaneSet) -> Vec<String> {
        let pos: SmallPosition = diagram.parse().unwrap();
        let frame = Frame::new(pos.cols(), pos.rows(), pos.to_move());
        let mut out = vec![0.0; set.count() * frame.pixels()];
        encode_position(&pos, set, &mut out);
        out.chunks(frame.pixels())
            .map(|plane| {
                plane
                    .chunks(frame.width())
                    .map(|row| row.iter().map(|&v| if v > 0.5 { '#' } else { '.' }).collect())
                    .collect::<Vec<String>>()
                    .join("\n")
            })
            .collect()
    }

    #[test]
    fn the_ring_holds_the_edges_of_the_side_to_move() {
        // Black to move: own stones on top and bottom.
        let p = planes_text(
            "   a  b  c\n1  .  B  .  1\n2  .  W  .  2\n3  .  .  .  3\n",
            PlaneSet::Basic,
        );
        assert_eq!(p[0], ".###.\n..#..\n.....\n.....\n.###.");
        assert_eq!(p[1], ".....\n#...#\n#.#.#\n#...#\n.....");
        assert_eq!(p[2], ".....\n.#.#.\n.#.#.\n.###.\n.....");
    }

    #[test]
    fn white_to_move_is_transposed_with_colours_swapped() {
        // 3x2 board, White to move: the net sees a 2x3 board with White's a2 as its own.
        let mut pos = SmallPosition::new(3, 2).unwrap();
        pos.play("b1".parse().unwrap()).unwrap();
        pos.play("a2".parse().unwrap()).unwrap();
        pos.play("c2".parse().unwrap()).unwrap();
        assert_eq!(pos.to_move(), Color::White);
        let frame = Frame::new(3, 2, Color::White);
        assert_eq!((frame.cols(), frame.rows()), (2, 3));
        let mut out = vec![0.0; 3 * frame.pixels()];
        encode_position(&pos, PlaneSet::Basic, &mut out);
        // Own (White) a2 -> net (col 1, row 0); opponent b1 -> net (0, 1), c2 -> net (1, 2).
        let w = frame.width();
        let own: Vec<usize> = (0..frame.pixels()).filter(|&p| out[p] > 0.5).collect();
        let opp: Vec<usize> =
            (0..frame.pixels()).filter(|&p| out[frame.pixels() + p] > 0.5).collect();
        assert!(own.contains(&(w + 2)));
        assert!(opp.contains(&(2 * w + 1)) && opp.contains(&(3 * w + 2)));
        assert_eq!(frame.pixel_of(0, 1), w + 2);
        assert_eq!(frame.pixel_of(1, 0), 2 * w + 1);
    }

    #[test]
    fn bridge_planes() {
        // Black's b1 and a3 make a bridge over a2 and b2; White has taken b2, so a2 saves it.
        let p = planes_text(
            "   a  b  c  d\n1  .  B  .  W  1\n2  .  W  .  .  2\n3  B  .  B  .  3\n4  .  .  .  W  4\n",
            PlaneSet::Bridges,
        );
        // Black's save-bridge plane: a2 only.
        assert_eq!(p[5], "......\n......\n.#....\n......\n......\n......");
        // Black's only intact bridge is c3's to the bottom ring (the second-row edge
        // template), over b4 and c4.
        assert_eq!(p[4], "......\n......\n......\n......\n..##..\n......");
    }

    #[test]
    fn bridge_offsets_match_the_board_geometry() {
        let g = Geometry::<Bitboard>::get(7, 7).unwrap();
        let centre = Cell::at(3, 3);
        for [d, c1, c2] in BRIDGES {
            let cell = |(dc, dr): (isize, isize)| Cell::at((3 + dc) as u8, (3 + dr) as u8);
            let (q, a, b) = (cell(d), cell(c1), cell(c2));
            let n = g.neighbours(centre);
            assert!(n.contains(a) && n.contains(b) && !n.contains(q));
            assert!(g.neighbours(q).contains(a) && g.neighbours(q).contains(b));
            assert!(g.neighbours(a).contains(b));
        }
    }

    #[test]
    fn samples_round_trip_and_rotate() {
        let pos: SmallPosition =
            "   a  b  c\n1  .  B  .  1\n2  .  .  .  2\n3  .  .  .  3\n".parse().unwrap();
        let c3: Cell = "c3".parse().unwrap();
        let a2: Cell = "a2".parse().unwrap();
        let s = Sample::new(&pos, &[(c3, 3), (a2, 1)], false, Some(true), 7, 1);
        let ex = from_sample(&s, PlaneSet::Bridges).unwrap();
        assert_eq!(ex.value, 1.0);
        assert!(ex.frame.transposed);
        assert!((ex.policy[ex.frame.pixel_of(2, 2)] - 0.75).abs() < 1e-6);
        assert!((ex.policy.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        let r = rotated(&s);
        assert_eq!(r.color_at(1, 2), Some(Color::Black));
        assert_eq!((r.visits[0].col, r.visits[0].row), (0, 0));
        assert_eq!(rotated(&r), s);
        let mut planes = vec![0.0; ex.planes.len()];
        encode_position(&s.position::<Bitboard>().unwrap(), PlaneSet::Bridges, &mut planes);
        assert_eq!(planes, ex.planes);
    }

    #[test]
    fn plane_set_ids_round_trip() {
        for p in PlaneSet::ALL {
            assert_eq!(PlaneSet::from_id(p.id()), Some(p));
            assert_eq!(p.name().parse::<PlaneSet>(), Ok(p));
        }
        assert_eq!(PlaneSet::from_id(0), None);
        assert!("magic".parse::<PlaneSet>().is_err());
    }
}
