//! `nash htp`: a Hex Text Protocol engine on standard input and output.

/// Arguments of `nash htp`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The player `genmove` asks: NAME or NAME:KEY=VALUE,... (`nash play --list-players`
    /// names them); HTP's `param_player player SPEC` changes it during a session.
    #[arg(long, value_name = "SPEC", default_value = nash_htp::DEFAULT_PLAYER, value_parser = crate::player::player_spec)]
    player: String,
}

/// Serves HTP on stdin/stdout until `quit` or the end of the input. A controller that closes
/// its end of the pipe has ended the session: that is not an error.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut engine = nash_htp::Engine::with_player(&args.player)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match engine.run(stdin.lock(), stdout.lock()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
