//! Choosing a move for a game: the solver first, then the player.
//!
//! A position the solver proves within a short budget is played perfectly whatever the player:
//! on boards up to 11×11 a df-pn solve of at most [`MoveSettings::solve_time`] (and, in a timed
//! move, a third of the move's time once at most [`SOLVE_EMPTY_MAX`] cells are empty:
//! [`solve_time`]) comes first, and a proven win is played at once; a proven loss on the
//! second move is turned by swapping when swap is allowed. Before the solver, the second move
//! of a square board whose opening the [`swap_table`](crate::swap_table) holds is decided by
//! it when swap is allowed: a swap at once, or a reply, which the solver may still prove a
//! win (or, against a search's estimate, a loss, answered by swapping) and the player
//! otherwise chooses, its own swap overruled. Everything else, and whatever time the solver
//! did not use, is the player's. HTP's `genmove`, `nash genmove` and `nash play` all
//! move through [`decide`]; `RUST_LOG=nash_play=debug` logs where each move's time went.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use nash_board::clock::Instant;

use nash_board::{with_position, AnyPosition, BitSet, Cell, Color, Move, Position};
use nash_search::{solve, Outcome, SolverConfig};

use crate::eval::shortest;
use crate::eval::WIN;
use crate::player::{Choice, MoveBudget, MoveScore, Player, Proven};
use crate::swap_table::{self, Entry, Source};

/// The longest `genmove` lets the solver look for a proven win before the player moves.
pub const GENMOVE_SOLVE_TIME: Duration = Duration::from_secs(1);

/// The largest board (in cells) on which the solver runs in front of the player: beyond 11×11
/// one connection build alone takes longer than a move should.
const SOLVE_MAX_CELLS: usize = 121;

/// With more empty cells than this a timed move gets no solve in front of the player: on 9x9
/// positions of games against MoHex, df-pn within a third of a second decided none beyond what
/// its root's virtual connections show (docs/players.md, "Where a move's time goes").
pub const SOLVE_EMPTY_MAX: usize = 60;

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
    /// The swap table answered the opening by swapping.
    Table,
    /// The player.
    Player,
}

