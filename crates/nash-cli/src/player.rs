//! The `--player SPEC` option and the move settings `nash htp`, `nash genmove` and `nash play`
//! share.

use std::time::Duration;

use nash_play::MoveBudget;
use nash_play::MoveSettings;

/// Checks a player spec by building the player, so that a bad spec is refused before any work
/// starts, with the reason (an unknown name lists the players there are).
pub fn player_spec(spec: &str) -> Result<String, String> {
    nash_play::build(spec).map(|_| spec.to_owned()).map_err(|e| e.to_string())
}

/// A level of the strength ladder, 1 to 10.
fn level(s: &str) -> Result<usize, String> {
    let n = nash_play::LEVELS.len();
    match s.parse::<usize>() {
        Ok(l) if nash_play::level(l).is_some() => Ok(l),
        _ => Err(format!("invalid level {s:?}: expected 1 to {n}")),
    }
}

/// A number of seconds, 0 for none.
fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(0.0) => Ok(0.0),
        Ok(x) => nash_play::limits::time_limit(x).map(|_| x).map_err(|e| e.to_string()),
        Err(_) => Err(format!("invalid number {s:?}")),
    }
}

/// Who moves for Nash, and what a move may spend.
#[derive(Debug, clap::Args)]
pub struct PlayerArgs {
    /// The player: NAME or NAME:KEY=VALUE,... (an unknown name lists the players).
    #[arg(long, value_name = "SPEC", default_value = nash_play::DEFAULT_PLAYER, value_parser = player_spec)]
    pub player: String,
    /// A level of the strength ladder, from 1 (a beginner) to 10 (the default player):
    /// shorthand for --player best:level=N.
    #[arg(long, value_name = "N", conflicts_with = "player", value_parser = level)]
    pub level: Option<usize>,
    /// Seconds per move for the player (0: the player's own default depth or playouts).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.0, value_parser = seconds)]
    pub move_time: f64,
    /// Search nodes per move, for players that count them (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub nodes: u64,
    /// Seconds the solver may look for a proven win before the player moves (0: never).
    #[arg(long, value_name = "SECONDS", default_value_t = nash_play::GENMOVE_SOLVE_TIME.as_secs_f64(), value_parser = seconds)]
    pub solve_time: f64,
    /// Never answer a first move with swap-pieces (the default of `nash htp`, where the
    /// controller allows swap with `param_game allow_swap 1`).
    #[arg(long, conflicts_with = "swap")]
    pub no_swap: bool,
    /// Answer a lost first move with swap-pieces (the default of `nash genmove` and `nash play`).
    #[arg(long)]
    pub swap: bool,
}

impl PlayerArgs {
    /// The player's spec: `--player`'s, or `best:level=N` for `--level N`.
    pub fn spec(&self) -> String {
        match self.level {
            Some(n) => format!("best:level={n}"),
            None => self.player.clone(),
        }
    }

    /// The player, built from its checked spec.
    pub fn build(&self) -> anyhow::Result<Box<dyn nash_play::Player>> {
        let spec = self.spec();
        nash_play::build(&spec)
            .map_err(|e| anyhow::anyhow!("invalid value {spec:?} for --player: {e}"))
    }

    /// One move's budget.
    pub fn budget(&self) -> MoveBudget {
        MoveBudget {
            time: (self.move_time > 0.0).then(|| Duration::from_secs_f64(self.move_time)),
            nodes: (self.nodes > 0).then_some(self.nodes),
            ..MoveBudget::default()
        }
    }

    /// The solver in front of the player, and swapping: `swap_by_default` unless `--swap` or
    /// `--no-swap` says otherwise.
    pub fn settings(&self, swap_by_default: bool) -> MoveSettings {
        MoveSettings {
            solve_time: Duration::from_secs_f64(self.solve_time),
            allow_swap: self.swap || (swap_by_default && !self.no_swap),
        }
    }
}
