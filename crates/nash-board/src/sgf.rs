//! SGF for Hex (`GM[11]`): reading and writing game records.
//!
//! The dialect is the one HexGui writes (FF\[4\] with `SZ[n]` or `SZ[cols:rows]`, cells such as
//! `a1` or `aa12`, `swap-pieces`, `swap-sides`, `resign`), plus what Little Golem writes: cells
//! as two letters (`B[cd]` is column c, row d: `c4`), `swap` for swap-pieces, and colours that
//! do not follow the Hex convention (its first move is `W`). In a Little Golem record the moves
//! are therefore recoloured by their order: the first is Black's and colours alternate, which
//! with swap-pieces semantics keeps the first player Black throughout. HexGui's
//! `swap-pieces` (the stone stays, the swapper's colour moves again) is read as
//! [`Move::SwapSides`]: the colour of the move after a swap tells the two conventions apart.
//!
//! Only the main line is read: the first game of a collection and the first variation at each
//! branch. The reader never panics; a malformed file gives an [`SgfError`] naming the property
//! and its value, or the line and column of a syntax error. `docs/formats.md` describes the
//! dialect in full.
//!
//! ```
//! use nash_board::{sgf, Bitboard, Color, Position};
//!
//! let record = sgf::parse("(;FF[4]GM[11]SZ[3]PB[alice];B[b2];W[a3])")?;
//! assert_eq!(record.property("PB"), Some("alice"));
//! let pos: Position<Bitboard> = record.position(None)?;
//! assert_eq!(pos.color_at("a3".parse()?), Some(Color::White));
//! assert_eq!(sgf::parse(&record.to_sgf())?, record);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::bitboard::{BitSet, Bitboard, WideBitboard};
use crate::cell::Cell;
use crate::color::Color;
use crate::moves::Move;
use crate::position::{PlayError, Position};
use crate::{fits_small, AnyPosition, MAX_SIDE};

/// A game record that cannot be read or replayed.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SgfError {
    /// The text is not SGF.
    #[error("sgf syntax error at line {line}, column {col}: {reason}")]
    Syntax {
        /// Line, from 1.
        line: usize,
        /// Column in characters, from 1.
        col: usize,
        /// What was expected.
        reason: String,
    },
    /// A property whose value makes no sense for Hex.
    #[error("sgf property {prop}[{value}]: {reason}")]
    Property {
        /// The property's identifier, such as `SZ`.
        prop: String,
        /// Its value (shortened, on one line).
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A move of the record that cannot be played.
    #[error("sgf move {number} ({color} {mv}): {reason}")]
    Move {
        /// The move's number, from 1.
        number: usize,
        /// The colour that plays it.
        color: Color,
        /// The move.
        mv: Move,
        /// Why it cannot be played.
        reason: PlayError,
    },
}

impl SgfError {
    fn property(prop: &str, value: &str, reason: impl Into<String>) -> SgfError {
        SgfError::Property { prop: prop.to_owned(), value: shorten(value), reason: reason.into() }
    }
}

/// A value fit for a one-line message: control characters become spaces, long text is cut.
fn shorten(value: &str) -> String {
    const MAX: usize = 40;
    let mut out: String =
        value.chars().take(MAX).map(|c| if c.is_control() { ' ' } else { c }).collect();
    if value.chars().count() > MAX {
        out.push('…');
    }
    out
}

/// A change of the board between moves, from a setup node inside the game (`AB`, `AW`, `AE`,
/// `PL`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Edit {
    /// A stone of this colour on the cell, replacing whatever was there (`AB`, `AW`).
    Place(Color, Cell),
    /// The cell emptied (`AE`).
    Clear(Cell),
    /// The side to move (`PL`).
    ToMove(Color),
}