impl DecidedBy {
    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            DecidedBy::GameOver => "game-over",
            DecidedBy::Solver => "solver",
            DecidedBy::Table => "table",
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
    /// The winner with the side to move to play, when the solver proved it (or the swap
    /// table holds the opening's proof).
    pub proven: Option<Color>,
    /// What the player reported (value, line, scores, depth, nodes); for a solver's move, the
    /// move, its line so far, the solver's nodes and time.
    pub choice: Choice,
    /// The time the solver took in front of the player (zero when it did not run).
    pub solve_elapsed: Duration,
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
    if pos.winner().is_some() {
        return Decision {
            mv: Move::Resign,
            by: DecidedBy::GameOver,
            proven: None,
            choice: Choice::bare(Move::Resign),
            solve_elapsed: Duration::ZERO,
            elapsed: start.elapsed(),
        };
    }
    let swap_ok = settings.allow_swap && swap_legal(pos);
    // The table's answer to the opening: a swap ends the decision, a reply leaves it to the
    // solver and the player, without a swap unless the solver proves the opening won.
    let table = if swap_ok { table_entry(pos) } else { None };
    if let Some(entry) = table.filter(|e| e.swap()) {
        let proven = (entry.source == Source::Proof).then_some(Color::Black);
        let mut choice = Choice::bare(Move::SwapPieces);
        choice.elapsed = start.elapsed();
        let d = Decision {
            mv: Move::SwapPieces,
            by: DecidedBy::Table,
            proven,
            choice,
            solve_elapsed: Duration::ZERO,
            elapsed: start.elapsed(),
        };
        trace(&d, pos.empty_count(), Duration::ZERO);
        return d;
    }
    let mut proven = None;
    let empty = pos.empty_count();
    let small = pos.cols() * pos.rows() <= SOLVE_MAX_CELLS;
    let solve_time = if small {
        solve_time(settings.solve_time, budget.time, empty, swap_ok)
    } else {
        Duration::ZERO
    };
    if !solve_time.is_zero() {
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
                    let mut won = MoveScore::valued(c, WIN);
                    (won.value, won.proven) = (None, Proven::Win);
                    choice.moves.push(won);
                }
                choice.nodes = nodes;
                choice.elapsed = start.elapsed();
                let d = Decision {
                    mv,
                    by: DecidedBy::Solver,
                    proven,
                    choice,
                    solve_elapsed: start.elapsed(),
                    elapsed: start.elapsed(),
                };
                trace(&d, empty, solve_time);
                return d;
            }
        }
    }
    let solve_elapsed = if solve_time.is_zero() { Duration::ZERO } else { start.elapsed() };
    // What the solver did not use goes to the player: its time runs from now to the move's end.
    let mut left = budget.clone();
    left.time =
        budget.time.map(|t| t.saturating_sub(start.elapsed()).max(Duration::from_millis(1)));
    left.solved = left.solved || !solve_time.is_zero();
    let choice = choose_within(pos, player, &left);
    // Where the table said to answer the opening, a player that would swap plays its best
    // cell instead, and the table's proof is the value.
    let player_may_swap = swap_ok && table.is_none();
    if proven.is_none() {
        proven = table.filter(|e| e.source == Source::Proof).map(|_| Color::White);
    }
    let best_cell = || {
        choice
            .moves
            .iter()
            .find(|m| m.proven != Proven::Loss && pos.is_empty_cell(m.cell))
            .map(|m| Move::Cell(m.cell))
    };
    let mv = match choice.mv {
        Move::SwapSides | Move::SwapPieces if player_may_swap => Move::SwapPieces,
        Move::Resign => Move::Resign,
        Move::Cell(c) if pos.is_empty_cell(c) => Move::Cell(c),
        Move::SwapSides | Move::SwapPieces if table.is_some() => {
            best_cell().unwrap_or_else(|| with_position!(pos, p => fallback(p)))
        }
        _ => with_position!(pos, p => fallback(p)),
    };
    let d = Decision {
        mv,
        by: DecidedBy::Player,
        proven,
        choice,
        solve_elapsed,
        elapsed: start.elapsed(),
    };
    trace(&d, empty, solve_time);
    d
}

/// The solver's budget in front of the player, for a move of `time` (`None`: no limit) in a
/// position with `empty` empty cells: `cap` at most, and with a move time a third of it, but
/// nothing while the position has more than [`SOLVE_EMPTY_MAX`] empty cells, unless `swap`
/// (the second move, where a proven loss is answered by swapping). Such positions the short
/// solve decides only at its root, by virtual connections, which the player's own knowledge
/// sees too (`best`'s, at its root), so its third would be lost to the player. Whatever the
/// solver does not use goes back to the player.
pub fn solve_time(cap: Duration, time: Option<Duration>, empty: usize, swap: bool) -> Duration {
    match time {
        None => cap,
        Some(_) if empty > SOLVE_EMPTY_MAX && !swap => Duration::ZERO,
        Some(t) => cap.min(t / 3),
    }
}

