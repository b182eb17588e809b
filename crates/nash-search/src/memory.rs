//! How a solve divides its memory limit ([`SolverConfig::tt_mib`]) so that the limit bounds the
//! whole process: each worker's knowledge caches (the analysis cache and the pool of H-search
//! builders) are sized first, within a share of the limit, and the transposition table (or the
//! node store of PNS and EWS) gets what is left.

use std::sync::OnceLock;

use nash_board::{BitSet, Geometry};

use crate::config::{MoveOrdering, SolverConfig, SolverKind};
use crate::knowledge::cached_bytes;

const MIB: usize = 1 << 20;

/// Memory the program needs besides the solver's tables: code, stacks, the position and
/// pattern tables (measured as the peak resident size of a knowledge-free solve, rounded up).
const BASE_BYTES: usize = 8 * MIB;

/// Slots of a worker's analysis cache when memory allows.
const CACHE_SLOTS_MAX: usize = 1 << 16;

/// The sizes a solve runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Bytes for the transposition table, or for the node store of PNS and EWS.
    pub(crate) table_bytes: usize,
    /// H-search builders per worker (0 without virtual connections).
    pub(crate) pool: usize,
    /// Analysis-cache slots per worker (a power of two, or 0).
    pub(crate) cache_slots: usize,
}

impl Plan {
    /// The bytes one worker's caches can reach.
    pub(crate) fn worker_bytes<B: BitSet>(&self, geom: &Geometry<B>, cfg: &SolverConfig) -> usize {
        self.pool * builder_bytes::<B>(geom, cfg) + self.cache_slots * cached_bytes::<B>()
    }
}

/// Workers that each hold knowledge caches during a solve with `cfg`: the parallel df-pn
/// solvers add one for the root's own analysis.
pub(crate) fn workers(cfg: &SolverConfig) -> usize {
    if cfg.kind == SolverKind::Dfpn && cfg.threads > 1 {
        cfg.threads + 1
    } else {
        1
    }
}

/// Whether the knowledge pipeline builds virtual connections (and so keeps caches).
fn wants_vc(cfg: &SolverConfig) -> bool {
    let k = &cfg.knowledge;
    k.vc || k.mustplay || matches!(k.ordering, MoveOrdering::HScore | MoveOrdering::Resistance)
}

/// An estimate, with room to spare, of one H-search builder's memory once warm: both players'
/// stores, with a list header and lists of connections per pair of ends.
pub(crate) fn builder_bytes<B: BitSet>(geom: &Geometry<B>, cfg: &SolverConfig) -> usize {
    let ends = geom.cells().len() + 4;
    let h = &cfg.knowledge.hsearch;
    let full = std::mem::size_of::<B>();
    let semi = 2 * std::mem::size_of::<B>();
    // Lists grow to their caps only on a few pairs: the largest warm builders of 6x6, 7x7 and
    // 8x8 solves held 365, 787 and 721 bytes per pair of ends for both players together (caps
    // 32 and 64), so 1 KiB per pair leaves room (`warm_builders_fit_the_estimate`).
    let per_pair = (h.max_fulls.unwrap_or(32) * full + h.max_semis.unwrap_or(64) * semi).min(1024);
    ends * ends / 2 * per_pair
}

/// The builders a worker wants. A child whose parent's builder is still in the pool derives
/// both players' connections from it (one player's by removing what the move broke, the other's
/// by adding the move), and builds both from scratch otherwise. With 4 builders, half of the
/// fresh analyses of the 7x7 openings missed their parent; with 16, six 7x7 openings took 5 to
/// 9% less time (32: a few percent less again, but a two-thread solve within 512 MiB has no
/// room for it). Before the move was added incrementally, pools of 2 to 8 ran equally fast and
/// 16 was slower (docs/solving.md).
const POOL_WANTED: usize = 16;

/// The machine's physical memory in bytes (`MemTotal` of /proc/meminfo), read once; `None`
/// where it cannot be read.
fn machine_bytes() -> Option<usize> {
    static MACHINE: OnceLock<Option<usize>> = OnceLock::new();
    *MACHINE.get_or_init(|| {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        meminfo_total(&text)
    })
}

