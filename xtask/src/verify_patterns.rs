//! `cargo xtask verify-patterns`.

/// Arguments of `cargo xtask verify-patterns`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<()> {
    anyhow::bail!("this task is not available yet")
}