/// One line per move for `RUST_LOG=nash_play=debug`: where the move's time went.
fn trace(d: &Decision, empty: usize, solve_budget: Duration) {
    tracing::debug!(
        target: "nash_play::decide",
        empty,
        by = d.by.name(),
        proven = d.proven.map(|c| c.to_string()),
        solve_budget = solve_budget.as_secs_f64(),
        solve = d.solve_elapsed.as_secs_f64(),
        player = (d.elapsed - d.solve_elapsed).as_secs_f64(),
        total = d.elapsed.as_secs_f64(),
        nodes = d.choice.nodes,
        value = d.choice.value,
        "move"
    );
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

/// The swap table's row of the opening, when `pos` is Black's one stone with White to move.
fn table_entry(pos: &AnyPosition) -> Option<Entry> {
    if pos.cols() != pos.rows() {
        return None;
    }
    let cell =
        with_position!(pos, p => (p.occupied().len() == 1).then(|| p.black().iter().next()))??;
    swap_table::shipped().get(pos.cols(), cell).copied()
}

/// Whether the side to move may answer `swap-pieces` (the second move of a square board).
fn swap_legal(pos: &AnyPosition) -> bool {
    pos.clone().apply(Move::SwapPieces).is_ok()
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

/// Solves on a worker thread and gives up once the time budget (plus a grace of a quarter of
/// it) has passed or `cfg`'s own cancel flag is raised, raising the solver's cancel flag so
/// that it stops at its next check. A position whose single node takes long to evaluate thus
/// cannot hold a move up. The outcome comes with the nodes the solve took.
fn solve_within<B: BitSet>(pos: &Position<B>, cfg: &SolverConfig) -> Option<(Outcome<B>, u64)> {
    let limit = cfg.budget.time.unwrap_or(Duration::from_secs(1));
    let cancel = Arc::new(AtomicBool::new(false));
    // The caller's cancel flag (an interrupt) stops the wait too.
    let outer = cfg.budget.cancel.clone();
    let mut cfg = cfg.clone();
    cfg.budget.cancel = Some(Arc::clone(&cancel));
    let (tx, rx) = mpsc::channel();
    let p = pos.clone();
    std::thread::spawn(move || {
        let r = solve(&p, &cfg);
        let _ = tx.send((r.outcome, r.stats.nodes));
    });
    let end = Instant::now() + limit + limit / 4;
    let step = Duration::from_millis(20);
    let answer = loop {
        let left = end.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left.min(step)) {
            Ok(a) => break Some(a),
            Err(mpsc::RecvTimeoutError::Disconnected) => break None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if left.is_zero() || outer.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
                    break None;
                }
            }
        }
    };
    cancel.store(true, Ordering::Relaxed);
    answer
}

