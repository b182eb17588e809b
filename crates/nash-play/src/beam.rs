//! Beam-search minimax (Horrell et al. s.2.3.1): at most K lines are followed. At the player's
//! turns every move from every line is scored and the K best lines go on; at the opponent's
//! turns each line is extended by the reply the evaluation likes best for the opponent. After
//! `depth` such rounds the best line's first move is played.
//!
//! Two additions to the paper's agent, so that the beam cannot miss what is in front of it: an
//! immediate win is played, and an opponent's single immediate win is blocked, before the beam
//! starts (its min step only sees a loss in one on the lines the beam kept).

use nash_board::clock::Instant;

use nash_board::{
    with_position, AnyPosition, BitSet, Cell, Color, Move, PerWidth, Position, WidthFamily,
};

use crate::alphabeta::eval_names;
use crate::eval::{EvalKind, Evaluator};
use crate::player::{valued_moves, Choice, MoveBudget, Player};
use crate::spec::settings_table;
use crate::swap;

/// The beam player's settings.
#[derive(Clone, Debug)]
pub(crate) struct BeamConfig {
    pub(crate) eval: EvalKind,
    /// Lines kept (K).
    pub(crate) beam: usize,
    /// Rounds of one move and one reply.
    pub(crate) depth: u32,
    pub(crate) swap: bool,
}

impl Default for BeamConfig {
    fn default() -> BeamConfig {
        BeamConfig { eval: EvalKind::PlaysToWin, beam: 6, depth: 2, swap: false }
    }
}

settings_table!(BeamConfig {
    "eval" => eval: eval_names();
    "beam" => beam: "a number of lines from 1 to 1000", if |k| (1..=1000).contains(k);
    "depth" => depth: "a number of rounds from 1 to 100", if |d| (1..=100).contains(d);
    "swap" => swap: "true or false";
});

/// One line of the beam: its moves from the root and its value for the player.
#[derive(Clone, Debug, Default)]
struct Line {
    moves: Vec<Cell>,
    value: f64,
    /// The game ended on this line.
    over: bool,
}

/// The evaluator and buffers of one board type.
#[derive(Debug)]
struct State<B: BitSet> {
    eval: Evaluator<B>,
    scores: Vec<(Cell, f64)>,
    /// Candidates of a max step: (line, move, value).
    pool: Vec<(usize, Cell, f64)>,
    lines: Vec<Line>,
    next: Vec<Line>,
}

/// The beam-search player.
#[derive(Debug)]
pub struct Beam {
    cfg: BeamConfig,
    /// The evaluator and buffers of the board last played on.
    state: PerWidth<States>,
}

/// The beam's states, one type per bitboard width.
#[derive(Debug)]
struct States;

impl WidthFamily for States {
    type Of<B: BitSet> = State<B>;
}

impl Beam {
    pub(crate) fn new(cfg: BeamConfig) -> Beam {
        Beam { cfg, state: PerWidth::new() }
    }
}

/// The cells where `color` would connect at once.
fn winning_cells<B: BitSet>(pos: &mut Position<B>, color: Color) -> impl Iterator<Item = Cell> {
    let mut found = B::EMPTY;
    for c in pos.empty_cells().iter() {
        if pos.play_as(color, c).is_ok() {
            if pos.winner() == Some(color) {
                found.insert(c);
            }
            pos.undo();
        }
    }
    found.into_iter()
}

