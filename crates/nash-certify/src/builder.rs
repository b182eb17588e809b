//! The builder of a certificate: it finds the winner, re-solves the positions the strategy
//! reaches (through [`crate::workers`]) and keeps what it has written (one node per position
//! reached, by [`position_key`]).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::{Duration, Instant};

use nash_board::{BitSet, Cell, Color, Position};
use nash_search::{Budget, Outcome, SolveResult};

use crate::config::CertifyConfig;
use crate::cpu::thread_cpu;
use crate::error::CertifyError;
use crate::journal;
use crate::plan::{Before, Plan};
use crate::sink::Out;
use crate::workers::{on_threads, Allowance, Resolved, Workers};

mod sync;
mod write;

/// A 128-bit hash of a position (stones and side to move), the builder's key for the node
/// written for it: a third of the memory of the position itself on boards of a `u128`. Two
/// positions with one hash would share a node, which the checker would refuse; with 128 bits
/// that is vanishingly unlikely.
pub(crate) fn position_key<B: BitSet>(pos: &Position<B>) -> u128 {
    let half = |salt: u64| {
        let mut h = DefaultHasher::new();
        salt.hash(&mut h);
        (pos.black(), pos.white(), pos.to_move()).hash(&mut h);
        h.finish()
    };
    (u128::from(half(1)) << 64) | u128::from(half(2))
}

/// A certificate being built: its re-solving workers, the nodes written and how to find
/// them again, the journal of a resumable build, and what the build has spent.
pub(crate) struct Builder<'t, B: BitSet> {
    /// The workers of each re-solving thread ([`crate::CertifyConfig::threads`]), the first also the
    /// building thread's own (its H-searches for `Vc` leaves too).
    pub(crate) workers: Vec<Workers<'t, B>>,
    /// Whether the root is solved: until then the winner's fill-in takes the player to move
    /// as the winner.
    pub(crate) winner_known: bool,
    /// The positions solved, and how many of them by `filler`.
    pub(crate) solves: u64,
    pub(crate) filled: u64,
    pub(crate) budget: Budget,
    pub(crate) start: Instant,
    pub(crate) used: u64,
    pub(crate) search: usize,
    pub(crate) vc: bool,
    pub(crate) winner: Color,
    pub(crate) out: Out<'t>,
    /// For each node written, whether it closes a line on its own (`Won` or `Vc`): no
    /// restriction is written in front of it.
    pub(crate) closed: Vec<bool>,
    /// The node written for each position, by [`position_key`].
    pub(crate) made: HashMap<u128, u32>,
    /// The shared `Won` and `Search` nodes, once written.
    pub(crate) leaves: [Option<u32>; 2],
    pub(crate) line: Vec<Cell>,
    /// For each cover on the way to the node being written: the option being written (from 1)
    /// and how many cells were in every carrier before it.
    pub(crate) covers: Vec<(usize, usize)>,
    /// A resumable build's journal, and the re-solves' results an earlier run recorded in it.
    pub(crate) journal: Option<journal::Journal>,
    pub(crate) answers: HashMap<u128, journal::Answer<B>>,
    /// The re-solves answered from `answers`.
    pub(crate) journaled: u64,
    /// The nodes and bytes an earlier run wrote, and its CPU time.
    pub(crate) kept: usize,
    pub(crate) kept_bytes: u64,
    pub(crate) cpu_before: Duration,
    /// The building thread's CPU time when this run started, and the CPU time of the
    /// re-solving threads besides it.
    pub(crate) cpu_start: Option<Duration>,
    pub(crate) threads_cpu: Duration,
    /// Whether to write progress lines, and when the files were last synced (and the last
    /// line written).
    pub(crate) progress: bool,
    pub(crate) synced: Instant,
    pub(crate) max_nodes: Option<usize>,
    /// [`CertifyConfig::first_move`].
    pub(crate) first: Option<Cell>,
}

