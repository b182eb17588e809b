//! One configuration for every solver: which algorithm, its budget, and the knowledge switches
//! that experiments turn off one by one.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use nash_board::Color;
use nash_vc::{HSearchConfig, OrLimit};

use crate::progress::Progress;

/// The solving algorithms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum SolverKind {
    /// Depth-first proof-number search, the production solver.
    #[default]
    Dfpn,
    /// Proof-number search (Allis), best-first with an explicit tree.
    Pns,
    /// Boolean negamax with a transposition table and move ordering (Chen 2025 s.2.2).
    Negamax,
    /// Pattern search with mustplay intersection (van Rijswijck 2002 s.2.3).
    Pattern,
    /// Connection-utility search (Rasmussen, Maire and Hayward 2006, Algorithm 1).
    Cus,
    /// Expected-work search (Chen 2025 s.2.4).
    Ews,
}

impl SolverKind {
    /// Every solver, in the order their names are listed.
    pub const ALL: [SolverKind; 6] = [
        SolverKind::Dfpn,
        SolverKind::Ews,
        SolverKind::Pns,
        SolverKind::Negamax,
        SolverKind::Pattern,
        SolverKind::Cus,
    ];

    /// The solver's name on the command line and in HTP: `dfpn`, `ews`, `pns`, `negamax`,
    /// `pattern` or `cus`.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Dfpn => "dfpn",
            SolverKind::Ews => "ews",
            SolverKind::Pns => "pns",
            SolverKind::Negamax => "negamax",
            SolverKind::Pattern => "pattern",
            SolverKind::Cus => "cus",
        }
    }

    /// One line on what the solver is, for command-line help.
    pub fn about(self) -> &'static str {
        match self {
            SolverKind::Dfpn => "Depth-first proof-number search, the production solver",
            SolverKind::Ews => "Expected-work search",
            SolverKind::Pns => "Proof-number search",
            SolverKind::Negamax => "Boolean negamax with a transposition table",
            SolverKind::Pattern => "Pattern search with mustplay intersection",
            SolverKind::Cus => "Connection-utility search",
        }
    }
}

impl std::fmt::Display for SolverKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for SolverKind {
    type Err = NameError;

    /// Parses a solver name (see [`SolverKind::name`]).
    fn from_str(s: &str) -> Result<SolverKind, NameError> {
        SolverKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| NameError::Solver(s.to_string()))
    }
}

/// A name that is not a solver's ([`SolverKind`]) or a parallel mode's ([`Parallel`]); the
/// message lists the names there are.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NameError {
    /// Not a solver's name.
    Solver(String),
    /// Not a parallel mode's name.
    Parallel(String),
}

impl std::fmt::Display for NameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // "a, b or c".
        fn list(f: &mut std::fmt::Formatter<'_>, names: &[&str]) -> std::fmt::Result {
            for (i, name) in names.iter().enumerate() {
                let sep = match i {
                    0 => "",
                    i if i + 1 == names.len() => " or ",
                    _ => ", ",
                };
                write!(f, "{sep}{name}")?;
            }
            Ok(())
        }
        match self {
            NameError::Solver(s) => {
                write!(f, "unknown solver {s:?}: expected ")?;
                list(f, &SolverKind::ALL.map(SolverKind::name))
            }
            NameError::Parallel(s) => {
                write!(f, "unknown parallel mode {s:?}: expected ")?;
                list(f, &Parallel::ALL.map(Parallel::name))
            }
        }
    }
}

impl std::error::Error for NameError {}

/// How parallel df-pn divides its work among the worker threads.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Parallel {
    /// Root jobs on boards of fewer than 49 cells, the shared tree from 49 cells (7x7) on. Root
    /// jobs are faster on the 6x6 openings, the shared tree on the 7x7 openings and the empty
    /// 8x8 board, where one move's proof is most of the work (docs/solving.md).
    #[default]
    Auto,
    /// Each root move is a job: a free worker takes the open move with the smallest disproof
    /// number and searches it alone within a node budget.
    RootJobs,
    /// Every worker runs df-pn from the root on the shared table and follows the root's choice
    /// of move; below the root, a child that other workers are searching looks more expensive,
    /// so the workers spread over that move's subtree (Pawlewicz and Hayward 2013).
    SharedTree,
}

impl Parallel {
    /// Every mode, in the order their names are listed.
    pub const ALL: [Parallel; 3] = [Parallel::Auto, Parallel::RootJobs, Parallel::SharedTree];

