//! Proof certificates from solves: the winner's strategy written out for nash-proof's checker.
//!
//! The strategy is built by solving again each position it reaches, with one df-pn worker in
//! one table (as the principal variation is), or one per thread in that table, the positions
//! after the loser's moves at one turn solved side by side ([`CertifyConfig::threads`]). At
//! the winner's turn the solver's move is played; at the loser's turn every empty cell is
//! answered. Before either, the position is
//! restricted to the solve's carrier: the loser is given every empty cell outside it, which
//! the carrier's definition allows (a threat pattern, van Rijswijck 2002 s.2.3; the
//! architecture's carrier invariant), and which the checker takes as a `Restrict` node. A
//! position with few enough empty cells is left to the checker's exhaustive search, and one
//! where the winner has a virtual connection between their edges ends in a `Vc` node with its
//! derivation: from nash-vc's H-search, which records how it makes each connection, or from
//! the smaller one of [`derive`] where nash-vc's finds none. Positions reached twice become
//! one shared node. Nothing the solver says is trusted by the checker: a
//! wrong carrier or move makes a certificate that fails, and this builder reports it at once.

use std::collections::HashMap;
use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use nash_board::{BitSet, Cell, Color, Position};
use nash_proof::{At, Certificate, End, Node, Spool};
use nash_vc::OrLimit;

use crate::config::{Budget, Knowledge, SolverConfig, SolverKind};
use crate::dfpn::Resolver;
use crate::entry::Setup;
use crate::outcome::{Outcome, SolveResult, StopReason};
use crate::table::Table;

mod derive;
mod journal;

pub use journal::Partial;

/// How a certificate is built.
#[derive(Clone, Debug)]
pub struct CertifyConfig {
    /// The solver's settings for the re-solves (df-pn on one thread whatever `kind` says; its
    /// budget bounds the whole certificate).
    pub solver: SolverConfig,
    /// Positions with at most this many empty cells are left to the checker's exhaustive
    /// search (at most [`nash_proof::SEARCH_LIMIT`]; 0 writes every line out to a won board).
    pub search: usize,
    /// Close lines with virtual connections between the winner's edges, each with its
    /// H-search derivation (a `Vc` node), where nash-vc's H-search (recording how it makes
    /// each connection) or, failing that, a small H-search of this module finds one.
    pub vc: bool,
    /// Re-solve with the solver's fill-in (dead and captured cells filled, inferior moves
    /// pruned) as `solver` has it. Off by default: a proof found after the fill keeps the
    /// cells captured and the empty cells their patterns need in its carrier, and the larger
    /// carriers make certificates several times larger (docs/proofs.md).
    pub fill_in: bool,
    /// Re-solve with decompositions (a position split into parts, each proven apart) as
    /// `solver` has them. Off by default: the carriers of their proofs are larger, and
    /// without them 7×7 certificates were 37 to 74% smaller and quicker to build
    /// (docs/proofs.md).
    pub decompositions: bool,
    /// Without `fill_in`: a re-solve that has searched this many nodes without an answer is
    /// given up and the position solved with fill-in instead, by a second worker in the same
    /// table (`None`: never). The positions near the root of a large board, which take far
    /// longer to solve without fill-in, are then solved with it and the others without.
    pub fill_in_beyond: Option<u64>,
    /// Re-solve with the fill-in that adds nothing to the winner's carriers
    /// ([`crate::Knowledge::fill_in_for`] the winner): dead cells and the loser's captures
    /// filled with the loser's stones, the winner's inferior moves pruned. Instead of
    /// `fill_in` and `fill_in_beyond`; the root is solved so with its player to move taken as
    /// the winner, which any outcome keeps sound.
    pub winner_fill_in: bool,
    /// Write a line to stderr about every minute: nodes written, their bytes, CPU time and
    /// re-solves.
    pub progress: bool,
    /// Stop, as out of budget ([`StopReason::NodeLimit`]), before writing a node beyond this
    /// many: with [`certificate_resumable`], a build made in parts.
    pub max_nodes: Option<usize>,
    /// Threads for the re-solves: at each of the loser's turns, the positions after the
    /// loser's moves that need a solve are solved side by side, each thread with its own
    /// workers in the shared table. With more than one, which proof a re-solve finds depends on
    /// what the other threads stored first, so two builds can differ (each certificate is as
    /// valid), and a node budget can be overrun by what the threads searched at once.
    pub threads: usize,
    /// The winner's first move, instead of the one the root's re-solve finds: the position
    /// after it is solved, the certificate refused if its player to move does not lose there,
    /// and otherwise starts with it. Every answer of the loser to the first move is in the
    /// certificate, so the move can change its size (docs/proofs.md). `None`: the re-solve's
    /// move.
    pub first_move: Option<Cell>,
}

impl Default for CertifyConfig {
    fn default() -> CertifyConfig {
        CertifyConfig {
            solver: SolverConfig::default(),
            search: DEFAULT_SEARCH,
            vc: true,
            fill_in: false,
            decompositions: false,
            fill_in_beyond: None,
            winner_fill_in: false,
            progress: false,
            max_nodes: None,
            threads: 1,
            first_move: None,
        }
    }
}

/// The default of [`CertifyConfig::search`]: small enough that the checker's search stays
/// quick, large enough to cut the certificate's last moves.
pub const DEFAULT_SEARCH: usize = 8;

/// Why no certificate was written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CertifyError {
    /// A re-solve ran out of budget.
    Unknown(StopReason),
    /// A re-solve contradicted an earlier one (a solver fault the certificate exposed).
    Inconsistent {
        /// The moves from the root to the position.
        line: Vec<Cell>,
        /// What went wrong there.
        what: String,
    },
    /// [`CertifyConfig::search`] beyond [`nash_proof::SEARCH_LIMIT`].
    SearchLimit(usize),
    /// A streamed certificate's nodes could not be written.
    Write(String),
    /// A resumable build's journal that cannot be resumed (another build's, or not one).
    Resume(String),
    /// [`CertifyConfig::first_move`] is not a winning move of the position: why.
    FirstMove(Cell, &'static str),
}

