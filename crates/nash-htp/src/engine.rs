//! The engine: the game being analysed, the solver parameters, and one handler per command.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use nash_play::{MoveBudget, Player, SpecError};

use nash_board::{
    with_position, AnyPosition, BitSet, Bitboard, CellList, Color, Move, Position, WideBitboard,
};
use nash_search::{Parallel, Progress, SolverConfig, SolverKind, SolverTable, Stats, StopReason};

use crate::clock::{Clock, TimeSettings};
use crate::genmove::{decide, MoveSettings};
use crate::limits::{self, CommandDeadline};
use crate::protocol::{format_answer, parse_line, Command};
use crate::{analysis, display, HtpError};

/// Every command the engine knows, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "play",
    "undo",
    "showboard",
    "loadsgf",
    "genmove",
    "all_legal_moves",
    "final_score",
    "time_left",
    "time_settings",
    "hexgui-analyze_commands",
    "param_player",
    "param_mohex",
    "param_wolve",
    "param_game",
    "param_dfpn",
    "dfpn-clear-tt",
    "dfpn-solve-state",
    "dfpn-solver-find-winning",
    "dfs-solve-state",
    "nash-solve-stats",
    "compute-inferior",
    "compute-fillin",
    "compute-dead",
    "inferior-reasons",
    "vc-build",
    "vc-get-mustplay",
    "vc-between-cells",
    "vc-between-cells-full",
    "vc-between-cells-semi",
    "dfpn-get-pv",
    "eval-twod",
    "eval-resist-cells",
    "vc-h-scores",
    "player-scores",
    "player-search",
    "gogui_analyze_commands",
];

/// HexGui's analysis menu: `type/label/command`, where `%m` stands for the colour to move.
const ANALYZE_COMMANDS: &str = "\
param/Player Param/param_player
param/MoHex Param/param_mohex
param/Wolve Param/param_wolve
param/Game Param/param_game
param/DFPN Param/param_dfpn
none/DFPN Clear TT/dfpn-clear-tt
string/DFPN Solve State/dfpn-solve-state %m
plist/DFPN Find Winning/dfpn-solver-find-winning %m
var/DFPN Get PV/dfpn-get-pv %m
string/DFS Solve State/dfs-solve-state %m
inferior/Compute Inferior/compute-inferior %m
inferior/Compute Fillin/compute-fillin %m
inferior/Compute Dead/compute-dead %m
string/Inferior Reasons/inferior-reasons %m
inferior/VC Build/vc-build %m
inferior/VC Get Mustplay/vc-get-mustplay %m
vc/VC Between Cells/vc-between-cells %c %P
vc/VC Between Cells Full/vc-between-cells-full %c %P
vc/VC Between Cells Semi/vc-between-cells-semi %c %P
pspairs/Show TwoDistance/eval-twod %c
pspairs/Show Cell Energy/eval-resist-cells %m
pspairs/Show H-Scores/vc-h-scores %m
pspairs/Player Scores/player-scores %m
gfx/Player Search/player-search %m
plist/All Legal Moves/all_legal_moves %m
string/Final Score/final_score";

/// The time `dfpn-get-pv` takes at most when `param_dfpn timelimit` sets none: HexGui leaves
/// its Stop button off for the command.
const PV_TIME: Duration = Duration::from_secs(10);

/// The analysis types GoGui does not know (HexGui's own): left out of `gogui_analyze_commands`.
const HEXGUI_ONLY_TYPES: &[&str] = &["inferior/", "vc/"];

