//! Reading the `<position>` argument shared by the subcommands: a move list, an SGF file or a
//! board diagram (a file, standard input, or text with line breaks).

use std::io::IsTerminal;
use std::path::Path;

use crate::files;
use anyhow::{bail, Context};
use nash_board::{sgf, AnyPosition, BitSet, Diagram, Move, MoveList, MoveListError, Position};

/// A board size as `--size` gives it: `N` for N×N, or `CxR` (also `C:R`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardSize {
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
}

/// A `--size` that is not `N` or `CxR`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid board size {0:?}: expected N or CxR, as 11 or 6x7")]
pub struct BoardSizeSyntax(String);

impl std::str::FromStr for BoardSize {
    type Err = BoardSizeSyntax;

    /// Parses `N` or `CxR` (also `C:R`); the range is checked when the board is made, so that
    /// the error names the size in the board's own words.
    fn from_str(s: &str) -> Result<BoardSize, BoardSizeSyntax> {
        let bad = || BoardSizeSyntax(s.to_owned());
        let (cols, rows) = match s.split_once(['x', 'X', ':']) {
            Some((c, r)) => {
                (c.trim().parse().map_err(|_| bad())?, r.trim().parse().map_err(|_| bad())?)
            }
            None => {
                let n = s.trim().parse().map_err(|_| bad())?;
                (n, n)
            }
        };
        Ok(BoardSize { cols, rows })
    }
}

impl std::fmt::Display for BoardSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

/// How a command receives its position.
#[derive(Debug, Clone, clap::Args)]
pub struct PositionArgs {
    /// A move list ("b3 swap-pieces c3"), an SGF file, a diagram file, diagram or SGF text, or
    /// `-` for standard input (any of these forms; the empty board when standard input is a
    /// terminal or empty). Without it: the empty board of `--size`.
    pub position: Option<String>,
    /// Board size for move lists and the empty board: N for N×N, or CxR for C columns and R
    /// rows.
    #[arg(long, short, default_value = "7", value_name = "N|CxR")]
    pub size: BoardSize,
}

/// What the position argument turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A move list played from the empty board of `--size`.
    Moves,
    /// An SGF game record.
    Sgf,
    /// A board diagram.
    Diagram,
}

/// Loads the position the arguments describe.
pub fn load(args: &PositionArgs) -> anyhow::Result<AnyPosition> {
    load_upto(args, None).map(|(pos, _)| pos)
}

/// A loaded position with what it was read from.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The position.
    pub pos: AnyPosition,
    /// The form it was written in.
    pub source: Source,
    /// An SGF record's root properties (`PB`, `PW`, `RE`, `EV`, `SO`, …), to write back out.
    pub properties: Vec<(String, String)>,
    /// The colour that resigned in the moves replayed, which the position does not show.
    pub resigned: Option<nash_board::Color>,
}

impl Loaded {
    fn new(pos: AnyPosition, source: Source) -> Loaded {
        Loaded { pos, source, properties: Vec::new(), resigned: None }
    }
}

/// Loads the position the arguments describe; for a game record, only its first `upto` moves
/// are played (all when `None`).
pub fn load_upto(
    args: &PositionArgs,
    upto: Option<usize>,
) -> anyhow::Result<(AnyPosition, Source)> {
    load_game(args, upto).map(|l| (l.pos, l.source))
}

/// [`load_upto`], keeping an SGF record's root properties.
pub fn load_game(args: &PositionArgs, upto: Option<usize>) -> anyhow::Result<Loaded> {
    match args.position.as_deref() {
        None => load_text("-", args.size, upto),
        Some("-") => {
            let stdin = std::io::stdin();
            if stdin.is_terminal() {
                return load_text("-", args.size, upto);
            }
            let text =
                files::read_text_bounded(stdin.lock(), "standard input", files::POSITION_LIMIT)?;
            if strip_bom(&text).trim().is_empty() {
                return load_text("-", args.size, upto);
            }
            from_contents(&text, args.size, upto, false).context("standard input")
        }
        Some(text) => load_text(text, args.size, upto),
    }
}