/// The main line of an SGF game record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    /// Columns (the first number of `SZ`).
    pub cols: usize,
    /// Rows (the second number of `SZ`, or the first when there is one).
    pub rows: usize,
    /// Setup stones placed before the first move (`AB`, `AW` of the root and of the nodes
    /// before the first move), in file order; a later entry for the same cell replaces an
    /// earlier one.
    pub setup: Vec<(Color, Cell)>,
    /// The moves of the main line with their colours, in the Hex convention (Little Golem's
    /// colours already translated).
    pub moves: Vec<(Color, Move)>,
    /// The root node's other properties (`PB`, `PW`, `RE`, `AP`, …), one entry per value,
    /// unescaped. `FF`, `GM`, `SZ`, `PL` and the setup and move properties are not kept here.
    pub properties: Vec<(String, String)>,
    /// The side to move set before the first move (`PL`), if any; Black moves first otherwise.
    pub to_move: Option<Color>,
    /// Setup nodes inside the game: each edit with the number of moves played before it (at
    /// least one: setup before the first move is [`GameRecord::setup`]), in order (edits after
    /// the last move come last).
    pub edits: Vec<(usize, Edit)>,
}

impl GameRecord {
    /// An empty record for a board of this size.
    pub fn new(cols: usize, rows: usize) -> GameRecord {
        GameRecord {
            cols,
            rows,
            setup: Vec::new(),
            moves: Vec::new(),
            properties: Vec::new(),
            to_move: None,
            edits: Vec::new(),
        }
    }

    /// The first value of a root property, such as `PB`.
    pub fn property(&self, ident: &str) -> Option<&str> {
        self.properties.iter().find(|(k, _)| k == ident).map(|(_, v)| v.as_str())
    }

    /// The position after the first `upto` moves (all of them when `None`, or when `upto` is
    /// larger than the number of moves). Setup nodes that come before the next move are
    /// applied. Moves are played as [`Position::apply_as`] plays them, so the side to move is
    /// the opponent of the last mover unless a `PL` says otherwise; `resign` changes nothing
    /// but ends the game. A move after a win or a resignation is an [`SgfError::Move`] naming
    /// it ([`PlayError::GameOver`], [`PlayError::AfterResign`]).
    pub fn position<B: BitSet>(&self, upto: Option<usize>) -> Result<Position<B>, SgfError> {
        let size = || format!("{}:{}", self.cols, self.rows);
        let mut pos = Position::<B>::new(self.cols, self.rows)
            .map_err(|e| SgfError::property("SZ", &size(), e.to_string()))?;
        for &(color, cell) in &self.setup {
            self.check_cell(setup_ident(color), cell)?;
            place(&mut pos, color, cell);
        }
        if let Some(c) = self.to_move {
            pos.set_to_move(c);
        }
        let upto = upto.unwrap_or(self.moves.len()).min(self.moves.len());
        let mut edits = self.edits.iter().peekable();
        let mut resigned = None;
        for number in 0..=upto {
            while let Some(&(_, edit)) = edits.next_if(|(after, _)| *after <= number) {
                match edit {
                    Edit::Place(color, cell) => {
                        self.check_cell(setup_ident(color), cell)?;
                        place(&mut pos, color, cell);
                    }
                    Edit::Clear(cell) => {
                        self.check_cell("AE", cell)?;
                        pos.clear_cell(cell);
                    }
                    Edit::ToMove(color) => pos.set_to_move(color),
                }
            }
            if number == upto {
                break;
            }
            let (color, mv) = self.moves[number];
            let fail = |reason| SgfError::Move { number: number + 1, color, mv, reason };
            if let Some(winner) = pos.winner() {
                return Err(fail(PlayError::GameOver(winner)));
            }
            if let Some(loser) = resigned {
                return Err(fail(PlayError::AfterResign(loser)));
            }
            if mv == Move::Resign {
                resigned = Some(color);
                continue;
            }
            pos.apply_as(color, mv).map_err(fail)?;
        }
        Ok(pos)
    }

    /// [`GameRecord::position`] on the narrowest bitboard that holds the board.
    pub fn any_position(&self, upto: Option<usize>) -> Result<AnyPosition, SgfError> {
        if fits_small(self.cols, self.rows) {
            self.position::<Bitboard>(upto).map(AnyPosition::Small)
        } else {
            self.position::<WideBitboard>(upto).map(AnyPosition::Wide)
        }
    }