impl fmt::Display for CertifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertifyError::Unknown(reason) => write!(f, "no certificate: {reason}"),
            CertifyError::Inconsistent { line, what } => {
                let line: Vec<String> = line.iter().map(Cell::to_string).collect();
                write!(f, "no certificate: after {:?}: {what}", line.join(" "))
            }
            CertifyError::SearchLimit(n) => write!(
                f,
                "a search of {n} empty cells is beyond the checker's limit of {}",
                nash_proof::SEARCH_LIMIT
            ),
            CertifyError::Write(e) => write!(f, "cannot write the certificate's nodes: {e}"),
            CertifyError::Resume(e) => write!(f, "cannot resume the certificate: {e}"),
            CertifyError::FirstMove(at, why) => {
                write!(f, "no certificate starting with {at}: {why}")
            }
        }
    }
}

impl std::error::Error for CertifyError {}

/// A certificate of `pos`'s value: the player who wins it and how, for [`nash_proof::check`].
///
/// ```
/// use nash_board::{Bitboard, Color, Position};
/// use nash_search::{certificate, CertifyConfig};
///
/// let pos = Position::<Bitboard>::square(4).unwrap();
/// let cert = certificate(&pos, &CertifyConfig::default()).unwrap();
/// assert_eq!(nash_proof::check(&cert).unwrap().winner, Color::Black);
/// ```
pub fn certificate<B: BitSet>(
    pos: &Position<B>,
    cfg: &CertifyConfig,
) -> Result<Certificate, CertifyError> {
    in_own_table(pos, cfg, Sink::Memory).map(|s| s.head)
}

/// A certificate whose nodes were written to a spool as they were made.
#[derive(Clone, Debug)]
pub struct Streamed {
    /// The certificate without its nodes (`nodes` is empty).
    pub head: Certificate,
    /// The nodes written.
    pub nodes: usize,
    /// The bytes written to the spool.
    pub bytes: u64,
    /// The positions solved again, and how many of them with fill-in after
    /// [`CertifyConfig::fill_in_beyond`] nodes without.
    pub solves: u64,
    /// See `solves`.
    pub filled: u64,
    /// The CPU time the re-solving threads spent, in this run of the build, on the re-solves
    /// without fill-in that ran out of their `fill_in_beyond` nodes before those with it
    /// (zero where the system does not tell a thread's CPU time).
    pub given_up: Duration,
    /// Of a resumed build ([`certificate_resumable`]): the nodes kept from earlier runs, the
    /// re-solves answered from the journal (counted in `solves`), and the CPU time of the
    /// earlier runs (measured on the building thread; wall time where the system does not
    /// tell).
    pub kept: usize,
    /// See `kept`.
    pub journaled: u64,
    /// See `kept`.
    pub cpu_before: Duration,
    /// The CPU time of this run's re-solving threads when there were several
    /// ([`CertifyConfig::threads`]); the building thread's own is not in it.
    pub threads_cpu: Duration,
}

/// [`certificate`] with its nodes written to `spool` as they are made (each node's postcard
/// encoding, as [`nash_proof::Spool`] writes it) instead of held in memory, where a large
/// certificate takes many times its encoding. The binary form is
/// [`Certificate::binary_head`] of the returned head and count, then the spool's bytes.
pub fn certificate_to<B: BitSet>(
    pos: &Position<B>,
    cfg: &CertifyConfig,
    spool: &mut dyn Write,
) -> Result<Streamed, CertifyError> {
    in_own_table(pos, cfg, Sink::Spool(spool))
}

/// [`certificate_to`] that survives a kill: the nodes go to `files.nodes` and what the builder
/// knows besides them to `files.journal` (the positions given nodes, the re-solves' results,
/// the CPU time), and a build started again on the files of an earlier one of the same
/// position and settings goes on where it stopped, answering the re-solves it made from the
/// journal. A journal of another build is refused. The files stay when the build fails (its
/// budget ends, say), for the next run to resume; when it succeeds, `files.nodes` holds all
/// the nodes, for the caller to read and remove ([`Partial::remove`]).
pub fn certificate_resumable<B: BitSet>(
    pos: &Position<B>,
    cfg: &CertifyConfig,
    files: &Partial,
) -> Result<Streamed, CertifyError> {
    in_own_table(pos, cfg, Sink::Files(files))
}

/// [`certificate_in`] in a table of its own, on the narrower bitboard where `pos` fits.
fn in_own_table<B: BitSet>(
    pos: &Position<B>,
    cfg: &CertifyConfig,
    sink: Sink<'_>,
) -> Result<Streamed, CertifyError> {
    if let Some(tiny) = crate::narrowed(pos) {
        return in_own_table(&tiny, cfg, sink);
    }
    let setup = Setup::one(&cfg.solver, pos.geometry());
    let table = setup.table().map_err(refused)?;
    certificate_in(pos, cfg, &table, sink)
}

