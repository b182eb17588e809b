//! The engine: the game being analysed, the solver parameters, and one handler per command.

use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

use nash_board::{
    with_position, AnyPosition, BitSet, Bitboard, CellList, Color, Move, Position, WideBitboard,
};
use nash_search::{Parallel, SolverConfig, SolverKind, SolverTable, StopReason};

use crate::limits::{self, CommandDeadline};
use crate::protocol::{format_answer, parse_line, Command};
use crate::{analysis, HtpError};

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
    "hexgui-analyze_commands",
    "param_dfpn",
    "dfpn-clear-tt",
    "dfpn-solve-state",
    "dfpn-solver-find-winning",
    "dfs-solve-state",
    "compute-inferior",
    "compute-fillin",
    "compute-dead",
    "vc-build",
    "vc-get-mustplay",
];

/// HexGui's analysis menu: `type/label/command`, where `%m` stands for the colour to move.
const ANALYZE_COMMANDS: &str = "\
param/DFPN Param/param_dfpn
none/DFPN Clear TT/dfpn-clear-tt
string/DFPN Solve State/dfpn-solve-state %m
plist/DFPN Find Winning/dfpn-solver-find-winning %m
string/DFS Solve State/dfs-solve-state %m
inferior/Compute Inferior/compute-inferior %m
inferior/Compute Fillin/compute-fillin %m
inferior/Compute Dead/compute-dead %m
inferior/VC Build/vc-build %m
inferior/VC Get Mustplay/vc-get-mustplay %m
plist/All Legal Moves/all_legal_moves %m
string/Final Score/final_score";

/// The board side of a new engine, as in HexGui and Benzene.
pub const DEFAULT_SIZE: usize = 11;

/// The longest `genmove` waits for a solver answer before falling back on the heuristic.
pub const GENMOVE_SOLVE_TIME: Duration = Duration::from_secs(1);

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