    fn check_cell(&self, prop: &str, cell: Cell) -> Result<(), SgfError> {
        if cell.is_edge() || cell.col() as usize >= self.cols || cell.row() as usize >= self.rows {
            let reason = format!("cell {cell} is not on the {}x{} board", self.cols, self.rows);
            return Err(SgfError::property(prop, &cell.to_string(), reason));
        }
        Ok(())
    }

    /// The record of a position: its setup stones, then the moves played since (with their
    /// colours), so that [`GameRecord::position`] gives the position back. When the history
    /// cannot be replayed as moves (fill-in steps), the stones are written as setup instead.
    pub fn from_position<B: BitSet>(pos: &Position<B>) -> GameRecord {
        let mut rec = GameRecord::new(pos.cols(), pos.rows());
        rec.properties.push(("AP".into(), format!("Nash:{}", env!("CARGO_PKG_VERSION"))));
        let mut base = pos.clone();
        while base.undo() {}
        let moves = pos.history();
        let mut replay = base.clone();
        // A history that goes on after a win would not read back: write it as setup instead.
        let replays =
            moves.iter().all(|&(c, m)| replay.winner().is_none() && replay.apply_as(c, m).is_ok())
                && replay.black() == pos.black()
                && replay.white() == pos.white();
        let (setup_from, moves) = if replays { (&base, moves) } else { (pos, Vec::new()) };
        for color in Color::ALL {
            rec.setup.extend(setup_from.stones(color).iter().map(|c| (color, c)));
        }
        if setup_from.to_move() != Color::Black {
            rec.to_move = Some(setup_from.to_move());
        }
        if replays && replay.to_move() != pos.to_move() {
            rec.edits.push((moves.len(), Edit::ToMove(pos.to_move())));
        }
        rec.moves = moves;
        rec
    }

    /// The same game in the swap convention of HexGui and Benzene, the form
    /// [`GameRecord::to_sgf`] writes. A board-transform swap ([`Move::SwapPieces`]: the stone
    /// mirrored into a white one, Black next) becomes a colour swap ([`Move::SwapSides`]: the
    /// stone stays, the swapper's colour moves again), and every move and edit after it is
    /// mirrored in the long diagonal with its colour exchanged, as are the winner of `RE` and
    /// the players' names, ranks and teams (`PB` becomes `PW`, and so on). Hex
    /// is the same game under that reflection with the colours exchanged, so both records
    /// describe one game; a record without a board-transform swap is returned unchanged.
    pub fn hexgui_form(&self) -> GameRecord {
        let mut rec = self.clone();
        let Some(i) = rec.moves.iter().position(|&(_, m)| m == Move::SwapPieces) else {
            return rec;
        };
        // A board-transform swap is only ever played on a square board.
        let n = u8::try_from(rec.cols).unwrap_or(u8::MAX);
        let mirror = |c: Cell| crate::geometry::map_cell(n, n, crate::Symmetry::Transpose, c);
        rec.moves[i].1 = Move::SwapSides;
        for (color, mv) in &mut rec.moves[i + 1..] {
            *color = !*color;
            if let Move::Cell(c) = *mv {
                *mv = Move::Cell(mirror(c));
            }
        }
        for (after, e) in &mut rec.edits {
            if *after > i {
                *e = match *e {
                    Edit::Place(c, cell) => Edit::Place(!c, mirror(cell)),
                    Edit::Clear(cell) => Edit::Clear(mirror(cell)),
                    Edit::ToMove(c) => Edit::ToMove(!c),
                };
            }
        }
        for (ident, value) in &mut rec.properties {
            // The players exchange colours at the swap: each name goes with its new colour.
            let swapped = match ident.as_str() {
                "PB" => Some("PW"),
                "PW" => Some("PB"),
                "BR" => Some("WR"),
                "WR" => Some("BR"),
                "BT" => Some("WT"),
                "WT" => Some("BT"),
                _ => None,
            };
            if let Some(other) = swapped {
                *ident = other.to_owned();
            }
            if ident == "RE" {
                flip_winner(value);
            }
        }
        rec
    }