    /// The mode's name on the command line: `auto`, `jobs` or `tree`.
    pub fn name(self) -> &'static str {
        match self {
            Parallel::Auto => "auto",
            Parallel::RootJobs => "jobs",
            Parallel::SharedTree => "tree",
        }
    }

    /// One line on what the mode does, for command-line help.
    pub fn about(self) -> &'static str {
        match self {
            Parallel::Auto => "Root jobs on small boards, the shared tree on larger ones",
            Parallel::RootJobs => "Each root move is a job",
            Parallel::SharedTree => "Every worker below the root's chosen move",
        }
    }
}

impl std::fmt::Display for Parallel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Parallel {
    type Err = NameError;

    /// Parses a mode name (see [`Parallel::name`]).
    fn from_str(s: &str) -> Result<Parallel, NameError> {
        Parallel::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| NameError::Parallel(s.to_string()))
    }
}

/// Limits on a solve. A solver that hits one returns `Outcome::Unknown` with its statistics.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
    /// Set to `true` from another thread to stop the solve.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How moves are ordered at each node (Chen 2025 s.5.7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum MoveOrdering {
    /// Board order.
    None,
    /// Cells near the centre first.
    Centre,
    /// By H-search scores (connections a cell takes part in), then centre.
    HScore,
    /// By the current through each cell in both players' electric circuits, virtual
    /// connections included (Anshelevich 2000 s.3 and s.4; Benzene's DFPN ordering), then
    /// H-score, then centre. On the 6x6 and 7x7 openings it needs fewer nodes and less time
    /// than H-score alone (docs/vc.md).
    #[default]
    Resistance,
    /// Queenbee's static order (van Rijswijck 2000 and 2002 s.3.2): the least sum of both
    /// players' two-distance potentials first, then centre. The order of the baselines of
    /// Rasmussen, Maire and Hayward 2006 s.5; it needs no connections.
    TwoDistance,
}

/// The knowledge pipeline's switches: each feature can be turned off for an experiment.
#[derive(Clone, Debug)]
pub struct Knowledge {
    /// The 2-ply threat check: an immediate win decides, an opponent's two immediate wins
    /// decide, an opponent's single immediate win forces the reply.
    pub threats: bool,
    /// Fill dead and captured cells, prune inferior moves (nash-patterns).
    pub fill_in: bool,
    /// With `fill_in`, for a search whose winner is known (a proof certificate's re-solves):
    /// only the fill-in that adds nothing to that player's carriers. Dead cells are filled
    /// with the other player's stones, only the other player's captures are filled, and only
    /// that player's own moves are pruned as inferior; its captures, and the other player's
    /// inferior moves, are left to the search.
    pub fill_in_for: Option<Color>,
    /// Decide positions by virtual connections: an edge-to-edge full connection of the player who
    /// just moved is a loss, a semi or full one of the player to move is a win (nash-vc).
    pub vc: bool,
    /// Restrict the moves to the mustplay region (the intersection of the opponent's edge-to-edge
    /// semi carriers).
    pub mustplay: bool,
    /// Fill the carrier of a decomposition: a full connection between two of a player's
    /// groups that close off a region with two opponent groups (needs `vc`).
    pub decompositions: bool,
    /// Move ordering.
    pub ordering: MoveOrdering,
    /// The H-search behind `vc`, `mustplay` and the resistance and H-score orderings
    /// ([`Knowledge::solver_hsearch`] by default).
    pub hsearch: HSearchConfig,
}

impl Default for Knowledge {
    fn default() -> Knowledge {
        Knowledge {
            threats: true,
            fill_in: true,
            fill_in_for: None,
            vc: true,
            mustplay: true,
            decompositions: true,
            ordering: MoveOrdering::Resistance,
            hsearch: Knowledge::solver_hsearch(),
        }
    }
}

impl Knowledge {
    /// No knowledge at all: plain search over every empty cell, as the papers' baselines.
    pub fn none() -> Knowledge {
        Knowledge {
            threats: false,
            fill_in: false,
            fill_in_for: None,
            vc: false,
            mustplay: false,
            decompositions: false,
            ordering: MoveOrdering::None,
            hsearch: Knowledge::solver_hsearch(),
        }
    }

