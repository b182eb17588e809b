//! Monte Carlo tree search players: plain UCT, AMAF (RAVE) and AMAF with bridge-saving
//! playouts, the three of Horrell et al. (s.2.3.3-2.3.4), and the same search with the
//! solvers' knowledge in the tree, as MoHex uses it (Arneson, Hayward and Henderson 2010):
//! fill-in and inferior-cell pruning at expansion, the mustplay, win and loss detection by
//! virtual connections, the MCTS-solver's backup of proven nodes (Chen 2025 s.2.3), priors
//! from the circuit and H-score order, subtree reuse between moves, and a short solve when
//! few cells are left.
//!
//! Playouts are in `mcts/playout.rs`, the tree and its iteration in `mcts/tree.rs`. Threads
//! search by root parallelism (Cazenave and Jouandeau 2007): each thread grows its own tree
//! from its own seed and the root's statistics are summed, so a search with a playout budget
//! is deterministic whatever the number of threads.

mod playout;
mod tree;

use nash_board::clock::Instant;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use nash_board::{
    with_position, AnyPosition, BitSet, Cell, Move, PerWidth, Position, Width, WidthFamily,
};
use nash_search::{Knowledge, MoveOrdering, Outcome, SolverConfig};

pub(crate) use playout::Policy;
use tree::{Forest, Proof, Tree};

use crate::eval::WIN;
use crate::player::{Choice, MoveBudget, MoveScore, Player, Proven};
use crate::spec::{settings_table, SpecError, UnknownValue};
use crate::swap;

/// `FromStr` and `Display` for a setting whose values are the variants of an enum, each
/// with its one name.
macro_rules! setting_names {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl FromStr for $ty {
            type Err = UnknownValue;

            fn from_str(s: &str) -> Result<$ty, UnknownValue> {
                match s {
                    $($name => Ok($ty::$variant),)+
                    _ => Err(UnknownValue(s.to_owned())),
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(match self {
                    $($ty::$variant => $name,)+
                })
            }
        }
    };
}

setting_names!(Policy {
    Random => "random",
    Bridge => "bridge",
    Patterns => "patterns",
    Reply => "reply",
});
setting_names!(Order { Circuit => "circuit", Patterns => "patterns", Both => "both" });
setting_names!(Spread { Rank => "rank", Strength => "strength" });
setting_names!(Parallel { Root => "root", Tree => "tree" });

/// The `net` setting: no network, the one that ships with the player, or the weights file of
/// one (`nash_net`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NetFile {
    Off,
    Builtin,
    Path(std::path::PathBuf),
}

/// The weights of the net that ships with the players (`net=builtin`), trained by `cargo xtask
/// train` on the games of `cargo xtask selfplay` (docs/net.md).
const BUILTIN_NET: &[u8] = include_bytes!("net.nnw");

/// The net that ships with the players (`net=builtin`).
pub fn builtin_net() -> Result<nash_net::Net, nash_net::NetError> {
    nash_net::weights::from_bytes(BUILTIN_NET, std::path::Path::new("builtin net"))
}

impl FromStr for NetFile {
    type Err = UnknownValue;

    fn from_str(s: &str) -> Result<NetFile, UnknownValue> {
        match s {
            "off" => Ok(NetFile::Off),
            "builtin" => Ok(NetFile::Builtin),
            "" => Err(UnknownValue(s.to_owned())),
            path => Ok(NetFile::Path(path.into())),
        }
    }
}

impl std::fmt::Display for NetFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetFile::Off => f.write_str("off"),
            NetFile::Builtin => f.write_str("builtin"),
            NetFile::Path(p) => write!(f, "{}", p.display()),
        }
    }
}