/// `MemTotal` in bytes from the text of /proc/meminfo.
fn meminfo_total(text: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The bytes a limit of `tt_mib` MiB allows: the limit itself, but never more than three
/// quarters of the machine's memory (when it can be read), so that a limit beyond the machine
/// gives a solve that fits instead of a process the system kills or an allocation that fails.
pub(crate) fn limit_bytes(tt_mib: usize) -> usize {
    let asked = tt_mib.max(1).saturating_mul(MIB);
    match machine_bytes() {
        Some(m) => asked.min((m / 4 * 3).max(16 * MIB)),
        None => asked,
    }
}

/// What a memory limit ([`SolverConfig::tt_mib`]) bounds for solves on one board, when it is not
/// simply the limit asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryLimit {
    /// The limit asked for bounds the solve.
    AsAsked,
    /// The limit is beyond three quarters of the machine's memory: the solve is planned within
    /// this many MiB instead.
    Capped {
        /// The MiB the solve is planned within.
        mib: usize,
    },
    /// The limit is below what the smallest plan on this board takes (the program, a one-MiB
    /// table, and each worker's two H-search builders and 256 analysis-cache slots, as
    /// estimated from above): the solve may take up to this many MiB.
    Floor {
        /// The MiB the smallest plan may take.
        mib: usize,
    },
}

/// What `cfg.tt_mib` bounds for a solve on `geom` ([`crate::solve`]), or, `side_by_side`,
/// for a set of solves on it ([`crate::solve_many`], [`crate::winning_moves`]).
pub fn memory_limit<B: BitSet>(
    cfg: &SolverConfig,
    geom: &Geometry<B>,
    side_by_side: bool,
) -> MemoryLimit {
    let setup = match side_by_side {
        true => crate::context::Setup::set(cfg, geom),
        false => crate::context::Setup::one(cfg, geom),
    };
    let solves = if side_by_side { crate::context::at_once(cfg.threads) } else { 1 };
    let workers = solves * workers(&setup.each);
    let caches = workers.saturating_mul(setup.plan.worker_bytes(geom, &setup.each));
    let planned = setup.table_bytes.saturating_add(caches).saturating_add(BASE_BYTES);
    let limit = limit_bytes(cfg.tt_mib);
    if planned > limit {
        MemoryLimit::Floor { mib: planned.div_ceil(MIB) }
    } else if limit < cfg.tt_mib.saturating_mul(MIB) {
        MemoryLimit::Capped { mib: limit / MIB }
    } else {
        MemoryLimit::AsAsked
    }
}

/// The bytes of a solve's table out of `table_bytes`, the table's share of the plan: all of it,
/// except for proof-number and expected-work search, whose node store takes three quarters
/// (and all of it when their win/loss table is off).
pub(crate) fn result_table_bytes(cfg: &SolverConfig, table_bytes: usize) -> usize {
    match cfg.kind {
        SolverKind::Pns | SolverKind::Ews => match cfg.result_table {
            _ if !cfg.use_tt => 0,
            crate::config::ResultTable::Off => 0,
            _ => table_bytes / 4,
        },
        _ => table_bytes,
    }
}

/// Plans a solve of a position on `geom` with `cfg`: each worker's caches get at most half the
/// limit divided among the workers (a builder pool never below two, parent and child), and the
/// table gets the rest, at least one MiB.
pub(crate) fn plan<B: BitSet>(cfg: &SolverConfig, geom: &Geometry<B>) -> Plan {
    let limit = limit_bytes(cfg.tt_mib);
    if !wants_vc(cfg) {
        return Plan { table_bytes: table_share(cfg.tt_mib, 0), pool: 0, cache_slots: 0 };
    }
    let workers = workers(cfg);
    let share = limit / 2 / workers;
    let builder = builder_bytes(geom, cfg);
    let mut pool = POOL_WANTED;
    while pool > 2 && pool * builder > share / 2 {
        pool /= 2;
    }
    let mut cache_slots = if cfg.hsearch_table { CACHE_SLOTS_MAX } else { 0 };
    while cache_slots > 256 && pool * builder + cache_slots * cached_bytes::<B>() > share {
        cache_slots /= 2;
    }
    let mut plan = Plan { table_bytes: 0, pool, cache_slots };
    plan.table_bytes = table_share(cfg.tt_mib, workers * plan.worker_bytes(geom, cfg));
    plan
}

