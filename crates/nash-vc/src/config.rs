//! The H-search configuration: one switch per variant that the seeds measure.

use std::fmt;
use std::str::FromStr;

/// How many semi connections the OR rule may combine into one full connection
/// (the OR-k rule, Chen 2025 s.5.4.3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum OrLimit {
    /// At most `k` semis (`k >= 2`).
    AtMost(u8),
    /// Any number, as in Anshelevich's original OR(n) rule (2000 s.5).
    Unlimited,
    /// Not every minimal set: for each cell that every known full connection of the pair
    /// holds, one set of semis that avoid it, chosen greedily (each semi taken shrinks the
    /// running intersection). The fulls it gives exist to empty the intersection of the pair's
    /// fulls, which is what the mustplay and the AND rule's choices need.
    Greedy,
}

impl OrLimit {
    /// The largest number of semis combined.
    pub fn max_semis(self) -> usize {
        match self {
            OrLimit::AtMost(k) => k.max(2) as usize,
            OrLimit::Unlimited | OrLimit::Greedy => usize::MAX,
        }
    }
}

/// The switches of H-search. Each field is one variant of Chen 2025 s.5.4, so experiments can
/// turn them on and off one at a time.
///
/// [`HSearchConfig::default`] is the strongest sound setting for solving; [`HSearchConfig::thesis_base`]
/// is the base case that Chen 2025 s.5.5 measures (3-OR, no border midpoint, nothing else).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct HSearchConfig {
    /// The OR-k rule (s.5.4.3).
    pub or_limit: OrLimit,
    /// Use a player's own edges as AND-rule midpoints (s.5.4.1).
    pub border_midpoint: bool,
    /// Without `border_midpoint`: an own edge is still a midpoint between two full connections
    /// to it whose carriers have at most this many cells each (a cell next to the edge has the
    /// empty carrier, one two rows out a bridge of two), so two cells near one edge are joined
    /// by way of it. `None` for no such midpoint.
    pub border_local: Option<u8>,
    /// The captured-set rule: two carriers between ends may overlap inside an end's captured
    /// set (an empty cell on the second row of its own edge: its two empty neighbours on the
    /// first row), the result taking the set into its carrier. An intrusion there is answered
    /// in the other cell, after which the cell's group, the edge and that reply touch every
    /// neighbour of the intruded cell (docs/vc.md).
    pub captured_sets: bool,
    /// Ladder connections along the player's edges (docs/vc.md): two second-row cells with the
    /// first two rows open between them, or a third-row cell over its template and a
    /// second-row cell, are joined by way of the edge, added as full connections before the
    /// rules run, with at most this many second-row cells between the ladder's ends. `None`
    /// for none.
    pub ladders: Option<u8>,
    /// Edge templates with helper stones (docs/vc.md): full connections from a cell on the
    /// fourth or fifth row to its edge that need another stone of the player nearby, from the
    /// table the solver found (`crate::templates`), added before the rules run.
    pub templates: bool,
    /// Keep a new full connection only if it drops a known one (whose carrier contains it) or
    /// shrinks the intersection of the pair's full carriers. The pair keeps few fulls, each
    /// avoiding a cell the others all hold.
    pub lean_fulls: bool,
    /// Stop as soon as an edge-to-edge connection decides the position (s.5.4.4): a semi or full
    /// one for the player to move, a full one for the opponent.
    pub early_stop: bool,
    /// The "optimization" of s.5.4.5: no semi is kept between ends that already have a full
    /// connection. Sound, but it loses semis that narrow the mustplay.
    pub optimization: bool,
    /// Area-limited H-search (s.5.4.6): only empty cells next to the player's stones, and cells on
    /// shortest paths from them to the player's edges, take part.
    pub area_limit: bool,
    /// At most this many full connections per pair of ends (Anshelevich's threshold N, 2000 s.6).
    pub max_fulls: Option<usize>,
    /// At most this many semi connections per pair of ends.
    pub max_semis: Option<usize>,
    /// Also derive a semi from a full and a semi that meet at a stone group or edge (the AND rule
    /// with one semi operand, as Benzene's builder does). Off in the seeds' rule set.
    pub semi_and: bool,
    /// Semi-naive evaluation: the AND rule pairs a full connection that leaves the work queue
    /// only with the fulls that left it before, so every two meet once. The closure is the
    /// same as without it; the order in which connections are found is not, and with caps or
    /// an OR budget neither is the result (docs/vc.md, "The rules").
    pub semi_naive: bool,
    /// At most this many OR-combination steps per new semi (a safety valve for the unlimited OR
    /// rule on big boards); `None` for no limit.
    pub or_budget: Option<u32>,
}