/// Where a certificate's nodes go.
pub(crate) enum Sink<'w> {
    /// Into the certificate.
    Memory,
    /// To a writer, as [`nash_proof::Spool`] writes them.
    Spool(&'w mut dyn Write),
    /// To a resumable build's files.
    Files(&'w Partial),
}

/// The error of a table that could not be had (its outcome says why).
pub(crate) fn refused<C>(o: Outcome<C>) -> CertifyError {
    match o {
        Outcome::Unknown { reason } => CertifyError::Unknown(reason),
        _ => CertifyError::Unknown(StopReason::Cancelled),
    }
}

/// [`certificate`] in a table the caller owns, its nodes in memory, written to a spool, or
/// written to a resumable build's files.
pub(crate) fn certificate_in<B: BitSet>(
    pos: &Position<B>,
    cfg: &CertifyConfig,
    table: &Table<B>,
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
        .map(|n| (n.max(1), Setup::one(&step, pos.geometry())));
    // With the winner's fill-in, one worker for each player taken as the winner.
    let for_winner = |c: Color| {
        let mut s = step.clone();
        s.knowledge.fill_in_for = Some(c);
        Setup::one(&s, pos.geometry())
    };
    let winner_setups = (cfg.winner_fill_in && step.knowledge.fill_in)
        .then(|| [for_winner(Color::Black), for_winner(Color::White)]);
    step.knowledge.fill_in &= cfg.fill_in;
    let setup = Setup::one(&step, pos.geometry());
    let workers = (0..cfg.threads.max(1))
        .map(|_| Workers {
            planner: Planner::new(),
            step: step.clone(),
            worker: Resolver::new(pos, &setup.ctx(table)),
            filler: fallback.as_ref().map(|(n, s)| (*n, Resolver::new(pos, &s.ctx(table)))),
            for_winner: winner_setups
                .as_ref()
                .map(|s| s.each_ref().map(|s| Resolver::new(pos, &s.ctx(table)))),
            given_up: Duration::ZERO,
        })
        .collect();
    let mut b = Builder {
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
        out: match spool {
            Some(w) => Out::Spool(Spool::new(w)),
            None => Out::Memory(Vec::new()),
        },
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
        cpu_start: journal::thread_cpu(),
        cpu_before: Duration::ZERO,
        threads_cpu: Duration::ZERO,
        progress: cfg.progress,
        synced: Instant::now(),
        max_nodes: cfg.max_nodes,
        first: cfg.first_move,
    };
    if let Some((journal, resumed)) = journal {
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
                let nodes =
                    |n: Option<u64>| n.map_or("no limit".to_string(), |n| format!("{n} nodes"));
                eprintln!(
                    "certificate: a re-solve without fill-in had {} when the journal was started, \
                     {} now",
                    nodes(before),
                    nodes(cfg.fill_in_beyond)
                );
            }
        }
    }
    // With a first move, the position after it takes the root's place (and nothing is
    // solved ahead when the move cannot be played or decides the game at once: the build
    // refuses the one and needs no solve for the other).
    let root = match cfg.first_move {
        None => Some(pos.clone()),
        Some(m) => {
            let mut p = pos.clone();
            (pos.winner().is_none() && p.play(m).is_ok() && crate::decided(&p).is_none())
                .then_some(p)
        }
    };
    let root = root.filter(|r| cfg.threads > 1 && !b.answers.contains_key(&position_key(r)));
    if let Some(root) = &root {
        // The root's re-solve, one of a build's longest, is made on every thread first: the
        // building thread's own re-solve of it then finds it in the table.
        // The stages and settings of the workers' re-solve (`Workers::solve`); only a warm-up,
        // so its result and whether it ran out are not kept.
        let beyond = if winner_setups.is_some() { None } else { fallback.as_ref().map(|f| f.0) };
        let cpu = (journal::thread_cpu(), journal::process_cpu());
        let _ = in_stages(beyond, &b.budget, b.start, &mut b.used, &mut false, |stage, budget| {
            let each = match (&winner_setups, stage, &fallback) {
                (Some(w), _, _) => &w[pos.to_move().index()].each,
                (None, Stage::FillIn, Some((_, f))) => &f.each,
                _ => &setup.each,
            };
            let all = SolverConfig { threads: cfg.threads, budget, ..each.clone() };
            crate::entry::solve_in(root, &Setup::one(&all, pos.geometry()).ctx(table))
        });
        // Its threads' CPU time: the process's while it ran, less the building thread's.
        if let ((Some(t0), Some(p0)), (Some(t1), Some(p1))) =
            (cpu, (journal::thread_cpu(), journal::process_cpu()))
        {
            b.threads_cpu += p1.saturating_sub(p0).saturating_sub(t1.saturating_sub(t0));
        }
    }
    let built = b.build(pos);
    // The journal's CPU time and both files flushed whether or not the build ended well: a
    // build out of budget is resumed later.
    let synced = b.sync();
    built?;
    synced?;
    let stones = |c: Color| pos.stones(c).iter().map(At).collect();
    let given_up = b.given_up();
    let (nodes, bytes, list) = match b.out {
        Out::Memory(list) => (list.len(), 0, list),
        Out::Spool(s) => (b.closed.len(), b.kept_bytes + s.bytes(), Vec::new()),
    };
    Ok(Streamed {
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
    })
}

/// Where the builder's nodes go.
enum Out<'w> {
    Memory(Vec<Node>),
    Spool(Spool<&'w mut dyn Write>),
}

/// How often a build syncs its files and, if it shows its progress, writes a line.
const PROGRESS_EVERY: Duration = Duration::from_secs(60);

/// A 128-bit hash of a position (stones and side to move), the builder's key for the node
/// written for it: a third of the memory of the position itself on boards of a `u128`. Two
/// positions with one hash would share a node, which the checker would refuse; with 128 bits
/// that is vanishingly unlikely.
fn position_key<B: BitSet>(pos: &Position<B>) -> u128 {
    let half = |salt: u64| {
        let mut h = DefaultHasher::new();
        salt.hash(&mut h);
        (pos.black(), pos.white(), pos.to_move()).hash(&mut h);
        h.finish()
    };
    (u128::from(half(1)) << 64) | u128::from(half(2))
}

/// The most semi connections between the winner's edges kept from one nash-vc search (the
/// smallest), to answer the loser's moves outside their carriers.
const SEMIS: usize = 8;

