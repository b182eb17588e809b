//! Reading the `<position>` argument shared by the subcommands: a move list, an SGF file or a
//! board diagram.

use std::path::Path;

use anyhow::{anyhow, bail, Context};
use nash_board::{AnyPosition, Diagram, MoveList};

/// The sample position shown when none is given: a 6×6 opening.
pub const DEFAULT_MOVES: &str = "c4 d3";
/// The default board side for move lists.
pub const DEFAULT_SIZE: &str = "6";

/// How a command receives its position.
#[derive(Debug, Clone, clap::Args)]
pub struct PositionArgs {
    /// A move list ("a1 b2 swap-pieces c3", "-" for none), an SGF file, a diagram file, or
    /// diagram text. Defaults to a sample 6x6 position.
    pub position: Option<String>,
    /// Board size for move lists: N for N×N, or CxR for C columns and R rows.
    #[arg(long, short, default_value = DEFAULT_SIZE)]
    pub size: String,
}

/// Parses `N` or `CxR`.
pub fn parse_size(s: &str) -> anyhow::Result<(usize, usize)> {
    let bad = || anyhow!("invalid board size {s:?}: expected N or CxR, as 11 or 6x7");
    let (c, r) = match s.split_once(['x', 'X', ':']) {
        Some((c, r)) => (c.trim().parse().map_err(|_| bad())?, r.trim().parse().map_err(|_| bad())?),
        None => {
            let n = s.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    Ok((c, r))
}

/// Loads the position the arguments describe.
pub fn load(args: &PositionArgs) -> anyhow::Result<AnyPosition> {
    let text = args.position.as_deref().unwrap_or(DEFAULT_MOVES);
    if text.contains('\n') {
        return from_diagram(text);
    }
    let path = Path::new(text);
    if path.is_file() {
        let contents = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let trimmed = contents.trim_start();
        if trimmed.starts_with('(') {
            bail!("{}: SGF files are not supported in this build", path.display());
        }
        return from_diagram(&contents).with_context(|| path.display().to_string());
    }
    let (cols, rows) = parse_size(&args.size)?;
    let mut pos = AnyPosition::new(cols, rows)?;
    let moves: MoveList = text.parse()?;
    nash_board::with_position!(&mut pos, p => moves.play_on(p))?;
    Ok(pos)
}

fn from_diagram(text: &str) -> anyhow::Result<AnyPosition> {
    let d: Diagram = text.parse()?;
    Ok(AnyPosition::from_diagram(&d)?)
}
