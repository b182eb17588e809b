//! Anshelevich's electric-circuit evaluation (2000 s.3-4), on nash-vc's circuit
//! ([`nash_vc::Resistance`]) and H-search ([`nash_vc::VcBuilder`]).
//!
//! Each player's board is a circuit between its two edges: an empty cell has resistance 1, the
//! player's stones 0, the opponent's stones cut the circuit, and neighbours are joined by the
//! sum of their resistances (s.3). `E = R_B / R_W` is the evaluation; `resistance` adds the
//! players' virtual connections found by H-search (s.4-5), `resistance-plain` is the circuit of
//! s.3 alone. Moves are scored as Hexy does, by the energy the two circuits dissipate in the
//! cell (van Rijswijck 2002 s.3.1, describing Hexy), as a share of each circuit's power.
//!
//! Where this departs from the paper:
//! - The value is `ln(R_opp / R_me)` for the side to move, not `R_B / R_W`: the same order for
//!   Black, reversed for White, and antisymmetric, as a negamax search needs. Resistances are
//!   clamped into `[1e-6, 1e6]`, so the value stays within about ±27.6 (a player connected by
//!   a virtual connection from edge to edge has a tiny resistance and a large value).
//! - Virtual connections. s.4 adds, for a connection between `x` and `y`, a link from every empty
//!   neighbour of `x` to `y` and from every empty neighbour of `y` to `x`. nash-vc instead joins
//!   the two ends by one conductor of conductance `1 / (r(x) + r(y) + 0.5)` per pair of ends
//!   (however many carriers the pair has), the resistance evaluation of Six and Benzene. Both
//!   make the ends nearly one node while keeping them weaker than a real connection; the
//!   conductor is cheaper and keeps the circuit's matrix narrow.
//! - The connections are H-search's (s.5) under [`Circuit::default_hsearch`]: the OR rule
//!   combines at most three semi connections, and at most 8 full and 16 semi connections are
//!   kept per pair of ends (the role of Hexy's threshold N, s.6, whose value the paper's text
//!   does not give; 8 halves the time of nash-vc's cap of 32 and moves the value by about 0.04
//!   on 9x9 and 11x11 mid-game positions). Only full connections enter the circuit, as in s.4.
//!   The early stop is off so that the value does not depend on who is to move (it would cut
//!   one player's connection set short). [`Evaluator::set_hsearch`] changes the setting.
//! - The move scores: the paper's surviving text gives none; we follow van Rijswijck's account
//!   of Hexy (s.3.1: the energy dissipated in the links around a cell), summed over both
//!   players' circuits, each as a share of its total power (between 0 and 2).
//! - `resistance-plain` still builds nash-vc's connection store, with room for no connection at
//!   all, because the circuit reads the stones from it; the whole evaluation takes 25 to 50
//!   microseconds on 9x9 and 11x11 (`cargo bench -p nash-play --bench eval`).

use nash_board::{BitSet, Cell, Color, Position};
use nash_vc::{HSearchConfig, Resistance, ResistanceConfig, VcBuilder};

#[cfg(doc)]
use crate::eval::Evaluator;

/// How many interior positions' connection sets are kept to derive others from: about a
/// search's depth, so the ancestors of the node being evaluated are usually among them.
const ANCESTORS: usize = 8;
/// A kept set is derived from only when the position has at most this many new stones (per
/// player nash-vc updates at most two stone by stone and rebuilds beyond that).
const MAX_NEW: usize = 4;

/// The circuits of both players and the H-search that feeds them.
///
/// Building the connections from scratch costs milliseconds on 9x9 and 11x11, so they are
/// derived where possible from those of an ancestor ([`VcBuilder::build_from`], Chen 2025
/// s.5.4.2: a quarter to a sixth of the time for a child): [`Circuit::move_scores`] (called at interior
/// nodes of a search) keeps its position's set among the last eight, and every
/// evaluation starts from the kept set with the fewest stones missing, if any is a subset of
/// the position. With capped lists a derived set can differ from a rebuilt one, so a value may
/// depend on what was evaluated before; the sequence of calls of a search is fixed, so players
/// stay deterministic.
#[derive(Debug)]
pub struct Circuit<B: BitSet> {
    hsearch: HSearchConfig,
    /// Connection sets of positions whose move scores were asked, with when each was last used.
    ancestors: Vec<(VcBuilder<B>, u64)>,
    /// The connection set of the last position valued.
    leaf: VcBuilder<B>,
    clock: u64,
    circuit: Resistance<B>,
}