/// A step of nash-vc's derivation as the certificate writes it.
fn step(s: nash_vc::DerivationStep) -> nash_proof::Step {
    match s {
        nash_vc::DerivationStep::Touch(a, b) => nash_proof::Step::Touch(End(a), End(b)),
        nash_vc::DerivationStep::And(i, j) => nash_proof::Step::And(i, j),
        nash_vc::DerivationStep::Or(list) => nash_proof::Step::Or(list),
    }
}

/// How a position's win is shown: the node to write and the empty cells it keeps.
enum Plan<B> {
    /// The winner has connected.
    Won,
    /// Few enough empty cells (all kept) for the checker's search.
    Search(B),
    /// A virtual connection between the winner's edges.
    Vc(derive::Derived<B>),
    /// The solver's move (the winner's turn) or none (the loser's), within its carrier; at the
    /// loser's turn also the semi connections between the winner's edges that the H-search
    /// found on the way (each answers every loser move outside its carrier).
    Solved { mv: Option<Cell>, keep: B, semis: Vec<derive::Derived<B>> },
}

/// A plan, or what is known of it before the solver decides.
enum Before<B> {
    Done(Plan<B>),
    /// The solver must decide; the semi connections between the winner's edges found so far.
    Solve(Vec<derive::Derived<B>>),
}

impl<B: BitSet> Plan<B> {
    fn keep(&self) -> B {
        match self {
            Plan::Won => B::EMPTY,
            Plan::Search(empty) => *empty,
            Plan::Vc(d) => d.carrier,
            Plan::Solved { keep, .. } => *keep,
        }
    }
}

/// The H-searches that look for a `Vc` leaf, one set per thread: nash-vc's, recording how it
/// makes each connection, tried first, and this module's own ([`derive::Deriver`]).
struct Planner<B: BitSet> {
    vcs: nash_vc::VcBuilder<B>,
    derive: derive::Deriver<B>,
}

impl<B: BitSet> Planner<B> {
    fn new() -> Planner<B> {
        let mut vcs = nash_vc::VcBuilder::<B>::default();
        vcs.set_recording(true);
        Planner { vcs, derive: derive::Deriver::new() }
    }

    /// [`Builder::plan`] as far as it goes without the solver: the plan, or, where the solver
    /// must decide, the semi connections found on the way (`winner` wins; positions with at
    /// most `search` empty cells are left to the checker; `vc`: look for connections).
    fn plan_unsolved(
        &mut self,
        pos: &Position<B>,
        winner: Color,
        search: usize,
        vc: bool,
    ) -> Before<B> {
        let empty = pos.empty_cells();
        if pos.winner() == Some(winner) {
            return Before::Done(Plan::Won);
        }
        if empty.len() <= search {
            return Before::Done(Plan::Search(empty));
        }
        let winner_moves = pos.to_move() == winner;
        let mut semis = Vec::new();
        if vc {
            if let Some(d) = self.recorded(pos, winner, winner_moves, &mut semis) {
                return Before::Done(Plan::Vc(d));
            }
            if let Some(d) = self.derive.edge_to_edge(pos, winner, winner_moves, &mut semis) {
                return Before::Done(Plan::Vc(d));
            }
        }
        Before::Solve(semis)
    }

    /// A connection between the winner's edges that nash-vc's H-search finds in `pos`, with
    /// the derivation it recorded: full, or semi when the winner is to move; the one with the
    /// smallest carrier among those it derives. Without one, the semi connections between the
    /// edges are added to `semis`.
    fn recorded(
        &mut self,
        pos: &Position<B>,
        winner: Color,
        winner_moves: bool,
        semis: &mut Vec<derive::Derived<B>>,
    ) -> Option<derive::Derived<B>> {
        self.vcs.build_side(None, pos, winner);
        let [e1, e2] = winner.edges().map(Cell::edge);
        let mut conns: Vec<_> = self.vcs.connections(winner, e1, e2).collect();
        conns.sort_by_key(|c| c.carrier.len());
        let full = |c: &nash_vc::Connection<B>| c.kind == nash_vc::ConnectionKind::Full;
        let written = |c: &nash_vc::Connection<B>| {
            let steps = self.vcs.derivation(c)?.into_iter().map(step).collect();
            Some(derive::Derived { steps, carrier: c.carrier })
        };
        if let Some(d) = conns.iter().filter(|c| winner_moves || full(c)).find_map(written) {
            return Some(d);
        }
        semis.extend(conns.iter().filter(|c| !full(c)).take(SEMIS).filter_map(written));
        None
    }
}