/// Everything a Monte Carlo player is built from; the registry gives each named player its
/// defaults, and every one of them is a setting of the spec.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    /// The registry name, first in the canonical spec.
    pub(crate) name: &'static str,
    /// UCT's exploration constant (`c` in `q + c sqrt(ln N / n)`).
    pub(crate) c: f64,
    /// RAVE's equivalence parameter `k` in `beta = sqrt(k / (3n + k))`; 0 for no AMAF.
    pub(crate) rave: f64,
    /// The value of a child with no playouts and no AMAF statistics (first-play urgency).
    pub(crate) fpu: f64,
    /// The playout policy.
    pub(crate) policy: Policy,
    /// Playouts per move at most (`None`: as many as the budget allows, or
    /// [`AUTO_PLAYOUTS`] when it sets no limit).
    pub(crate) playouts: Option<u64>,
    /// Playouts through a leaf before it is expanded.
    pub(crate) expand: u32,
    /// Playouts through a node before the knowledge runs on it (0: at its expansion); until
    /// then a node below the root has every empty cell as a child.
    pub(crate) know: u32,
    /// Knowledge at expansion: fill-in and inferior-cell pruning, the mustplay, win and loss
    /// by virtual connections.
    pub(crate) fill_in: bool,
    pub(crate) mustplay: bool,
    pub(crate) vc: bool,
    /// The MCTS-solver: proven nodes are backed up and decide the selection.
    pub(crate) solver: bool,
    /// Virtual AMAF playouts from the move order of the knowledge pipeline (0: none).
    pub(crate) prior: f64,
    /// The weight of the circuit's evaluation (Anshelevich 2000 s.3) in the value of a node
    /// the knowledge has analysed (0: none), by implicit minimax backups (Lanctot et al.
    /// 2014): the win rate `1 / (1 + exp(-e / vscale))` for the evaluation `e` of the node's
    /// mover, replaced by the minimax of its children's once they have theirs, is mixed into
    /// the playouts' win rate as `(1 - value) q + value p`.
    pub(crate) value: f64,
    /// The scale of the evaluation in that win rate.
    pub(crate) vscale: f64,
    /// Progressive widening (0: off): of the moves the knowledge ranks, only the first
    /// `widen` may be chosen at first, and one more each time the node's playouts grow by
    /// the factor 1.4 past 50.
    pub(crate) widen: u32,
    /// Where the order of the priors and the bias comes from: the knowledge's circuit order,
    /// or the learned local patterns (`crate::patterns`), which also order the children of a
    /// node whose knowledge is deferred.
    pub(crate) order: Order,
    /// How the patterns' priors fall from the strongest move to the weakest: by rank, or by
    /// strength (the win rate `0.25 + 0.5 g / g_max` for a move of strength `g`).
    pub(crate) spread: Spread,
    /// Progressive bias from the same order: `bias / r / sqrt(n + 1)` added to the value of
    /// the move ranked `r` (from 1) with `n` playouts (0: none).
    pub(crate) bias: f64,
    /// The PUCT term `puct p sqrt(N) / (n + 1)` added to the value of a move whose net prior
    /// is `p`, with `n` playouts of its own and `N` of its parent's (0: none; needs `net`).
    pub(crate) puct: f64,
    /// Playouts start from the fill-in the knowledge found at the nodes on their path
    /// (captured cells to their owner, dead cells to either side).
    pub(crate) playfill: bool,
    /// Keep the subtree of the position reached from the previous move's tree.
    pub(crate) reuse: bool,
    /// Solve the position first when it has at most this many empty cells (0: never).
    pub(crate) solve: u32,
    /// When the root is proven lost, spend the rest of the move on a search without
    /// knowledge or proofs, for the move that loses least often against a fallible opponent.
    pub(crate) defend: bool,
    /// Threads.
    pub(crate) threads: usize,
    /// How the threads share the work: one tree each, or one tree for all.
    pub(crate) parallel: Parallel,
    /// The memory limit of the trees, in MiB.
    pub(crate) mem_mib: usize,
    /// The seed of the random numbers.
    pub(crate) seed: u64,
    /// Whether the player may answer a first move with a swap (see `swap.rs`).
    pub(crate) swap: bool,
    /// The temperature of the final move choice (0: the most visited move): a move is drawn
    /// with probability proportional to `visits^(1 / temp)` among the root moves not proven
    /// lost, from random numbers of `seed` and the position, so the choice is deterministic.
    pub(crate) temp: f64,
    /// The policy and value network: its policy orders a node's moves and gives their priors
    /// at expansion (the patterns' role), its value is the node's evaluation (with `value`).
    pub(crate) net: NetFile,
    /// The net `net` names, once loaded (`None` when off or when it could not be read).
    pub(crate) loaded_net: Option<Arc<nash_net::Net>>,
}