impl<B: BitSet> Circuit<B> {
    /// The circuit with virtual connections from H-search under [`Circuit::default_hsearch`],
    /// or with adjacency only when `plain`.
    pub fn new(plain: bool) -> Circuit<B> {
        let (hsearch, config) = if plain {
            // No room for any connection: H-search only names the groups.
            let none =
                HSearchConfig { max_fulls: Some(0), max_semis: Some(0), ..Self::default_hsearch() };
            (none, ResistanceConfig { vc_weight: 0.0, ..ResistanceConfig::default() })
        } else {
            (Self::default_hsearch(), ResistanceConfig::default())
        };
        Circuit {
            hsearch,
            ancestors: Vec::new(),
            leaf: VcBuilder::new(hsearch),
            clock: 0,
            circuit: Resistance::new(config),
        }
    }

    /// The H-search of the `resistance` evaluation: the 3-OR rule, at most 8 full and 16 semi
    /// connections per pair of ends (Hexy's threshold N, s.6), no early stop (it would make
    /// the value depend on who is to move).
    pub fn default_hsearch() -> HSearchConfig {
        HSearchConfig {
            early_stop: false,
            max_fulls: Some(8),
            max_semis: Some(16),
            ..HSearchConfig::fast()
        }
    }

    /// Uses `config` for the virtual connections from now on (a plain circuit stays plain).
    pub fn set_hsearch(&mut self, config: HSearchConfig) {
        if self.circuit.config().vc_weight > 0.0 {
            self.hsearch = config;
            self.ancestors.clear();
            self.leaf.set_config(config);
        }
    }

    /// The value for `me`: `ln(R_opp / R_me)`.
    pub fn value(&mut self, pos: &Position<B>, me: Color) -> f64 {
        match self.nearest_ancestor(pos) {
            // The position itself (its moves were just scored): its connections are there.
            Some((i, 0)) => self.circuit.evaluate(&self.ancestors[i].0),
            Some((i, _)) => {
                self.leaf.build_from(&self.ancestors[i].0, pos);
                self.circuit.evaluate(&self.leaf);
            }
            None => {
                self.leaf.build(pos);
                self.circuit.evaluate(&self.leaf);
            }
        }
        self.circuit.evaluation(me)
    }

    /// Each empty cell's share of both circuits' power.
    pub fn move_scores(&mut self, pos: &Position<B>, out: &mut Vec<(Cell, f64)>) {
        let base = self.nearest_ancestor(pos).map(|(i, _)| i);
        // The least recently used slot takes this position (never the base it derives from).
        let slot = if self.ancestors.len() < ANCESTORS {
            self.ancestors.push((VcBuilder::new(self.hsearch), 0));
            self.ancestors.len() - 1
        } else {
            (0..ANCESTORS)
                .filter(|&i| Some(i) != base)
                .min_by_key(|&i| self.ancestors[i].1)
                .expect("several slots")
        };
        match base {
            Some(i) if i != slot => {
                let (lo, hi) = self.ancestors.split_at_mut(i.max(slot));
                let (to, from) =
                    if slot < i { (&mut lo[slot].0, &hi[0].0) } else { (&mut hi[0].0, &lo[i].0) };
                to.build_from(from, pos);
            }
            _ => self.ancestors[slot].0.build(pos),
        }
        self.clock += 1;
        self.ancestors[slot].1 = self.clock;
        self.circuit.evaluate(&self.ancestors[slot].0);
        for cell in pos.empty_cells().iter() {
            let power = Color::ALL.map(|c| self.circuit.power(c, cell));
            out.push((cell, power[0] + power[1]));
        }
    }

    /// Each player's resistance between its edges, as of the last evaluation.
    pub fn resistance(&self, color: Color) -> f64 {
        self.circuit.resistance(color)
    }

    /// The kept set whose position has the fewest stones missing from `pos` (at most
    /// [`MAX_NEW`]) and none that `pos` lacks, the most recent among equals, with the number
    /// missing; it is marked used.
    fn nearest_ancestor(&mut self, pos: &Position<B>) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize, u64)> = None;
        for (i, (vc, used)) in self.ancestors.iter().enumerate() {
            let mut missing = 0;
            for c in Color::ALL {
                let (then, now) = (vc.stones(c), pos.stones(c));
                let same_board = vc.geometry().is_some_and(|g| std::ptr::eq(g, pos.geometry()));
                if !same_board || !then.is_subset(now) {
                    missing = usize::MAX;
                    break;
                }
                missing += (now - then).len();
            }
            let better = match best {
                None => true,
                Some((_, m, u)) => missing < m || (missing == m && *used > u),
            };
            if missing <= MAX_NEW && better {
                best = Some((i, missing, *used));
            }
        }
        let (i, missing, _) = best?;
        self.clock += 1;
        self.ancestors[i].1 = self.clock;
        Some((i, missing))
    }
}