    /// The knowledge of Chen 2025's solvers (s.5.3-5.7): fill-in, H-search verdicts and the
    /// mustplay, H-score move ordering, and the thesis's H-search (3-OR rule, no border
    /// midpoint, early stop, no caps, none of Nash's templates, ladders or captured sets), with
    /// neither the 2-ply threat check nor decompositions. Fill-in is Nash's pattern set, a
    /// superset of the thesis's three patterns (Figure 3.3).
    pub fn chen_2025() -> Knowledge {
        Knowledge {
            threats: false,
            fill_in: true,
            fill_in_for: None,
            vc: true,
            mustplay: true,
            decompositions: false,
            ordering: MoveOrdering::HScore,
            hsearch: HSearchConfig { early_stop: true, ..HSearchConfig::thesis_base() },
        }
    }

    /// [`Knowledge::solver_hsearch`] without the edge templates: what proves them.
    pub fn solver_hsearch_without_templates() -> HSearchConfig {
        HSearchConfig { templates: false, ..Knowledge::solver_hsearch() }
    }

    /// The H-search the solvers use by default: the greedy OR rule, no border midpoints, no semi
    /// AND, at most 32 full and 32 semi connections per pair of ends, and the edge templates
    /// with helper stones. Against 64 semis a pair, 32 took 3 to 7% less time on the 7×7 and
    /// 8×8 openings and the empty 8×8 board (docs/solving.md, "At most 32 semis a pair").
    /// Against the exhaustive OR-5 rule (with a budget of 256 steps per new semi) it needs a
    /// fifth more nodes but a node costs a third less: 10 % less time on the 49 7x7 openings
    /// and a quarter less on the empty 8x8 board, two threads (docs/vc.md, "The greedy OR
    /// rule"). Against OR-3, OR-5 needed a third fewer nodes; against caps of 8 and 16
    /// connections a fifth fewer nodes and a quarter less time on 6x6 and 7x7 openings (Chen
    /// 2025 s.5.5 compares OR-k variants).
    pub fn solver_hsearch() -> HSearchConfig {
        HSearchConfig {
            or_limit: OrLimit::Greedy,
            border_midpoint: false,
            semi_and: false,
            max_fulls: Some(32),
            max_semis: Some(32),
            or_budget: Some(256),
            templates: true,
            ..HSearchConfig::default()
        }
    }

    /// [`Knowledge::solver_hsearch`] with the exhaustive OR-5 rule it had before the greedy
    /// one (a budget of 256 steps per new semi) and its cap of 64 semis a pair. The players
    /// keep it, as they were measured with it (docs/players.md) and the greedy rule has not
    /// been measured in play; the certificates' re-solves take its OR rule, because the greedy
    /// rule's fulls depend on the order of work and a resumed build would write another
    /// certificate (docs/proofs.md).
    pub fn or5_hsearch() -> HSearchConfig {
        HSearchConfig {
            or_limit: OrLimit::AtMost(5),
            max_semis: Some(64),
            ..Knowledge::solver_hsearch()
        }
    }
}

/// How pattern search and connection-utility search reuse what they proved.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum ThreatTable {
    /// Nash's: the transposition table (when `use_tt`), keyed by the position's hash; a hit
    /// is the same position again.
    #[default]
    Positions,
    /// The paper's (s.6): every solved position adds its threat pattern, the winner's stones
    /// it needs (support) and the empty cells it needs (carrier), and a position in which a
    /// stored pattern's support is the winner's and no cell of its carrier the loser's is
    /// decided without search, whatever the other cells hold. A hit is a terminal position:
    /// its utilities are one on the pattern's cells. The hash table is not used, and the
    /// patterns are only kept without fill-in (fill-in's stones have no place in a support).
    ThreatPatterns,
}

/// The win/loss table of proof-number and expected-work search (Chen 2025 s.5.2: "we store
/// the win/loss result"): every node proven won or lost is stored by its position's key, and
/// read back where the setting says. It lives in the solve's table, a quarter of the memory
/// limit (the node store gets the rest); with `use_tt` false it is off.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum ResultTable {
    /// No table: a position met again is searched again.
    Off,
    /// When a node is expanded, each child's position is looked up (a child shown lost
    /// proves the node at once, and children shown won are made proven), and so is the leaf
    /// itself, which may have been proven elsewhere since it was made.
    Children,
    /// As `Children`, and every node the descent passes through is looked up too, so that a
    /// subtree whose position was proven elsewhere is cut as soon as it is reached
    /// (docs/solving.md, "Proof-number and expected-work search").
    #[default]
    Reached,
}

