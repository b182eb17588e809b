//! Reading the `<position>` argument shared by the subcommands: a move list, an SGF file or a
//! board diagram (a file, or text with line breaks).

use std::path::Path;

use anyhow::{anyhow, Context};
use nash_board::{sgf, AnyPosition, Diagram, MoveList};

/// The sample position shown when none is given: a 6×6 opening.
pub const DEFAULT_MOVES: &str = "c4 d3";
/// The default board side for move lists.
pub const DEFAULT_SIZE: &str = "6";

/// How a command receives its position.
#[derive(Debug, Clone, clap::Args)]
pub struct PositionArgs {
    /// A move list ("a1 b2 swap-pieces c3", "-" for none), an SGF file, a diagram file, or
    /// diagram or SGF text. Defaults to a sample 6x6 position (`solve`: the empty
    /// board).
    pub position: Option<String>,
    /// Board size for move lists: N for N×N, or CxR for C columns and R rows [default: 6;
    /// `solve` without a position: 7].
    #[arg(long, short)]
    pub size: Option<String>,
}

/// Parses `N` or `CxR` (also `C:R`).
pub fn parse_size(s: &str) -> anyhow::Result<(usize, usize)> {
    let bad = || anyhow!("invalid board size {s:?}: expected N or CxR, as 11 or 6x7");
    let (c, r) = match s.split_once(['x', 'X', ':']) {
        Some((c, r)) => {
            (c.trim().parse().map_err(|_| bad())?, r.trim().parse().map_err(|_| bad())?)
        }
        None => {
            let n = s.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    Ok((c, r))
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

/// Loads the position the arguments describe; for a game record, only its first `upto` moves
/// are played (all when `None`).
pub fn load_upto(
    args: &PositionArgs,
    upto: Option<usize>,
) -> anyhow::Result<(AnyPosition, Source)> {
    let text = args.position.as_deref().unwrap_or(DEFAULT_MOVES);
    if looks_like_sgf(text) {
        return from_sgf(text, upto).map(|p| (p, Source::Sgf));
    }
    if text.contains('\n') {
        return from_diagram(text).map(|p| (p, Source::Diagram));
    }
    let path = Path::new(text);
    // Move lists hold only cell names, swap words and separators: anything with a dot or a
    // slash is meant as a file, and a missing one is reported as such.
    if path.is_file() || text.contains(['.', '/', '\\']) {
        let contents = std::fs::read_to_string(path)
            .map_err(|e| anyhow!("cannot read {}: {}", path.display(), lowercase_first(&e)))?;
        let is_sgf = looks_like_sgf(&contents)
            || path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf"));
        let loaded = if is_sgf {
            from_sgf(&contents, upto).map(|p| (p, Source::Sgf))
        } else {
            from_diagram(&contents).map(|p| (p, Source::Diagram))
        };
        return loaded.with_context(|| path.display().to_string());
    }
    let (cols, rows) = parse_size(args.size.as_deref().unwrap_or(DEFAULT_SIZE))?;
    let mut pos = AnyPosition::new(cols, rows)?;
    let moves: MoveList = text.parse()?;
    let moves = match upto {
        Some(n) => MoveList(moves.0.into_iter().take(n).collect()),
        None => moves,
    };
    nash_board::with_position!(&mut pos, p => moves.play_on(p))?;
    Ok((pos, Source::Moves))
}

/// SGF text starts with a game tree, possibly after blank lines.
fn looks_like_sgf(text: &str) -> bool {
    text.trim_start().starts_with('(')
}

fn from_sgf(text: &str, upto: Option<usize>) -> anyhow::Result<AnyPosition> {
    let record = sgf::parse(text)?;
    Ok(record.any_position(upto)?)
}

fn from_diagram(text: &str) -> anyhow::Result<AnyPosition> {
    let d: Diagram = text.parse()?;
    Ok(AnyPosition::from_diagram(&d)?)
}

/// An I/O error's message with a lowercase first letter, as the house style wants.
fn lowercase_first(e: &std::io::Error) -> String {
    let s = e.to_string();
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => s,
    }
}