impl<B: BitSet> State<B> {
    fn run(&mut self, cfg: &BeamConfig, root: &Position<B>, budget: &MoveBudget) -> Choice {
        let start = Instant::now();
        let deadline = budget.time.and_then(|t| start.checked_add(t));
        let mut nodes = 0u64;
        // A step scores every empty cell: it starts only if the node budget covers it all.
        let cost = root.empty_cells().len() as u64;
        let out = |nodes: u64| {
            budget.nodes.is_some_and(|n| nodes + cost > n)
                || deadline.is_some_and(|d| Instant::now() >= d)
                || budget
                    .cancel
                    .as_ref()
                    .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        };
        let me = root.to_move();
        let mut pos = root.clone();
        let single = |cells: &mut dyn Iterator<Item = Cell>| {
            let first = cells.next();
            first.filter(|_| cells.next().is_none())
        };
        if let Some(c) = winning_cells(&mut pos, me).next() {
            return forced(c, crate::eval::WIN, start);
        }
        if let Some(c) = single(&mut winning_cells(&mut pos, !me)) {
            return forced(c, 0.0, start);
        }

        self.lines.clear();
        self.lines.push(Line::default());
        let mut depth = 0;
        'rounds: for _ in 0..cfg.depth {
            // Max step: every move of every line, the K best lines go on.
            self.pool.clear();
            for (i, line) in self.lines.iter().enumerate() {
                if line.over {
                    self.pool.push((i, Cell::NORTH, line.value));
                    continue;
                }
                if out(nodes) {
                    break 'rounds;
                }
                replay(&mut pos, root, &line.moves);
                self.eval.move_scores(&pos, &mut self.scores);
                nodes += self.scores.len() as u64;
                self.pool.extend(self.scores.iter().map(|&(c, v)| (i, c, v)));
            }
            self.pool.sort_unstable_by(|a, b| {
                b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1))
            });
            self.pool.truncate(cfg.beam.max(1));
            self.next.clear();
            for &(i, c, v) in &self.pool {
                let mut line = self.lines[i].clone();
                if !line.over {
                    line.moves.push(c);
                    line.value = v;
                    replay(&mut pos, root, &line.moves);
                    line.over = pos.winner().is_some();
                }
                self.next.push(line);
            }
            // Min step: each line gets the reply best for the opponent.
            for line in &mut self.next {
                if line.over {
                    continue;
                }
                if out(nodes) {
                    break 'rounds;
                }
                replay(&mut pos, root, &line.moves);
                self.eval.move_scores(&pos, &mut self.scores);
                nodes += self.scores.len() as u64;
                let best =
                    self.scores.iter().max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
                if let Some(&(c, v)) = best {
                    line.moves.push(c);
                    line.value = -v;
                    replay(&mut pos, root, &line.moves);
                    line.over = pos.winner().is_some();
                }
            }
            std::mem::swap(&mut self.lines, &mut self.next);
            depth += 1;
        }
        let best = self
            .lines
            .iter()
            .filter(|l| !l.moves.is_empty())
            .max_by(|a, b| a.value.total_cmp(&b.value).then(b.moves[0].cmp(&a.moves[0])));
        let (mv, value, pv) = match best {
            Some(l) => (l.moves[0], l.value, l.moves.clone()),
            None => {
                // Stopped before the first round ended: the empty cell nearest the centre.
                let c = central(root);
                (c, 0.0, vec![c])
            }
        };
        let mut scores: Vec<(Cell, f64)> = Vec::new();
        for l in &self.lines {
            if let Some(&first) = l.moves.first() {
                match scores.iter_mut().find(|(c, _)| *c == first) {
                    Some(s) => s.1 = s.1.max(l.value),
                    None => scores.push((first, l.value)),
                }
            }
        }
        Choice {
            mv: Move::Cell(mv),
            value: Some(value),
            moves: valued_moves(scores, &pv),
            pv,
            depth: 2 * depth,
            nodes,
            elapsed: start.elapsed(),
        }
    }
}

/// A move played without searching: a win or the only block.
fn forced(c: Cell, value: f64, start: Instant) -> Choice {
    Choice {
        value: Some(value),
        pv: vec![c],
        elapsed: start.elapsed(),
        ..Choice::bare(Move::Cell(c))
    }
}

/// The empty cell of `pos` nearest the centre (board order breaks ties).
fn central<B: BitSet>(pos: &Position<B>) -> Cell {
    let (cols, rows) = (pos.cols() as i32, pos.rows() as i32);
    pos.empty_cells()
        .iter()
        .min_by_key(|c| {
            let dc = 2 * i32::from(c.col()) - (cols - 1);
            let dr = 2 * i32::from(c.row()) - (rows - 1);
            ((dc.abs() + dr.abs() + (dc + dr).abs()) / 2, B::bit_of(*c))
        })
        .expect("an open position has an empty cell")
}

/// Sets `pos` to `root` followed by `moves` (taking back what it held beyond the root).
fn replay<B: BitSet>(pos: &mut Position<B>, root: &Position<B>, moves: &[Cell]) {
    while pos.num_steps() > root.num_steps() {
        pos.undo();
    }
    for &m in moves {
        pos.play_unchecked(m);
    }
}

impl Player for Beam {
    fn spec(&self) -> String {
        format!("beam:{}", self.cfg.settings_text())
    }

    fn choose(&mut self, pos: &AnyPosition, budget: &MoveBudget) -> Choice {
        let cfg = &self.cfg;
        let choice = with_position!(pos, p => {
            if p.winner().is_some() || p.empty_cells().is_empty() {
                Choice::bare(Move::Resign)
            } else {
                let state = self.state.get(
                    p,
                    |s: &State<_>| s.eval.kind() == cfg.eval,
                    || State {
                        eval: Evaluator::new(cfg.eval),
                        scores: Vec::new(),
                        pool: Vec::new(),
                        lines: Vec::new(),
                        next: Vec::new(),
                    },
                );
                state.run(cfg, p, budget)
            }
        });
        swap::rule(pos, cfg.swap, choice)
    }

    fn new_game(&mut self) {
        self.state.clear();
    }
}
