//! Alpha-beta players: negamax with iterative deepening over any evaluation, as Hexy searches
//! its resistance evaluation (Anshelevich 2000 s.6: a depth and a width, the N best moves by
//! the evaluation), Queenbee its two-distance (van Rijswijck 2002 s.3.2), and the depth-1
//! minimax of Horrell et al. (s.2.2).
//!
//! The search itself is in `alphabeta/search.rs` (negamax, ordering, knowledge, threat
//! patterns of van Rijswijck 2002 Appendix B Table 2), its table in `alphabeta/table.rs`.
//! One player keeps one searcher per board it has seen last, so a game reuses the table,
//! the ordering statistics and every buffer.

mod search;
mod table;

use std::fmt;
use std::str::FromStr;

use nash_board::{
    with_position, AnyPosition, BitSet, Move, PerWidth, Position, Width, WidthFamily,
};

use search::{Found, Searcher};

use crate::eval::EvalKind;
use crate::player::{valued_moves, Choice, MoveBudget, Player};
use crate::spec::{settings_table, UnknownValue};
use crate::swap;

/// How deep iterative deepening goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Depth {
    /// The player's own depth when the budget has no time or node limit; as deep as the
    /// budget allows otherwise.
    Auto,
    /// At most this many plies, whatever the budget.
    Fixed(u32),
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Depth::Auto => f.write_str("auto"),
            Depth::Fixed(d) => write!(f, "{d}"),
        }
    }
}

impl FromStr for Depth {
    type Err = UnknownValue;

    fn from_str(s: &str) -> Result<Depth, UnknownValue> {
        match s {
            "auto" => Ok(Depth::Auto),
            _ => match s.parse::<u32>() {
                Ok(d) if (1..=400).contains(&d) => Ok(Depth::Fixed(d)),
                _ => Err(UnknownValue(s.to_owned())),
            },
        }
    }
}

/// Everything an alpha-beta player is built from; the registry gives each named player its
/// defaults, and every one of them is a setting of the spec.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    /// The registry name, first in the canonical spec.
    pub(crate) name: &'static str,
    /// The evaluation at the leaves and of the width filter.
    pub(crate) eval: EvalKind,
    /// The depth limit.
    pub(crate) depth: Depth,
    /// The depth `auto` means without a time or node budget.
    pub(crate) base_depth: u32,
    /// Moves searched per node, the best by the evaluation's move scores (0: all).
    pub(crate) width: u32,
    /// Knowledge: the 2-ply threat check, fill-in and inferior cells, virtual-connection
    /// verdicts, the mustplay.
    pub(crate) threats: bool,
    pub(crate) fill_in: bool,
    pub(crate) vc: bool,
    pub(crate) mustplay: bool,
    /// Threat patterns cut the search (van Rijswijck 2002 Appendix B Table 2).
    pub(crate) patterns: bool,
    /// The transposition table's size in MiB.
    pub(crate) tt_mib: usize,
    /// Whether the player may answer a first move with a swap (see `swap.rs`).
    pub(crate) swap: bool,
}

impl Config {
    /// The defaults of a player called `name` searching `eval`.
    pub(crate) fn new(name: &'static str, eval: EvalKind) -> Config {
        Config {
            name,
            eval,
            depth: Depth::Auto,
            base_depth: 3,
            width: 0,
            threats: true,
            fill_in: true,
            vc: true,
            mustplay: true,
            patterns: false,
            tt_mib: 16,
            swap: false,
        }
    }

    /// Whether any knowledge is on.
    pub(crate) fn knowledge(&self) -> bool {
        self.threats || self.fill_in || self.vc || self.mustplay
    }

    /// The canonical spec: every setting spelled out.
    pub(crate) fn spec(&self) -> String {
        format!("{}:{}", self.name, self.settings_text())
    }
}

/// `true or false`, what a switch accepts.
const ON_OFF: &str = "true or false";

settings_table!(Config {
    "eval" => eval: eval_names();
    "depth" => depth: "auto or a depth from 1 to 400";
    "width" => width: "a number of moves (0: all)";
    "threats" => threats: ON_OFF;
    "fillin" => fill_in: ON_OFF;
    "vc" => vc: ON_OFF;
    "mustplay" => mustplay: ON_OFF;
    "patterns" => patterns: ON_OFF;
    "tt" => tt_mib: "a table size in MiB from 1 to 4096", if |m| (1..=4096).contains(m);
    "swap" => swap: ON_OFF;
});

/// The evaluations' names, for error messages.
pub(crate) fn eval_names() -> String {
    let names: Vec<_> = EvalKind::ALL.iter().map(|k| k.name()).collect();
    format!("an evaluation ({})", names.join(", "))
}

/// An alpha-beta player.
#[derive(Debug)]
pub struct AlphaBeta {
    cfg: Config,
    /// The searcher of the board last played on.
    state: PerWidth<Searchers>,
}

/// The searchers, one type per bitboard width.
#[derive(Debug)]
struct Searchers;

impl WidthFamily for Searchers {
    type Of<B: BitSet> = Searcher<B>;
}

impl AlphaBeta {
    pub(crate) fn new(cfg: Config) -> AlphaBeta {
        AlphaBeta { cfg, state: PerWidth::new() }
    }

    fn run<B: Width>(&mut self, pos: &Position<B>, budget: &MoveBudget) -> Option<Found> {
        if pos.winner().is_some() || pos.empty_cells().is_empty() {
            return None;
        }
        let depth = match self.cfg.depth {
            Depth::Fixed(d) => d,
            Depth::Auto if budget.time.is_some() || budget.nodes.is_some() => u32::MAX,
            Depth::Auto => self.cfg.base_depth,
        };
        let geom = pos.geometry();
        let cfg = &self.cfg;
        let searcher = self.state.get(
            pos,
            |s: &Searcher<B>| std::ptr::eq(s.geometry(), geom),
            || Searcher::new(geom, cfg),
        );
        Some(searcher.search(pos, depth, budget))
    }
}

impl Player for AlphaBeta {
    fn spec(&self) -> String {
        self.cfg.spec()
    }

    fn choose(&mut self, pos: &AnyPosition, budget: &MoveBudget) -> Choice {
        let Some(found) = with_position!(pos, p => self.run(p, budget)) else {
            return Choice::bare(Move::Resign);
        };
        let choice = Choice {
            mv: found.mv.map_or(Move::Resign, Move::Cell),
            value: Some(found.value),
            moves: valued_moves(found.scores, &found.pv),
            pv: found.pv,
            depth: found.depth,
            nodes: found.nodes,
            elapsed: found.elapsed,
        };
        swap::rule(pos, self.cfg.swap, choice)
    }

    fn new_game(&mut self) {
        self.state.clear();
    }
}