impl Config {
    /// Plain UCT with random playouts and no knowledge, named `name`.
    pub(crate) fn new(name: &'static str) -> Config {
        Config {
            name,
            c: 0.5,
            rave: 0.0,
            fpu: 1.0,
            policy: Policy::Random,
            playouts: None,
            expand: 1,
            know: 0,
            fill_in: false,
            mustplay: false,
            vc: false,
            solver: true,
            prior: 0.0,
            value: 0.0,
            vscale: 1.0,
            widen: 0,
            order: Order::Circuit,
            spread: Spread::Rank,
            bias: 0.0,
            puct: 0.0,
            playfill: false,
            reuse: false,
            solve: 0,
            defend: false,
            threads: 1,
            parallel: Parallel::Root,
            mem_mib: 256,
            seed: 1,
            swap: false,
            temp: 0.0,
            net: NetFile::Off,
            loaded_net: None,
        }
    }

    /// Loads the net the `net` setting names. A file that cannot be read is a warning, and the
    /// player goes on without a net, as with `net=off`.
    pub(crate) fn load_net(&mut self) {
        let net = match &self.net {
            NetFile::Off => return self.loaded_net = None,
            NetFile::Builtin => builtin_net(),
            NetFile::Path(path) => nash_net::Net::load(path),
        };
        self.loaded_net = match net {
            Ok(net) => Some(Arc::new(net)),
            Err(e) => {
                tracing::warn!("{e}: playing without the net");
                None
            }
        };
    }

    /// The knowledge pipeline's switches, when any knowledge is on.
    pub(crate) fn knowledge(&self) -> Option<Knowledge> {
        (self.fill_in || self.mustplay || self.vc).then(|| Knowledge {
            threats: self.vc,
            fill_in: self.fill_in,
            vc: self.vc,
            mustplay: self.mustplay,
            ordering: if self.vc || self.mustplay {
                MoveOrdering::Resistance
            } else {
                MoveOrdering::Centre
            },
            hsearch: Knowledge::or5_hsearch(),
            ..Knowledge::default()
        })
    }

    /// The canonical spec: every setting spelled out.
    pub(crate) fn spec(&self) -> String {
        format!("{}:{}", self.name, self.settings_text())
    }

    /// Whether the threads grow one tree together.
    pub(crate) fn shared_tree(&self) -> bool {
        self.parallel == Parallel::Tree && self.threads > 1
    }
}

/// `true or false`, what a switch accepts.
const ON_OFF: &str = "true or false";

settings_table!(Config {
    "c" => c: "an exploration constant from 0 to 100", if |c| (0.0..=100.0).contains(c);
    "rave" => rave: "RAVE's k from 0 (off) to 1e9", if |k| (0.0..=1e9).contains(k);
    "fpu" => fpu: "a value from 0 to 10", if |v| (0.0..=10.0).contains(v);
    "playout" => policy: "a playout policy (random, bridge, patterns, reply)";
    "playouts" => playouts as Playouts: "auto or a number of playouts from 1 to 10^12",
        if |p: &Playouts| p.0.map_or(true, |n| (1..=1_000_000_000_000).contains(&n));
    "expand" => expand: "a number of playouts";
    "know" => know: "a number of playouts (0: at expansion)";
    "fillin" => fill_in: ON_OFF;
    "mustplay" => mustplay: ON_OFF;
    "vc" => vc: ON_OFF;
    "solver" => solver: ON_OFF;
    "prior" => prior: "virtual playouts from 0 to 1e6", if |p| (0.0..=1e6).contains(p);
    "value" => value: "a weight from 0 to 1", if |p| (0.0..=1.0).contains(p);
    "vscale" => vscale: "a scale from 0.01 to 100", if |v| (0.01..=100.0).contains(v);
    "widen" => widen: "a number of moves (0: off)";
    "order" => order: "circuit, patterns or both";
    "spread" => spread: "rank or strength";
    "bias" => bias: "a progressive bias from 0 to 100", if |b| (0.0..=100.0).contains(b);
    "puct" => puct: "a PUCT weight from 0 to 100", if |b| (0.0..=100.0).contains(b);
    "playfill" => playfill: ON_OFF;
    "reuse" => reuse: ON_OFF;
    "solve" => solve: "a number of empty cells (0: off)", if |n| *n <= 361;
    "defend" => defend: ON_OFF;
    "threads" => threads: "a thread count from 1 to 256", if |t| (1..=256).contains(t);
    "parallel" => parallel: "root (a tree per thread) or tree (one tree)";
    "mem" => mem_mib: "a tree size in MiB from 1 to 65536", if |m| (1..=65536).contains(m);
    "seed" => seed: "a whole number";
    "swap" => swap: ON_OFF;
    "temp" => temp: "a temperature from 0 (the most visited move) to 100",
        if |t| (0.0..=100.0).contains(t);
    "net" => net: "off, builtin or a weights file";
});

