//! The start and end of a build: the re-solves' settings, the workers in the build's table,
//! an earlier run's state resumed, the root solved ahead on every thread, and the certificate
//! assembled from what the builder wrote.

use std::io::Write;
use std::time::Duration;

use nash_board::{BitSet, Color, Position};
use nash_proof::{At, Certificate, Spool};
use nash_search::{Knowledge, SharedTable, SolverConfig, SolverKind, Worker};
use nash_vc::OrLimit;

use crate::builder::{position_key, Builder};
use crate::config::CertifyConfig;
use crate::cpu::{process_cpu, thread_cpu};
use crate::error::CertifyError;
use crate::journal::{self, Journal, Resumed};
use crate::plan::Planner;
use crate::sink::{Out, Sink, Streamed};
use crate::workers::{in_stages, Allowance, Stage, Workers};

/// A certificate of `pos` in `table` (the build's own or a [`nash_search::SolverTable`]'s),
/// its nodes in memory, written to a spool, or written to a resumable build's files.
pub(crate) fn certificate_in<B: BitSet>(
    pos: &Position<B>,
    cfg: &CertifyConfig,
    table: &SharedTable<B>,
    sink: Sink<'_>,
) -> Result<Streamed, CertifyError> {
    if cfg.search > nash_proof::SEARCH_LIMIT {
        return Err(CertifyError::SearchLimit(cfg.search));
    }
    let mut file;
    let (spool, journal) = match sink {
        Sink::Memory => (None, None),
        Sink::Spool(w) => (Some(w), None),
        Sink::Files(files) => {
            let settings = journal::Settings::of(pos, position_key(pos), cfg);
            let (resumed, nodes, journal) = journal::open::<B>(files, settings)?;
            file = std::io::BufWriter::new(nodes);
            (Some(&mut file as &mut dyn Write), Some((journal, resumed)))
        }
    };
    let _span = tracing::debug_span!("certificate").entered();
    let solvers = Solvers::of(cfg);
    let out = match spool {
        Some(w) => Out::Spool(Spool::new(w)),
        None => Out::Memory(Vec::new()),
    };
    let mut b = Builder::new(solvers.workers(pos, table, cfg.threads), cfg, out);
    if let Some((journal, resumed)) = journal {
        resume(&mut b, journal, resumed, cfg);
    }
    solvers.root_ahead(&mut b, pos, cfg, table);
    let built = b.build(pos);
    // The journal's CPU time and both files flushed whether or not the build ended well: a
    // build out of budget is resumed later.
    let synced = b.sync();
    built?;
    synced?;
    Ok(finish(b, pos))
}

/// The settings of a build's re-solves: the worker's, the one with fill-in that takes over
/// after [`CertifyConfig::fill_in_beyond`] nodes, and with [`CertifyConfig::winner_fill_in`]
/// one for each player taken as the winner.
struct Solvers {
    step: SolverConfig,
    fallback: Option<(u64, SolverConfig)>,
    for_winner: Option<[SolverConfig; 2]>,
}

impl Solvers {
    fn of(cfg: &CertifyConfig) -> Solvers {
        let mut step = SolverConfig { kind: SolverKind::Dfpn, threads: 1, ..cfg.solver.clone() };
        step.knowledge.decompositions &= cfg.decompositions;
        // The greedy OR rule's fulls depend on the order in which connections arrive, so a resumed
        // build (its caches cold) would find others and write another certificate, as valid but
        // not the same; the re-solves use the exhaustive OR-5 rule, with which it writes the same.
        if step.knowledge.hsearch.or_limit == OrLimit::Greedy {
            let or5 = Knowledge::or5_hsearch();
            let h = &mut step.knowledge.hsearch;
            h.or_limit = or5.or_limit;
            h.or_budget = h.or_budget.or(or5.or_budget);
        }
        // Likewise the order in which semi-naive evaluation finds connections differs between a
        // set derived from its parent's and one built from scratch, which with the caps and the OR
        // budget changes the set: the re-solves pair every new full with every stored one.
        step.knowledge.hsearch.semi_naive = false;
        // The checker re-applies only the AND and OR rules, and a recording store adds no edge
        // template, but one derived from a parent's set would keep the parent's: none at all.
        step.knowledge.hsearch.templates = false;
        // The reply order remembers what won in earlier re-solves, which a resumed build skips
        // (their answers come from its journal): off, so that it writes the same certificate.
        step.reply_order = false;
        let fallback = (!cfg.fill_in && step.knowledge.fill_in)
            .then_some(cfg.fill_in_beyond)
            .flatten()
            .map(|n| (n.max(1), step.clone()));
        // With the winner's fill-in, one worker for each player taken as the winner.
        let for_winner = |c: Color| {
            let mut s = step.clone();
            s.knowledge.fill_in_for = Some(c);
            s
        };
        let for_winner = (cfg.winner_fill_in && step.knowledge.fill_in)
            .then(|| [for_winner(Color::Black), for_winner(Color::White)]);
        step.knowledge.fill_in &= cfg.fill_in;
        Solvers { step, fallback, for_winner }
    }