    /// The record as SGF text (FF\[4\], GM\[11\], cells as `a1`, one node per move), in
    /// HexGui's swap convention ([`GameRecord::hexgui_form`]): a swap is written
    /// `swap-pieces` with the stone staying, as HexGui and Benzene write it, so that HexGui
    /// opens the file as the same game. (`swap-sides` is written only where the move after the
    /// swap is not the swapper's colour, or where a swap ends a record whose `AP` names neither
    /// HexGui nor Nash: there `swap-pieces` would read as the board-transform form.)
    pub fn to_sgf(&self) -> String {
        let rec = self.hexgui_form();
        rec.write_sgf()
    }

    fn write_sgf(&self) -> String {
        let mut out = String::new();
        out.push_str("(;FF[4]GM[11]");
        if self.cols == self.rows {
            let _ = write!(out, "SZ[{}]", self.cols);
        } else {
            let _ = write!(out, "SZ[{}:{}]", self.cols, self.rows);
        }
        for (ident, value) in &self.properties {
            let ident: String = ident.chars().filter(char::is_ascii_uppercase).collect();
            if ident.is_empty() || RESERVED.contains(&ident.as_str()) {
                continue;
            }
            let _ = write!(out, "{ident}[{}]", escape(value));
        }
        out.push('\n');
        // The setup goes in a node of its own after the root: HexGui ignores setup in the root.
        if !self.setup.is_empty() || self.to_move.is_some() {
            out.push(';');
            write_setup(&mut out, &self.setup);
            if let Some(c) = self.to_move {
                let _ = write!(out, "PL[{}]", c.letter());
            }
            out.push('\n');
        }
        let mut edits = self.edits.iter().peekable();
        for number in 0..=self.moves.len() {
            let mut here = Vec::new();
            while let Some(&(_, e)) = edits.next_if(|(after, _)| *after <= number) {
                here.push(e);
            }
            if !here.is_empty() {
                write_edits(&mut out, &here);
                out.push('\n');
            }
            if let Some(&(color, mv)) = self.moves.get(number) {
                // HexGui's `swap-pieces` keeps the stone, and the swapper's colour moves next.
                // A swap that ends the record reads so only where `AP` names the convention.
                let next = self.moves.get(number + 1).map(|&(c, _)| c);
                let hexgui_swap = mv == Move::SwapSides
                    && next.map_or(names_hexgui_convention(self), |c| c == color);
                if hexgui_swap {
                    let _ = write!(out, ";{}[swap-pieces]", color.letter());
                } else {
                    let _ = write!(out, ";{}[{mv}]", color.letter());
                }
                if number % 10 == 9 {
                    out.push('\n');
                }
            }
        }
        while out.ends_with('\n') {
            out.pop();
        }
        out.push_str(")\n");
        out
    }
}

/// The property that places stones of `color`.
fn setup_ident(color: Color) -> &'static str {
    match color {
        Color::Black => "AB",
        Color::White => "AW",
    }
}

/// Places a setup stone, replacing a stone of the other colour (SGF's `AB`/`AW` overwrite).
fn place<B: BitSet>(pos: &mut Position<B>, color: Color, cell: Cell) {
    match pos.color_at(cell) {
        Some(c) if c == color => {}
        Some(_) => {
            pos.clear_cell(cell);
            pos.setup(color, B::single(cell));
        }
        None => pos.setup(color, B::single(cell)),
    }
}

/// Properties the writer produces itself.
const RESERVED: [&str; 9] = ["FF", "GM", "SZ", "AB", "AW", "AE", "PL", "B", "W"];

/// Writes the setup stones, Black's then White's.
fn write_setup(out: &mut String, setup: &[(Color, Cell)]) {
    for color in Color::ALL {
        let mut cells = setup.iter().filter(|s| s.0 == color).peekable();
        if cells.peek().is_some() {
            out.push_str(setup_ident(color));
            for (_, cell) in cells {
                let _ = write!(out, "[{cell}]");
            }
        }
    }
}

