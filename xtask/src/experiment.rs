//! `cargo xtask experiment`.

/// Arguments of `cargo xtask experiment`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("this task is not available yet")
}