impl<'t, B: BitSet> Builder<'t, B> {
    /// A build with `workers` of the settings `cfg`, its nodes going to `out`.
    pub(crate) fn new(
        workers: Vec<Workers<'t, B>>,
        cfg: &CertifyConfig,
        out: Out<'t>,
    ) -> Builder<'t, B> {
        Builder {
            workers,
            winner_known: false,
            solves: 0,
            filled: 0,
            budget: cfg.solver.budget.clone(),
            start: Instant::now(),
            used: 0,
            search: cfg.search,
            vc: cfg.vc,
            winner: Color::Black,
            out,
            closed: Vec::new(),
            made: HashMap::new(),
            leaves: [None; 2],
            line: Vec::new(),
            covers: Vec::new(),
            journal: None,
            answers: HashMap::new(),
            journaled: 0,
            kept: 0,
            kept_bytes: 0,
            cpu_start: thread_cpu(),
            cpu_before: Duration::ZERO,
            threads_cpu: Duration::ZERO,
            progress: cfg.progress,
            synced: Instant::now(),
            max_nodes: cfg.max_nodes,
            first: cfg.first_move,
        }
    }

    /// Finds the winner and writes the root's node (and all below it).
    pub(crate) fn build(&mut self, pos: &Position<B>) -> Result<u32, CertifyError> {
        if let Some(m) = self.first {
            return self.build_from(pos, m);
        }
        self.winner = match self.solve(pos)?.outcome {
            Outcome::Win { .. } => pos.to_move(),
            _ => !pos.to_move(),
        };
        self.winner_known = true;
        let mut p = pos.clone();
        self.node(&mut p)
    }

    /// [`Builder::build`] with the first move `m` given: the player to move is the winner if
    /// the position after `m` is lost for the opponent.
    fn build_from(&mut self, pos: &Position<B>, m: Cell) -> Result<u32, CertifyError> {
        let refuse = |why| CertifyError::FirstMove(m, why);
        if pos.winner().is_some() {
            return Err(refuse("the game is over"));
        }
        if !pos.empty_cells().contains(m) {
            return Err(refuse("it is not an empty cell"));
        }
        self.winner = pos.to_move();
        self.winner_known = true;
        let mut p = pos.clone();
        p.play_unchecked(m);
        let carrier = if p.winner() == Some(self.winner) {
            B::EMPTY
        } else {
            match self.solve(&p)?.outcome {
                Outcome::Loss { carrier } => carrier,
                _ => return Err(refuse("it does not win")),
            }
        };
        let keep = carrier.with(m) & pos.empty_cells();
        let mut p = pos.clone();
        self.node_with(&mut p, Some(Plan::Solved { mv: Some(m), keep, semis: Vec::new() }))
    }

    fn solve(&mut self, pos: &Position<B>) -> Result<SolveResult<B>, CertifyError> {
        if let Some(r) = SolveResult::of_finished(pos) {
            return Ok(r);
        }
        if self.journal.is_none() {
            return self.solve_now(pos);
        }
        let key = position_key(pos);
        if let Some(r) = self.journal_answer(key) {
            return Ok(r);
        }
        let filled = self.filled;
        let r = self.solve_now(pos)?;
        self.record(key, &r.outcome, self.filled > filled)?;
        self.flush_solves()?;
        Ok(r)
    }

    /// The re-solve of the position `key` that an earlier run recorded in the journal, counted
    /// as a re-solve.
    fn journal_answer(&mut self, key: u128) -> Option<SolveResult<B>> {
        let a = self.answers.get(&key)?;
        self.solves += 1;
        self.journaled += 1;
        self.filled += u64::from(a.filled);
        Some(SolveResult { outcome: a.outcome.clone(), stats: Default::default() })
    }

    /// Records a re-solve's result in the journal, if there is one.
    fn record(
        &mut self,
        key: u128,
        outcome: &Outcome<B>,
        filled: bool,
    ) -> Result<(), CertifyError> {
        match &mut self.journal {
            Some(j) => {
                j.solved(key, outcome, filled).map_err(|e| CertifyError::Write(e.to_string()))
            }
            None => Ok(()),
        }
    }

    /// After re-solves, the files flushed (a re-solve is worth a write: a kill loses at most
    /// the ones under way and the nodes since the last) and the progress looked at.
    fn flush_solves(&mut self) -> Result<(), CertifyError> {
        if let Out::Spool(s) = &mut self.out {
            s.get_mut().flush().map_err(|e| CertifyError::Write(e.to_string()))?;
        }
        if let Some(j) = &mut self.journal {
            j.flush().map_err(|e| CertifyError::Write(e.to_string()))?;
        }
        self.tick()
    }

    /// A re-solve of `pos` by the solver, on the building thread.
    fn solve_now(&mut self, pos: &Position<B>) -> Result<SolveResult<B>, CertifyError> {
        self.solves += 1;
        let winner = if self.winner_known { self.winner } else { pos.to_move() };
        let mut filled = false;
        let allowed = Allowance { budget: &self.budget, start: self.start };
        let r = self.workers[0].solve(pos, allowed, &mut self.used, &mut filled, winner);
        self.filled += u64::from(filled);
        r
    }

    /// [`Builder::plan_unsolved`] of each of `positions`, side by side on the build's threads
    /// (each with its own H-searches), in the order of `positions`.
    fn plan_all(&mut self, positions: &[Position<B>]) -> Vec<Before<B>> {
        if positions.len() < 2 {
            return positions.iter().map(|p| self.plan_unsolved(p)).collect();
        }
        let (winner, search, vc) = (self.winner, self.search, self.vc);
        let (all, cpu) = on_threads(&mut self.workers, positions.len(), |w, i| {
            w.planner.plan_unsolved(&positions[i], winner, search, vc)
        });
        self.threads_cpu += cpu;
        all
    }

    /// [`Builder::solve`] of each of `positions`, side by side on the build's threads; the
    /// results in the order of `positions`, or the first error in that order.
    fn solve_all(
        &mut self,
        positions: &[Position<B>],
    ) -> Result<Vec<SolveResult<B>>, CertifyError> {
        if self.workers.len() == 1 || positions.len() < 2 {
            return positions.iter().map(|p| self.solve(p)).collect();
        }
        let mut results: Vec<Option<SolveResult<B>>> = Vec::with_capacity(positions.len());
        let mut todo = Vec::new();
        for (i, p) in positions.iter().enumerate() {
            if let Some(r) = SolveResult::of_finished(p) {
                results.push(Some(r));
                continue;
            }
            if let Some(r) = self.journal_answer(position_key(p)) {
                results.push(Some(r));
                continue;
            }
            results.push(None);
            todo.push(i);
        }
        // One solve is the building thread's, with no threads to start.
        if let [i] = todo[..] {
            results[i] = Some(self.solve(&positions[i])?);
            todo.clear();
        }
        if todo.is_empty() {
            return Ok(results.into_iter().flatten().collect());
        }
        let winner = if self.winner_known { self.winner } else { positions[0].to_move() };
        let (allowed, used) = (Allowance { budget: &self.budget, start: self.start }, self.used);
        let ahead = self.winner_known.then_some(self.search);
        let (solved, cpu) = on_threads(&mut self.workers, todo.len(), |w, k| {
            let (i, mut nodes, mut filled) = (todo[k], used, false);
            let result = w.solve(&positions[i], allowed, &mut nodes, &mut filled, winner);
            if let Some(search) = ahead {
                w.solve_ahead(&positions[i], &result, search, allowed, &mut nodes, winner);
            }
            Resolved { i, result, nodes: nodes - used, filled }
        });
        self.threads_cpu += cpu;
        let mut first_error = None;
        for r in solved {
            self.solves += 1;
            self.used += r.nodes;
            self.filled += u64::from(r.filled);
            match r.result {
                Ok(res) => {
                    self.record(position_key(&positions[r.i]), &res.outcome, r.filled)?;
                    results[r.i] = Some(res);
                }
                Err(e) => {
                    // The results are in order: the first error kept is the first in it.
                    first_error.get_or_insert(e);
                }
            }
        }
        self.flush_solves()?;
        if let Some(e) = first_error {
            return Err(e);
        }
        Ok(results.into_iter().map(|r| r.expect("every position solved")).collect())
    }
}