/// What a limit of `tt_mib` MiB leaves for the table once the workers' caches (`workers_bytes`
/// in all) and the program are counted: at least one MiB.
pub(crate) fn table_share(tt_mib: usize, workers_bytes: usize) -> usize {
    let limit = limit_bytes(tt_mib);
    limit.saturating_sub(workers_bytes.saturating_add(BASE_BYTES)).max(MIB)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nash_board::Bitboard;

    #[test]
    fn caches_and_table_fit_the_limit() {
        for size in [4, 6, 7, 8, 11] {
            let geom = Geometry::<Bitboard>::get(size, size).expect("board size");
            for (mib, threads) in [(64, 1), (256, 1), (512, 2), (2048, 2)] {
                let cfg = SolverConfig { tt_mib: mib, threads, ..SolverConfig::default() };
                let p = plan(&cfg, geom);
                let total = p.table_bytes + workers(&cfg) * p.worker_bytes(geom, &cfg) + BASE_BYTES;
                assert!(total <= mib * MIB, "{size}x{size} {mib} MiB x{threads}: {total} bytes");
                assert!(p.pool >= 2 && p.cache_slots.is_power_of_two());
            }
        }
    }

    /// The estimate bounds what builders hold once warm: two builders follow 40 games on 7x7
    /// and 8x8 boards, each built from the other's position as a search's pool slots are (they
    /// reach about 0.78 and 1.6 MB, against 1.4 and 2.4 MB estimated).
    #[test]
    fn warm_builders_fit_the_estimate() {
        use nash_board::Position;
        use nash_vc::VcBuilder;
        let cfg = SolverConfig::default();
        for size in [7, 8] {
            let geom = Geometry::<Bitboard>::get(size, size).expect("board size");
            let limit = builder_bytes(geom, &cfg);
            let mut most = 0;
            for game in 0..40usize {
                let mut pos: Position<Bitboard> = Position::empty(geom);
                let mut builders =
                    [VcBuilder::new(cfg.knowledge.hsearch), VcBuilder::new(cfg.knowledge.hsearch)];
                let mut step = 0usize;
                while pos.winner().is_none() {
                    let empty: Vec<_> = pos.empty_cells().iter().collect();
                    pos.play(empty[(step * 7 + game * 5 + 3) % empty.len()]).expect("empty cell");
                    let [a, b] = &mut builders;
                    let (from, to) = if step % 2 == 0 { (&*a, b) } else { (&*b, a) };
                    to.build_from(from, &pos);
                    most = most.max(to.heap_bytes());
                    step += 1;
                }
            }
            assert!(
                most <= limit,
                "{size}x{size}: a warm builder holds {most} bytes, over {limit}"
            );
        }
    }

    /// A limit far beyond any machine (a TiB) plans within the machine's memory.
    #[test]
    fn a_limit_beyond_the_machine_is_capped() {
        let geom = Geometry::<Bitboard>::get(11, 11).expect("board size");
        for threads in [1, 2] {
            let cfg = SolverConfig { tt_mib: 1 << 20, threads, ..SolverConfig::default() };
            let p = plan(&cfg, geom);
            let total = p.table_bytes + workers(&cfg) * p.worker_bytes(geom, &cfg);
            if let Some(m) = machine_bytes() {
                assert!(total <= m, "{total} bytes planned on a machine of {m}");
            }
            assert!(p.table_bytes >= MIB);
        }
        assert_eq!(limit_bytes(usize::MAX), limit_bytes(usize::MAX / 2));
        assert_eq!(
            meminfo_total("MemTotal:       24576000 kB\nMemFree: 1 kB\n"),
            Some(24576000 * 1024)
        );
        assert_eq!(meminfo_total("nothing here"), None);
    }

    /// A limit below a board's smallest plan is said, with what that plan may take; the
    /// default limit on a 7x7 board is as asked.
    #[test]
    fn a_limit_below_the_smallest_plan_is_said() {
        let small = Geometry::<Bitboard>::get(7, 7).expect("board size");
        let cfg = SolverConfig::default();
        assert_eq!(memory_limit(&cfg, small, false), MemoryLimit::AsAsked);
        let wide = Geometry::<nash_board::WideBitboard>::get(19, 19).expect("board size");
        let cfg = SolverConfig { tt_mib: 1, ..SolverConfig::default() };
        let MemoryLimit::Floor { mib } = memory_limit(&cfg, wide, false) else {
            panic!("1 MiB on 19x19 is below the smallest plan");
        };
        let p = plan(&cfg, wide);
        assert_eq!(mib, (p.table_bytes + p.worker_bytes(wide, &cfg) + BASE_BYTES).div_ceil(MIB));
        for side_by_side in [false, true] {
            let cfg = SolverConfig { tt_mib: 1, threads: 2, ..SolverConfig::default() };
            assert!(matches!(memory_limit(&cfg, small, side_by_side), MemoryLimit::Floor { .. }));
        }
    }

    #[test]
    fn a_large_limit_keeps_the_full_caches() {
        let geom = Geometry::<Bitboard>::get(6, 6).expect("board size");
        let cfg = SolverConfig { tt_mib: 1024, ..SolverConfig::default() };
        let p = plan(&cfg, geom);
        assert_eq!((p.pool, p.cache_slots), (POOL_WANTED, CACHE_SLOTS_MAX));
    }
}