/// A Hex Text Protocol engine: holds one game and answers commands about it.
///
/// [`Engine::run`] serves a whole session; [`Engine::execute`] answers a single parsed command.
/// No input makes the engine stop except `quit` and the end of the input.
#[derive(Debug)]
pub struct Engine {
    pos: AnyPosition,
    params: SolverParams,
    time_left: [Option<Duration>; 2],
    /// The df-pn table, kept between `dfpn-…` commands until `dfpn-clear-tt` (as Benzene
    /// does), one per bitboard width.
    dfpn_small: SolverTable<Bitboard>,
    dfpn_wide: SolverTable<WideBitboard>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with an empty 11×11 board.
    pub fn new() -> Engine {
        Engine {
            pos: AnyPosition::new(DEFAULT_SIZE, DEFAULT_SIZE).expect("11x11 is a valid board"),
            params: SolverParams::default(),
            time_left: [None; 2],
            dfpn_small: SolverTable::new(),
            dfpn_wide: SolverTable::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &AnyPosition {
        &self.pos
    }

    /// The solver settings.
    pub fn params(&self) -> &SolverParams {
        &self.params
    }

    /// Serves a session: reads command lines from `input` until `quit` or the end of the
    /// input, writing one answer per command to `output` (flushed after each). Only I/O errors
    /// end it early.
    pub fn run<R: BufRead, W: Write>(&mut self, mut input: R, mut output: W) -> io::Result<()> {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            if input.read_until(b'\n', &mut buf)? == 0 {
                return Ok(());
            }
            let line = String::from_utf8_lossy(&buf);
            let Some(cmd) = parse_line(&line) else { continue };
            let result = self.execute(&cmd).map_err(|e| e.to_string());
            output.write_all(format_answer(cmd.id, &result).as_bytes())?;
            output.flush()?;
            if cmd.name == "quit" {
                return Ok(());
            }
        }
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
                let secs = parse_seconds(&args[1])?;
                parse_number::<u64>(&args[2])?;
                self.time_left[color.index()] = Some(secs);
                Ok(String::new())
            }
            "hexgui-analyze_commands" => no_args(cmd).map(|()| ANALYZE_COMMANDS.to_owned()),
            "param_dfpn" => self.param_dfpn(cmd),
            "dfpn-clear-tt" => {
                no_args(cmd)?;
                self.clear_tables();
                Ok(String::new())
            }
            "dfpn-solve-state" => self.solve_state(cmd, SolverKind::Dfpn),
            "dfs-solve-state" => self.solve_state(cmd, SolverKind::Pattern),
            "dfpn-solver-find-winning" => {
                let color = color_arg(cmd)?;
                let mut cfg = self.params.config(SolverKind::Dfpn);
                let _deadline = CommandDeadline::arm(&mut cfg);
                match &self.pos {
                    AnyPosition::Small(p) => {
                        self.dfpn_wide.clear();
                        analysis::find_winning(p, color, &cfg, &mut self.dfpn_small)
                    }
                    AnyPosition::Wide(p) => {
                        self.dfpn_small.clear();
                        analysis::find_winning(p, color, &cfg, &mut self.dfpn_wide)
                    }
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
            _ => Err(HtpError::UnknownCommand),
        }
    }

    fn boardsize(&mut self, cmd: &Command) -> Result<String, HtpError> {
        arity(cmd, 1, 2, "N or C R")?;
        let cols = parse_number::<usize>(&cmd.args[0])?;
        let rows = match cmd.args.get(1) {
            Some(r) => parse_number::<usize>(r)?,
            None => cols,
        };
        self.pos = AnyPosition::new(cols, rows)?;
        Ok(String::new())
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
        with_position!(&mut self.pos, p => p.apply_as(color, mv))?;
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
        Ok(String::new())
    }

    fn genmove(&mut self, cmd: &Command) -> Result<String, HtpError> {
        let color = color_arg(cmd)?;
        let mut budget = GENMOVE_SOLVE_TIME;
        if let Some(left) = self.time_left[color.index()] {
            budget = budget.min(left / 20);
        }
        let mut cfg = self.params.config(SolverKind::Dfpn);
        cfg.budget.time = Some(budget);
        let mv = with_position!(&self.pos, p => analysis::choose_move(p, color, &cfg));
        if let Move::Cell(cell) = mv {
            with_position!(&mut self.pos, p => p.play_as(color, cell))?;
        }
        Ok(mv.to_string())
    }

    fn param_dfpn(&mut self, cmd: &Command) -> Result<String, HtpError> {
        match cmd.args.as_slice() {
            [] => {
                let p = &self.params;
                let secs = p.time_limit.map_or(0.0, |d| d.as_secs_f64());
                Ok(format!(
                    "\n[string] parallel {}\n[string] threads {}\n[string] timelimit {}\n[string] tt_mib {}",
                    p.parallel.name(),
                    p.threads,
                    secs,
                    p.tt_mib
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
                    "use_guifx" => {
                        // HexGui turns on Benzene's live display of the solver's bounds
                        // before a solve; Nash has no such display, so the switch is taken
                        // and changes nothing.
                        if !matches!(value.as_str(), "0" | "1") {
                            return Err(bad("expected 0 or 1".to_owned()));
                        }
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
        let mut cfg = self.params.config(kind);
        let deadline = CommandDeadline::arm(&mut cfg);
        // Df-pn keeps its table between commands; the depth-first search starts afresh.
        let winner = match (&self.pos, kind) {
            (AnyPosition::Small(p), SolverKind::Dfpn) => {
                self.dfpn_wide.clear();
                analysis::solve_state(p, to_move, &cfg, Some(&mut self.dfpn_small))
            }
            (AnyPosition::Wide(p), SolverKind::Dfpn) => {
                self.dfpn_small.clear();
                analysis::solve_state(p, to_move, &cfg, Some(&mut self.dfpn_wide))
            }
            (pos, _) => with_position!(pos, p => analysis::solve_state(p, to_move, &cfg, None)),
        };
        let winner = match winner {
            Err(StopReason::Cancelled) if deadline.fired() => Err(StopReason::TimeLimit),
            w => w,
        };
        Ok(winner.map_or_else(|reason| format!("unknown ({reason})"), |c| c.to_string()))
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
