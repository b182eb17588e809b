//! Parallel df-pn over the root's moves as jobs with node budgets ([`Parallel::RootJobs`]).

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

use nash_board::{BitSet, Cell, Position};

use super::{start_dn, Dfpn, BUSY, START_PN};
use crate::budget::Limits;
#[cfg(doc)]
use crate::config::Parallel;
use crate::config::{Budget, SolverConfig};
use crate::context::Ctx;
use crate::knowledge::{self, Pipeline, Verdict};
use crate::outcome::{Outcome, SolveResult, Stats, StopReason};
use crate::table::INF;

/// A root move of [`solve_root_jobs`].
#[derive(Clone, Copy, Debug)]
struct Job {
    mv: Cell,
    /// The child's disproof number (what proving that the move wins costs), as last seen.
    dn: u32,
    /// Nodes the next search of this move may take.
    budget: u64,
    /// Whether a worker searches the move within its budget now (it took it).
    taken: bool,
    /// Workers searching the move now: the one that took it, and helpers.
    workers: u32,
    solved: bool,
}

/// Nodes of a root move's first search in [`solve_root_jobs`]; each further search of the same
/// move may take twice as many.
const FIRST_BUDGET: u64 = 256;

/// Parallel df-pn over the root's moves as jobs with node budgets. A free worker takes the
/// unsolved move with the smallest disproof number (the move df-pn at the root would search),
/// searches it within its budget and, if it is still open, puts it back with its new numbers
/// and a doubled budget. The table keeps the work, so a move searched again resumes where it
/// stopped. A move whose opponent looks twice as close to a win as to a loss (counting
/// unsearched replies at [`START_PN`] each: `pn · 2 · START_PN < dn`) is searched to the end
/// the next time: it is most likely a refutation that a lost root needs anyway. Like df-pn at
/// the root, the workers leave a move that grows hard for one that looks easier, which finds a
/// winning move that the move order ranks low; like a plain split of the root, the moves of a
/// lost root are refuted side by side. A worker that finds every open move taken helps with
/// one (the fewest workers, then the smallest disproof number) until it is solved or its
/// budget runs out, spreading over its subtree as the workers of [`super::tree::solve_parallel`] do: a lost
/// root often ends with one hard refutation, which used to leave the other workers idle.
pub(super) fn solve_root_jobs<B: BitSet>(pos: &Position<B>, ctx: &Ctx<'_, B>) -> SolveResult<B> {
    let (cfg, table, plan) = (ctx.cfg, ctx.table, ctx.plan);
    let start = nash_board::clock::Instant::now();
    let mut stats = Stats::default();
    let mut root = pos.clone();
    let mut pipe = Pipeline::with_plan(&cfg.knowledge, pos.geometry(), plan);
    // The root's analysis polls the solve's stop as every node's does.
    let root_limits = Limits::started_at(cfg, &cfg.budget, start);
    pipe.set_stop(root_limits.stop());
    let node = {
        let _stage = tracing::debug_span!("root_analysis").entered();
        pipe.analyse(&mut root, 0, &mut stats)
    };
    let moves = match node.verdict {
        Verdict::Win { mv, carrier } => {
            stats.time = start.elapsed();
            return SolveResult { outcome: Outcome::Win { winning_move: mv, carrier }, stats };
        }
        Verdict::Loss { carrier } => {
            stats.time = start.elapsed();
            return SolveResult { outcome: Outcome::Loss { carrier }, stats };
        }
        Verdict::Open => {
            let mut order = Vec::new();
            pipe.order(&root, node.moves, &mut order);
            order
        }
    };
    knowledge::undo_fills(&mut root, &node);
    drop(pipe);
    let me = pos.to_move();
    let n = moves.len();
    let jobs = moves
        .iter()
        .enumerate()
        .map(|(rank, &mv)| Job {
            mv,
            dn: start_dn(rank),
            budget: FIRST_BUDGET,
            taken: false,
            workers: 0,
            solved: false,
        })
        .collect();
    let busy: Vec<AtomicU32> = (0..BUSY).map(|_| AtomicU32::new(0)).collect();
    let shared = std::sync::Mutex::new(JobBoard {
        jobs,
        threats: node.support | node.fill_carrier(!me),
        refuted: 0,
        win: None,
        stopped: None,
        recall: (0..n).map(|_| Arc::default()).collect(),
    });
    let done = Arc::new(AtomicBool::new(false));
    let single = SolverConfig { threads: 1, ..cfg.clone() };
    let worker_stats: Vec<Stats> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..cfg.threads.min(n).max(1))
            .map(|_| {
                let (done, shared, single) = (done.clone(), &shared, &single);
                let busy = &busy[..];
                s.spawn(move || {
                    // A worker that starts after the deadline (or after the root was solved)
                    // leaves before it sets up its caches.
                    let mut first =
                        Limits::started_at(single, &single.budget, start).with_done(done.clone());
                    if first.poll() {
                        let reason = first.reason().unwrap_or(StopReason::Cancelled);
                        let mut board = shared.lock().unwrap_or_else(|e| e.into_inner());
                        board.stopped.get_or_insert(reason);
                        return Stats::default();
                    }
                    drop(first);
                    let mut w = Dfpn::new(pos, single, table, plan);
                    w.busy = Some(busy);
                    let mut st = Stats::default();
                    let mut last = None;
                    while !done.load(Ordering::Relaxed) {
                        let mut board = shared.lock().unwrap_or_else(|e| e.into_inner());
                        let (i, job, helper) = match board.take(last) {
                            Take::Job(i, job) => (i, job, false),
                            Take::Help(i, job) => (i, job, true),
                            Take::Finished => break,
                        };
                        let recall = board.recall[i].clone();
                        drop(board);
                        last = Some(i);
                        let mut p = pos.clone();
                        p.play_unchecked(job.mv);
                        let (o, bounds) = if p.winner() == Some(me) {
                            (Outcome::Loss { carrier: B::EMPTY }, (INF, 0))
                        } else {
                            // A helper stays until the move is solved or its taker's budget
                            // runs out.
                            let nodes = (!helper).then_some(job.budget);
                            let budget = Budget { nodes, ..single.budget.clone() };
                            let limits = Limits::started_at(single, &budget, start)
                                .with_done(done.clone())
                                .with_done(recall);
                            w.reroot(&p, limits);
                            let o = w.run();
                            st.merge(&std::mem::take(&mut w.stats));
                            (o, w.bounds)
                        };
                        let mut board = shared.lock().unwrap_or_else(|e| e.into_inner());
                        if board.report(i, o, bounds, n, helper) {
                            done.store(true, Ordering::Relaxed);
                        }
                        drop(board);
                    }
                    st
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    for st in &worker_stats {
        stats.merge(st);
    }
    let board = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    stats.time = start.elapsed();
    let outcome = match board.win {
        Some(w) => w,
        None if board.refuted == n => Outcome::Loss { carrier: board.threats },
        None => Outcome::Unknown { reason: board.stopped.unwrap_or(StopReason::Cancelled) },
    };
    SolveResult { outcome, stats }
}

/// The shared state of [`solve_root_jobs`].
struct JobBoard<B> {
    jobs: Vec<Job>,
    /// The union of the refuted moves' carriers and the root's support.
    threats: B,
    refuted: usize,
    win: Option<Outcome<B>>,
    stopped: Option<StopReason>,
    /// Per job, raised to call its workers back (their limits poll it): the move was solved, or
    /// the budget of the worker that took it ran out. Lowered when a worker takes it again.
    recall: Vec<Arc<AtomicBool>>,
}

/// What a worker gets from the [`JobBoard`].
enum Take {
    /// A move to search with its budget.
    Job(usize, Job),
    /// A move another worker is searching, to search alongside it.
    Help(usize, Job),
    Finished,
}

impl<B: BitSet> JobBoard<B> {
    /// Marks the next job to search as running and returns it: the free move with the smallest
    /// disproof number, the worker's `last` move on a tie (its caches are warm), then the
    /// earliest in the move order. When every open move is being searched, the worker helps
    /// with the one that has the fewest workers (the smallest disproof number on a tie): at the
    /// end of a solve one hard move is often all that is left.
    fn take(&mut self, last: Option<usize>) -> Take {
        let open = self.jobs.iter().enumerate().filter(|(_, j)| !j.solved);
        let pick = open.min_by_key(|&(i, j)| (j.workers, j.dn, last != Some(i), i));
        match pick {
            Some((i, j)) => {
                let helper = j.taken;
                let j = &mut self.jobs[i];
                j.workers += 1;
                j.taken = true;
                if helper {
                    Take::Help(i, *j)
                } else {
                    self.recall[i].store(false, Ordering::Relaxed);
                    Take::Job(i, *j)
                }
            }
            None => Take::Finished,
        }
    }

    /// Records what a search of job `i` found (the child's outcome and its proof and
    /// disproof numbers); returns whether the solve is over. The search of a `helper`, or one
    /// that was recalled (the move was solved meanwhile, or its budget ran out), only counts
    /// when it solved the move. A search that ended on its own (solved, or out of budget)
    /// recalls the other workers on the move.
    fn report(
        &mut self,
        i: usize,
        o: Outcome<B>,
        (pn, dn): (u32, u32),
        n: usize,
        helper: bool,
    ) -> bool {
        let recalled = helper || self.recall[i].load(Ordering::Relaxed);
        if !matches!(o, Outcome::Unknown { reason: StopReason::Cancelled }) {
            self.recall[i].store(true, Ordering::Relaxed);
        }
        let j = &mut self.jobs[i];
        j.workers -= 1;
        if !helper {
            j.taken = false;
        }
        if j.solved {
            return false;
        }
        match o {
            Outcome::Loss { carrier } => {
                j.solved = true;
                let mv = j.mv;
                self.win = Some(Outcome::Win { winning_move: Some(mv), carrier: carrier.with(mv) });
                true
            }
            Outcome::Win { carrier, .. } => {
                j.solved = true;
                self.threats |= carrier;
                self.refuted += 1;
                self.refuted == n
            }
            Outcome::Unknown { reason: StopReason::NodeLimit | StopReason::Cancelled }
                if recalled =>
            {
                false
            }
            Outcome::Unknown { reason: StopReason::NodeLimit } => {
                j.dn = dn.max(1);
                j.budget = if pn.saturating_mul(2 * START_PN) < dn {
                    u64::MAX
                } else {
                    j.budget.saturating_mul(2)
                };
                false
            }
            Outcome::Unknown { reason } => {
                self.stopped.get_or_insert(reason);
                true
            }
        }
    }
}
