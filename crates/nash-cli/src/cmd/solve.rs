//! `nash solve`.

use anyhow::bail;

/// Arguments of `nash solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: crate::input::PositionArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let _ = crate::input::load(&args.position)?;
    bail!("nash solve is not available in this build")
}