/// The shortest-path choice, for a player whose move cannot be played.
fn fallback<B: BitSet>(p: &Position<B>) -> Move {
    shortest::best_move(p, p.to_move(), p.empty_cells(), |_| 0.0).map_or(Move::Resign, Move::Cell)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// `(cap, move time, empty cells, whether a swap may answer, the solver's budget)`.
    fn check(cases: &[(Duration, Option<Duration>, usize, bool, Duration)]) {
        for &(cap, time, empty, swap, expected) in cases {
            let got = solve_time(cap, time, empty, swap);
            assert_eq!(got, expected, "cap {cap:?}, time {time:?}, {empty} empty, swap {swap}");
        }
    }

    #[test]
    fn a_timed_move_is_solved_for_a_third_of_its_time_once_few_cells_are_left() {
        let cap = GENMOVE_SOLVE_TIME;
        check(&[
            // The opening of 9x9 and anything beyond the limit: all to the player.
            (cap, Some(ms(850)), 79, false, ms(0)),
            (cap, Some(ms(850)), SOLVE_EMPTY_MAX + 1, false, ms(0)),
            // A third of the move from the limit down.
            (cap, Some(ms(900)), SOLVE_EMPTY_MAX, false, ms(300)),
            (cap, Some(ms(900)), 3, false, ms(300)),
            // The second move, where a proven loss is turned by swapping, is always solved.
            (cap, Some(ms(900)), 80, true, ms(300)),
            // The cap (`solve_time`) bounds a long move.
            (cap, Some(ms(6000)), 10, false, ms(1000)),
            (ms(0), Some(ms(900)), 10, false, ms(0)),
            (ms(0), Some(ms(900)), 80, true, ms(0)),
        ]);
    }

    #[test]
    fn without_a_move_time_the_solver_gets_its_cap() {
        check(&[
            (ms(1000), None, 80, false, ms(1000)),
            (ms(1000), None, 5, false, ms(1000)),
            (ms(0), None, 5, true, ms(0)),
        ]);
    }

    /// A player that swaps every first move and plays the first empty cell otherwise, each
    /// root move reported in board order.
    #[derive(Debug)]
    struct Swapper;

    impl Player for Swapper {
        fn spec(&self) -> String {
            "swapper".into()
        }

        fn choose(&mut self, pos: &AnyPosition, _budget: &MoveBudget) -> Choice {
            let cells: Vec<Cell> = with_position!(pos, p => p.empty_cells().iter().collect());
            let mut c = Choice::bare(Move::SwapSides);
            c.moves = cells.iter().map(|&cell| MoveScore::valued(cell, 0.0)).collect();
            c
        }
    }

    fn opening(size: usize, cell: &str) -> AnyPosition {
        let mut pos = AnyPosition::new(size, size).expect("a board");
        pos.apply(Move::Cell(cell.parse().expect("a cell"))).expect("the opening");
        pos
    }

    /// `(size, opening, swap allowed, the move (`*`: any cell), who chose it, the proven
    /// winner)`.
    type TableCase<'a> = (usize, &'a str, bool, &'a str, DecidedBy, Option<Color>);

    /// Decides each case's opening with no solver in front.
    fn check_table(cases: &[TableCase<'_>]) {
        let settings = |allow_swap| MoveSettings { solve_time: Duration::ZERO, allow_swap };
        let cfg = SolverConfig::default();
        for &(size, cell, swap, mv, by, proven) in cases {
            let pos = opening(size, cell);
            let d = decide(&pos, &mut Swapper, &MoveBudget::default(), &settings(swap), &cfg);
            let shown = match d.mv {
                Move::Cell(_) if mv == "*" => "*".to_owned(),
                m => m.to_string(),
            };
            let got = (shown, d.by, d.proven);
            assert_eq!(got, (mv.to_string(), by, proven), "{size}x{size} {cell}, swap {swap}");
        }
    }

    #[test]
    fn the_swap_table_answers_the_second_move_when_swap_is_allowed() {
        use Color::{Black, White};
        use DecidedBy::{Player, Table};
        check_table(&[
            // Strong openings the solver cannot prove in a move's time: swapped by the table.
            (9, "e5", true, "swap-pieces", Table, None),
            (11, "f6", true, "swap-pieces", Table, None),
            (13, "g7", true, "swap-pieces", Table, None),
            // A proven win for Black (7x7 d4) and its proof.
            (7, "d4", true, "swap-pieces", Table, Some(Black)),
            // A corner is answered: the player's swap is overruled by its best cell.
            (9, "a1", true, "b1", Player, None),
            (7, "a1", true, "b1", Player, Some(White)),
            (11, "a1", true, "b1", Player, None),
            (13, "a1", true, "b1", Player, None),
            // Swap not allowed: no table, the player's swap is replaced by a legal cell.
            (9, "e5", false, "*", Player, None),
            // Not in the table: the player's own choice.
            (6, "c3", true, "swap-pieces", Player, None),
        ]);
    }

    #[test]
    fn the_table_reads_only_the_second_move_of_a_square_board() {
        let cfg = SolverConfig::default();
        let settings = MoveSettings { solve_time: Duration::ZERO, allow_swap: true };
        let mut two = opening(9, "e5");
        two.apply(Move::Cell("a1".parse().expect("a cell"))).expect("a move");
        for pos in [AnyPosition::new(9, 9).expect("a board"), two] {
            assert_eq!(table_entry(&pos), None);
            let d = decide(&pos, &mut Swapper, &MoveBudget::default(), &settings, &cfg);
            assert_eq!(d.by, DecidedBy::Player);
        }
        let mut wide = AnyPosition::new(9, 8).expect("a board");
        wide.apply(Move::Cell("e5".parse().expect("a cell"))).expect("a move");
        assert_eq!(table_entry(&wide), None);
    }
}
