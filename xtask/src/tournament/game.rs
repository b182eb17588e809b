//! One game between two HTP engines: both started fresh, told the board and the time, the
//! opening played, then `genmove` and `play` in turn until a connection or a resignation. An
//! engine that does not start, crashes, answers late, refuses a command or plays an illegal
//! move loses the game; the caller's tournament goes on.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nash_board::sgf::GameRecord;
use nash_board::{Cell, Color, Move, Position, Symmetry, WideBitboard};
use serde::Serialize;

use crate::htp::Engine;

/// How long an engine may take to start and answer a setup command (`boardsize`, `play`, …):
/// some engines load pattern databases before they read their first command.
const SETUP_TIMEOUT: Duration = Duration::from_secs(30);

/// An engine as the tournament starts it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineSpec {
    /// Its name in tables, records and file names.
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// HTP commands sent after `boardsize` before every game (engine settings).
    pub setup: Vec<String>,
}

/// How a game ended, from the winner's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The winner connected their edges.
    Connection,
    /// The loser resigned.
    Resignation,
    /// The loser gave no answer within the time per move and the grace.
    Time,
    /// The loser exited, did not start, answered out of protocol or refused a command.
    Crash,
    /// The loser played an illegal move.
    Illegal,
}

impl Reason {
    /// The SGF `RE` suffix after `B+` or `W+`.
    fn sgf(self) -> &'static str {
        match self {
            Reason::Connection => "",
            Reason::Resignation => "R",
            Reason::Time => "T",
            Reason::Crash | Reason::Illegal => "F",
        }
    }
}

/// What one game needs to know.
#[derive(Clone, Debug)]
pub struct Setup {
    pub size: usize,
    /// Time per move, told to the engines that know `time_settings` (`None`: untimed, each
    /// engine plays by its own budget and no move is lost on time).
    pub time: Option<Duration>,
    /// How much longer than `time` an answer may take before the engine loses on time.
    pub grace: Duration,
    /// The working directory of the engines.
    pub dir: PathBuf,
}

/// The end of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub winner: Color,
    pub reason: Reason,
    /// What went wrong, for the losses by time, crash or illegal move.
    pub detail: Option<String>,
    /// The moves, the opening first (a resignation is the last).
    pub moves: Vec<(Color, Move)>,
    pub seconds: f64,
    /// Per colour (Black first): the seconds spent answering `genmove`, and how many.
    pub think: [f64; 2],
    pub genmoves: [usize; 2],
    /// Per colour: the same over the moves that were not instant (at least a tenth of the
    /// time a move), and the longest move.
    pub think_slow: [f64; 2],
    pub genmoves_slow: [usize; 2],
    pub longest: [f64; 2],
}

impl Played {
    /// The game as SGF: `FF[4]`, `GM[11]`, the players, the result and, for a forfeit, why.
    pub fn to_sgf(&self, size: usize, black: &str, white: &str, event: &str) -> String {
        let mut rec = GameRecord::new(size, size);
        let winner = if self.winner == Color::Black { 'B' } else { 'W' };
        let mut props = vec![
            ("PB", black.to_owned()),
            ("PW", white.to_owned()),
            ("RE", format!("{winner}+{}", self.reason.sgf())),
            ("EV", event.to_owned()),
        ];
        if let Some(d) = &self.detail {
            props.push(("GC", d.clone()));
        }
        rec.properties = props.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        rec.moves.clone_from(&self.moves);
        rec.to_sgf()
    }
}

/// An engine of the game, or why it is gone.
struct Side<'a> {
    spec: &'a EngineSpec,
    engine: Option<Engine>,
}

/// The side that failed and how.
struct Fault {
    side: Color,
    reason: Reason,
    detail: String,
}

fn fault(side: Color, reason: Reason, detail: String) -> Fault {
    Fault { side, reason, detail }
}

impl Side<'_> {
    /// Sends a command that must succeed within the setup time.
    fn tell(&mut self, color: Color, command: &str) -> Result<String, Fault> {
        let name = &self.spec.name;
        let engine = self.engine.as_mut().expect("a started engine");
        match engine.ask(command, Some(SETUP_TIMEOUT)) {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(msg)) => {
                Err(fault(color, Reason::Crash, format!("{name} refused `{command}`: ? {msg}")))
            }
            Err(e) => {
                Err(fault(color, Reason::Crash, format!("{name} failed on `{command}`: {e:#}")))
            }
        }
    }
}

/// Plays one game: `black` moves first, after `opening` (a black stone) when there is one.
pub fn play(
    setup: &Setup,
    black: &EngineSpec,
    white: &EngineSpec,
    opening: Option<Cell>,
) -> Played {
    let start = Instant::now();
    let mut pos: Position<WideBitboard> =
        Position::square(setup.size).expect("the tournament checked the board size");
    let mut moves = Vec::new();
    let mut sides = [Side { spec: black, engine: None }, Side { spec: white, engine: None }];
    let mut clock = Clock::default();
    let end = run(setup, &mut sides, &mut pos, &mut moves, &mut clock, opening);
    let (winner, reason, detail) = match end {
        Ok((winner, reason)) => (winner, reason, None),
        Err(f) => {
            // A hung engine is killed at once; the others are asked to quit.
            if f.reason == Reason::Time {
                if let Some(e) = sides[f.side.index()].engine.take() {
                    e.kill();
                }
            }
            (!f.side, f.reason, Some(f.detail))
        }
    };
    drop(sides);
    let seconds = start.elapsed().as_secs_f64();
    Played {
        winner,
        reason,
        detail,
        moves,
        seconds,
        think: clock.think,
        genmoves: clock.genmoves,
        think_slow: clock.think_slow,
        genmoves_slow: clock.genmoves_slow,
        longest: clock.longest,
    }
}

