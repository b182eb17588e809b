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

use nash_board::{with_position, AnyPosition, BitSet, Move, Position};

use search::{Found, Searcher};

use crate::eval::EvalKind;
use crate::per_board::PerBoard;
use crate::player::{Choice, MoveBudget, Player};
use crate::spec::{Settings, SpecError};
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
    type Err = ();

    fn from_str(s: &str) -> Result<Depth, ()> {
        match s {
            "auto" => Ok(Depth::Auto),
            _ => match s.parse::<u32>() {
                Ok(d) if (1..=400).contains(&d) => Ok(Depth::Fixed(d)),
                _ => Err(()),
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

    /// Reads the settings of a spec over these defaults.
    pub(crate) fn read(mut self, s: &mut Settings) -> Result<Config, SpecError> {
        let on_off = "true or false";
        self.eval = s.get("eval", self.eval, &eval_names())?;
        self.depth = s.get("depth", self.depth, "auto or a depth from 1 to 400")?;
        self.width = s.get("width", self.width, "a number of moves (0: all)")?;
        self.threats = s.get("threats", self.threats, on_off)?;
        self.fill_in = s.get("fillin", self.fill_in, on_off)?;
        self.vc = s.get("vc", self.vc, on_off)?;
        self.mustplay = s.get("mustplay", self.mustplay, on_off)?;
        self.patterns = s.get("patterns", self.patterns, on_off)?;
        self.tt_mib =
            s.get_checked("tt", self.tt_mib, "a table size in MiB from 1 to 4096", |m| {
                (1..=4096).contains(m)
            })?;
        self.swap = s.get("swap", self.swap, on_off)?;
        Ok(self)
    }

    /// The canonical spec: every setting spelled out.
    pub(crate) fn spec(&self) -> String {
        format!(
            "{}:eval={},depth={},width={},threats={},fillin={},vc={},mustplay={},patterns={},tt={},swap={}",
            self.name,
            self.eval,
            self.depth,
            self.width,
            self.threats,
            self.fill_in,
            self.vc,
            self.mustplay,
            self.patterns,
            self.tt_mib,
            self.swap
        )
    }
}

/// The evaluations' names, for error messages.
pub(crate) fn eval_names() -> String {
    let names: Vec<_> = EvalKind::ALL.iter().map(|k| k.name()).collect();
    format!("an evaluation ({})", names.join(", "))
}

/// An alpha-beta player.
#[derive(Debug)]
pub struct AlphaBeta {
    cfg: Config,
    /// The searcher of the board last played on (a `Searcher<B>` for its bitboard type).
    state: PerBoard,
}

impl AlphaBeta {
    pub(crate) fn new(cfg: Config) -> AlphaBeta {
        AlphaBeta { cfg, state: PerBoard::default() }
    }

    fn run<B: BitSet>(&mut self, pos: &Position<B>, budget: &MoveBudget) -> Option<Found> {
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
        let searcher = self
            .state
            .get(|s: &Searcher<B>| std::ptr::eq(s.geometry(), geom), || Searcher::new(geom, cfg));
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
            pv: found.pv,
            scores: found.scores,
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