/// Writes setup edits as nodes of their own, in order; a new node starts whenever a property
/// would repeat within one.
fn write_edits(out: &mut String, edits: &[Edit]) {
    let mut used: Vec<&str> = Vec::new();
    let mut current: Option<&str> = None;
    out.push(';');
    for e in edits {
        let (ident, value) = match *e {
            Edit::Place(Color::Black, c) => ("AB", c.to_string()),
            Edit::Place(Color::White, c) => ("AW", c.to_string()),
            Edit::Clear(c) => ("AE", c.to_string()),
            Edit::ToMove(c) => ("PL", c.letter().to_string()),
        };
        if current != Some(ident) || ident == "PL" {
            if used.contains(&ident) {
                out.push(';');
                used.clear();
            }
            used.push(ident);
            current = Some(ident);
            out.push_str(ident);
        }
        let _ = write!(out, "[{value}]");
    }
}

/// Escapes `]` and `\` in a property value.
fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sgf())
    }
}

impl FromStr for GameRecord {
    type Err = SgfError;

    fn from_str(s: &str) -> Result<GameRecord, SgfError> {
        parse(s)
    }
}

/// One node of the main line: its properties in file order, each with its values.
type Node = Vec<(String, Vec<String>)>;

/// The most nodes a record may have. A Hex game has at most one stone per cell plus a few
/// passes and a swap; the bound is far above any game and keeps a hostile file (millions of
/// empty nodes) from growing the reader's memory without end.
pub const MAX_NODES: usize = 1_000_000;

/// The most property values a record may have, over all its nodes: twice [`MAX_NODES`], so
/// that a record of the most nodes, each with its move, reads with its root's properties.
pub const MAX_VALUES: usize = 2 * MAX_NODES;

/// Reads the main line of the first game in `text`.
///
/// The nodes are read one at a time and each is interpreted before the next is read, so
/// memory is the record's, not the syntax tree's. A record of more than [`MAX_NODES`] nodes
/// or [`MAX_VALUES`] property values is refused as a syntax error at the node or value that
/// goes over.
pub fn parse(text: &str) -> Result<GameRecord, SgfError> {
    let mut reader = Reader::default();
    Lexer::new(text).main_line(|node| reader.node(&node))?;
    Ok(reader.finish())
}