/// The time each colour spent on its moves: all of them, those that took at least a tenth of
/// the time a move (not answered at once, as a proven position is), and the longest.
#[derive(Default)]
struct Clock {
    think: [f64; 2],
    genmoves: [usize; 2],
    think_slow: [f64; 2],
    genmoves_slow: [usize; 2],
    longest: [f64; 2],
}

impl Clock {
    /// Counts a move of `seconds` by `color` under `per_move` seconds a move.
    fn count(&mut self, color: Color, seconds: f64, per_move: f64) {
        let i = color.index();
        self.think[i] += seconds;
        self.genmoves[i] += 1;
        if seconds >= per_move / 10.0 {
            self.think_slow[i] += seconds;
            self.genmoves_slow[i] += 1;
        }
        self.longest[i] = self.longest[i].max(seconds);
    }
}

/// The game proper; `Err` names the side that forfeits.
fn run(
    setup: &Setup,
    sides: &mut [Side<'_>; 2],
    pos: &mut Position<WideBitboard>,
    moves: &mut Vec<(Color, Move)>,
    clock: &mut Clock,
    opening: Option<Cell>,
) -> Result<(Color, Reason), Fault> {
    let n = setup.size;
    for color in Color::ALL {
        let side = &mut sides[color.index()];
        let (program, args) = side.spec.command.split_first().expect("a command");
        let engine = Engine::start(Path::new(program), args, &setup.dir, false)
            .map_err(|e| fault(color, Reason::Crash, format!("{}: {e:#}", side.spec.name)))?;
        side.engine = Some(engine);
        side.tell(color, &format!("boardsize {n} {n}"))?;
        let known = side.tell(color, "list_commands")?;
        if let Some(time) =
            setup.time.filter(|_| known.lines().any(|l| l.trim() == "time_settings"))
        {
            // Main time 0 and one move per period of T seconds: T seconds a move.
            side.tell(color, &format!("time_settings 0 {} 1", time.as_secs_f64()))?;
        }
        for command in side.spec.setup.clone() {
            side.tell(color, &command)?;
        }
    }
    if let Some(cell) = opening {
        pos.play(cell).expect("the tournament checked the opening");
        moves.push((Color::Black, Move::Cell(cell)));
        for color in Color::ALL {
            sides[color.index()].tell(color, &format!("play b {cell}"))?;
        }
    }
    let limit = setup.time.map(|t| t + setup.grace);
    // The game is kept in the board-transform form of swap-pieces (the stone mirrored into a
    // white one, Black to move), so each engine keeps its colour. The engines speak HTP, where
    // swap-pieces keeps the stone and the players exchange colours: after a swap, the engines'
    // view is this one with colours exchanged and cells mirrored in the long diagonal.
    let mut swapped = false;
    let to_engine = |swapped: bool, color: Color, mv: Move| -> (Color, Move) {
        match mv {
            Move::Cell(c) if swapped => (!color, Move::Cell(transpose(setup.size, c))),
            mv if swapped => (!color, mv),
            mv => (color, mv),
        }
    };
    loop {
        if let Some(winner) = pos.winner() {
            return Ok((winner, Reason::Connection));
        }
        let mover = pos.to_move();
        let side = &mut sides[mover.index()];
        let name = side.spec.name.clone();
        let engine = side.engine.as_mut().expect("a started engine");
        let asked = Instant::now();
        let (asked_as, _) = to_engine(swapped, mover, Move::Pass);
        let answer = engine.ask(&format!("genmove {}", letter(asked_as)), limit);
        let per_move = setup.time.map_or(0.0, |t| t.as_secs_f64());
        clock.count(mover, asked.elapsed().as_secs_f64(), per_move);
        let answer = match answer {
            Ok(Ok(answer)) => answer,
            Ok(Err(msg)) => {
                return Err(fault(mover, Reason::Crash, format!("{name} refused genmove: ? {msg}")))
            }
            Err(e) if limit.is_some_and(|l| asked.elapsed() >= l) => {
                return Err(fault(mover, Reason::Time, format!("{name}: {e:#}")))
            }
            Err(e) => return Err(fault(mover, Reason::Crash, format!("{name}: {e:#}"))),
        };
        let mv = match answer.parse::<Move>() {
            Ok(Move::Resign) => {
                moves.push((mover, Move::Resign));
                return Ok((!mover, Reason::Resignation));
            }
            // Passing is not Hex, and swap-sides would exchange the engines' colours.
            Ok(mv @ (Move::Cell(_) | Move::SwapPieces)) => to_engine(swapped, mover, mv).1,
            _ => {
                let detail = format!("{name} answered genmove with {answer:?}");
                return Err(fault(mover, Reason::Illegal, detail));
            }
        };
        if let Err(e) = pos.apply_as(mover, mv) {
            return Err(fault(mover, Reason::Illegal, format!("{name} played {mv}: {e}")));
        }
        moves.push((mover, mv));
        let other = !mover;
        let (color, told) = to_engine(swapped, mover, mv);
        sides[other.index()].tell(other, &format!("play {} {told}", letter(color)))?;
        swapped |= mv == Move::SwapPieces;
    }
}

/// A cell's mirror image in the long diagonal of the `size`×`size` board.
fn transpose(size: usize, cell: Cell) -> Cell {
    let board = Position::<WideBitboard>::square(size).expect("a valid size");
    board.geometry().map_cell(Symmetry::Transpose, cell)
}

fn letter(c: Color) -> char {
    if c == Color::Black {
        'b'
    } else {
        'w'
    }
}
