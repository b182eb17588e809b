//! `nash htp`: a Hex Text Protocol engine on standard input and output.

/// Arguments of `nash htp`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Serves HTP on stdin/stdout until `quit` or the end of the input. A controller that closes
/// its end of the pipe has ended the session: that is not an error.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {} = args;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match nash_htp::serve(stdin.lock(), stdout.lock()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