/// Where the order of a node's moves (for the priors and the progressive bias) comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// The knowledge's circuit and H-score order (needs `mustplay` or `vc`).
    Circuit,
    /// The learned local-pattern weights, strongest first, at every expansion.
    Patterns,
    /// Both: the patterns' priors at every expansion, and the circuit order's added to them
    /// wherever the knowledge runs (at the root, and below it once `know` allows).
    Both,
}

/// How the priors of the pattern order fall from its strongest move to its weakest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spread {
    /// Linearly in the rank: win rate 0.75 for the first move down to 0.25 for the last.
    Rank,
    /// With the strength `g`: win rate `0.25 + 0.5 g / g_max`, so that the few strong moves
    /// stand out and the many weak ones sit near 0.25 together.
    Strength,
}

/// How the threads of a search share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Parallel {
    /// Each thread grows its own tree from its own seed and the roots' statistics are summed
    /// (Cazenave and Jouandeau 2007): deterministic given a playout budget.
    Root,
    /// The threads grow one tree, lock-free, with a virtual loss for each playout in flight
    /// (Chaslot, Winands and van den Herik 2008; Enzenberger and Müller 2009).
    Tree,
}

/// Playouts per move when neither the player's `playouts` setting nor the budget sets a
/// limit: the iterations of Horrell et al.'s Table 1.
pub(crate) const AUTO_PLAYOUTS: u64 = 5000;

/// The `playouts` setting: `auto` or a number.
#[derive(Clone, Copy, Debug)]
struct Playouts(Option<u64>);

impl FromStr for Playouts {
    type Err = UnknownValue;

    fn from_str(s: &str) -> Result<Playouts, UnknownValue> {
        match s {
            "auto" => Ok(Playouts(None)),
            _ => s.parse().map(|n| Playouts(Some(n))).map_err(|_| UnknownValue(s.to_owned())),
        }
    }
}

impl std::fmt::Display for Playouts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            None => f.write_str("auto"),
            Some(n) => write!(f, "{n}"),
        }
    }
}

/// When a search stops: a deadline and a cancel flag (playout budgets are counted by each
/// thread).
#[derive(Debug)]
pub(crate) struct Limits {
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Whether the time is up or the search was cancelled.
    pub(crate) fn stop(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A Monte Carlo tree search player.
#[derive(Debug)]
pub struct Mcts {
    cfg: Config,
    /// The trees and workers of the board last played on.
    state: PerWidth<Forests>,
}

/// The forests, one type per bitboard width.
#[derive(Debug)]
struct Forests;

impl WidthFamily for Forests {
    type Of<B: BitSet> = Forest<B>;
}

/// The root's statistics summed over the threads, per cell.
#[derive(Clone, Copy, Debug, Default)]
struct RootMove {
    visits: u64,
    wins: f64,
    lost: bool,
    wins_now: bool,
    rank: u16,
}

/// How often a search reports, and to whom.
type Report<'a> = (Duration, &'a mut dyn FnMut(&Choice));

impl Mcts {
    /// The move for `pos` (a swap where the rule says so), reporting while it searches when
    /// `report` is given.
    fn search(
        &mut self,
        pos: &AnyPosition,
        budget: &MoveBudget,
        report: Option<Report<'_>>,
    ) -> Choice {
        let Some(choice) = with_position!(pos, p => self.run(p, budget, report)) else {
            return Choice::bare(Move::Resign);
        };
        swap::rule(pos, self.cfg.swap, choice)
    }