/// The settings of expected-work search (Chen 2025 s.2.4, s.5.9).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct EwsConfig {
    /// The weight W of the move-order score in a child's win rate, `WR = (wins + W·score) /
    /// (visits + W·maxscore)` with the child's index in the move order as score and the
    /// number of children as maxscore (s.5.9, which found W = 5 best); 0 for playouts alone.
    pub weight: f64,
    /// Random playouts from each new child (its first win rate).
    pub playouts: u32,
    /// A new leaf's expected work grows with its empty cells, `EW(k) = 2k · EW(k - 2)`,
    /// instead of starting at 1. Without knowledge every expansion otherwise makes its node
    /// costlier than its unexpanded siblings and the search goes breadth first (the featureless
    /// 5x5 board found no proof in 3,000,000 descents; with it, solved in 5,002,107
    /// expansions); with knowledge's narrow mustplays, starting at 1 took a quarter of the
    /// nodes on Table 5.1's positions.
    pub growing_leaves: bool,
}

impl Default for EwsConfig {
    fn default() -> EwsConfig {
        EwsConfig { weight: 5.0, playouts: 2, growing_leaves: false }
    }
}

/// The solver variants Chen 2025 compares (s.5.11, s.5.12, and s.4.5's featureless EWS), as
/// [`SolverConfig::chen_2025`] builds them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Chen2025 {
    /// Expected-work search with no Hex knowledge, playouts alone guiding it (Randall et al.
    /// 2024's featureless solver, s.4.5), with the win/loss table and growing leaf estimates
    /// ([`EwsConfig::growing_leaves`]).
    Featureless,
    /// Boolean negamax with the result table, fill-in, the thesis's H-search (3-OR, no border
    /// midpoint, early stop) with the "optimization", and H-score move ordering.
    Mmx1,
    /// Mmx1 with incremental H-search instead of the optimization.
    Mmx2,
    /// Expected-work search with the result table (no H-search table), fill-in, the thesis's
    /// H-search with incremental updates, playouts alone in the win rate.
    Ews1,
    /// Expected-work search with both tables, fill-in, the thesis's H-search with the
    /// optimization, playouts alone in the win rate.
    Ews2,
    /// Ews2 with the H-score order in the win rate (W = 5).
    Ews3,
    /// Ews1 with both tables and the H-score order in the win rate (W = 5): the thesis's best.
    Ews4,
}

impl Chen2025 {
    /// Every variant, in the thesis's order.
    pub const ALL: [Chen2025; 7] = [
        Chen2025::Featureless,
        Chen2025::Mmx1,
        Chen2025::Mmx2,
        Chen2025::Ews1,
        Chen2025::Ews2,
        Chen2025::Ews3,
        Chen2025::Ews4,
    ];

    /// The thesis's name of the variant: `featureless`, `Mmx1`, ..., `EWS4`.
    pub fn name(self) -> &'static str {
        match self {
            Chen2025::Featureless => "featureless",
            Chen2025::Mmx1 => "Mmx1",
            Chen2025::Mmx2 => "Mmx2",
            Chen2025::Ews1 => "EWS1",
            Chen2025::Ews2 => "EWS2",
            Chen2025::Ews3 => "EWS3",
            Chen2025::Ews4 => "EWS4",
        }
    }
}

/// Everything a solve needs to know besides the position.
#[derive(Clone, Debug)]
pub struct SolverConfig {
    /// The algorithm.
    pub kind: SolverKind,
    /// Limits.
    pub budget: Budget,
    /// Knowledge switches.
    pub knowledge: Knowledge,
    /// Use a transposition table (the solvers that can run without one honour `false`).
    pub use_tt: bool,
    /// What pattern search and connection-utility search keep of the positions they solve
    /// (Rasmussen, Maire and Hayward 2006 s.6); the other solvers ignore it.
    pub threat_table: ThreatTable,
    /// Memory limit in MiB that bounds the solve: each worker's knowledge caches are sized
    /// within a share of it and the transposition table (or PNS's and EWS's node store) gets
    /// the rest, so the process stays within the limit plus a few MiB of program.
    pub tt_mib: usize,
    /// Worker threads for the solvers that run in parallel (DFPN).
    pub threads: usize,
    /// How df-pn's workers share a solve when `threads > 1`. A solve with a node limit always
    /// uses the shared tree, whose workers count nodes against the limit together.
    pub parallel: Parallel,
    /// Key the transposition table by the canonical image of each position (the least hash
    /// over the board's symmetries: the 180-degree rotation, and on square boards the two
    /// diagonal reflections with colours swapped), so that a position and its images share
    /// one entry. Df-pn honours it; the other solvers key by the position itself, which reads
    /// the same entries whenever the position is its own canonical image.
    pub canonical_keys: bool,
    /// Df-pn's move order remembers what won: at each node the two moves that last won after
    /// the same opponent move (counter moves) go first and the move that last won at the same
    /// depth (a killer) next, before the knowledge's order. Values never depend on it.
    pub reply_order: bool,
    /// Counters that the solves add to as they run, for another thread to read (a progress
    /// bar); `None` to count nothing.
    pub progress: Option<Arc<Progress>>,
    /// The win/loss table of proof-number and expected-work search; the other solvers ignore
    /// it.
    pub result_table: ResultTable,
    /// The settings of expected-work search.
    pub ews: EwsConfig,
    /// Keep recent analyses (fill-in, H-search verdict, mustplay and move order) by position,
    /// so a position analysed again is not H-searched again: the H-search table of Chen 2025
    /// s.5.6. Off, every analysis is made afresh (the builders' incremental updates stay).
    pub hsearch_table: bool,
}

