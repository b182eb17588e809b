//! The engine: the game being analysed, the solver parameters, and the dispatch of a command to
//! its handler in the command table ([`commands`]); the handlers live in one file per family
//! of commands.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use nash_board::{AnyPosition, BitSet, Color, Move, PerWidth, Position, WidthFamily};
use nash_play::{MoveSettings, Player, SpecError};
use nash_search::{Parallel, Progress, SolverConfig, SolverKind, SolverTable, Stats};

use crate::clock::{Clock, TimeSettings};
use crate::protocol::{format_answer, parse_line, Command};
use crate::HtpError;

mod analyze;
mod benzene;
mod book;
mod commands;
mod db;
mod game;
mod params;
mod solver;
mod stats;
mod stream;

pub use commands::COMMANDS;
pub(crate) use commands::UNTIL_NEXT_LINE;

/// The df-pn tables, one type per bitboard width.
#[derive(Debug)]
struct SolverTables;

impl WidthFamily for SolverTables {
    type Of<B: BitSet> = SolverTable<B>;
}

/// The board side of a new engine, as in HexGui and Benzene.
pub const DEFAULT_SIZE: usize = 11;

/// The solver settings `param_dfpn` shows and changes.
#[derive(Clone, PartialEq, Debug)]
pub struct SolverParams {
    /// Transposition-table size limit in MiB.
    pub tt_mib: usize,
    /// Time limit per solve; `None` for no limit (`timelimit 0`).
    pub time_limit: Option<Duration>,
    /// Worker threads.
    pub threads: usize,
    /// How the threads share a df-pn solve.
    pub parallel: Parallel,
}

impl Default for SolverParams {
    fn default() -> SolverParams {
        let d = SolverConfig::default();
        SolverParams {
            tt_mib: d.tt_mib,
            time_limit: None,
            threads: d.threads,
            parallel: d.parallel,
        }
    }
}

impl SolverParams {
    /// The solver configuration for one solve of the given kind.
    pub fn config(&self, kind: SolverKind) -> SolverConfig {
        let mut cfg = SolverConfig {
            kind,
            tt_mib: self.tt_mib,
            threads: self.threads,
            parallel: self.parallel,
            ..Default::default()
        };
        cfg.budget.time = self.time_limit;
        cfg
    }
}

/// How `genmove` spends a move: the settings `param_player` shows and changes (with
/// `param_mohex`, `param_wolve` and `param_game` as Benzene's names for some of them). Swap is
/// off until the controller allows it (`param_game allow_swap 1`), as in MoHex: a referee that
/// does not know swap would take `swap-pieces` for an illegal move.
#[derive(Clone, PartialEq, Debug)]
pub struct PlayParams {
    /// Time per move when the clock does not ask for less (`max_time`); `None` leaves the
    /// player to its own default (its depth or playouts), the clock permitting.
    pub max_time: Option<Duration>,
    /// Search nodes per move (`max_nodes`), for players that count them.
    pub max_nodes: Option<u64>,
    /// Playouts per move (`max_playouts`), for Monte Carlo players.
    pub max_playouts: Option<u64>,
    /// The solver in front of the player, and swapping.
    pub moves: MoveSettings,
}

impl Default for PlayParams {
    fn default() -> PlayParams {
        PlayParams {
            max_time: None,
            max_nodes: None,
            max_playouts: None,
            moves: MoveSettings { allow_swap: false, ..MoveSettings::default() },
        }
    }
}