/// A scanner over the text that keeps line and column for error messages.
struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    col: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer { chars: text.chars().peekable(), line: 1, col: 1 }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn error(&self, reason: impl Into<String>) -> SgfError {
        SgfError::Syntax { line: self.line, col: self.col, reason: reason.into() }
    }

    fn skip_space(&mut self) {
        while self.chars.peek().is_some_and(|c| c.is_whitespace()) {
            self.bump();
        }
    }

    /// Passes each node from the root down the first variation at each branch to `on_node`,
    /// in order. Parsing stops when the main line's innermost game tree closes, so later
    /// variations and games are not read.
    fn main_line(
        mut self,
        mut on_node: impl FnMut(Node) -> Result<(), SgfError>,
    ) -> Result<(), SgfError> {
        // Text before the first game tree (mail headers and the like) is skipped.
        loop {
            match self.chars.peek() {
                None => return Err(self.error("no game tree: expected '('")),
                Some('(') => break,
                Some(_) => {
                    self.bump();
                }
            }
        }
        self.bump();
        let mut node: Option<Node> = None;
        let (mut nodes, mut values) = (0usize, 0usize);
        loop {
            self.skip_space();
            let Some(&c) = self.chars.peek() else {
                return Err(self.error("unexpected end of text: game tree not closed with ')'"));
            };
            match c {
                ';' => {
                    if nodes == MAX_NODES {
                        return Err(self.error(format!("more than {MAX_NODES} nodes")));
                    }
                    self.bump();
                    nodes += 1;
                    if let Some(done) = node.replace(Vec::new()) {
                        on_node(done)?;
                    }
                }
                '(' => {
                    if node.is_none() {
                        return Err(self.error("a game tree must start with a node ';'"));
                    }
                    self.bump();
                }
                ')' => {
                    let Some(last) = node else {
                        return Err(self.error("empty game tree: expected ';'"));
                    };
                    return on_node(last);
                }
                c if c.is_ascii_alphabetic() => {
                    let (line, col) = (self.line, self.col);
                    if node.is_none() {
                        return Err(self.error(format!("property {c:?} before the first node ';'")));
                    }
                    let mut raw = String::new();
                    while let Some(&c) = self.chars.peek().filter(|c| c.is_ascii_alphabetic()) {
                        raw.push(c);
                        self.bump();
                    }
                    // FF[3] allowed lowercase letters in identifiers, to be ignored
                    // (`AddBlack` is `AB`); an all-lowercase identifier is taken as written.
                    let mut ident: String = raw.chars().filter(char::is_ascii_uppercase).collect();
                    if ident.is_empty() {
                        ident = raw.to_ascii_uppercase();
                    }
                    let mut vals = Vec::new();
                    loop {
                        self.skip_space();
                        if self.chars.peek() != Some(&'[') {
                            break;
                        }
                        if values == MAX_VALUES {
                            return Err(
                                self.error(format!("more than {MAX_VALUES} property values"))
                            );
                        }
                        self.bump();
                        values += 1;
                        vals.push(self.value(&raw, line, col)?);
                    }
                    if vals.is_empty() {
                        return Err(self.error(format!("property {raw} has no value")));
                    }
                    if let Some(n) = node.as_mut() {
                        n.push((ident, vals));
                    }
                }
                c => return Err(self.error(format!("unexpected character {c:?}"))),
            }
        }
    }

    /// A property value after its `[`, unescaped: `\` keeps the next character, and a `\`
    /// before a line break removes both (a soft line break).
    fn value(&mut self, prop: &str, line: usize, col: usize) -> Result<String, SgfError> {
        let mut v = String::new();
        loop {
            match self.bump() {
                None => {
                    return Err(SgfError::Syntax {
                        line,
                        col,
                        reason: format!("value of property {prop} is not closed with ']'"),
                    })
                }
                Some(']') => return Ok(v),
                Some('\\') => match self.bump() {
                    Some('\r') if self.chars.peek() == Some(&'\n') => {
                        self.bump();
                    }
                    Some('\n') if self.chars.peek() == Some(&'\r') => {
                        self.bump();
                    }
                    Some('\r' | '\n') | None => {}
                    Some(c) => v.push(c),
                },
                Some(c) => v.push(c),
            }
        }
    }
}

/// What a cell or move value was written as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// `a1`, `swap-pieces`: the Hex dialect.
    Hex,
    /// `cd`, `swap`: Little Golem's.
    LittleGolem,
}

/// Reads a cell of a `cols`×`rows` board.
fn parse_cell(
    prop: &str,
    value: &str,
    cols: usize,
    rows: usize,
) -> Result<(Cell, Style), SgfError> {
    let v = value.trim().to_ascii_lowercase();
    let (cell, style) = if v.len() == 2 && v.bytes().all(|b| b.is_ascii_lowercase()) {
        let b = v.as_bytes();
        (Cell::at(b[0] - b'a', b[1] - b'a'), Style::LittleGolem)
    } else {
        match v.parse::<Cell>() {
            Ok(c) if !c.is_edge() => (c, Style::Hex),
            _ => return Err(SgfError::property(prop, value, "expected a cell such as a1 or cd")),
        }
    };
    if cell.col() as usize >= cols || cell.row() as usize >= rows {
        let reason = format!("cell {cell} is not on the {cols}x{rows} board");
        return Err(SgfError::property(prop, value, reason));
    }
    Ok((cell, style))
}

