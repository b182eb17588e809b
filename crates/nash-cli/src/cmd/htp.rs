//! `nash htp`: a Hex Text Protocol engine on standard input and output.

use nash_htp::PlayParams;

/// Arguments of `nash htp`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The player `genmove` asks and its move settings; HTP's `param_player` changes them
    /// during a session.
    #[command(flatten)]
    player: crate::player::PlayerArgs,
    /// A solved-position database for `dfpn-solve-state` and `dfpn-solver-find-winning`:
    /// stored answers are used, new ones stored (docs/db.md).
    #[arg(long, value_name = "FILE")]
    db: Option<std::path::PathBuf>,
}

/// Serves HTP on stdin/stdout until `quit` or the end of the input. A controller that closes
/// its end of the pipe has ended the session: that is not an error.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut engine = nash_htp::Engine::with_player(&args.player.spec())?;
    if let Some(path) = &args.db {
        let db = crate::files::open_db(path)?;
        crate::cmd::db::warn_damage(&db);
        engine.set_db(db);
    }
    let budget = args.player.budget();
    engine.set_play_params(PlayParams {
        max_time: budget.time,
        max_nodes: budget.nodes,
        max_playouts: budget.playouts,
        moves: args.player.settings(false),
    });
    // The reader thread is not waited for: a controller may keep the pipe open after `quit`.
    let stdin = std::io::BufReader::new(std::io::stdin());
    match engine.run_detached(stdin, std::io::stdout()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
