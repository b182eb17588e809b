//! `nash htp`: a Hex Text Protocol engine on standard input and output.

/// Arguments of `nash htp`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Serves HTP on stdin/stdout until `quit` or the end of the input.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {} = args;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    nash_htp::serve(stdin.lock(), stdout.lock())?;
    Ok(())
}