/// Reads the value of a `B` or `W` property.
fn parse_move(
    prop: &str,
    value: &str,
    cols: usize,
    rows: usize,
) -> Result<(Move, Style), SgfError> {
    Ok(match value.trim().to_ascii_lowercase().as_str() {
        "swap-pieces" => (Move::SwapPieces, Style::Hex),
        "swap-sides" => (Move::SwapSides, Style::Hex),
        "swap" => (Move::SwapPieces, Style::LittleGolem),
        "resign" => (Move::Resign, Style::Hex),
        "pass" | "" => (Move::Pass, Style::Hex),
        _ => {
            let (cell, style) = parse_cell(prop, value, cols, rows)?;
            (Move::Cell(cell), style)
        }
    })
}

fn parse_size(value: &str) -> Result<(usize, usize), SgfError> {
    let bad = |reason: &str| SgfError::property("SZ", value, reason);
    let number = |s: &str| s.trim().parse::<usize>().map_err(|_| bad("expected N or COLS:ROWS"));
    let (cols, rows) = match value.split_once(':') {
        Some((c, r)) => (number(c)?, number(r)?),
        None => {
            let n = number(value)?;
            (n, n)
        }
    };
    if cols == 0 || rows == 0 || cols > MAX_SIDE || rows > MAX_SIDE {
        return Err(bad(&format!("columns and rows must be 1 to {MAX_SIDE}")));
    }
    Ok((cols, rows))
}

fn parse_color(prop: &str, value: &str) -> Result<Color, SgfError> {
    value.trim().parse().map_err(|_| SgfError::property(prop, value, "expected B or W"))
}

/// The record built node by node as the lexer reads them.
struct Reader {
    rec: GameRecord,
    little_golem: bool,
    /// Whether the next node is the root.
    at_root: bool,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader { rec: GameRecord::new(11, 11), little_golem: false, at_root: true }
    }
}

impl Reader {
    /// Reads the root's board size and dialect first: the cells of every node depend on them.
    fn root(&mut self, root: &Node) -> Result<(), SgfError> {
        let (mut cols, mut rows) = (11, 11);
        for (ident, values) in root {
            match ident.as_str() {
                "GM" => {
                    let v = &values[0];
                    if v.trim() != "11" {
                        return Err(SgfError::property("GM", v, "not a Hex game (Hex is GM[11])"));
                    }
                }
                "SZ" => (cols, rows) = parse_size(&values[0])?,
                "SO" | "EV" => {
                    self.little_golem |=
                        values.iter().any(|v| v.to_ascii_lowercase().contains("littlegolem"))
                }
                _ => {}
            }
        }
        self.rec = GameRecord::new(cols, rows);
        Ok(())
    }

    fn node(&mut self, node: &Node) -> Result<(), SgfError> {
        let in_root = std::mem::replace(&mut self.at_root, false);
        if in_root {
            self.root(node)?;
        }
        let (cols, rows) = (self.rec.cols, self.rec.rows);
        let rec = &mut self.rec;
        // Setup before the first move is the record's setup, in the root or in the nodes
        // after it (where HexGui reads it, and Nash writes it).
        let initial = in_root || rec.moves.is_empty();
        for (ident, values) in node {
            match ident.as_str() {
                "AB" | "AW" | "AE" => {
                    for v in values {
                        let (cell, style) = parse_cell(ident, v, cols, rows)?;
                        self.little_golem |= style == Style::LittleGolem;
                        let edit = match ident.as_str() {
                            "AB" => Edit::Place(Color::Black, cell),
                            "AW" => Edit::Place(Color::White, cell),
                            _ => Edit::Clear(cell),
                        };
                        match edit {
                            // A later stone on a cell replaces the earlier one, so the root's
                            // setup holds each cell once.
                            Edit::Place(c, cell) if initial => {
                                rec.setup.retain(|s| s.1 != cell);
                                rec.setup.push((c, cell));
                            }
                            // AE before the first move: nothing to clear but setup stones.
                            Edit::Clear(cell) if initial => rec.setup.retain(|s| s.1 != cell),
                            _ => rec.edits.push((rec.moves.len(), edit)),
                        }
                    }
                }
                "PL" => {
                    let color = parse_color(ident, &values[0])?;
                    if initial {
                        rec.to_move = Some(color);
                    } else {
                        rec.edits.push((rec.moves.len(), Edit::ToMove(color)));
                    }
                }
                "SZ" | "GM" if !in_root => {
                    return Err(SgfError::property(
                        ident,
                        &values[0],
                        "only allowed in the root node",
                    ))
                }
                _ => {}
            }
        }
        // Moves after setup, whatever their order in the node.
        for (ident, values) in node {
            let color = match ident.as_str() {
                "B" => Color::Black,
                "W" => Color::White,
                _ => continue,
            };
            for v in values {
                let (mv, style) = parse_move(ident, v, cols, rows)?;
                self.little_golem |= style == Style::LittleGolem;
                rec.moves.push((color, mv));
            }
        }
        if in_root {
            for (ident, values) in node {
                if !RESERVED.contains(&ident.as_str()) {
                    rec.properties.extend(values.iter().map(|v| (ident.clone(), v.clone())));
                }
            }
        }
        Ok(())
    }