/// The solvers of one re-solving thread: the worker, the one with fill-in that takes over
/// after [`CertifyConfig::fill_in_beyond`] nodes, and with [`CertifyConfig::winner_fill_in`]
/// one for each player taken as the winner; all in the build's table.
struct Workers<'t, B: BitSet> {
    planner: Planner<B>,
    step: SolverConfig,
    worker: Resolver<'t, B>,
    filler: Option<(u64, Resolver<'t, B>)>,
    for_winner: Option<[Resolver<'t, B>; 2]>,
    /// The CPU time this thread spent in re-solves without fill-in that ran out of their
    /// `fill_in_beyond` nodes and were given up for the worker with fill-in.
    given_up: Duration,
}

impl<B: BitSet> Workers<'_, B> {
    /// Re-solves `pos` with what is left of `budget` after `used` nodes since `start`, adding
    /// the nodes searched to `used` and setting `filled` when the worker with fill-in took
    /// over; `winner` is the player the winner's fill-in takes as the winner.
    fn solve(
        &mut self,
        pos: &Position<B>,
        budget: &Budget,
        start: Instant,
        used: &mut u64,
        filled: &mut bool,
        winner: Color,
    ) -> Result<SolveResult<B>, CertifyError> {
        let Workers { step, worker, filler, for_winner, given_up, .. } = self;
        // The winner's fill-in is one stage: `fill_in_beyond` does not apply to it.
        let beyond = if for_winner.is_some() { None } else { filler.as_ref().map(|f| f.0) };
        in_stages(beyond, budget, start, used, filled, |stage, b| {
            step.budget = b;
            // The thread's CPU time of a first stage that may be given up.
            let began =
                (stage == Stage::First && beyond.is_some()).then(journal::thread_cpu).flatten();
            let r = match (for_winner.as_mut(), stage, filler.as_mut()) {
                (Some(w), _, _) => w[winner.index()].solve(pos, step),
                (None, Stage::FillIn, Some((_, f))) => f.solve(pos, step),
                _ => worker.solve(pos, step),
            };
            if matches!(r.outcome, Outcome::Unknown { reason: StopReason::NodeLimit }) {
                if let Some((a, b)) = began.zip(journal::thread_cpu()) {
                    *given_up += b.saturating_sub(a);
                }
            }
            r
        })
    }

    /// After `result`, the solve of `p` (the winner to move) that found the winner's move:
    /// solves the position the builder goes on to, the loser's stones outside the carrier and
    /// then the move, so that the builder's own re-solve of it is a table hit. Nothing when
    /// that position is left to the checker's search (at most `search` empty cells).
    #[allow(clippy::too_many_arguments)]
    fn solve_ahead(
        &mut self,
        p: &Position<B>,
        result: &Result<SolveResult<B>, CertifyError>,
        search: usize,
        budget: &Budget,
        start: Instant,
        used: &mut u64,
        winner: Color,
    ) {
        let Ok(SolveResult { outcome: Outcome::Win { winning_move: Some(m), carrier }, .. }) =
            result
        else {
            return;
        };
        let keep = carrier.with(*m) & p.empty_cells();
        if p.to_move() != winner || keep.len() <= search + 1 {
            return;
        }
        let mut after = p.clone();
        after.fill(!winner, p.empty_cells() - keep);
        after.play_unchecked(*m);
        if crate::decided(&after).is_none() {
            let _ = self.solve(&after, budget, start, used, &mut false, winner);
        }
    }
}

/// What the look at `p`, the position after the loser's move of `plans[i]`, gave: its plan
/// (a connection found joins `semis`, for the loser's other moves), or the semi connections
/// found on the way, kept in `waiting` beside the position in `positions` for the solver.
fn settle<B: BitSet>(
    i: usize,
    p: &Position<B>,
    before: Before<B>,
    plans: &mut [(Cell, Option<Plan<B>>)],
    semis: &mut Vec<derive::Derived<B>>,
    waiting: &mut Vec<(usize, Vec<derive::Derived<B>>)>,
    positions: &mut Vec<Position<B>>,
) {
    match before {
        Before::Done(plan) => {
            if let Plan::Vc(d) = &plan {
                semis.push(d.clone());
            }
            plans[i].1 = Some(plan);
        }
        Before::Solve(found) => {
            waiting.push((i, found));
            positions.push(p.clone());
        }
    }
}