    /// The workers of `threads` re-solving threads on `pos`'s board, in `table`.
    fn workers<'t, B: BitSet>(
        &self,
        pos: &Position<B>,
        table: &'t SharedTable<B>,
        threads: usize,
    ) -> Vec<Workers<'t, B>> {
        let worker = |cfg: &SolverConfig| Worker::new(pos, cfg, table);
        (0..threads.max(1))
            .map(|_| Workers {
                planner: Planner::new(),
                worker: worker(&self.step),
                filler: self.fallback.as_ref().map(|(n, s)| (*n, worker(s))),
                for_winner: self.for_winner.as_ref().map(|s| s.each_ref().map(worker)),
                given_up: Duration::ZERO,
            })
            .collect()
    }

    /// With several threads, the root's re-solve (one of a build's longest) made on every
    /// thread first: the building thread's own re-solve of it then finds it in the table.
    fn root_ahead<B: BitSet>(
        &self,
        b: &mut Builder<'_, B>,
        pos: &Position<B>,
        cfg: &CertifyConfig,
        table: &SharedTable<B>,
    ) {
        // With a first move, the position after it takes the root's place (and nothing is
        // solved ahead when the move cannot be played or decides the game at once: the build
        // refuses the one and needs no solve for the other).
        let root = match cfg.first_move {
            None => Some(pos.clone()),
            Some(m) => {
                let mut p = pos.clone();
                (pos.winner().is_none() && p.play(m).is_ok() && p.winner().is_none()).then_some(p)
            }
        };
        let root = root.filter(|r| cfg.threads > 1 && !b.answers.contains_key(&position_key(r)));
        let Some(root) = &root else { return };
        // The stages and settings of the workers' re-solve (`Workers::solve`); only a warm-up,
        // so its result and whether it ran out are not kept.
        let beyond =
            if self.for_winner.is_some() { None } else { self.fallback.as_ref().map(|f| f.0) };
        let cpu = (thread_cpu(), process_cpu());
        let allowed = Allowance { budget: &b.budget, start: b.start };
        let _ = in_stages(beyond, allowed, &mut b.used, &mut false, |stage, budget| {
            let each = match (&self.for_winner, stage, &self.fallback) {
                (Some(w), _, _) => &w[pos.to_move().index()],
                (None, Stage::FillIn, Some((_, f))) => f,
                _ => &self.step,
            };
            let all = SolverConfig { threads: cfg.threads, budget, ..each.clone() };
            table.solve(root, &all)
        });
        // Its threads' CPU time: the process's while it ran, less the building thread's.
        if let ((Some(t0), Some(p0)), (Some(t1), Some(p1))) = (cpu, (thread_cpu(), process_cpu())) {
            b.threads_cpu += p1.saturating_sub(p0).saturating_sub(t1.saturating_sub(t0));
        }
    }
}

/// The builder's state taken from what an earlier run of a resumable build left.
fn resume<B: BitSet>(
    b: &mut Builder<'_, B>,
    journal: Journal,
    resumed: Resumed<B>,
    cfg: &CertifyConfig,
) {
    b.made = resumed.made.into_iter().collect();
    b.answers = resumed.answers.into_iter().collect();
    b.closed = resumed.closed;
    b.leaves = resumed.leaves;
    b.kept = b.closed.len();
    b.kept_bytes = resumed.bytes;
    b.cpu_before = resumed.cpu;
    b.journal = Some(journal);
    if cfg.progress && b.kept > 0 {
        eprintln!(
            "certificate: resuming with {} nodes ({:.1} MB), {} re-solves, {:.0} s of CPU \
             from earlier runs",
            b.kept,
            b.kept_bytes as f64 / 1e6,
            b.answers.len(),
            b.cpu_before.as_secs_f64()
        );
        if let Some(before) = resumed.fill_in_beyond {
            let nodes = |n: Option<u64>| n.map_or("no limit".to_string(), |n| format!("{n} nodes"));
            eprintln!(
                "certificate: a re-solve without fill-in had {} when the journal was started, \
                 {} now",
                nodes(before),
                nodes(cfg.fill_in_beyond)
            );
        }
    }
}

/// The certificate (or its head, with the nodes streamed) of a build that ended well.
fn finish<B: BitSet>(b: Builder<'_, B>, pos: &Position<B>) -> Streamed {
    let stones = |c: Color| pos.stones(c).iter().map(At).collect();
    let given_up = b.given_up();
    let (nodes, bytes, list) = match b.out {
        Out::Memory(list) => (list.len(), 0, list),
        Out::Spool(s) => (b.closed.len(), b.kept_bytes + s.bytes(), Vec::new()),
    };
    Streamed {
        head: Certificate {
            cols: pos.cols() as u8,
            rows: pos.rows() as u8,
            black: stones(Color::Black),
            white: stones(Color::White),
            to_move: pos.to_move().into(),
            winner: b.winner.into(),
            nodes: list,
        },
        nodes,
        bytes,
        solves: b.solves,
        filled: b.filled,
        given_up,
        kept: b.kept,
        journaled: b.journaled,
        cpu_before: b.cpu_before,
        threads_cpu: b.threads_cpu,
    }
}