/// A Hex Text Protocol engine: holds one game and answers commands about it.
///
/// [`Engine::run`] serves a whole session; [`Engine::execute`] answers a single parsed command.
/// No input makes the engine stop except `quit` and the end of the input.
#[derive(Debug)]
pub struct Engine {
    pub(crate) pos: AnyPosition,
    params: SolverParams,
    /// The player `genmove` asks, and the spec it was built from as given.
    player: Box<dyn Player>,
    player_spec: String,
    play: PlayParams,
    /// `time_settings`, once given.
    time_settings: Option<TimeSettings>,
    /// Each colour's clock, from `time_settings` and `time_left`, run down by `genmove`.
    clocks: [Option<Clock>; 2],
    /// The df-pn table, kept between `dfpn-…` commands until `dfpn-clear-tt` (as Benzene
    /// does), for the width of the board last solved.
    dfpn: PerWidth<SolverTables>,
    /// `param_dfpn use_guifx`: write the solver's progress while it runs.
    pub(crate) guifx: bool,
    /// The running command's cancel flag and the flag that says an interrupt raised it, while
    /// a session serves it.
    pub(crate) stop: Option<(Arc<AtomicBool>, Arc<AtomicBool>)>,
    /// The counters the running command's solves add to, when progress is written.
    pub(crate) progress: Option<Arc<Progress>>,
    /// Where a command running in a session writes text before its answer (the analysis
    /// stream, live gfx blocks), in order, as it goes.
    pub(crate) stream: Option<mpsc::Sender<String>>,
    /// Set by a command that has written its answer's `=` line through `stream` already: the
    /// session then writes only the rest of the answer.
    pub(crate) streamed: bool,
    /// The solved-position database of the df-pn commands (`nash htp --db`).
    db: Option<nash_db::Db>,
    /// The last `dfpn-solve-state` or `dfs-solve-state`: its counters and seconds.
    last_solve: Option<(Stats, f64)>,
    /// The solved-position database the `book-…` commands read (`book-open`).
    book: Option<nash_db::Db>,
    /// The last `genmove` or `reg_genmove`: the move, who chose it, and what the search saw.
    last_decision: Option<nash_play::Decision>,
    /// Benzene's inferior-cell settings as a controller set them (`param_player_ice`,
    /// `param_solver_ice`): listed back, without effect on Nash.
    pub(crate) ice_settings: benzene::IceSettings,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with an empty 11×11 board and the default player
    /// ([`DEFAULT_PLAYER`](nash_play::DEFAULT_PLAYER)).
    pub fn new() -> Engine {
        Engine::with_player(nash_play::DEFAULT_PLAYER).expect("the default player builds")
    }

    /// An engine whose `genmove` asks the player `spec` names (`name` or
    /// `name:key=value,...`, see [`nash_play::build`]).
    pub fn with_player(spec: &str) -> Result<Engine, SpecError> {
        Ok(Engine {
            pos: AnyPosition::new(DEFAULT_SIZE, DEFAULT_SIZE).expect("11x11 is a valid board"),
            params: SolverParams::default(),
            player: nash_play::build(spec)?,
            player_spec: spec.trim().to_owned(),
            play: PlayParams::default(),
            time_settings: None,
            clocks: [None; 2],
            dfpn: PerWidth::new(),
            guifx: false,
            stop: None,
            progress: None,
            stream: None,
            streamed: false,
            db: None,
            last_solve: None,
            book: None,
            last_decision: None,
            ice_settings: benzene::IceSettings::default(),
        })
    }

    /// Gives `dfpn-solve-state` and `dfpn-solver-find-winning` a solved-position database:
    /// stored answers are used, new ones stored.
    pub fn set_db(&mut self, db: nash_db::Db) {
        self.db = Some(db);
    }

    /// The player `genmove` asks.
    pub fn player(&self) -> &dyn Player {
        self.player.as_ref()
    }

    /// How `genmove` spends its time and whether it may swap.
    pub fn play_params(&self) -> &PlayParams {
        &self.play
    }

    /// Sets how `genmove` spends its time and whether it may swap (what `param_player` sets,
    /// but the player).
    pub fn set_play_params(&mut self, play: PlayParams) {
        self.play = play;
    }

    /// The current position.
    pub fn position(&self) -> &AnyPosition {
        &self.pos
    }

    /// The solver settings.
    pub fn params(&self) -> &SolverParams {
        &self.params
    }

    /// The solver configuration of a command: the `param_dfpn` settings, with the running
    /// command's cancel flag (an interrupt raises it) and progress counters.
    fn solver_config(&self, kind: SolverKind) -> SolverConfig {
        let mut cfg = self.params.config(kind);
        cfg.budget.cancel = self.stop.as_ref().map(|(c, _)| Arc::clone(c));
        cfg.progress = self.progress.clone();
        cfg
    }

    /// Whether an interrupt stopped the running command.
    fn interrupted(&self) -> bool {
        self.stop.as_ref().is_some_and(|(_, by_user)| by_user.load(Ordering::SeqCst))
    }