/// Runs `job(worker, i)` for every `i < count` side by side, a thread per worker, each taking
/// the next index as it is free: the results in the order of `i`, and the threads' CPU time.
fn on_threads<'t, B: BitSet, T: Send>(
    workers: &mut [Workers<'t, B>],
    count: usize,
    job: impl Fn(&mut Workers<'t, B>, usize) -> T + Sync,
) -> (Vec<T>, Duration) {
    let next = AtomicUsize::new(0);
    let (job, next) = (&job, &next);
    let threads: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .map(|w| {
                scope.spawn(move || {
                    let cpu = journal::thread_cpu();
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count {
                            break;
                        }
                        done.push((i, job(w, i)));
                    }
                    let cpu = journal::thread_cpu().zip(cpu).map(|(b, a)| b.saturating_sub(a));
                    (done, cpu.unwrap_or_default())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a certificate thread panicked")).collect()
    });
    let mut all = Vec::with_capacity(count);
    let mut total = Duration::ZERO;
    for (done, cpu) in threads {
        total += cpu;
        all.extend(done);
    }
    all.sort_by_key(|(i, _)| *i);
    (all.into_iter().map(|(_, t)| t).collect(), total)
}

/// A stage of a re-solve ([`in_stages`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The solve itself, or with `fill_in_beyond` the one without fill-in within that many
    /// nodes.
    First,
    /// With `fill_in_beyond`, the solve with fill-in after the first ran out of nodes.
    FillIn,
}

/// A re-solve in its stages within what is left of `budget` after `used` nodes since `start`:
/// `run(stage, budget)` makes each. Without `beyond`, one; with it, the first within `beyond`
/// nodes, then, if those ran out before the budget did, the second with what is left, and
/// `filled` set. The nodes searched are added to `used`.
fn in_stages<B: BitSet>(
    beyond: Option<u64>,
    budget: &Budget,
    start: Instant,
    used: &mut u64,
    filled: &mut bool,
    mut run: impl FnMut(Stage, Budget) -> SolveResult<B>,
) -> Result<SolveResult<B>, CertifyError> {
    let b = left(budget, start, *used)?;
    let Some(beyond) = beyond else {
        let r = run(Stage::First, b);
        *used += r.stats.nodes;
        return known(r);
    };
    let short = b.nodes.map_or(true, |n| n > beyond);
    let r =
        run(Stage::First, Budget { nodes: Some(b.nodes.map_or(beyond, |n| n.min(beyond))), ..b });
    *used += r.stats.nodes;
    if !matches!(r.outcome, Outcome::Unknown { reason: StopReason::NodeLimit } if short) {
        return known(r);
    }
    *filled = true;
    let r = run(Stage::FillIn, left(budget, start, *used)?);
    *used += r.stats.nodes;
    known(r)
}

/// A solve's result as the builder takes it: an outcome of `Unknown` is an error.
fn known<B: BitSet>(r: SolveResult<B>) -> Result<SolveResult<B>, CertifyError> {
    match r.outcome {
        Outcome::Unknown { reason } => Err(CertifyError::Unknown(reason)),
        _ => Ok(r),
    }
}

/// What is left of the certificate's `budget` after `used` nodes since `start`, or why
/// nothing is.
fn left(budget: &Budget, start: Instant, used: u64) -> Result<Budget, CertifyError> {
    let Some(left) = crate::pv::left(budget, start, used) else {
        let out_of_time = budget.time.is_some_and(|t| start.elapsed() >= t);
        let out_of_nodes = budget.nodes.is_some_and(|n| used >= n);
        return Err(CertifyError::Unknown(match (out_of_time, out_of_nodes) {
            (true, _) => StopReason::TimeLimit,
            (_, true) => StopReason::NodeLimit,
            _ => StopReason::Cancelled,
        }));
    };
    Ok(left)
}

/// One re-solve of [`Builder::solve_all`]: the position's index, the result, the nodes
/// searched and whether the worker with fill-in took over.
struct Resolved<B: BitSet> {
    i: usize,
    result: Result<SolveResult<B>, CertifyError>,
    nodes: u64,
    filled: bool,
}

struct Builder<'t, B: BitSet> {
    /// The workers of each re-solving thread ([`CertifyConfig::threads`]), the first also the
    /// building thread's own (its H-searches for `Vc` leaves too).
    workers: Vec<Workers<'t, B>>,
    /// Whether the root is solved: until then the winner's fill-in takes the player to move
    /// as the winner.
    winner_known: bool,
    /// The positions solved, and how many of them by `filler`.
    solves: u64,
    filled: u64,
    budget: crate::Budget,
    start: Instant,
    used: u64,
    search: usize,
    vc: bool,
    winner: Color,
    out: Out<'t>,
    /// For each node written, whether it closes a line on its own (`Won` or `Vc`): no
    /// restriction is written in front of it.
    closed: Vec<bool>,
    /// The node written for each position, by [`position_key`].
    made: HashMap<u128, u32>,
    /// The shared `Won` and `Search` nodes, once written.
    leaves: [Option<u32>; 2],
    line: Vec<Cell>,
    /// For each cover on the way to the node being written: the option being written (from 1)
    /// and how many cells were in every carrier before it.
    covers: Vec<(usize, usize)>,
    /// A resumable build's journal, and the re-solves' results an earlier run recorded in it.
    journal: Option<journal::Journal>,
    answers: HashMap<u128, journal::Answer<B>>,
    /// The re-solves answered from `answers`.
    journaled: u64,
    /// The nodes and bytes an earlier run wrote, and its CPU time.
    kept: usize,
    kept_bytes: u64,
    cpu_before: Duration,
    /// The building thread's CPU time when this run started, and the CPU time of the
    /// re-solving threads besides it.
    cpu_start: Option<Duration>,
    threads_cpu: Duration,
    /// Whether to write progress lines, and when the files were last synced (and the last
    /// line written).
    progress: bool,
    synced: Instant,
    max_nodes: Option<usize>,
    /// [`CertifyConfig::first_move`].
    first: Option<Cell>,
}