impl Default for HSearchConfig {
    /// The setting for solving: the unlimited OR rule (with a step budget), the semi AND rule,
    /// early stop, and caps on connections per pair of ends. Every switch is sound; edges as
    /// midpoints are left off because they multiply the connections found (every two cells joined
    /// to one edge become joined to each other) at a large cost in time, and the optimization
    /// and area limit are off because they lose semis that narrow the mustplay (s.5.5.3).
    fn default() -> HSearchConfig {
        HSearchConfig {
            or_limit: OrLimit::Unlimited,
            border_midpoint: false,
            border_local: None,
            captured_sets: false,
            ladders: None,
            templates: false,
            lean_fulls: false,
            early_stop: true,
            optimization: false,
            area_limit: false,
            max_fulls: Some(32),
            max_semis: Some(64),
            semi_and: true,
            semi_naive: true,
            or_budget: Some(4096),
        }
    }
}

impl HSearchConfig {
    /// The base case of Chen 2025 s.5.5: 3-OR rule, edges not used as midpoints, no early stop,
    /// no optimization, no area limit, no caps.
    pub fn thesis_base() -> HSearchConfig {
        HSearchConfig {
            or_limit: OrLimit::AtMost(3),
            border_midpoint: false,
            border_local: None,
            captured_sets: false,
            ladders: None,
            templates: false,
            lean_fulls: false,
            early_stop: false,
            optimization: false,
            area_limit: false,
            max_fulls: None,
            max_semis: None,
            semi_and: false,
            semi_naive: true,
            or_budget: None,
        }
    }

    /// The default with the 3-OR rule: about 2.5 times faster on the 6×6 positions of Chen 2025
    /// Table 5.1 (which it finds 99 % of the default's connections on), and far faster on big
    /// boards, where the unlimited OR rule dominates the cost.
    pub fn fast() -> HSearchConfig {
        HSearchConfig { or_limit: OrLimit::AtMost(3), ..HSearchConfig::default() }
    }

    /// A configuration whose result is a canonical closure: no caps, no early stop, no
    /// optimization, no area limit and no OR budget. Under it an incremental update gives exactly
    /// the connection set of a full rebuild.
    pub fn exact(self) -> HSearchConfig {
        HSearchConfig {
            early_stop: false,
            optimization: false,
            area_limit: false,
            max_fulls: None,
            max_semis: None,
            or_budget: None,
            ..self
        }
    }

