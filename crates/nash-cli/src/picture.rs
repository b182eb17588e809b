//! `--svg FILE`: the board picture a command draws (nash-board's `svg` module), written to a
//! file next to the command's usual output.

use std::path::PathBuf;

/// The `--svg` option of the commands that draw.
#[derive(Debug, Clone, clap::Args)]
pub struct SvgArgs {
    /// Also draw the position and what the command found (winning moves, carriers, analysed
    /// cells) as an SVG picture in FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

impl SvgArgs {
    /// Writes the picture `draw` makes when `--svg` was given (`draw` runs only then).
    pub fn write(&self, draw: impl FnOnce() -> String) -> anyhow::Result<()> {
        let Some(path) = &self.svg else { return Ok(()) };
        std::fs::write(path, draw()).map_err(|e| {
            anyhow::anyhow!(
                "cannot write the picture {}: {}",
                path.display(),
                crate::input::lowercase_first(&e)
            )
        })
    }
}
