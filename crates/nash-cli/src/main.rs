//! `nash`: show, analyse and solve Hex positions, and speak the Hex Text Protocol.
//!
//! This binary is only command-line definitions and glue; the work is done by the library
//! crates. Every error becomes one line on stderr and a non-zero exit code; output goes through
//! `out!`/`outln!` (module `out`), which end quietly when the reader closes the pipe.

#![warn(clippy::print_stdout)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[macro_use]
mod out;
mod cmd;
mod files;
mod input;
mod picture;
mod player;

/// Nash: a Hex solver, player and toolkit.
///
/// Positions are given as a move list (`"b3 swap-pieces c3"`, on the board of `--size`, 7x7
/// by default), as an SGF file, as a board diagram (a file, or text with line breaks), or as
/// `-` for standard input; without one, a command takes the empty board of `--size`. Cells are
/// written column letter + row number, `a1` being the acute corner at the top left; Black
/// moves first and connects top and bottom, White connects left and right.
#[derive(Debug, Parser)]
#[command(name = "nash", version, about, long_about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Examples under `nash --help`; a test runs every line that starts with `nash `, and those of
/// each subcommand's help below.
const EXAMPLES: &str = "\
Examples:
  nash show \"b3 swap-pieces c3\" --size 5
  nash solve d4
  nash winning a1 --size 4
  nash genmove e5 --size 9
  nash htp --player random:seed=7";

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a position as a board diagram.
    #[command(after_help = "\
Examples:
  nash show \"b3 swap-pieces c3\" --size 5
  nash show testdata/games/club-5x5.sgf --move 2 --sgf
  nash show - --size 3")]
    Show(cmd::show::Args),
    /// Inferior cell analysis: dead, captured, vulnerable and dominated cells, with fill-in.
    #[command(after_help = "\
Examples:
  nash ica \"a1 b2 c3\" --size 5
  nash ica c3 --size 5 --json")]
    Ica(cmd::ica::Args),
    /// Virtual connections by H-search, and the mustplay.
    #[command(after_help = "\
Examples:
  nash vc c4 --size 6 --color w
  nash vc c4 --size 6 --color b --ends c4 south --variant or=3")]
    Vc(cmd::vc::Args),
    /// Solve a position: its value, a winning move and statistics (default: the empty 7x7 board).
    #[command(after_help = "\
Examples:
  nash solve
  nash solve c3 --size 6 --threads 2 --json
  nash solve a1 --size 5 --solver pns --time-limit 10
  nash solve c3 --size 5 --db solved.db
  nash solve --batch testdata/games/positions-6x6.txt --size 6 --db solved.db
With --db FILE, positions stored there (or their mirror images) are answered at once, and
every position solved is stored: a batch started again redoes nothing it finished.")]
    Solve(cmd::solve::Args),
    /// Check a proof certificate written by `nash solve --proof`: valid, or the first bad node.
    #[command(after_help = "\
Examples:
  nash solve --size 4 --proof 4x4.proof
  nash check 4x4.proof
The checker replays the certificate by the rules of Hex alone; an invalid one exits with 1.")]
    Check(cmd::check::Args),
    /// The exact set of winning moves of a position (every legal move decided).
    #[command(after_help = "\
Examples:
  nash winning a1 --size 4 --json
  nash winning --size 5 --threads 2
  nash winning a1 --size 4 --db solved.db")]
    Winning(cmd::winning::Args),
    /// A solved-position database (written by --db): stats, export, merge, verify.
    #[command(after_help = "\
Examples:
  nash solve a1 --size 4 --db 4x4.db
  nash db stats 4x4.db
  nash db export 4x4.db --format jsonl
  nash db merge 4x4.db --into all.db
  nash db verify all.db --sample 2 --seed 7
docs/db.md describes the file and its guarantees.")]
    Db(cmd::db::Args),
    /// Split a solve into jobs: the positions a few moves ahead, in job files for a cluster.
    #[command(after_help = "\
