//! Choosing a move for a game: the solver first, then the player.
//!
//! A position the solver proves within a short budget is played perfectly whatever the player:
//! on boards up to 11×11 a df-pn solve of at most [`MoveSettings::solve_time`] (and a third of
//! the move's time) comes first, and a proven win is played at once; a proven loss on the
//! second move is turned by swapping when swap is allowed. Everything else is the player's.
//! HTP's `genmove`, `nash genmove` and `nash play` all move through [`decide`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use nash_board::{with_position, AnyPosition, BitSet, Cell, Color, Move, Position};
use nash_play::eval::shortest;
use nash_play::{Choice, MoveBudget, Player};
use nash_search::{Outcome, SolverConfig};

use crate::analysis::solve_within;

/// The longest `genmove` lets the solver look for a proven win before the player moves.
pub const GENMOVE_SOLVE_TIME: Duration = Duration::from_secs(1);

/// The largest board (in cells) on which the solver runs in front of the player: beyond 11×11
/// one connection build alone takes longer than a move should.
const SOLVE_MAX_CELLS: usize = 121;

/// How moves are chosen, beyond the player itself.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveSettings {
    /// The solver's budget in front of the player; zero leaves every move to the player.
    pub solve_time: Duration,
    /// Whether a reply to a first move may be `swap-pieces`.
    pub allow_swap: bool,
}

impl Default for MoveSettings {
    fn default() -> MoveSettings {
        MoveSettings { solve_time: GENMOVE_SOLVE_TIME, allow_swap: true }
    }
}

/// Who chose a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecidedBy {
    /// The game was over: the answer is `resign`.
    GameOver,
    /// The solver proved the position a win (or a loss that swapping turns into a win).
    Solver,
    /// The player.
    Player,
}

impl DecidedBy {
    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            DecidedBy::GameOver => "game-over",
            DecidedBy::Solver => "solver",
            DecidedBy::Player => "player",
        }
    }
}

/// A chosen move and how it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The move to play: a cell, `swap-pieces`, or `resign`.
    pub mv: Move,
    /// Who chose it.
    pub by: DecidedBy,
    /// The winner with the side to move to play, when the solver proved it.
    pub proven: Option<Color>,
    /// What the player reported (value, line, scores, depth, nodes); for a solver's move, the
    /// move, its line so far, the solver's nodes and time.
    pub choice: Choice,
    /// The whole decision's time, solver included.
    pub elapsed: Duration,
}

/// Chooses the move of the side to move in `pos`: the solver's proven win when it finds one
/// in time, else `player`'s choice within what is left of `budget.time`. A player's move that
/// cannot be played (an occupied cell, a swap that is not allowed, a pass) is replaced by the
/// shortest-path choice, so the answer is always legal.
pub fn decide(
    pos: &AnyPosition,
    player: &mut dyn Player,
    budget: &MoveBudget,
    settings: &MoveSettings,
    solver: &SolverConfig,
) -> Decision {
    let start = Instant::now();
    if with_position!(pos, p => p.winner()).is_some() {
        return Decision {
            mv: Move::Resign,
            by: DecidedBy::GameOver,
            proven: None,
            choice: Choice::bare(Move::Resign),
            elapsed: start.elapsed(),
        };
    }
    let swap_ok = settings.allow_swap && swap_legal(pos);
    let mut proven = None;
    let mut solve_time = settings.solve_time;
    if let Some(t) = budget.time {
        solve_time = solve_time.min(t / 3);
    }
    let small = pos.cols() * pos.rows() <= SOLVE_MAX_CELLS;
    if small && !solve_time.is_zero() {
        let mut cfg = solver.clone();
        cfg.budget.time = Some(solve_time);
        if let Some(found) = with_position!(pos, p => solved_move(p, &cfg)) {
            let (winner, mv, nodes) = found;
            proven = Some(winner);
            let mv = match mv {
                Some(cell) => Some(Move::Cell(cell)),
                None if swap_ok => Some(Move::SwapPieces),
                None => None,
            };
            if let Some(mv) = mv {
                let mut choice = Choice::bare(mv);
                if let Move::Cell(c) = mv {
                    choice.pv.push(c);
                }
                choice.nodes = nodes;
                choice.elapsed = start.elapsed();
                return Decision {
                    mv,
                    by: DecidedBy::Solver,
                    proven,
                    choice,
                    elapsed: start.elapsed(),
                };
            }
        }
    }
    let mut left = budget.clone();
    left.time =
        budget.time.map(|t| t.saturating_sub(start.elapsed()).max(Duration::from_millis(1)));
    let choice = choose_within(pos, player, &left);
    let mv = match choice.mv {
        Move::SwapSides | Move::SwapPieces if swap_ok => Move::SwapPieces,
        Move::Resign => Move::Resign,
        Move::Cell(c) if with_position!(pos, p => p.empty_cells().contains(c)) => Move::Cell(c),
        _ => with_position!(pos, p => fallback(p)),
    };
    Decision { mv, by: DecidedBy::Player, proven, choice, elapsed: start.elapsed() }
}

/// Runs the player with a watchdog: if it has not answered a quarter after its time, its
/// cancel flag is raised so that it answers with what it has.
fn choose_within(pos: &AnyPosition, player: &mut dyn Player, budget: &MoveBudget) -> Choice {
    let Some(limit) = budget.time else { return player.choose(pos, budget) };
    let mut budget = budget.clone();
    let flag = Arc::clone(budget.cancel.get_or_insert_with(|| Arc::new(AtomicBool::new(false))));
    let (done, wait) = mpsc::channel::<()>();
    let timer = std::thread::spawn(move || {
        if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(limit + limit / 4) {
            flag.store(true, Ordering::Relaxed);
        }
    });
    let choice = player.choose(pos, &budget);
    drop(done);
    let _ = timer.join();
    choice
}

/// Whether the side to move may answer `swap-pieces` (the second move of a square board).
fn swap_legal(pos: &AnyPosition) -> bool {
    let mut trial = pos.clone();
    with_position!(&mut trial, p => p.swap_pieces().is_ok())
}

/// The solver's verdict within `cfg`'s time: the winner, the winning move when the side to
/// move wins, and the nodes it took; `None` when it did not decide in time.
fn solved_move<B: BitSet>(
    p: &Position<B>,
    cfg: &SolverConfig,
) -> Option<(Color, Option<Cell>, u64)> {
    let me = p.to_move();
    match solve_within(p, cfg)? {
        (Outcome::Win { winning_move: Some(cell), .. }, nodes)
            if p.empty_cells().contains(cell) =>
        {
            Some((me, Some(cell), nodes))
        }
        (Outcome::Loss { .. }, nodes) => Some((!me, None, nodes)),
        _ => None,
    }
}

/// The shortest-path choice, for a player whose move cannot be played.
fn fallback<B: BitSet>(p: &Position<B>) -> Move {
    shortest::best_move(p, p.to_move(), p.empty_cells(), |_| 0.0).map_or(Move::Resign, Move::Cell)
}