    /// Answers one line: `None` for lines the protocol ignores, else the formatted answer.
    pub fn answer_line(&mut self, line: &str) -> Option<String> {
        let cmd = parse_line(line)?;
        let result = self.execute(&cmd).map_err(|e| e.to_string());
        Some(format_answer(cmd.id, &result))
    }

    /// Carries out one command. A panic inside the solvers becomes an error answer and leaves
    /// the position as it was.
    pub fn execute(&mut self, cmd: &Command) -> Result<String, HtpError> {
        let saved = self.pos.clone();
        match panic::catch_unwind(AssertUnwindSafe(|| self.dispatch(cmd))) {
            Ok(r) => r,
            Err(payload) => {
                self.pos = saved;
                // A solve that stopped half-way may have left its table in any state.
                self.clear_tables();
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".to_owned());
                Err(HtpError::Internal { command: cmd.name.clone(), message })
            }
        }
    }

    fn dispatch(&mut self, cmd: &Command) -> Result<String, HtpError> {
        if cmd.name.is_empty() {
            return Err(HtpError::MissingCommand);
        }
        match commands::find(&cmd.name) {
            Some(entry) => (entry.run)(self, cmd),
            None => Err(HtpError::UnknownCommand),
        }
    }

    /// A colour argument; HexGui sends `empty` for `%c` when no colour is chosen, which means
    /// the side to move.
    fn color_or_to_move(&self, arg: &str) -> Result<Color, HtpError> {
        if arg.eq_ignore_ascii_case("empty") {
            return Ok(self.pos.to_move());
        }
        Ok(arg.parse()?)
    }

    /// An optional colour argument (`empty` included, as for [`Engine::color_or_to_move`]);
    /// without one, the side to move.
    fn optional_color(&self, cmd: &Command) -> Result<Color, HtpError> {
        arity(cmd, 0, 1, "an optional colour to move")?;
        match cmd.args.first() {
            Some(c) => self.color_or_to_move(c),
            None => Ok(self.pos.to_move()),
        }
    }

    /// Forgets the kept df-pn tables.
    fn clear_tables(&mut self) {
        self.dfpn.clear();
    }
}

/// Plays an HTP move. In HTP, as in Benzene and HexGui, `swap-pieces` leaves the black stone
/// where it is and White moves next: the players exchange colours, which is nash-board's
/// `swap-sides` (its `swap-pieces` is the board-transform form that some game records use).
/// Both words therefore mean the same here, and a swap needs no square board.
pub(crate) fn play_htp(
    pos: &mut AnyPosition,
    color: Color,
    mv: Move,
) -> Result<(), nash_board::PlayError> {
    match mv {
        Move::SwapPieces => pos.apply_as(color, Move::SwapSides).map_err(|e| match e {
            nash_board::PlayError::SwapNotAllowed(_) => {
                nash_board::PlayError::SwapNotAllowed(Move::SwapPieces)
            }
            e => e,
        }),
        mv => pos.apply_as(color, mv),
    }
}

/// A copy of `pos` with `color` to move.
pub(crate) fn with_to_move<B: BitSet>(pos: &Position<B>, color: Color) -> Position<B> {
    let mut p = pos.clone();
    p.set_to_move(color);
    p
}

fn arguments(cmd: &Command, expected: &'static str) -> HtpError {
    HtpError::Arguments { command: cmd.name.clone(), expected, got: cmd.args.join(" ") }
}

fn arity(cmd: &Command, min: usize, max: usize, expected: &'static str) -> Result<(), HtpError> {
    if (min..=max).contains(&cmd.args.len()) {
        Ok(())
    } else {
        Err(arguments(cmd, expected))
    }
}

fn no_args(cmd: &Command) -> Result<(), HtpError> {
    arity(cmd, 0, 0, "no arguments")
}

fn color_arg(cmd: &Command) -> Result<Color, HtpError> {
    arity(cmd, 1, 1, "a colour")?;
    Ok(cmd.args[0].parse()?)
}

fn parse_number<T: std::str::FromStr>(s: &str) -> Result<T, HtpError> {
    s.parse().map_err(|_| HtpError::Number(s.to_owned()))
}

fn parse_seconds(s: &str) -> Result<Duration, HtpError> {
    let secs: f64 = parse_number(s)?;
    Duration::try_from_secs_f64(secs).map_err(|_| HtpError::Number(s.to_owned()))
}
