//! `cargo xtask regress-tst`.

/// Arguments of `cargo xtask regress-tst`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("this task is not available yet")
}