    pub(crate) fn new(mut cfg: Config) -> Mcts {
        cfg.load_net();
        Mcts { cfg, state: PerWidth::new() }
    }

    fn run<B: Width>(
        &mut self,
        pos: &Position<B>,
        budget: &MoveBudget,
        report: Option<Report<'_>>,
    ) -> Option<Choice> {
        let start = Instant::now();
        if pos.winner().is_some() || pos.empty_cells().is_empty() {
            return None;
        }
        let cfg = &self.cfg;
        if let Some(mv) = short_solve(pos, cfg, budget) {
            let mut c = Choice::bare(Move::Cell(mv));
            (c.value, c.pv, c.elapsed) = (Some(WIN), vec![mv], start.elapsed());
            let mut won = MoveScore::valued(mv, WIN);
            (won.value, won.proven) = (None, Proven::Win);
            c.moves.push(won);
            return Some(c);
        }
        let geom = pos.geometry();
        let forest =
            self.state.get(pos, |f: &Forest<B>| f.fits(geom, cfg), || Forest::new(geom, cfg));
        let limits = Limits {
            deadline: budget.time.and_then(|t| start.checked_add(t)),
            cancel: budget.cancel.clone(),
        };
        let asked = budget.playouts.or(budget.nodes);
        let total = match (asked, cfg.playouts) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (None, None) if budget.time.is_none() => Some(AUTO_PLAYOUTS),
            (a, b) => a.or(b),
        };
        // One seed per position and thread: a position searched again draws the same numbers.
        let seed = cfg.seed ^ pos.hash().wrapping_mul(0x9E37_79B9_7F4A_7C15);
        forest.start(pos, cfg, seed);
        // A kept subtree's playouts are counted in its root already: a report counts this
        // search's from there.
        let before: u64 = forest.trees.iter().map(|t| u64::from(t.root().stats().visits)).sum();
        let mut report = report;
        let mut snapshot = report.as_mut().map(|(every, send)| {
            let f = move |trees: &[Tree]| {
                let now: u64 = trees.iter().map(|t| u64::from(t.root().stats().visits)).sum();
                let mut c = summary::<B>(trees, cfg, start);
                c.nodes = now.saturating_sub(before);
                c.depth = c.pv.len() as u32;
                send(&c);
            };
            (*every, f)
        });
        let reporter = snapshot.as_mut().map(|(every, f)| (*every, f as &mut dyn FnMut(&[Tree])));
        forest.search(pos, cfg, &limits, total, reporter);
        let lost = forest.trees.iter().any(|t| t.root().proof() == Proof::Loss);
        if cfg.defend && lost {
            let used: u64 = forest.workers.iter().map(|w| w.iterations).sum();
            let left = total.map(|t| t.saturating_sub(used));
            if left != Some(0) && !limits.stop() {
                // A proven loss says every move loses against perfect play; against a
                // fallible opponent the most stubborn one is the one random play loses least
                // often, which a search without proofs (or the knowledge that finds them) sees.
                let plain = Config {
                    solver: false,
                    fill_in: false,
                    mustplay: false,
                    vc: false,
                    prior: 0.0,
                    bias: 0.0,
                    puct: 0.0,
                    playfill: false,
                    reuse: false,
                    ..cfg.clone()
                };
                let mut defence = Forest::new(geom, &plain);
                defence.start(pos, &plain, seed);
                defence.search(pos, &plain, &limits, left, None);
                let mut c = choose(&defence, &plain, start);
                (c.value, c.nodes) = (Some(-WIN), c.nodes + used);
                // Every move loses against perfect play, whatever the defence's playouts say.
                for m in &mut c.moves {
                    m.proven = Proven::Loss;
                }
                return Some(c);
            }
        }
        let mut c = choose(forest, cfg, start);
        if cfg.temp > 0.0 {
            draw(&mut c, cfg.temp, seed);
        }
        Some(c)
    }
}

