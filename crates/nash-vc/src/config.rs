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
        let (setting, given) = match word.split_once('=') {
            Some((n, v)) => (find(n), Given::Value(v)),
            None => match find(word) {
                Some(s) => (Some(s), Given::On),
                None => (word.strip_prefix("no-").and_then(find), Given::Off),
            },
        };
        let setting = setting.ok_or_else(bad)?;
        (setting.set)(self, given).ok_or_else(bad)
    }
}

/// How a variant word names its setting: alone, with `no-` before it, or with `=value`.
#[derive(Clone, Copy, Debug)]
enum Given<'a> {
    On,
    Off,
    Value(&'a str),
}

/// One variant word: its name, the forms it takes (for the error's list), how it changes a
/// configuration (`None` for a form or value it does not take) and, for the settings a
/// configuration prints, how it prints.
struct Setting {
    name: &'static str,
    forms: &'static str,
    set: fn(&mut HSearchConfig, Given<'_>) -> Option<()>,
    show: Option<fn(&HSearchConfig) -> String>,
}

/// An on/off setting: `name` turns it on, `no-name` off.
macro_rules! flag {
    ($name:literal, $field:ident) => {
        Setting {
            name: $name,
            forms: concat!("[no-]", $name),
            set: |c, g| {
                c.$field = match g {
                    Given::On => true,
                    Given::Off => false,
                    Given::Value(_) => return None,
                };
                Some(())
            },
            show: Some(|c| {
                if c.$field {
                    $name.to_string()
                } else {
                    concat!("no-", $name).to_string()
                }
            }),
        }
    };
}

/// A setting that is a preset (or a change of presets): only its name alone.
macro_rules! preset {
    ($name:literal, $apply:expr) => {
        Setting {
            name: $name,
            forms: $name,
            set: |c, g| {
                let apply: fn(&mut HSearchConfig) = $apply;
                matches!(g, Given::On).then(|| apply(c))
            },
            show: None,
        }
    };
}

/// A cap: `name=N` with `N > 0`, or `name=none` (or `unlimited`) for no cap.
macro_rules! cap {
    ($name:literal, $field:ident, $to:expr, $from:expr) => {
        Setting {
            name: $name,
            forms: concat!($name, "=N"),
            set: |c, g| {
                let Given::Value(v) = g else { return None };
                let n = match v {
                    "none" | "unlimited" => None,
                    v => Some(v.parse::<usize>().ok().filter(|n| *n > 0)?),
                };
                let to: fn(usize) -> _ = $to;
                c.$field = n.map(to);
                Some(())
            },
            show: Some(|c| {
                let from: fn(_) -> usize = $from;
                format!(concat!($name, "={}"), number(c.$field.map(from)))
            }),
        }
    };
}

fn number(n: Option<usize>) -> String {
    n.map_or("none".to_string(), |n| n.to_string())
}

/// Every variant word, in the order a configuration prints them: the one table that parsing,
/// printing and the error's list of words are made from.
const SETTINGS: &[Setting] = &[
    preset!("default", |c| *c = HSearchConfig::default()),
    preset!("base", |c| *c = HSearchConfig::thesis_base()),
    preset!("fast", |c| *c = HSearchConfig::fast()),
    preset!("exact", |c| *c = c.exact()),
    Setting {
        name: "or",
        forms: "or=K, or=unlimited, or=greedy",
        set: |c, g| {
            let Given::Value(v) = g else { return None };
            c.or_limit = match v {
                "unlimited" => OrLimit::Unlimited,
                "greedy" => OrLimit::Greedy,
                k => OrLimit::AtMost(k.parse::<u8>().ok().filter(|k| *k >= 2)?),
            };
            Some(())
        },
        show: Some(|c| match c.or_limit {
            OrLimit::AtMost(k) => format!("or={k}"),
            OrLimit::Unlimited => "or=unlimited".to_string(),
            OrLimit::Greedy => "or=greedy".to_string(),
        }),
    },
    preset!("or2", |c| c.or_limit = OrLimit::AtMost(2)),
    preset!("or3", |c| c.or_limit = OrLimit::AtMost(3)),
    flag!("border", border_midpoint),
    flag!("captured", captured_sets),
    flag!("templates", templates),
    flag!("lean-fulls", lean_fulls),
    flag!("early-stop", early_stop),
    flag!("optimization", optimization),
    flag!("area", area_limit),
    flag!("semi-and", semi_and),
    flag!("semi-naive", semi_naive),
    Setting {
        name: "border-local",
        forms: "border-local=K",
        set: |c, g| {
            c.border_local = match g {
                Given::Value("none") => None,
                Given::Value(k) => Some(k.parse::<u8>().ok()?),
                Given::On | Given::Off => return None,
            };
            Some(())
        },
        show: Some(|c| format!("border-local={}", number(c.border_local.map(usize::from)))),
    },
    Setting {
        name: "ladders",
        forms: "[no-]ladders, ladders=K",
        set: |c, g| {
            c.ladders = match g {
                Given::On => Some(u8::MAX),
                Given::Off | Given::Value("none") => None,
                Given::Value(k) => Some(k.parse::<u8>().ok().filter(|k| *k >= 1)?),
            };
            Some(())
        },
        show: Some(|c| format!("ladders={}", number(c.ladders.map(usize::from)))),
    },
    cap!("max-fulls", max_fulls, |n| n, |n| n),
    cap!("max-semis", max_semis, |n| n, |n| n),
    cap!("or-budget", or_budget, |n| n.min(u32::MAX as usize) as u32, |n: u32| n as usize),
];

/// The setting a variant word names.
fn find(name: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.name == name)
}

/// The list of variant words, for the error's message.
fn variant_words() -> String {
    SETTINGS.iter().map(|s| s.forms).collect::<Vec<_>>().join(", ")
}

/// A variant word that [`HSearchConfig::apply`] does not know.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("unknown H-search variant {0:?}: expected {words}", words = variant_words())]
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
    /// Every setting that is not a preset, as variant words in the table's order, separated
    /// by commas: the text parses back to the same configuration.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        for show in SETTINGS.iter().filter_map(|s| s.show) {
            write!(f, "{sep}{}", show(self))?;
            sep = ",";
        }
        Ok(())
    }
}
