//! `cargo xtask bench solve`: the solving tables (6x6 and 7x7 openings, the empty 8x8 board).

pub fn run(_rest: &[String]) -> anyhow::Result<()> {
    anyhow::bail!("the solving benchmark is not available yet")
}
