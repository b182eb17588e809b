//! One module per subcommand, each with its clap `Args` and a `run` function.

pub mod analyze;
pub mod check;
pub mod db;
pub mod genmove;
pub mod htp;
pub mod ica;
pub mod play;
pub mod show;
pub mod solve;
pub mod split;
pub mod vc;
pub mod winning;