impl<B: BitSet> Builder<'_, B> {
    /// Finds the winner and writes the root's node (and all below it).
    fn build(&mut self, pos: &Position<B>) -> Result<u32, CertifyError> {
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

    /// The build's CPU time so far, over all runs (wall time where the system does not tell
    /// the thread's).
    fn cpu(&self) -> Duration {
        let now = match (journal::thread_cpu(), self.cpu_start) {
            (Some(now), Some(start)) => now.saturating_sub(start),
            _ => self.start.elapsed(),
        };
        self.cpu_before + now + self.threads_cpu
    }

    /// Records the CPU time in the journal and flushes the spool and the journal.
    fn sync(&mut self) -> Result<(), CertifyError> {
        let cpu = self.cpu();
        let write = |e: std::io::Error| CertifyError::Write(e.to_string());
        if let Out::Spool(s) = &mut self.out {
            s.get_mut().flush().map_err(write)?;
        }
        if let Some(j) = &mut self.journal {
            j.cpu(cpu).map_err(write)?;
            j.flush().map_err(write)?;
        }
        Ok(())
    }

    /// About every minute: the files synced (with the CPU time so far in the journal), and a
    /// progress line if asked for.
    fn tick(&mut self) -> Result<(), CertifyError> {
        if !(self.progress || self.journal.is_some()) || self.synced.elapsed() < PROGRESS_EVERY {
            return Ok(());
        }
        self.synced = Instant::now();
        self.sync()?;
        if !self.progress {
            return Ok(());
        }
        let bytes = match &self.out {
            Out::Spool(s) => self.kept_bytes + s.bytes(),
            Out::Memory(_) => 0,
        };
        // Where the build is: the first moves of the line it is writing, and the option of
        // each of the first covers on it (the options are written one after another; each
        // takes cells out of those in every carrier, and the cover ends when none is left).
        let at: Vec<String> = self.line.iter().take(4).map(Cell::to_string).collect();
        let cover = match self.covers.split_first() {
            Some(((k, n), deeper)) => {
                let deeper: String =
                    deeper.iter().take(2).map(|(k, n)| format!(", then {k} ({n})")).collect();
                format!("; covers: option {k} ({n} cells in every carrier before it){deeper}")
            }
            None => String::new(),
        };
        eprintln!(
            "certificate: {} nodes written ({:.1} MB), {:.0} s of CPU, {} re-solves ({} from \
             the journal, {} with fill-in{}), at {}{cover}",
            self.closed.len(),
            bytes as f64 / 1e6,
            self.cpu().as_secs_f64(),
            self.solves,
            self.journaled,
            self.filled,
            match self.given_up() {
                t if t.is_zero() => String::new(),
                t => format!(" after {:.0} s of CPU without it", t.as_secs_f64()),
            },
            if at.is_empty() { "the root".to_string() } else { at.join(" ") }
        );
        Ok(())
    }

    /// The CPU time the threads spent in re-solves given up for the worker with fill-in (in
    /// this run of the build).
    fn given_up(&self) -> Duration {
        self.workers.iter().map(|w| w.given_up).sum()
    }

    /// Records that `pos`'s key has node `id`, in the journal too.
    fn remember(&mut self, key: u128, id: u32) -> Result<(), CertifyError> {
        if self.made.insert(key, id) != Some(id) {
            if let Some(j) = &mut self.journal {
                j.made(key, id).map_err(|e| CertifyError::Write(e.to_string()))?;
            }
        }
        Ok(())
    }

    fn solve(&mut self, pos: &Position<B>) -> Result<SolveResult<B>, CertifyError> {
        if let Some(r) = crate::decided(pos) {
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
        let r = self.workers[0].solve(
            pos,
            &self.budget,
            self.start,
            &mut self.used,
            &mut filled,
            winner,
        );
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
            if let Some(r) = crate::decided(p) {
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
        let (budget, start, used) = (&self.budget, self.start, self.used);
        let ahead = self.winner_known.then_some(self.search);
        let (solved, cpu) = on_threads(&mut self.workers, todo.len(), |w, k| {
            let (i, mut nodes, mut filled) = (todo[k], used, false);
            let result = w.solve(&positions[i], budget, start, &mut nodes, &mut filled, winner);
            if let Some(search) = ahead {
                w.solve_ahead(&positions[i], &result, search, budget, start, &mut nodes, winner);
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

    fn push(&mut self, node: Node) -> Result<u32, CertifyError> {
        self.tick()?;
        if self.max_nodes.is_some_and(|n| self.closed.len() >= n) {
            return Err(CertifyError::Unknown(StopReason::NodeLimit));
        }
        self.closed.push(matches!(node, Node::Won | Node::Vc { .. }));
        match &mut self.out {
            Out::Memory(list) => list.push(node),
            Out::Spool(s) => {
                s.push(&node).map_err(|e| CertifyError::Write(e.to_string()))?;
            }
        }
        Ok((self.closed.len() - 1) as u32)
    }

    /// The one node of a kind of leaf (`Won`, `Search`), which every position shares.
    fn leaf(&mut self, node: Node) -> Result<u32, CertifyError> {
        let slot = usize::from(node == Node::Search);
        match self.leaves[slot] {
            Some(id) => Ok(id),
            None => {
                let id = self.push(node)?;
                self.leaves[slot] = Some(id);
                Ok(id)
            }
        }
    }

    fn inconsistent(&self, what: String) -> CertifyError {
        CertifyError::Inconsistent { line: self.line.clone(), what }
    }

    /// The node proving that the winner wins `pos`.
    fn node(&mut self, pos: &mut Position<B>) -> Result<u32, CertifyError> {
        self.node_with(pos, None)
    }

    /// [`Builder::node`] with the plan made already, or made here (`None`).
    fn node_with(
        &mut self,
        pos: &mut Position<B>,
        plan: Option<Plan<B>>,
    ) -> Result<u32, CertifyError> {
        let key = position_key(pos);
        if let Some(&id) = self.made.get(&key) {
            return Ok(id);
        }
        let plan = match plan {
            Some(plan) => plan,
            None => self.plan(pos)?,
        };
        let (keep, inner) = self.write(pos, plan)?;
        let id = if keep == pos.empty_cells() || self.closed[inner as usize] {
            inner
        } else {
            self.push(Node::Restrict { keep: keep.iter().map(At).collect(), next: inner })?
        };
        self.remember(key, id)?;
        Ok(id)
    }

    /// How the winner's win in `pos` will be shown, and the cells it keeps, without writing
    /// anything yet.
    fn plan(&mut self, pos: &Position<B>) -> Result<Plan<B>, CertifyError> {
        match self.plan_unsolved(pos) {
            Before::Done(plan) => Ok(plan),
            Before::Solve(semis) => {
                let outcome = self.solve(pos)?.outcome;
                self.plan_solved(pos, outcome, semis)
            }
        }
    }

    /// [`Builder::plan`] as far as it goes without the solver ([`Planner::plan_unsolved`]),
    /// on the building thread.
    fn plan_unsolved(&mut self, pos: &Position<B>) -> Before<B> {
        let (winner, search, vc) = (self.winner, self.search, self.vc);
        self.workers[0].planner.plan_unsolved(pos, winner, search, vc)
    }

    /// The plan of `pos` from the solver's `outcome`, with the semi connections `semis` that
    /// [`Builder::plan_unsolved`] found.
    fn plan_solved(
        &mut self,
        pos: &Position<B>,
        outcome: Outcome<B>,
        semis: Vec<derive::Derived<B>>,
    ) -> Result<Plan<B>, CertifyError> {
        let empty = pos.empty_cells();
        let winner_moves = pos.to_move() == self.winner;
        match outcome {
            Outcome::Win { winning_move, carrier } if winner_moves => {
                let mv = match winning_move {
                    Some(m) => m,
                    None => self.keep_win(pos, carrier)?,
                };
                Ok(Plan::Solved { mv: Some(mv), keep: carrier.with(mv) & empty, semis })
            }
            Outcome::Loss { carrier } if !winner_moves => {
                Ok(Plan::Solved { mv: None, keep: carrier & empty, semis })
            }
            _ => Err(self.inconsistent(format!("{} does not win", self.winner))),
        }
    }

    /// The node of a plan made for `pos`, and the cells it keeps.
    fn write(&mut self, pos: &mut Position<B>, plan: Plan<B>) -> Result<(B, u32), CertifyError> {
        let (mv, keep, mut semis) = match plan {
            Plan::Won => return Ok((B::EMPTY, self.leaf(Node::Won)?)),
            Plan::Search(empty) => return Ok((empty, self.leaf(Node::Search)?)),
            Plan::Vc(d) => {
                // Known by the position restricted to its carrier (as a `Solved` plan's node
                // below), as every node but the shared leaves, for a resumed build to find.
                pos.fill(!self.winner, pos.empty_cells() - d.carrier);
                let key = position_key(pos);
                pos.undo();
                let id = match self.made.get(&key) {
                    Some(&id) => id,
                    None => self.push(Node::Vc { steps: d.steps })?,
                };
                self.remember(key, id)?;
                return Ok((d.carrier, id));
            }
            Plan::Solved { mv, keep, semis } => (mv, keep, semis),
        };
        // The loser's stones outside `keep` break the semis that need them.
        semis.retain(|d| d.carrier.is_subset(keep));
        pos.fill(!self.winner, pos.empty_cells() - keep);
        let key = position_key(pos);
        let inner = match self.made.get(&key) {
            Some(&id) => Ok(id),
            None if keep.len() <= self.search => self.leaf(Node::Search),
            None => self.strategy(pos, mv, semis),
        };
        if let Ok(id) = inner {
            self.remember(key, id)?;
        }
        pos.undo();
        Ok((keep, inner?))
    }

    /// The winner's move `mv`; or, with `None`, options answering every move of the loser,
    /// each the strategy after one of the loser's moves, restricted to its carrier, until no
    /// cell is in every carrier. The options are chosen greedily as for a set cover: each is
    /// the loser's move, among the cells still in every carrier, whose own carrier keeps the
    /// fewest of them (the smallest carrier on a tie, then board order).
    fn strategy(
        &mut self,
        pos: &mut Position<B>,
        mv: Option<Cell>,
        mut semis: Vec<derive::Derived<B>>,
    ) -> Result<u32, CertifyError> {
        if let Some(m) = mv {
            pos.play_unchecked(m);
            self.line.push(m);
            let next = self.node(pos);
            self.line.pop();
            pos.undo();
            return self.push(Node::Play { at: At(m), next: next? });
        }
        let mut plans: Vec<(Cell, Option<Plan<B>>)> = Vec::new();
        // The moves whose plans wait for the solver (their index in `plans` and the semis
        // found), and the positions after them, solved together below.
        let mut waiting = Vec::new();
        let mut positions = Vec::new();
        // On several threads, the moves that no semi connection answers are looked at side by
        // side first (their indices in `plans`, the positions after them, and what was found).
        let side_by_side = self.workers.len() > 1;
        let (mut look_at, mut after) = (Vec::new(), Vec::new());
        for x in pos.empty_cells().iter() {
            // A semi connection whose carrier misses x still holds after x: a derivation's
            // empty ends are all midpoints of its AND steps, so all in its carrier. The semis
            // of `pos` and those found after the loser's other moves (which do not use the
            // cell of that move) are tried before a new H-search.
            let known =
                semis.iter().filter(|d| !d.carrier.contains(x)).min_by_key(|d| d.carrier.len());
            if let Some(d) = known {
                plans.push((x, Some(Plan::Vc(d.clone()))));
                continue;
            }
            plans.push((x, None));
            pos.play_unchecked(x);
            if side_by_side {
                look_at.push(plans.len() - 1);
                after.push(pos.clone());
            } else {
                let before = self.plan_unsolved(pos);
                let i = plans.len() - 1;
                settle(i, pos, before, &mut plans, &mut semis, &mut waiting, &mut positions);
            }
            pos.undo();
        }
        let looked = self.plan_all(&after);
        for ((i, p), before) in look_at.into_iter().zip(&after).zip(looked) {
            settle(i, p, before, &mut plans, &mut semis, &mut waiting, &mut positions);
        }
        let solved = self.solve_all(&positions)?;
        for (((i, found), p), r) in waiting.into_iter().zip(&positions).zip(solved) {
            self.line.push(plans[i].0);
            let plan = self.plan_solved(p, r.outcome, found);
            self.line.pop();
            plans[i].1 = Some(plan?);
        }
        let mut common = pos.empty_cells();
        let mut options = Vec::new();
        while !common.is_empty() {
            let pick = plans
                .iter()
                .enumerate()
                .filter(|(_, (x, plan))| plan.is_some() && common.contains(*x))
                .min_by_key(|(_, (_, plan))| {
                    let keep = plan.as_ref().map_or(B::EMPTY, Plan::keep);
                    ((keep & common).len(), keep.len())
                })
                .map(|(i, _)| i);
            let Some((x, Some(plan))) = pick.map(|i| (plans[i].0, plans[i].1.take())) else {
                return Err(self.inconsistent("a loser's move has no answer".to_string()));
            };
            pos.play_unchecked(x);
            self.line.push(x);
            self.covers.push((options.len() + 1, common.len()));
            let option = self.write(pos, plan);
            self.covers.pop();
            self.line.pop();
            pos.undo();
            let (keep, next) = option?;
            common &= keep;
            options.push((keep.iter().map(At).collect(), next));
        }
        self.push(Node::Cover { options })
    }

    /// A winning move of `pos` when the solver named none (fill-in decided it): the first
    /// cell, inside the carrier first, after which the loser is lost.
    fn keep_win(&mut self, pos: &Position<B>, carrier: B) -> Result<Cell, CertifyError> {
        let empty = pos.empty_cells();
        for m in (empty & carrier).iter().chain((empty - carrier).iter()) {
            let mut c = pos.clone();
            c.play_unchecked(m);
            if matches!(self.solve(&c)?.outcome, Outcome::Loss { .. }) {
                return Ok(m);
            }
        }
        Err(self.inconsistent(format!("{} has no winning move", self.winner)))
    }
}