/// Loads a position written as the `<position>` argument is (but not `-` for standard input:
/// here `-` is the empty move list, as in batch files).
pub fn load_text(text: &str, size: BoardSize, upto: Option<usize>) -> anyhow::Result<Loaded> {
    let text = strip_bom(text);
    if looks_like_sgf(text) {
        return from_sgf(text, upto);
    }
    if text.contains('\n') {
        return from_diagram(text).map(|p| Loaded::new(p, Source::Diagram));
    }
    let path = Path::new(text);
    // Move lists hold only cell names, swap words and separators: anything with a dot or a
    // slash is meant as a file, and a missing one is reported as such.
    if path.is_file() || text.contains(['.', '/', '\\']) {
        let contents = files::read_text(path, files::POSITION_LIMIT)?;
        let is_sgf = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
        let loaded = from_contents(&contents, size, upto, is_sgf);
        return loaded.with_context(|| path.display().to_string());
    }
    from_moves(text, size, upto).map(|p| Loaded::new(p, Source::Moves))
}

/// The position of a file's (or standard input's) contents: SGF if it starts with `(` (or
/// `sgf` says so), a move list if it is one line that reads as one, a board diagram
/// otherwise.
fn from_contents(
    contents: &str,
    size: BoardSize,
    upto: Option<usize>,
    sgf: bool,
) -> anyhow::Result<Loaded> {
    let contents = strip_bom(contents);
    if sgf || looks_like_sgf(contents) {
        return from_sgf(contents, upto);
    }
    let line = contents.trim();
    if !line.is_empty() && !line.contains('\n') && line.parse::<MoveList>().is_ok() {
        return from_moves(line, size, upto).map(|p| Loaded::new(p, Source::Moves));
    }
    from_diagram(contents).map(|p| Loaded::new(p, Source::Diagram))
}

/// Text editors on some systems start a UTF-8 file with a byte order mark; it is not part of
/// any of the formats.
fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

fn from_moves(text: &str, size: BoardSize, upto: Option<usize>) -> anyhow::Result<AnyPosition> {
    let empty = AnyPosition::new(size.cols, size.rows)?;
    let moves: MoveList = text.parse()?;
    // The whole list must be one game, also when `--move N` shows only its start.
    let mut pos = empty.clone();
    nash_board::with_position!(&mut pos, p => play_game(&moves, p))?;
    if let Some(n) = upto {
        pos = empty;
        let start = MoveList(moves.0.into_iter().take(n).collect());
        nash_board::with_position!(&mut pos, p => play_game(&start, p))?;
    }
    Ok(pos)
}

/// Plays a move list as a game: `resign` ends it without changing the position, and a move
/// after one player has connected, or after a resignation, is refused with its number, as an
/// impossible move is.
fn play_game<B: BitSet>(moves: &MoveList, p: &mut Position<B>) -> anyhow::Result<()> {
    let mut resigned = None;
    for (i, &mv) in moves.0.iter().enumerate() {
        let number = i + 1;
        if let Some(w) = p.winner() {
            bail!("move {number} ({mv}): the game is over: {w} has won");
        }
        if let Some(loser) = resigned {
            bail!("move {number} ({mv}): the game is over: {loser} resigned");
        }
        if mv == Move::Resign {
            // The end of the game; the position stays as it is.
            resigned = Some(p.to_move());
            continue;
        }
        p.apply(mv).map_err(|reason| MoveListError { number, mv, reason })?;
    }
    Ok(())
}

/// SGF text starts with a game tree, possibly after blank lines.
fn looks_like_sgf(text: &str) -> bool {
    text.trim_start().starts_with('(')
}

fn from_sgf(text: &str, upto: Option<usize>) -> anyhow::Result<Loaded> {
    let record = sgf::parse(text)?;
    nash_htp::sgf::check_game_end(&record)?;
    let pos = record.any_position(upto)?;
    let mut played = record.moves.iter().take(upto.unwrap_or(usize::MAX));
    let resigned = played.find(|&&(_, m)| m == nash_board::Move::Resign).map(|&(c, _)| c);
    Ok(Loaded { pos, source: Source::Sgf, properties: record.properties, resigned })
}

fn from_diagram(text: &str) -> anyhow::Result<AnyPosition> {
    let d: Diagram = text.parse()?;
    Ok(AnyPosition::from_diagram(&d)?)
}

/// An I/O error's message with a lowercase first letter, as the house style wants.
pub fn lowercase_first(e: &std::io::Error) -> String {
    let s = e.to_string();
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => s,
    }
}
