//! A Hex Text Protocol engine over the Nash solvers, for HexGui and Benzene-style regression
//! suites.
//!
//! HTP is the Go Text Protocol (version 2) with Hex moves, as spoken by HexGui, Benzene (MoHex,
//! Wolve) and KataHex. The engine reads command lines from any [`BufRead`](std::io::BufRead)
//! and writes answers to any [`Write`](std::io::Write), so a session can run over standard
//! input and output or in memory:
//!
//! ```
//! let mut engine = nash_htp::Engine::new();
//! let mut out = Vec::new();
//! engine.run("boardsize 3\nplay b b2\n1 final_score\n".as_bytes(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert_eq!(text, "= \n\n= \n\n?1 cannot score: the game is not over\n\n");
//! ```
//!
//! This crate is the protocol only: parsing, one command table from which `list_commands`,
//! the dispatch and the analysis menus are read, the command handlers, HexGui's graphics and
//! SGF loading. Which move `genmove` plays is nash-play's (`nash_play::decide` and its player
//! registry), the same move choice `nash genmove` and `nash play` use.
//!
//! The command reference is docs/htp.md.

mod analysis;
pub mod clock;
mod display;
mod engine;
mod error;
pub mod protocol;
mod serve;
pub mod sgf;

pub use engine::{Engine, PlayParams, SolverParams, COMMANDS, DEFAULT_SIZE};
pub use error::HtpError;
pub use protocol::Command;

/// Serves one session on `input` and `output` with a fresh engine.
pub fn serve<R: std::io::BufRead + Send, W: std::io::Write + Send>(
    input: R,
    output: W,
) -> std::io::Result<()> {
    Engine::new().run(input, output)
}
