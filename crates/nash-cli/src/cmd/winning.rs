//! `nash winning`.

use anyhow::bail;

/// Arguments of `nash winning`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: crate::input::PositionArgs,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let _ = crate::input::load(&args.position)?;
    bail!("nash winning is not available in this build")
}