    fn finish(self) -> GameRecord {
        let mut rec = self.rec;
        if self.little_golem
            && rec.setup.is_empty()
            && rec.edits.is_empty()
            && rec.to_move.is_none()
        {
            // Little Golem's first player is written W; in Hex terms the first mover is Black.
            // Its `RE` names the winner by the letters of the moves, so it changes with them.
            // A record that starts with Black (one Nash wrote back, keeping `SO`) is already
            // in Hex colours.
            let recoloured = rec.moves.first().is_some_and(|&(c, _)| c == Color::White);
            if recoloured {
                for (i, (color, _)) in rec.moves.iter_mut().enumerate() {
                    *color = if i % 2 == 0 { Color::Black } else { Color::White };
                }
                for (ident, value) in &mut rec.properties {
                    if ident == "RE" {
                        flip_winner(value);
                    }
                }
            }
        }
        read_swap_convention(&mut rec);
        rec
    }
}

/// Exchanges the winner's colour at the start of an `RE` value (`B+R` becomes `W+R`); other
/// values (`0`, `Void`, `?`) stay.
fn flip_winner(value: &mut String) {
    let flipped = match value.chars().next() {
        Some('B') => 'W',
        Some('W') => 'B',
        Some('b') => 'w',
        Some('w') => 'b',
        _ => return,
    };
    value.replace_range(..1, flipped.encode_utf8(&mut [0; 4]));
}

/// Whether the record's `AP` is HexGui or Nash, whose `swap-pieces` keeps the stone even when
/// no move follows it.
fn names_hexgui_convention(rec: &GameRecord) -> bool {
    rec.properties.iter().any(|(k, v)| {
        let app = v.trim_start().to_ascii_lowercase();
        k == "AP" && (app.starts_with("hexgui") || app.starts_with("nash"))
    })
}

/// `swap-pieces` has two meanings in game records. HexGui and Benzene keep the black stone
/// where it is and let the swapper's opponent move next with White, so the swapper's colour
/// moves again: that is [`Move::SwapSides`]. The board-transform form mirrors the stone into a
/// white one and lets Black move next ([`Move::SwapPieces`]). A record says which by the colour
/// of the move after the swap; a swap that ends the record is HexGui's when `AP` names HexGui
/// or Nash (which writes that form, [`GameRecord::to_sgf`]), and the board-transform form
/// otherwise.
fn read_swap_convention(rec: &mut GameRecord) {
    let hexgui = names_hexgui_convention(rec);
    for i in 0..rec.moves.len() {
        let (color, mv) = rec.moves[i];
        if mv != Move::SwapPieces {
            continue;
        }
        let stone_stays = match rec.moves.get(i + 1) {
            Some(&(next, _)) => next == color,
            None => hexgui,
        };
        if stone_stays {
            rec.moves[i].1 = Move::SwapSides;
        }
    }
}