/// Replaces the choice's move by one drawn with probability proportional to
/// `visits^(1 / temp)` among its root moves not proven lost, from random numbers of `seed`
/// (a proven win, or a root with no such move, is kept). A weak player's mistakes: it plays
/// the moves its search liked, not always the one it liked best.
fn draw(c: &mut Choice, temp: f64, seed: u64) {
    if c.moves.first().map_or(true, |m| m.proven == Proven::Win) {
        return;
    }
    let open = |m: &&MoveScore| m.proven != Proven::Loss && m.visits.unwrap_or(0) > 0;
    let most = c.moves.iter().filter(open).filter_map(|m| m.visits).max().unwrap_or(0);
    if most == 0 {
        return;
    }
    // Weights relative to the most visited move, so that a low temperature cannot overflow.
    let weight = |m: &MoveScore| (m.visits.unwrap_or(0) as f64 / most as f64).powf(1.0 / temp);
    let total: f64 = c.moves.iter().filter(open).map(weight).sum();
    let mut rng = playout::Rng::new(seed ^ 0x7E3D_A11C_5EED_0001);
    let mut left = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * total;
    let mut drawn = None;
    for m in c.moves.iter().filter(open) {
        drawn = Some(m);
        left -= weight(m);
        if left < 0.0 {
            break;
        }
    }
    let Some(m) = drawn else { return };
    c.mv = Move::Cell(m.cell);
    c.value = m.win_rate.map(|w| 2.0 * w - 1.0);
    c.pv = m.pv.clone();
}

/// The move of the summed root statistics, with what the threads saw.
fn choose<B: BitSet>(forest: &Forest<B>, cfg: &Config, start: Instant) -> Choice {
    let mut c = summary::<B>(&forest.trees, cfg, start);
    c.depth = forest.workers.iter().map(|w| w.depth).max().unwrap_or(0);
    c.nodes = forest.workers.iter().map(|w| w.iterations).sum();
    c
}

/// What the trees say of the root, summed over the threads: the move, its value and line, and
/// every root move the search has looked at (visited or proven), best first. The trees may be
/// growing still. Depth and nodes are left to the caller.
fn summary<B: BitSet>(trees: &[Tree], cfg: &Config, start: Instant) -> Choice {
    let mut moves = vec![RootMove::default(); B::CAPACITY];
    let mut cells: Vec<usize> = Vec::new();
    let mut won: Option<Cell> = None;
    let mut lost = false;
    let mut ranked = 0;
    for (i, t) in trees.iter().enumerate() {
        match t.root().proof() {
            Proof::Win if won.is_none() => {
                won = t.best_child(0).map(|c| B::cell_of(t.node(c).bit()));
            }
            Proof::Loss => lost = true,
            _ => {}
        }
        for c in t.root_children().filter(|c| !c.pruned) {
            let bit = usize::from(c.bit);
            let m = &mut moves[bit];
            if !cells.contains(&bit) {
                cells.push(bit);
            }
            m.visits += u64::from(c.visits);
            m.wins += f64::from(c.wins);
            m.lost |= c.proof == Proof::Win;
            m.wins_now |= c.proof == Proof::Loss;
            if i == 0 {
                m.rank = c.rank;
                ranked += usize::from(c.rank > 0);
            }
        }
    }
    if let Some(w) = won {
        moves[B::bit_of(w)].wins_now = true;
    }
    let rate = |m: &RootMove| if m.visits == 0 { 0.5 } else { m.wins / m.visits as f64 };
    // Best first: winning moves, then moves not proven lost, then by playouts.
    cells.sort_by(|&a, &b| {
        let (x, y) = (&moves[a], &moves[b]);
        y.wins_now
            .cmp(&x.wins_now)
            .then(x.lost.cmp(&y.lost))
            .then(y.visits.cmp(&x.visits))
            .then(rate(y).total_cmp(&rate(x)))
            .then(a.cmp(&b))
    });
    let best = won.or_else(|| cells.first().map(|&b| B::cell_of(b)));
    let Some(best) = best else { return Choice::bare(Move::Resign) };
    let bm = &moves[B::bit_of(best)];
    let value = if won.is_some() || bm.wins_now {
        WIN
    } else if lost || bm.lost {
        -WIN
    } else {
        2.0 * rate(bm) - 1.0
    };
    let mut pv = Vec::new();
    trees[0].pv::<B>(&mut pv);
    if pv.first() != Some(&best) {
        pv = vec![best];
    }
    // Only the moves the search looked at: an unvisited move has no win rate to show.
    let scored = cells.iter().filter(|&&b| {
        let m = &moves[b];
        m.visits > 0 || m.wins_now || m.lost
    });
    let moves = scored
        .map(|&b| {
            let m = &moves[b];
            let mut line = Vec::new();
            trees[0].line_from::<B>(b, &mut line);
            if line.is_empty() {
                line.push(B::cell_of(b));
            }
            MoveScore {
                cell: B::cell_of(b),
                visits: Some(m.visits),
                win_rate: (m.visits > 0).then(|| rate(m)),
                prior: tree::prior_rate(cfg, m.rank, ranked),
                value: None,
                proven: if m.wins_now {
                    Proven::Win
                } else if m.lost || lost {
                    Proven::Loss
                } else {
                    Proven::Unknown
                },
                pv: line,
            }
        })
        .collect();
    Choice {
        mv: Move::Cell(best),
        value: Some(value),
        pv,
        moves,
        depth: 0,
        nodes: 0,
        elapsed: start.elapsed(),
    }
}