#[cfg(test)]
mod tests {
    use nash_board::{Bitboard, MoveList, Symmetry};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    fn position(cols: usize, rows: usize, moves: &str) -> Position<Bitboard> {
        let mut p = Position::new(cols, rows).unwrap();
        moves.parse::<MoveList>().unwrap().play_on(&mut p).unwrap();
        p
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn the_plain_circuit_by_hand() {
        // One row of three cells (3 columns, 1 row). Black crosses at any of the three cells:
        // each is a path edge-cell-edge of 0+1 and 1+0, resistance 2, three in parallel give
        // 2/3; the links between neighbouring cells carry no current (equal voltages). White's
        // path crosses every cell: links edge-a1 1, a1-b1 2, b1-c1 2, c1-edge 1, so 6.
        let p = position(3, 1, "-");
        let mut c = Circuit::new(true);
        let v = c.value(&p, Color::Black);
        assert!(close(c.resistance(Color::Black), 2.0 / 3.0), "{}", c.resistance(Color::Black));
        assert!(close(c.resistance(Color::White), 6.0));
        assert!(close(v, (6.0f64 / (2.0 / 3.0)).ln()));
        // Power shares. Black: a third of the current (1/2 of I = 3/2) crosses each cell, whose
        // two links of resistance 1 dissipate 1/4 each; a node gets half of each of its links,
        // 1/4 of the total 3/2: a share of 1/6. White: I = 1/6 dissipates I^2 R in each link,
        // 1/36, 2/36, 2/36, 1/36; a1 gets half of the first two (1.5/36), b1 half of the middle
        // two (2/36): shares 1/4 and 1/3 of the total 6/36. So a1 and c1 score 5/12, the
        // centre b1 1/2.
        let mut out = Vec::new();
        c.move_scores(&p, &mut out);
        let want = [5.0 / 12.0, 0.5, 5.0 / 12.0];
        for (&(cell, s), w) in out.iter().zip(want) {
            assert!(close(s, w), "{cell} {s} vs {w}");
        }
    }

    #[test]
    fn a_stone_halves_the_path_by_hand() {
        // Black a2 on a 1-column board of three rows (a1 a2 a3 in a line, Black north-south).
        // Black's links: edge-a1 1, a1-a2 1 (a2 is black: 1 + 0), a2-a3 1, a3-edge 1: in series,
        // 4, where the empty column has 1 + 2 + 2 + 1 = 6.
        let mut p = position(1, 3, "-");
        let mut c = Circuit::new(true);
        c.value(&p, Color::Black);
        assert!(close(c.resistance(Color::Black), 6.0));
        p.play("a2".parse().unwrap()).unwrap();
        c.value(&p, Color::White);
        assert!(close(c.resistance(Color::Black), 4.0));
        // White crosses at a1 or a3 (edge-cell-edge, 2 each) in parallel: 1.
        assert!(close(c.resistance(Color::White), 1.0));
    }

    #[test]
    fn virtual_connections_lower_the_resistance() {
        // Black's b2 on 3x3 bridges to both edges: with the connections in the circuit its
        // resistance drops below the plain circuit's.
        let p = position(3, 3, "b2");
        let (mut plain, mut full) = (Circuit::new(true), Circuit::new(false));
        let (a, b) = (plain.value(&p, Color::White), full.value(&p, Color::White));
        assert!(full.resistance(Color::Black) < plain.resistance(Color::Black));
        assert!(b < a && a < 0.0, "{a} {b}");
    }

    #[test]
    fn values_are_antisymmetric_under_the_colour_swap() {
        let mut rng = SmallRng::seed_from_u64(29);
        for plain in [true, false] {
            let mut c = Circuit::new(plain);
            for _ in 0..40 {
                let mut p = Position::<Bitboard>::square(rng.gen_range(1..8)).unwrap();
                for _ in 0..rng.gen_range(0..12) {
                    let empty: Vec<Cell> = p.empty_cells().iter().collect();
                    if p.winner().is_some() || empty.is_empty() {
                        break;
                    }
                    p.play(empty[rng.gen_range(0..empty.len())]).unwrap();
                }
                for me in Color::ALL {
                    let (a, b) = (c.value(&p, me), c.value(&p, !me));
                    assert!(close(a, -b) && a.is_finite(), "{a} {b}\n{p}");
                }
                if plain {
                    // The plain circuit does not depend on H-search's order of work.
                    let q = p.transformed(Symmetry::Transpose);
                    let (a, b) = (c.value(&p, Color::Black), c.value(&q, Color::White));
                    assert!(close(a, b), "{a} {b}\n{p}");
                }
            }
        }
    }
}