impl SolverConfig {
    /// The configuration of Rasmussen, Maire and Hayward 2006's experiments for `kind`
    /// (negamax stands for their alpha-beta): no knowledge, Queenbee's static move order
    /// ([`MoveOrdering::TwoDistance`]), no transposition table (s.5, Table 1). For s.6's
    /// connection-utility search with a table, set `threat_table` to
    /// [`ThreatTable::ThreatPatterns`]. Nash's defaults keep its own knowledge, order and
    /// table.
    pub fn rasmussen_2006(kind: SolverKind) -> SolverConfig {
        SolverConfig {
            kind,
            use_tt: false,
            knowledge: Knowledge { ordering: MoveOrdering::TwoDistance, ..Knowledge::none() },
            ..SolverConfig::default()
        }
    }
}

impl SolverConfig {
    /// The solver variant `v` of Chen 2025 (s.5.11), on Nash's implementation of each feature:
    /// the knowledge of [`Knowledge::chen_2025`] (the featureless variant none), the thesis's
    /// switches for the optimization, incremental H-search, the tables and the H-score weight.
    /// Nash's own defaults stay [`SolverConfig::default`].
    pub fn chen_2025(v: Chen2025) -> SolverConfig {
        let base = SolverConfig::default();
        let optimized = |optimization| {
            let mut k = Knowledge::chen_2025();
            k.hsearch.optimization = optimization;
            k
        };
        let unordered = |k: Knowledge| Knowledge { ordering: MoveOrdering::None, ..k };
        let playouts_alone = EwsConfig { weight: 0.0, ..EwsConfig::default() };
        let featureless = EwsConfig { growing_leaves: true, ..playouts_alone };
        match v {
            Chen2025::Featureless => SolverConfig {
                kind: SolverKind::Ews,
                knowledge: Knowledge::none(),
                ews: featureless,
                ..base
            },
            Chen2025::Mmx1 => {
                SolverConfig { kind: SolverKind::Negamax, knowledge: optimized(true), ..base }
            }
            Chen2025::Mmx2 => {
                SolverConfig { kind: SolverKind::Negamax, knowledge: optimized(false), ..base }
            }
            Chen2025::Ews1 => SolverConfig {
                kind: SolverKind::Ews,
                knowledge: unordered(optimized(false)),
                ews: playouts_alone,
                hsearch_table: false,
                ..base
            },
            Chen2025::Ews2 => SolverConfig {
                kind: SolverKind::Ews,
                knowledge: unordered(optimized(true)),
                ews: playouts_alone,
                ..base
            },
            Chen2025::Ews3 => {
                SolverConfig { kind: SolverKind::Ews, knowledge: optimized(true), ..base }
            }
            Chen2025::Ews4 => {
                SolverConfig { kind: SolverKind::Ews, knowledge: optimized(false), ..base }
            }
        }
    }
}

impl Default for SolverConfig {
    fn default() -> SolverConfig {
        SolverConfig {
            kind: SolverKind::Dfpn,
            budget: Budget::default(),
            knowledge: Knowledge::default(),
            use_tt: true,
            threat_table: ThreatTable::Positions,
            tt_mib: 256,
            threads: 1,
            parallel: Parallel::Auto,
            canonical_keys: true,
            reply_order: true,
            progress: None,
            result_table: ResultTable::default(),
            ews: EwsConfig::default(),
            hsearch_table: true,
        }
    }
}