    /// Applies one variant word (see [`VariantError`] for the list) to the configuration.
    pub fn apply(&mut self, word: &str) -> Result<(), VariantError> {
        let bad = || VariantError(word.to_string());
        let (name, value) = match word.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (word, None),
        };
        let cap = |v: Option<&str>| -> Result<Option<usize>, VariantError> {
            match v {
                Some("none") | Some("unlimited") => Ok(None),
                Some(v) => v.parse::<usize>().ok().filter(|n| *n > 0).map(Some).ok_or_else(bad),
                None => Err(bad()),
            }
        };
        match (name, value) {
            ("default", None) => *self = HSearchConfig::default(),
            ("base", None) => *self = HSearchConfig::thesis_base(),
            ("fast", None) => *self = HSearchConfig::fast(),
            ("exact", None) => *self = self.exact(),
            ("or", Some("unlimited")) => self.or_limit = OrLimit::Unlimited,
            ("or", Some("greedy")) => self.or_limit = OrLimit::Greedy,
            ("or", Some(k)) => match k.parse::<u8>() {
                Ok(k) if k >= 2 => self.or_limit = OrLimit::AtMost(k),
                _ => return Err(bad()),
            },
            ("or2", None) => self.or_limit = OrLimit::AtMost(2),
            ("or3", None) => self.or_limit = OrLimit::AtMost(3),
            ("border", None) => self.border_midpoint = true,
            ("no-border", None) => self.border_midpoint = false,
            ("border-local", Some("none")) => self.border_local = None,
            ("border-local", Some(k)) => match k.parse::<u8>() {
                Ok(k) => self.border_local = Some(k),
                _ => return Err(bad()),
            },
            ("captured", None) => self.captured_sets = true,
            ("no-captured", None) => self.captured_sets = false,
            ("ladders", None) => self.ladders = Some(u8::MAX),
            ("ladders", Some("none")) | ("no-ladders", None) => self.ladders = None,
            ("ladders", Some(k)) => match k.parse::<u8>() {
                Ok(k) if k >= 1 => self.ladders = Some(k),
                _ => return Err(bad()),
            },
            ("templates", None) => self.templates = true,
            ("no-templates", None) => self.templates = false,
            ("lean-fulls", None) => self.lean_fulls = true,
            ("no-lean-fulls", None) => self.lean_fulls = false,
            ("early-stop", None) => self.early_stop = true,
            ("no-early-stop", None) => self.early_stop = false,
            ("optimization", None) => self.optimization = true,
            ("no-optimization", None) => self.optimization = false,
            ("area", None) => self.area_limit = true,
            ("no-area", None) => self.area_limit = false,
            ("semi-and", None) => self.semi_and = true,
            ("no-semi-and", None) => self.semi_and = false,
            ("semi-naive", None) => self.semi_naive = true,
            ("no-semi-naive", None) => self.semi_naive = false,
            ("max-fulls", v) => self.max_fulls = cap(v)?,
            ("max-semis", v) => self.max_semis = cap(v)?,
            ("or-budget", v) => self.or_budget = cap(v)?.map(|n| n.min(u32::MAX as usize) as u32),
            _ => return Err(bad()),
        }
        Ok(())
    }
}

/// A variant word that [`HSearchConfig::apply`] does not know.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error(
    "unknown H-search variant {0:?}: expected default, base, fast, exact, or=K, or=unlimited, or=greedy, or2, or3, \
     [no-]border, border-local=K, [no-]captured, [no-]ladders, ladders=K, [no-]templates, [no-]lean-fulls, [no-]early-stop, [no-]optimization, [no-]area, [no-]semi-and, [no-]semi-naive, max-fulls=N, \
     max-semis=N, or-budget=N"
)]
pub struct VariantError(pub String);

impl FromStr for HSearchConfig {
    type Err = VariantError;

    /// A configuration from variant words separated by commas or spaces, applied in order to
    /// the default: `"base,or2"`, `"early-stop optimization"`.
    fn from_str(s: &str) -> Result<HSearchConfig, VariantError> {
        let mut c = HSearchConfig::default();
        for word in s.split([',', ' ']).filter(|w| !w.is_empty()) {
            c.apply(word)?;
        }
        Ok(c)
    }
}

impl fmt::Display for HSearchConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.or_limit {
            OrLimit::AtMost(k) => write!(f, "or={k}")?,
            OrLimit::Unlimited => write!(f, "or=unlimited")?,
            OrLimit::Greedy => write!(f, "or=greedy")?,
        }
        let flag = |b: bool, name: &str| if b { name.to_string() } else { format!("no-{name}") };
        write!(
            f,
            ",{},{},{},{},{},{},{},{},{}",
            flag(self.border_midpoint, "border"),
            flag(self.captured_sets, "captured"),
            flag(self.templates, "templates"),
            flag(self.lean_fulls, "lean-fulls"),
            flag(self.early_stop, "early-stop"),
            flag(self.optimization, "optimization"),
            flag(self.area_limit, "area"),
            flag(self.semi_and, "semi-and"),
            flag(self.semi_naive, "semi-naive")
        )?;
        let num = |n: Option<usize>| n.map_or("none".to_string(), |n| n.to_string());
        write!(
            f,
            ",border-local={},ladders={},max-fulls={},max-semis={},or-budget={}",
            num(self.border_local.map(usize::from)),
            num(self.ladders.map(usize::from)),
            num(self.max_fulls),
            num(self.max_semis),
            num(self.or_budget.map(|n| n as usize))
        )
    }
}
