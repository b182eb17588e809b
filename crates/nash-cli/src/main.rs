//! `nash`: show, analyse and solve Hex positions, and speak the Hex Text Protocol.
//!
//! This binary is only command-line definitions and glue; the work is done by the library
//! crates. Every error becomes one line on stderr and a non-zero exit code.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;
mod input;

/// Nash: a Hex solver and toolkit.
///
/// Positions are given as a move list (`"a1 b2 swap-pieces c3"`, with `--size`), as an SGF file,
/// or as a board diagram (a file, or text with line breaks). Cells are written column letter +
/// row number, `a1` being the acute corner at the top left; Black moves first and connects top
/// and bottom, White connects left and right.
#[derive(Debug, Parser)]
#[command(name = "nash", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a position as a board diagram.
    Show(cmd::show::Args),
    /// Inferior cell analysis: dead, captured, vulnerable and dominated cells, with fill-in.
    Ica(cmd::ica::Args),
    /// Virtual connections by H-search, and the mustplay.
    Vc(cmd::vc::Args),
    /// Solve a position: its value, a winning move and statistics (default: the empty 7x7 board).
    Solve(cmd::solve::Args),
    /// The exact set of winning moves of a position (every legal move decided).
    Winning(cmd::winning::Args),
    /// Run a Hex Text Protocol engine on standard input and output (for HexGui and .tst suites).
    Htp(cmd::htp::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: invalid arguments"));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Show(a) => cmd::show::run(a),
        Command::Ica(a) => cmd::ica::run(a),
        Command::Vc(a) => cmd::vc::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Winning(a) => cmd::winning::run(a),
        Command::Htp(a) => cmd::htp::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let msg = format!("{e:#}");
            eprintln!("error: {}", msg.lines().collect::<Vec<_>>().join(" "));
            ExitCode::FAILURE
        }
    }
}