/// The size of one entry of Benzene's df-pn table, by which `param_dfpn tt_size` counts.
const BENZENE_ENTRY_BYTES: usize = 128;

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
/// `param_mohex`, `param_wolve` and `param_game` as Benzene's names for some of them).
#[derive(Clone, PartialEq, Debug, Default)]
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
    /// does), one per bitboard width.
    dfpn_small: SolverTable<Bitboard>,
    dfpn_wide: SolverTable<WideBitboard>,
    /// `param_dfpn use_guifx`: write the solver's progress while it runs.
    pub(crate) guifx: bool,
    /// The running command's cancel flag and the flag that says an interrupt raised it, while
    /// a session serves it.
    pub(crate) stop: Option<(Arc<AtomicBool>, Arc<AtomicBool>)>,
    /// The counters the running command's solves add to, when progress is written.
    pub(crate) progress: Option<Arc<Progress>>,
    /// The solved-position database of the df-pn commands (`nash htp --db`).
    db: Option<nash_db::Db>,
    /// The last `dfpn-solve-state` or `dfs-solve-state`: its counters and seconds.
    last_solve: Option<(Stats, f64)>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with an empty 11×11 board and the default player
    /// ([`DEFAULT_PLAYER`](crate::DEFAULT_PLAYER)).
    pub fn new() -> Engine {
        Engine::with_player(crate::DEFAULT_PLAYER).expect("the default player builds")
    }

    /// An engine whose `genmove` asks the player `spec` names (`name` or
    /// `name:key=value,...`, see [`crate::player::build`]).
    pub fn with_player(spec: &str) -> Result<Engine, SpecError> {
        Ok(Engine {
            pos: AnyPosition::new(DEFAULT_SIZE, DEFAULT_SIZE).expect("11x11 is a valid board"),
            params: SolverParams::default(),
            player: crate::player::build(spec)?,
            player_spec: spec.trim().to_owned(),
            play: PlayParams::default(),
            time_settings: None,
            clocks: [None; 2],
            dfpn_small: SolverTable::new(),
            dfpn_wide: SolverTable::new(),
            guifx: false,
            stop: None,
            progress: None,
            db: None,
            last_solve: None,
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
        let args = &cmd.args;
        match cmd.name.as_str() {
            "" => Err(HtpError::MissingCommand),
            "protocol_version" => no_args(cmd).map(|()| "2".to_owned()),
            "name" => no_args(cmd).map(|()| "nash".to_owned()),
            "version" => no_args(cmd).map(|()| env!("CARGO_PKG_VERSION").to_owned()),
            "known_command" => {
                arity(cmd, 1, 1, "a command name")?;
                Ok(COMMANDS.contains(&args[0].as_str()).to_string())
            }
            "list_commands" => no_args(cmd).map(|()| COMMANDS.join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => self.boardsize(cmd),
            "clear_board" => {
                no_args(cmd)?;
                self.pos = AnyPosition::new(self.pos.cols(), self.pos.rows())?;
                self.new_game();
                Ok(String::new())
            }
            "play" => self.play(cmd),
            "undo" => {
                no_args(cmd)?;
                if with_position!(&mut self.pos, p => p.undo()) {
                    Ok(String::new())
                } else {
                    Err(HtpError::NothingToUndo)
                }
            }
            "showboard" => no_args(cmd).map(|()| format!("\n{}", self.pos)),
            "loadsgf" => self.loadsgf(cmd),
            "genmove" => self.genmove(cmd),
            "all_legal_moves" => {
                arity(cmd, 0, 1, "an optional colour")?;
                if let Some(c) = args.first() {
                    c.parse::<Color>()?;
                }
                Ok(with_position!(&self.pos, p => {
                    if p.winner().is_some() { String::new() } else { CellList(p.empty_cells()).to_string() }
                }))
            }
            "final_score" => {
                no_args(cmd)?;
                match with_position!(&self.pos, p => p.winner()) {
                    Some(Color::Black) => Ok("B+".to_owned()),
                    Some(Color::White) => Ok("W+".to_owned()),
                    None => Err(HtpError::GameNotOver),
                }
            }
            "time_left" => {
                arity(cmd, 3, 3, "colour, seconds and stones")?;
                let color: Color = args[0].parse()?;
                let left = parse_seconds(&args[1])?;
                let stones = parse_number::<u32>(&args[2])?;
                self.clocks[color.index()] = Some(Clock { left, stones });
                Ok(String::new())
            }
            "time_settings" => {
                arity(cmd, 3, 3, "main time, byo-yomi time and byo-yomi stones")?;
                let s = TimeSettings {
                    main: parse_seconds(&args[0])?,
                    byo_yomi: parse_seconds(&args[1])?,
                    stones: parse_number::<u32>(&args[2])?,
                };
                self.time_settings = Some(s);
                self.clocks = [s.limited().then(|| Clock::start(&s)); 2];
                Ok(String::new())
            }
            "param_player" => self.param_player(cmd),
            "param_mohex" | "param_wolve" | "param_game" => self.param_benzene(cmd),
            "hexgui-analyze_commands" => no_args(cmd).map(|()| ANALYZE_COMMANDS.to_owned()),
            "gogui_analyze_commands" => no_args(cmd).map(|()| {
                let gogui = ANALYZE_COMMANDS
                    .lines()
                    .filter(|l| !HEXGUI_ONLY_TYPES.iter().any(|t| l.starts_with(t)));
                gogui.collect::<Vec<_>>().join("\n")
            }),
            "param_dfpn" => self.param_dfpn(cmd),
            "dfpn-clear-tt" => {
                no_args(cmd)?;
                self.clear_tables();
                Ok(String::new())
            }
            "dfpn-solve-state" => self.solve_state(cmd, SolverKind::Dfpn),
            "dfs-solve-state" => self.solve_state(cmd, SolverKind::Pattern),
            "nash-solve-stats" => {
                no_args(cmd)?;
                match self.last_solve {
                    Some((s, seconds)) => Ok(format!(
                        "nodes {} expanded {} analyses {} seconds {seconds:.3}",
                        s.nodes,
                        s.expanded,
                        s.knowledge_calls - s.knowledge_cached
                    )),
                    None => Err(HtpError::NoSolve),
                }
            }
            "dfpn-solver-find-winning" => {
                let color = color_arg(cmd)?;
                let mut cfg = self.solver_config(SolverKind::Dfpn);
                let _deadline = CommandDeadline::arm(&mut cfg);
                let interrupted = self.stop.as_ref().map(|(_, u)| Arc::clone(u));
                let answer = match &self.pos {
                    AnyPosition::Small(p) => {
                        self.dfpn_wide.clear();
                        analysis::find_winning(
                            p,
                            color,
                            &cfg,
                            &mut self.dfpn_small,
                            self.db.as_mut(),
                        )
                    }
                    AnyPosition::Wide(p) => {
                        self.dfpn_small.clear();
                        analysis::find_winning(
                            p,
                            color,
                            &cfg,
                            &mut self.dfpn_wide,
                            self.db.as_mut(),
                        )
                    }
                };
                match answer {
                    Err(HtpError::Undecided { cells, .. })
                        if interrupted.is_some_and(|u| u.load(Ordering::SeqCst)) =>
                    {
                        Err(HtpError::Undecided { reason: "interrupted".to_owned(), cells })
                    }
                    a => a,
                }
            }
            "compute-inferior" | "compute-fillin" | "compute-dead" => {
                let color = color_arg(cmd)?;
                let kind = match cmd.name.as_str() {
                    "compute-inferior" => analysis::Inferior::All,
                    "compute-fillin" => analysis::Inferior::Fillin,
                    _ => analysis::Inferior::Dead,
                };
                with_position!(&self.pos, p => analysis::inferior(p, color, kind))
            }
            "inferior-reasons" => {
                let color = color_arg(cmd)?;
                with_position!(&self.pos, p => analysis::inferior_reasons(p, color))
            }
            "vc-build" => {
                let color = color_arg(cmd)?;
                let hsearch = self.params.config(SolverKind::Dfpn).knowledge.hsearch;
                with_position!(&self.pos, p => analysis::vc_build(p, color, hsearch))
            }
            "vc-get-mustplay" => {
                let color = color_arg(cmd)?;
                let hsearch = self.params.config(SolverKind::Dfpn).knowledge.hsearch;
                with_position!(&self.pos, p => analysis::mustplay(p, color, hsearch))
            }
            "vc-between-cells" | "vc-between-cells-full" | "vc-between-cells-semi" => {
                arity(cmd, 3, 3, "a colour and two cells")?;
                let color = self.color_or_to_move(&args[0])?;
                let kinds = match cmd.name.as_str() {
                    "vc-between-cells-full" => display::Kinds::Full,
                    "vc-between-cells-semi" => display::Kinds::Semi,
                    _ => display::Kinds::Both,
                };
                let hsearch = self.params.config(SolverKind::Dfpn).knowledge.hsearch;
                with_position!(&self.pos, p => {
                    let x = display::cell_arg(p, &args[1])?;
                    let y = display::cell_arg(p, &args[2])?;
                    display::vc_between(p, color, x, y, kinds, hsearch)
                })
            }
            "dfpn-get-pv" => {
                arity(cmd, 0, 1, "an optional colour to move")?;
                let color = match args.first() {
                    Some(c) => c.parse::<Color>()?,
                    None => with_position!(&self.pos, p => p.to_move()),
                };
                let mut cfg = self.solver_config(SolverKind::Dfpn);
                // HexGui offers no Stop for this command, so it never runs unbounded.
                cfg.budget.time.get_or_insert(PV_TIME);
                let _deadline = CommandDeadline::arm(&mut cfg);
                let line = match &self.pos {
                    AnyPosition::Small(p) => {
                        self.dfpn_wide.clear();
                        let p = with_to_move(p, color);
                        if p.winner().is_some() {
                            Vec::new()
                        } else {
                            self.dfpn_small.principal_variation(&p, &cfg)
                        }
                    }
                    AnyPosition::Wide(p) => {
                        self.dfpn_small.clear();
                        let p = with_to_move(p, color);
                        if p.winner().is_some() {
                            Vec::new()
                        } else {
                            self.dfpn_wide.principal_variation(&p, &cfg)
                        }
                    }
                };
                Ok(line.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "))
            }
            "eval-twod" | "eval-resist-cells" | "vc-h-scores" => {
                arity(cmd, 1, 1, "a colour")?;
                let color = self.color_or_to_move(&args[0])?;
                let what = match cmd.name.as_str() {
                    "eval-twod" => display::CellValue::TwoDistance,
                    "eval-resist-cells" => display::CellValue::Resistance,
                    _ => display::CellValue::HScore,
                };
                let hsearch = self.params.config(SolverKind::Dfpn).knowledge.hsearch;
                with_position!(&self.pos, p => display::cell_values(p, color, what, hsearch))
            }
            "player-scores" | "player-search" => {
                let color = color_arg(cmd)?;
                let choice = self.player_choice(color);
                Ok(if cmd.name == "player-scores" {
                    display::scores_text(choice.as_ref())
                } else {
                    display::search_gfx(choice.as_ref())
                })
            }
            _ => Err(HtpError::UnknownCommand),
        }
    }

    /// A colour argument; HexGui sends `empty` for `%c` when no colour is chosen, which means
    /// the side to move.
    fn color_or_to_move(&self, arg: &str) -> Result<Color, HtpError> {
        if arg.eq_ignore_ascii_case("empty") {
            return Ok(with_position!(&self.pos, p => p.to_move()));
        }
        Ok(arg.parse()?)
    }

    /// What the player sees for `color` to move, within the move's time (and nodes, playouts):
    /// its choice, or `None` when the game is over. The position does not change.
    fn player_choice(&mut self, color: Color) -> Option<nash_play::Choice> {
        let mut pos = self.pos.clone();
        with_position!(&mut pos, p => p.set_to_move(color));
        if with_position!(&pos, p => p.winner()).is_some() {
            return None;
        }
        let empty = with_position!(&pos, p => p.empty_cells().len());
        let budget = MoveBudget {
            time: self.move_time(color, empty),
            nodes: self.play.max_nodes,
            playouts: self.play.max_playouts,
            cancel: self.stop.as_ref().map(|(c, _)| Arc::clone(c)),
            solved: false,
        };
        Some(self.player.choose(&pos, &budget))
    }

    fn boardsize(&mut self, cmd: &Command) -> Result<String, HtpError> {
        arity(cmd, 1, 2, "N or C R")?;
        let cols = parse_number::<usize>(&cmd.args[0])?;
        let rows = match cmd.args.get(1) {
            Some(r) => parse_number::<usize>(r)?,
            None => cols,
        };
        self.pos = AnyPosition::new(cols, rows)?;
        self.new_game();
        Ok(String::new())
    }

    /// A new game begins: the player forgets the last one and the clocks start again.
    fn new_game(&mut self) {
        self.player.new_game();
        if let Some(s) = self.time_settings {
            self.clocks = [s.limited().then(|| Clock::start(&s)); 2];
        }
    }

    fn play(&mut self, cmd: &Command) -> Result<String, HtpError> {
        arity(cmd, 2, 2, "a colour and a move")?;
        let color: Color = cmd.args[0].parse()?;
        let mv: Move = cmd.args[1].parse()?;
        if mv == Move::Resign {
            // A resignation ends the game but leaves the board as it is.
            return Ok(String::new());
        }
        // A finished game takes no more moves (`undo` reopens it).
        if let Some(w) = with_position!(&self.pos, p => p.winner()) {
            return Err(HtpError::GameOver(w));
        }
        with_position!(&mut self.pos, p => play_htp(p, color, mv))?;
        Ok(String::new())
    }

    fn loadsgf(&mut self, cmd: &Command) -> Result<String, HtpError> {
        arity(cmd, 1, 2, "a file name and an optional move number")?;
        let path = &cmd.args[0];
        let upto = cmd.args.get(1).map(|n| parse_number::<usize>(n)).transpose()?;
        let text = std::fs::read_to_string(path)
            .map_err(|e| HtpError::Read { path: path.clone(), reason: e.to_string() })?;
        self.pos = crate::sgf::load(&text, upto)
            .map_err(|reason| HtpError::Sgf { path: path.clone(), reason })?;
        self.new_game();
        Ok(String::new())
    }

    fn genmove(&mut self, cmd: &Command) -> Result<String, HtpError> {
        let color = color_arg(cmd)?;
        let mut pos = self.pos.clone();
        with_position!(&mut pos, p => p.set_to_move(color));
        let empty = with_position!(&pos, p => p.empty_cells().len());
        let budget = MoveBudget {
            time: self.move_time(color, empty),
            nodes: self.play.max_nodes,
            playouts: self.play.max_playouts,
            cancel: self.stop.as_ref().map(|(c, _)| Arc::clone(c)),
            solved: false,
        };
        let cfg = self.solver_config(SolverKind::Dfpn);
        let d = decide(&pos, self.player.as_mut(), &budget, &self.play.moves, &cfg);
        match d.mv {
            Move::Cell(_) | Move::SwapPieces => {
                with_position!(&mut self.pos, p => play_htp(p, color, d.mv))?;
            }
            // A resignation leaves the board as it is, as `play COLOUR resign` does.
            _ => {}
        }
        if let (Some(s), Some(clock)) = (self.time_settings, &mut self.clocks[color.index()]) {
            clock.after_move(&s, d.elapsed);
        }
        Ok(d.mv.to_string())
    }

    /// The time `color`'s next move may take: its clock's share (when a time control is
    /// known, or a `time_left` gave its time as absolute), capped by `max_time`; `None` when
    /// nothing limits it.
    fn move_time(&self, color: Color, empty: usize) -> Option<Duration> {
        let clock = self.clocks[color.index()].map(|c| {
            let s = self.time_settings.unwrap_or(TimeSettings {
                main: c.left,
                byo_yomi: Duration::ZERO,
                stones: 0,
            });
            c.move_time(&s, empty)
        });
        let time = match (clock, self.play.max_time) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // A clock set to centuries is no reason for a deadline nothing can represent.
        time.map(|t| t.min(Duration::from_secs_f64(limits::MAX_TIME_LIMIT_SECS)))
    }

    /// `param_player`'s settings as `(type, name, value)`, in the order the listing gives them.
    fn play_param_values(&self) -> Vec<(&'static str, &'static str, String)> {
        let p = &self.play;
        let secs = |d: Option<Duration>| d.map_or(0.0, |d| d.as_secs_f64()).to_string();
        vec![
            ("string", "player", self.player_spec.clone()),
            ("string", "max_time", secs(p.max_time)),
            ("string", "max_nodes", p.max_nodes.unwrap_or(0).to_string()),
            ("string", "max_playouts", p.max_playouts.unwrap_or(0).to_string()),
            ("string", "solve_time", p.moves.solve_time.as_secs_f64().to_string()),
            ("bool", "allow_swap", u8::from(p.moves.allow_swap).to_string()),
            ("string", "threads", self.params.threads.to_string()),
        ]
    }

    fn param_player(&mut self, cmd: &Command) -> Result<String, HtpError> {
        let Some((name, value)) = cmd.args.split_first() else {
            let lines = self.play_param_values();
            // `threads` belongs to param_dfpn; it is listed here only for Benzene's names.
            let lines = lines.iter().filter(|(_, n, _)| *n != "threads");
            return Ok(lines.map(|(t, n, v)| format!("\n[{t}] {n} {v}")).collect());
        };
        // A spec may be written with spaces after its commas.
        let value = value.join(" ");
        if value.is_empty() {
            return Err(arguments(cmd, "no arguments, or a parameter name and a value"));
        }
        self.set_play_param(name, &value)
    }

    /// Sets one of `param_player`'s settings; a bad value names itself and changes nothing.
    fn set_play_param(&mut self, name: &str, value: &str) -> Result<String, HtpError> {
        let bad = |reason: String| HtpError::ParameterValue {
            name: name.to_owned(),
            value: value.to_owned(),
            reason,
        };
        let count = |v: &str| -> Result<Option<u64>, HtpError> {
            let n =
                v.parse::<u64>().map_err(|_| bad("expected a whole number, 0 for none".into()))?;
            Ok((n > 0).then_some(n))
        };
        let seconds = |v: &str| -> Result<Option<Duration>, HtpError> {
            match v.parse::<f64>() {
                Ok(0.0) => Ok(None),
                Ok(s) => {
                    limits::time_limit(s).map(Some).map_err(|e| bad(format!("{e}, 0 for none")))
                }
                Err(_) => Err(bad("expected a number of seconds, 0 for none".into())),
            }
        };
        match name {
            "player" => {
                self.player = crate::player::build(value).map_err(|e| bad(e.to_string()))?;
                self.player_spec = value.to_owned();
            }
            "max_time" => self.play.max_time = seconds(value)?,
            "max_nodes" => self.play.max_nodes = count(value)?,
            "max_playouts" => self.play.max_playouts = count(value)?,
            "solve_time" => self.play.moves.solve_time = seconds(value)?.unwrap_or(Duration::ZERO),
            "allow_swap" => {
                self.play.moves.allow_swap = match value {
                    "0" => false,
                    "1" => true,
                    _ => return Err(bad("expected 0 or 1".to_owned())),
                }
            }
            _ => return Err(HtpError::UnknownParameter(name.to_owned())),
        }
        Ok(String::new())
    }

    /// Benzene's names for the settings HexGui and match scripts send to MoHex and Wolve:
    /// `param_mohex max_time|max_games|num_threads`, `param_wolve max_time`, and `param_game
    /// allow_swap`. Each sets the `param_player` (or `param_dfpn threads`) setting it means.
    fn param_benzene(&mut self, cmd: &Command) -> Result<String, HtpError> {
        let (keys, ours): (&[&str], &[&str]) = match cmd.name.as_str() {
            "param_mohex" => (
                &["max_time", "max_games", "num_threads"],
                &["max_time", "max_playouts", "threads"],
            ),
            "param_wolve" => (&["max_time"], &["max_time"]),
            _ => (&["allow_swap"], &["allow_swap"]),
        };
        let listing = || -> String {
            let values = self.play_param_values();
            let mut out = String::new();
            for (key, our) in keys.iter().zip(ours) {
                if let Some((t, _, v)) = values.iter().find(|(_, n, _)| n == our) {
                    out.push_str(&format!("\n[{t}] {key} {v}"));
                }
            }
            out
        };
        match cmd.args.as_slice() {
            [] => Ok(listing()),
            [name, value] => {
                let Some(i) = keys.iter().position(|k| k == name) else {
                    return Err(HtpError::UnknownParameter(name.clone()));
                };
                match ours[i] {
                    "threads" => {
                        let bad = |reason| HtpError::ParameterValue {
                            name: name.clone(),
                            value: value.clone(),
                            reason,
                        };
                        let n = parse_number::<usize>(value)?;
                        self.params.threads = limits::threads(n).map_err(|e| bad(e.to_string()))?;
                        Ok(String::new())
                    }
                    our => self.set_play_param(our, value).map_err(|e| match e {
                        HtpError::ParameterValue { value, reason, .. } => {
                            HtpError::ParameterValue { name: name.clone(), value, reason }
                        }
                        e => e,
                    }),
                }
            }
            _ => Err(arguments(cmd, "no arguments, or a parameter name and a value")),
        }
    }

    fn param_dfpn(&mut self, cmd: &Command) -> Result<String, HtpError> {
        match cmd.args.as_slice() {
            [] => {
                let p = &self.params;
                let secs = p.time_limit.map_or(0.0, |d| d.as_secs_f64());
                Ok(format!(
                    "\n[string] parallel {}\n[string] threads {}\n[string] timelimit {}\n[string] tt_mib {}\n[bool] use_guifx {}",
                    p.parallel.name(),
                    p.threads,
                    secs,
                    p.tt_mib,
                    u8::from(self.guifx)
                ))
            }
            [name, value] => {
                let bad = |reason| HtpError::ParameterValue {
                    name: name.clone(),
                    value: value.clone(),
                    reason,
                };
                match name.as_str() {
                    "parallel" => {
                        self.params.parallel = value
                            .parse()
                            .map_err(|_| bad("expected auto, jobs or tree".to_owned()))?;
                    }
                    "threads" => {
                        let n = parse_number::<usize>(value)?;
                        self.params.threads = limits::threads(n).map_err(|e| bad(e.to_string()))?;
                    }
                    "timelimit" => {
                        let secs = parse_number::<f64>(value)?;
                        self.params.time_limit = if secs == 0.0 {
                            None
                        } else {
                            Some(limits::time_limit(secs).map_err(|e| bad(e.to_string()))?)
                        };
                    }
                    "tt_mib" => {
                        let n = parse_number::<usize>(value)?;
                        self.params.tt_mib = limits::tt_mib(n).map_err(|e| bad(e.to_string()))?;
                    }
                    "tt_size" => {
                        // Benzene's size in entries of about 128 bytes, as HexGui and match
                        // scripts send it to MoHex and Wolve: the same memory as a limit in MiB.
                        let n = parse_number::<usize>(value)?;
                        let mib = n.saturating_mul(BENZENE_ENTRY_BYTES).div_ceil(1 << 20);
                        self.params.tt_mib = limits::tt_mib(mib).map_err(|e| bad(e.to_string()))?;
                    }
                    "use_guifx" => {
                        // HexGui's switch for the solver's live display (its Solve button
                        // turns it on): progress as `gogui-gfx:` blocks while a command runs.
                        self.guifx = match value.as_str() {
                            "0" => false,
                            "1" => true,
                            _ => return Err(bad("expected 0 or 1".to_owned())),
                        };
                    }
                    _ => return Err(HtpError::UnknownParameter(name.clone())),
                }
                Ok(String::new())
            }
            _ => Err(arguments(cmd, "no arguments, or a parameter name and a value")),
        }
    }

    /// Forgets the kept df-pn tables.
    fn clear_tables(&mut self) {
        self.dfpn_small.clear();
        self.dfpn_wide.clear();
    }

    fn solve_state(&mut self, cmd: &Command, kind: SolverKind) -> Result<String, HtpError> {
        arity(cmd, 0, 1, "an optional colour to move")?;
        let to_move = match cmd.args.first() {
            Some(c) => Some(c.parse::<Color>()?),
            None => None,
        };
        let mut cfg = self.solver_config(kind);
        let deadline = CommandDeadline::arm(&mut cfg);
        let started = std::time::Instant::now();
        // Df-pn keeps its table between commands; the depth-first search starts afresh.
        let (winner, stats) = match (&self.pos, kind) {
            (AnyPosition::Small(p), SolverKind::Dfpn) => {
                self.dfpn_wide.clear();
                let db = self.db.as_mut();
                analysis::solve_state(p, to_move, &cfg, Some(&mut self.dfpn_small), db)?
            }
            (AnyPosition::Wide(p), SolverKind::Dfpn) => {
                self.dfpn_small.clear();
                let db = self.db.as_mut();
                analysis::solve_state(p, to_move, &cfg, Some(&mut self.dfpn_wide), db)?
            }
            (pos, _) => {
                with_position!(pos, p => analysis::solve_state(p, to_move, &cfg, None, None))?
            }
        };
        self.last_solve = Some((stats, started.elapsed().as_secs_f64()));
        let winner = match winner {
            // Stopped by the controller: Benzene's answer for a solve that did not finish.
            Err(_) if self.interrupted() => return Ok("empty".to_owned()),
            Err(StopReason::Cancelled) if deadline.fired() => Err(StopReason::TimeLimit),
            w => w,
        };
        Ok(winner.map_or_else(|reason| format!("unknown ({reason})"), |c| c.to_string()))
    }
}

/// Plays an HTP move. In HTP, as in Benzene and HexGui, `swap-pieces` leaves the black stone
/// where it is and White moves next: the players exchange colours, which is nash-board's
/// `swap-sides` (its `swap-pieces` is the board-transform form that some game records use).
/// Both words therefore mean the same here, and a swap needs no square board.
pub(crate) fn play_htp<B: BitSet>(
    pos: &mut Position<B>,
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