/// A winning move by the solver when the position has few empty cells: at most half the
/// move's time, or 100,000 nodes without a time limit (deterministic). Not when the caller's
/// solver has tried the position already (`budget.solved`): the same solve again would only
/// take the search's time. Whatever the solve leaves goes to the search, whose deadline counts
/// from the start of the move.
fn short_solve<B: BitSet>(pos: &Position<B>, cfg: &Config, budget: &MoveBudget) -> Option<Cell> {
    let empty = pos.empty_cells().len();
    if empty > cfg.solve as usize || budget.solved {
        return None;
    }
    let mut sc = SolverConfig { tt_mib: 64, ..SolverConfig::default() };
    sc.budget.time = budget.time.map(|t| t / 2);
    sc.budget.nodes = match budget.time {
        Some(_) => None,
        None => Some(100_000),
    };
    sc.budget.cancel = budget.cancel.clone();
    match nash_search::solve(pos, &sc).outcome {
        Outcome::Win { winning_move, .. } => winning_move,
        _ => None,
    }
}

impl Player for Mcts {
    fn spec(&self) -> String {
        self.cfg.spec()
    }

    fn choose(&mut self, pos: &AnyPosition, budget: &MoveBudget) -> Choice {
        self.search(pos, budget, None)
    }

    fn analyse(
        &mut self,
        pos: &AnyPosition,
        budget: &MoveBudget,
        every: Duration,
        report: &mut dyn FnMut(&Choice),
    ) -> Choice {
        self.search(pos, budget, Some((every, report)))
    }

    fn new_game(&mut self) {
        self.state.clear();
    }
}

/// What [`playouts`] measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutStats {
    /// Playouts run.
    pub playouts: u64,
    /// Of those, the ones the side to move won.
    pub wins: u64,
    /// The time they took.
    pub elapsed: std::time::Duration,
}

/// Runs `count` playouts of `policy` (`random`, `bridge`, `patterns` or `reply`, the `playout`
/// setting of the Monte Carlo players) from `pos` with random numbers from `seed`: their speed
/// and how often the side to move wins, the figures of `cargo xtask bench play --playouts`.
pub fn playouts(
    pos: &AnyPosition,
    policy: &str,
    count: u64,
    seed: u64,
) -> Result<PlayoutStats, SpecError> {
    let policy: Policy = policy.parse().map_err(|_| SpecError::BadValue {
        key: "playout".to_string(),
        value: policy.to_string(),
        expected: "a playout policy (random, bridge, patterns, reply)".to_string(),
    })?;
    let start = Instant::now();
    let wins = with_position!(pos, p => {
        let mut runner = playout::Playouts::new(p.geometry(), policy);
        let mut rng = playout::Rng::new(seed);
        let me = p.to_move();
        (0..count)
            .filter(|_| runner.run(p.black(), p.white(), me, None, &mut rng).winner == me)
            .count() as u64
    });
    Ok(PlayoutStats { playouts: count, wins, elapsed: start.elapsed() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_net_loads() {
        let mut cfg = Config { net: NetFile::Builtin, ..Config::new("best") };
        cfg.load_net();
        assert!(cfg.loaded_net.is_some(), "the shipped weights do not load");
        cfg.net = NetFile::Off;
        cfg.load_net();
        assert!(cfg.loaded_net.is_none());
    }
}