Examples:
  nash split --size 4 --depth 2 --db split.db --out jobs --jobs 2
  nash solve --batch jobs/job-1.txt --size 4 --db worker-1.db
  nash solve --batch jobs/job-2.txt --size 4 --db worker-2.db
  nash db merge split.db worker-1.db worker-2.db --into merged.db
  nash solve --size 4 --db merged.db
Positions decided already (in the database, or by a quick solve) are left out; docs/cluster.md
runs the jobs as a Slurm job array.")]
    Split(cmd::split::Args),
    /// One move for a position from a player, with what it saw (value, line, scores, nodes).
    #[command(after_help = "\
Examples:
  nash genmove e5 --size 9 --player random:seed=3 --solve-time 0 --no-swap
  nash genmove c3 --size 5 --json
  nash genmove e5 --size 9 --player best:playouts=2000 --solve-time 0 --no-swap --svg genmove.svg
A position the solver proves within --solve-time is played by the solver, whatever the player.
A first move on a square board from 7x7 to 13x13 is answered from the swap table (swap-pieces
or not) unless --no-swap.")]
    Genmove(cmd::genmove::Args),
    /// A player's search on a position, reported every interval while it runs (visits, win
    /// rates, priors, proven moves, lines), as text or JSON lines.
    #[command(after_help = "\
Examples:
  nash analyze e5 --size 9 --playouts 3000
  nash analyze e5 --size 9 --playouts 3000 --interval 10 --json
  nash analyze c3 --size 5 --player alphabeta:depth=3 --json
Each report lists the root moves best first; the last JSON line has \"final\": true.")]
    Analyze(cmd::analyze::Args),
    /// Play a game in the terminal against a Nash player; the record is saved as SGF.
    #[command(after_help = "\
Examples:
  nash play --player alphabeta --size 9
  nash play --size 3 --color white --sgf game.sgf < testdata/play/3x3.txt
Type cells (e5), swap, undo, resign, quit or help; standard input may be a file or a pipe.")]
    Play(cmd::play::Args),
    /// Run a Hex Text Protocol engine on standard input and output (for HexGui and .tst suites).
    #[command(after_help = "\
Examples:
  nash htp
  nash htp --player random:seed=7 < testdata/htp/genmove.htp
The commands are in docs/htp.md; HexGui attaches it as the program `nash htp`.")]
    Htp(cmd::htp::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            out!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // `nash` alone: the help, on stderr since it is not what was asked for.
            eprint!("{e}");
            return ExitCode::from(2);
        }
        Err(e) => {
            // clap's message spans lines (the possible values, a usage hint): keep the lines
            // that say what is wrong, as one.
            let text = e.to_string();
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .filter(|l| !l.is_empty())
                .collect();
            eprintln!("{}", lines.join(" "));
            return ExitCode::from(2);
        }
    };
    if let Err(e) = init_tracing() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Show(a) => cmd::show::run(a),
        Command::Ica(a) => cmd::ica::run(a),
        Command::Vc(a) => cmd::vc::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Winning(a) => cmd::winning::run(a),
        Command::Db(a) => cmd::db::run(a),
        Command::Split(a) => cmd::split::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Genmove(a) => cmd::genmove::run(a),
        Command::Analyze(a) => cmd::analyze::run(a),
        Command::Play(a) => cmd::play::run(a),
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

/// Sends the libraries' tracing spans and events to stderr, filtered by `RUST_LOG` (for example
/// `RUST_LOG=nash_search=debug`); without `RUST_LOG` nothing is installed and tracing costs
/// nothing.
fn init_tracing() -> anyhow::Result<()> {
    use tracing_subscriber::EnvFilter;
    let Some(spec) = std::env::var_os(EnvFilter::DEFAULT_ENV) else { return Ok(()) };
    let filter = EnvFilter::try_from_default_env()
        .map_err(|e| anyhow::anyhow!("invalid RUST_LOG {:?}: {}", spec.to_string_lossy(), e))?;
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colour codes only for a terminal, not in a log file.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .init();
    Ok(())
}
