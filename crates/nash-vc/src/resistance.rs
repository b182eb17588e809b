//! The electric-circuit evaluation of a Hex position (Anshelevich 2000 s.3 and s.4; the
//! resistance evaluation of Six and Benzene): each player's board is a circuit between that
//! player's two edges, virtual connections add wires, and the current through each empty cell
//! ranks the moves.
//!
//! For one player the nodes are the empty cells, the player's groups and the player's two edges;
//! the opponent's stones are cut out. Every node carries a resistance: 1 for an empty cell, 0 for
//! a group or an edge, so a group touching an edge is part of that edge's node. Two adjacent
//! nodes are joined by a conductor of conductance `1 / (r(a) + r(b))` (one unit per empty cell
//! the current crosses). Each pair of ends with a full virtual connection whose carrier is not
//! empty gets one more conductor of conductance `vc_weight / (r(a) + r(b) + link_resistance)`:
//! the owner can link the two ends whatever the opponent does, which Anshelevich 2000 s.4 uses to
//! make the circuit see further than adjacency. The link resistance keeps a connection between
//! two groups finite (it would otherwise merge them, and a carrier can still be intruded upon,
//! which costs the owner a reply); one pair gets one conductor however many connections it has,
//! as alternative carriers overlap.
//!
//! With the source edge at voltage 1 and the sink edge at 0, the node voltages solve the
//! Laplacian system; the player's resistance is `1 / I` for the total current `I`. The flow of
//! an empty cell is half the sum of the currents in its conductors, as a fraction of `I`: 1 for
//! a cell every path crosses, 0 for a cell off every path. A cell's score is the sum of both
//! players' flows: the cells where both circuits carry current are where the game is decided.
//!
//! Linear algebra: a Cholesky factorisation of the Laplacian restricted to the interior nodes,
//! stored dense but computed only inside each row's envelope (nodes are numbered in board order,
//! so adjacency keeps the envelope narrow; long virtual connections widen it). Nodes that no
//! conductor joins to the source are left out of the system.

use nash_board::{BitSet, Cell, Color, Geometry, OptIndex};

use crate::hsearch::VcBuilder;

/// The resistances that [`Resistance::evaluation`] works with are clamped into
/// `[MIN_RESISTANCE, MAX_RESISTANCE]`, so a won position or a cut-off player gives a large but
/// finite evaluation.
const MIN_RESISTANCE: f64 = 1e-6;
/// See [`MIN_RESISTANCE`].
const MAX_RESISTANCE: f64 = 1e6;

/// How the circuit is built.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct ResistanceConfig {
    /// Conductance factor of a virtual connection's conductor; 0 leaves connections out and
    /// gives the plain adjacency circuit of Anshelevich 2000 s.3.
    pub vc_weight: f64,
    /// The resistance of a virtual connection's conductor on top of its ends' resistances.
    pub link_resistance: f64,
}

impl Default for ResistanceConfig {
    fn default() -> ResistanceConfig {
        ResistanceConfig { vc_weight: 1.0, link_resistance: 0.5 }
    }
}

/// The circuit evaluator. It keeps its buffers from call to call: after the first evaluation on
/// a board size, [`Resistance::evaluate`] does not allocate.
#[derive(Clone, Debug)]
pub struct Resistance<B: BitSet> {
    config: ResistanceConfig,
    geom: Option<&'static Geometry<B>>,
    /// The empty cells of the position evaluated last.
    empty: B,
    /// Per bit index, its node in the circuit being built (none when cut out).
    node_of: Vec<OptIndex>,
    /// Per node, its resistance (1 for an empty cell, 0 for a group or an edge).
    node_r: Vec<f64>,
    /// Conductors: ends (nodes) and conductance.
    wires: Vec<(u16, u16, f64)>,
    /// Union-find parents over nodes, then each node's component.
    parent: Vec<u16>,
    /// Per interior row of the matrix, the first column inside its envelope.
    first: Vec<usize>,
    /// The matrix (row-major, `m * m`), then its Cholesky factor in the lower triangle.
    matrix: Vec<f64>,
    /// Right-hand side, then the interior voltages.
    rhs: Vec<f64>,
    /// Per node, the voltage, and the current and power through it.
    volt: Vec<f64>,
    node_flow: Vec<f64>,
    node_power: Vec<f64>,
    /// Per colour and bit index, an empty cell's share of the current and of the power.
    flow: [Vec<f64>; 2],
    power: [Vec<f64>; 2],
    /// Per colour, the resistance between its edges (0 when its stones connect them, infinite
    /// when the opponent's stones cut them apart).
    resistance: [f64; 2],
}

impl<B: BitSet> Default for Resistance<B> {
    fn default() -> Resistance<B> {
        Resistance::new(ResistanceConfig::default())
    }
}

impl<B: BitSet> Resistance<B> {
    /// An evaluator with this configuration and nothing evaluated yet.
    pub fn new(config: ResistanceConfig) -> Resistance<B> {
        Resistance {
            config,
            geom: None,
            empty: B::EMPTY,
            node_of: Vec::new(),
            node_r: Vec::new(),
            wires: Vec::new(),
            parent: Vec::new(),
            first: Vec::new(),
            matrix: Vec::new(),
            rhs: Vec::new(),
            volt: Vec::new(),
            node_flow: Vec::new(),
            node_power: Vec::new(),
            flow: [Vec::new(), Vec::new()],
            power: [Vec::new(), Vec::new()],
            resistance: [f64::INFINITY; 2],
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ResistanceConfig {
        &self.config
    }

    /// Evaluates the position that `vc` was built on, with its full connections as extra
    /// conductors. A builder without a position gives no cells and equal resistances.
    pub fn evaluate(&mut self, vc: &VcBuilder<B>) {
        self.geom = vc.geometry();
        let Some(geom) = self.geom else {
            self.empty = B::EMPTY;
            self.resistance = [f64::INFINITY; 2];
            return;
        };
        self.empty = geom.cells() - vc.stones(Color::Black) - vc.stones(Color::White);
        for color in Color::ALL {
            self.circuit(geom, vc, color);
        }
    }

    /// The empty cells of the position evaluated last.
    pub fn cells(&self) -> B {
        self.empty
    }

    /// The share (0 to 1) of `color`'s current that crosses the empty cell `cell`; 0 for a cell
    /// that is not empty.
    pub fn flow(&self, color: Color, cell: Cell) -> f64 {
        if !self.empty.contains(cell) {
            return 0.0;
        }
        self.flow[color.index()][B::bit_of(cell)]
    }

    /// The share (0 to 1) of the power of `color`'s circuit spent in the empty cell `cell`.
    pub fn power(&self, color: Color, cell: Cell) -> f64 {
        if !self.empty.contains(cell) {
            return 0.0;
        }
        self.power[color.index()][B::bit_of(cell)]
    }

    /// The move-ordering score of an empty cell (higher first): the sum of both players' flows
    /// through it, between 0 and 2.
    pub fn score(&self, cell: Cell) -> f64 {
        self.flow(Color::Black, cell) + self.flow(Color::White, cell)
    }

    /// The scores of every empty cell, in board order.
    pub fn scores(&self) -> impl Iterator<Item = (Cell, f64)> + '_ {
        self.empty.iter().map(move |c| (c, self.score(c)))
    }

    /// `color`'s resistance between its edges: 0 when its stones already connect them,
    /// infinite when the opponent's stones cut them apart.
    pub fn resistance(&self, color: Color) -> f64 {
        self.resistance[color.index()]
    }

    /// The evaluation for `color` (Anshelevich 2000 s.3): the natural log of the opponent's
    /// resistance over `color`'s, positive when `color` is better connected. Resistances are
    /// clamped into `[1e-6, 1e6]`, so the value is always finite (at most about 27.6 in size).
    pub fn evaluation(&self, color: Color) -> f64 {
        let clamp = |r: f64| {
            if r.is_nan() {
                MAX_RESISTANCE
            } else {
                r.clamp(MIN_RESISTANCE, MAX_RESISTANCE)
            }
        };
        (clamp(self.resistance[(!color).index()]) / clamp(self.resistance[color.index()])).ln()
    }

    /// Builds and solves `color`'s circuit, leaving its flows and resistance.
    fn circuit(&mut self, geom: &Geometry<B>, vc: &VcBuilder<B>, color: Color) {
        let ci = color.index();
        let cap = B::CAPACITY;
        self.flow[ci].clear();
        self.flow[ci].resize(cap, 0.0);
        self.power[ci].clear();
        self.power[ci].resize(cap, 0.0);
        let Some(nodes) = self.number_nodes(geom, vc, color) else {
            // The player has connected: no circuit to solve.
            self.resistance[ci] = 0.0;
            return;
        };
        self.wire(geom, vc, color);
        let Some(comp) = self.source_component(nodes) else {
            self.resistance[ci] = f64::INFINITY;
            return;
        };
        if !self.solve(nodes, comp) {
            self.resistance[ci] = f64::INFINITY;
            return;
        }
        self.currents(ci, nodes, comp);
    }

    /// Numbers the nodes of `color`'s circuit in `node_of`, with their resistances in
    /// `node_r`: the source and sink edges with the groups touching them (0 and 1), every
    /// empty cell, and every other group. Returns the number of nodes, or `None` when a group
    /// touches both edges.
    fn number_nodes(
        &mut self,
        geom: &Geometry<B>,
        vc: &VcBuilder<B>,
        color: Color,
    ) -> Option<usize> {
        let cap = B::CAPACITY;
        self.node_of.clear();
        self.node_of.resize(cap, OptIndex::NONE);
        self.node_r.clear();
        let own = vc.stones(color);
        let empty = self.empty;
        let [e1, e2] = color.edges();
        let (edge1, edge2) = (geom.edge_cells(e1), geom.edge_cells(e2));
        // Nodes 0 and 1 are the source and sink edges with the groups touching them.
        self.node_of[B::bit_of(Cell::edge(e1))] = OptIndex::some(0);
        self.node_of[B::bit_of(Cell::edge(e2))] = OptIndex::some(1);
        self.node_r.extend([0.0, 0.0]);
        for bit in (empty | own).bits() {
            if !self.node_of[bit].is_none() {
                continue;
            }
            if empty.has_bit(bit) {
                self.node_of[bit] = OptIndex::some(self.node_r.len() as u16);
                self.node_r.push(1.0);
                continue;
            }
            let group = B::from_bit(bit).flood(own);
            let (t1, t2) = (group.intersects(edge1), group.intersects(edge2));
            if t1 && t2 {
                return None;
            }
            let id = if t1 {
                0
            } else if t2 {
                1
            } else {
                self.node_r.push(0.0);
                (self.node_r.len() - 1) as u16
            };
            for b in group.bits() {
                self.node_of[b] = OptIndex::some(id);
            }
        }
        Some(self.node_r.len())
    }

    /// The conductors of `color`'s circuit in `wires`.
    fn wire(&mut self, geom: &Geometry<B>, vc: &VcBuilder<B>, color: Color) {
        let empty = self.empty;
        // Adjacency: each empty cell is joined once to each neighbouring node (a group it
        // touches twice is still one contact); a pair of empty cells is joined from its higher
        // cell.
        self.wires.clear();
        let opp = vc.stones(!color);
        for x in empty.bits() {
            // Every empty cell is a node.
            let Some(u) = self.node_of[x].get() else { continue };
            let mut seen = [0u16; 8];
            let mut len = 0;
            for y in (geom.own_neighbours_of_bit(color, x) - opp).bits() {
                let Some(v) = self.node_of[y].get() else { continue };
                if v == u || (empty.has_bit(y) && y > x) || seen[..len].contains(&v) {
                    continue;
                }
                if len < seen.len() {
                    seen[len] = v;
                    len += 1;
                }
                let g = 1.0 / (self.node_r[u as usize] + self.node_r[v as usize]);
                self.wires.push((u, v, g));
            }
        }
        // Virtual connections (Anshelevich 2000 s.4): one conductor per pair of ends.
        if self.config.vc_weight > 0.0 {
            let ResistanceConfig { vc_weight, link_resistance } = self.config;
            let (node_of, node_r, wires) = (&self.node_of, &self.node_r, &mut self.wires);
            vc.for_each_full_pair(color, |a, b, fulls| {
                // Adjacent ends (an empty carrier) are wired already.
                if fulls.iter().all(|c| c.is_empty()) {
                    return;
                }
                let (Some(u), Some(v)) = (node_of[a].get(), node_of[b].get()) else { return };
                if u == v {
                    return;
                }
                let r = node_r[u as usize] + node_r[v as usize] + link_resistance;
                if r > 0.0 {
                    wires.push((u, v, vc_weight / r));
                }
            });
        }
    }

    /// The component of the source (as its root in `parent`), or `None` when the sink is not
    /// in it.
    fn source_component(&mut self, nodes: usize) -> Option<u16> {
        self.parent.clear();
        self.parent.extend(0..nodes as u16);
        for i in 0..self.wires.len() {
            let (u, v, _) = self.wires[i];
            let (a, b) = (find(&mut self.parent, u), find(&mut self.parent, v));
            if a != b {
                self.parent[a.max(b) as usize] = a.min(b);
            }
        }
        for n in 0..nodes as u16 {
            let r = find(&mut self.parent, n);
            self.parent[n as usize] = r;
        }
        (self.parent[1] == self.parent[0]).then_some(self.parent[0])
    }

    /// Solves for the voltages of the nodes (in `volt`) of the source's component `comp`;
    /// `false` if the system is singular.
    fn solve(&mut self, nodes: usize, comp: u16) -> bool {
        // The Laplacian on the interior nodes (2..), source at voltage 1, sink at 0.
        let m = nodes - 2;
        self.matrix.clear();
        self.matrix.resize(m * m, 0.0);
        self.rhs.clear();
        self.rhs.resize(m, 0.0);
        self.first.clear();
        self.first.extend(0..m);
        for &(u, v, g) in &self.wires {
            if self.parent[u as usize] != comp {
                continue;
            }
            let (u, v) = (u as usize, v as usize);
            for (p, q) in [(u, v), (v, u)] {
                if p < 2 {
                    continue;
                }
                let i = p - 2;
                self.matrix[i * m + i] += g;
                match q {
                    0 => self.rhs[i] += g,
                    1 => {}
                    _ => {
                        let j = q - 2;
                        self.matrix[i * m + j] -= g;
                        if j < i {
                            self.first[i] = self.first[i].min(j);
                        }
                    }
                }
            }
        }
        for i in 0..m {
            if self.matrix[i * m + i] == 0.0 {
                // A node out of the source's component: a free row.
                self.matrix[i * m + i] = 1.0;
            }
        }
        if !cholesky(&mut self.matrix, &self.first, m) {
            return false;
        }
        substitute(&self.matrix, &self.first, m, &mut self.rhs);
        self.volt.clear();
        self.volt.extend([1.0, 0.0]);
        self.volt.extend_from_slice(&self.rhs);
        true
    }

    /// The resistance of colour `ci`'s circuit and the flow and power of its empty cells, from
    /// the voltages of the source's component `comp`.
    fn currents(&mut self, ci: usize, nodes: usize, comp: u16) {
        self.node_flow.clear();
        self.node_flow.resize(nodes, 0.0);
        self.node_power.clear();
        self.node_power.resize(nodes, 0.0);
        let mut total = 0.0;
        for &(u, v, g) in &self.wires {
            if self.parent[u as usize] != comp {
                continue;
            }
            let (u, v) = (u as usize, v as usize);
            let dv = self.volt[u] - self.volt[v];
            let current = g * dv.abs();
            let power = g * dv * dv;
            self.node_flow[u] += 0.5 * current;
            self.node_flow[v] += 0.5 * current;
            self.node_power[u] += 0.5 * power;
            self.node_power[v] += 0.5 * power;
            if u == 0 {
                total -= g * dv;
            } else if v == 0 {
                total += g * dv;
            }
        }
        // `total` counts current into the source; the current leaving it is its negation.
        let current = -total;
        if !(current > 0.0 && current.is_finite()) {
            self.resistance[ci] = f64::INFINITY;
            return;
        }
        self.resistance[ci] = 1.0 / current;
        for x in self.empty.bits() {
            let Some(n) = self.node_of[x].index() else { continue };
            // The power of a unit-voltage circuit is its current.
            self.flow[ci][x] = (self.node_flow[n] / current).min(1.0);
            self.power[ci][x] = (self.node_power[n] / current).min(1.0);
        }
    }
}

/// The root of `n` in a union-find forest, halving paths on the way.
fn find(parent: &mut [u16], mut n: u16) -> u16 {
    while parent[n as usize] != n {
        let p = parent[parent[n as usize] as usize];
        parent[n as usize] = p;
        n = p;
    }
    n
}

/// Cholesky factorisation `A = L Lᵀ` in place (row-major, lower triangle), computing row `i`
/// only from column `first[i]` on: the factor keeps the envelope of the matrix. False when a
/// pivot is not positive (the matrix is not positive definite).
fn cholesky(a: &mut [f64], first: &[usize], m: usize) -> bool {
    for i in 0..m {
        let fi = first[i];
        for j in fi..=i {
            let k0 = fi.max(first[j]);
            let (lo, hi) = a.split_at_mut(i * m);
            let row_i = &hi[..m];
            let row_j = if j == i { row_i } else { &lo[j * m..j * m + m] };
            let dot: f64 = row_i[k0..j].iter().zip(&row_j[k0..j]).map(|(x, y)| x * y).sum();
            let s = row_i[j] - dot;
            if j < i {
                let d = lo[j * m + j];
                hi[j] = s / d;
            } else {
                if !(s > 0.0 && s.is_finite()) {
                    return false;
                }
                hi[i] = s.sqrt();
            }
        }
    }
    true
}

/// Solves `L Lᵀ x = b` in place for the factor of [`cholesky`].
fn substitute(l: &[f64], first: &[usize], m: usize, b: &mut [f64]) {
    for i in 0..m {
        let row = &l[i * m..i * m + m];
        let dot: f64 = row[first[i]..i].iter().zip(&b[first[i]..i]).map(|(x, y)| x * y).sum();
        b[i] = (b[i] - dot) / row[i];
    }
    for i in (0..m).rev() {
        let row = &l[i * m..i * m + m];
        b[i] /= row[i];
        let x = b[i];
        for k in first[i]..i {
            b[k] -= row[k] * x;
        }
    }
}

#[cfg(test)]
mod tests {
    use nash_board::{CellList, Position, SmallPosition, Symmetry, WidePosition};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::config::HSearchConfig;

    /// A position of `cols` x `rows` with the given stones (space-separated cells) and side to
    /// move.
    fn position(
        cols: usize,
        rows: usize,
        black: &str,
        white: &str,
        to_move: Color,
    ) -> SmallPosition {
        let mut pos = SmallPosition::new(cols, rows).unwrap();
        for (color, list) in [(Color::Black, black), (Color::White, white)] {
            let set = list.parse::<CellList<_>>().unwrap().0;
            pos.setup(color, set);
        }
        pos.set_to_move(to_move);
        pos
    }

    fn evaluate<B: BitSet>(pos: &Position<B>, config: ResistanceConfig) -> Resistance<B> {
        evaluate_with(pos, HSearchConfig::default(), config)
    }

    fn evaluate_with<B: BitSet>(
        pos: &Position<B>,
        hsearch: HSearchConfig,
        config: ResistanceConfig,
    ) -> Resistance<B> {
        let mut vc = VcBuilder::new(hsearch);
        vc.build(pos);
        let mut r = Resistance::new(config);
        r.evaluate(&vc);
        r
    }

    fn plain() -> ResistanceConfig {
        ResistanceConfig { vc_weight: 0.0, ..ResistanceConfig::default() }
    }

    fn random_position(
        rng: &mut SmallRng,
        cols: usize,
        rows: usize,
        stones: usize,
    ) -> SmallPosition {
        let mut pos = SmallPosition::new(cols, rows).unwrap();
        for _ in 0..stones {
            let empty: Vec<Cell> = pos.empty_cells().iter().collect();
            if empty.is_empty() {
                break;
            }
            let c = empty[rng.gen_range(0..empty.len())];
            let color = if rng.gen_bool(0.5) { Color::Black } else { Color::White };
            pos.setup(color, B1::single(c));
        }
        pos
    }

    type B1 = nash_board::Bitboard;

    #[test]
    fn series_and_parallel_resistances() {
        // One column of three cells: Black's current crosses every cell (each counted on the
        // way in and out), White's three cells join its edges side by side.
        let r = evaluate(&position(1, 3, "", "", Color::Black), plain());
        assert!((r.resistance(Color::Black) - 6.0).abs() < 1e-9, "{}", r.resistance(Color::Black));
        assert!((r.resistance(Color::White) - 2.0 / 3.0).abs() < 1e-9);
        for c in ["a1", "a2", "a3"] {
            let c: Cell = c.parse().unwrap();
            assert!((r.flow(Color::Black, c) - 1.0).abs() < 1e-9);
            assert!((r.flow(Color::White, c) - 1.0 / 3.0).abs() < 1e-9);
        }
        assert!(r.evaluation(Color::White) > 0.0);
    }

    #[test]
    fn rotation_by_180_degrees_maps_scores() {
        let mut rng = SmallRng::seed_from_u64(7);
        for config in [plain(), ResistanceConfig::default()] {
            // The early stop and the caps on lists end H-search in an order that depends on the
            // board's orientation: symmetry holds for the exact closure.
            let hsearch = HSearchConfig::default().exact();
            for n in 3..=5 {
                for stones in [0, 2, 5, n * n / 2] {
                    let pos = random_position(&mut rng, n, n, stones);
                    let geom = pos.geometry();
                    let a = evaluate_with(&pos, hsearch, config);
                    for sym in [Symmetry::Rotate180, Symmetry::Transpose] {
                        let b = evaluate_with(&pos.transformed(sym), hsearch, config);
                        for (c, s) in a.scores() {
                            let t = b.score(geom.map_cell(sym, c));
                            assert!(
                                (s - t).abs() < 1e-9,
                                "{config:?} {sym:?} {c}: {s} vs {t}\n{pos}"
                            );
                        }
                        let (e, f) =
                            (a.evaluation(Color::Black), b.evaluation(sym.map_color(Color::Black)));
                        assert!((e - f).abs() < 1e-9, "{sym:?}: {e} vs {f}\n{pos}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_winning_cell_scores_highest() {
        // c3 joins Black's column of stones; the detours are longer.
        let pos = position(5, 5, "c1 c2 c4 c5", "b3 d2 b4", Color::Black);
        for config in [plain(), ResistanceConfig::default()] {
            let r = evaluate(&pos, config);
            let c3: Cell = "c3".parse().unwrap();
            assert!(r.flow(Color::Black, c3) > 0.5, "{}", r.flow(Color::Black, c3));
            let best = r.scores().max_by(|x, y| x.1.total_cmp(&y.1)).unwrap();
            assert_eq!(best.0, c3, "{config:?}");
        }
    }

    #[test]
    fn scores_are_finite_on_every_small_board() {
        let mut rng = SmallRng::seed_from_u64(11);
        for config in [plain(), ResistanceConfig::default()] {
            for (cols, rows) in
                [(1, 1), (1, 4), (2, 2), (3, 3), (3, 5), (4, 4), (5, 5), (6, 6), (7, 5)]
            {
                for stones in 0..=cols * rows {
                    let pos = random_position(&mut rng, cols, rows, stones);
                    let r = evaluate(&pos, config);
                    assert_eq!(r.cells(), pos.empty_cells());
                    for (c, s) in r.scores() {
                        assert!(s.is_finite() && (0.0..=2.0).contains(&s), "{c} {s}\n{pos}");
                        for color in Color::ALL {
                            let p = r.power(color, c);
                            assert!(p.is_finite() && (0.0..=1.0).contains(&p), "{c} {p}\n{pos}");
                        }
                    }
                    for color in Color::ALL {
                        assert!(r.evaluation(color).is_finite(), "{color:?}\n{pos}");
                        assert!(!r.resistance(color).is_nan());
                    }
                    // A player whose stones connect the edges has resistance 0.
                    if let Some(w) = pos.winner() {
                        assert_eq!(r.resistance(w), 0.0, "{pos}");
                        assert!(r.evaluation(w) > 20.0);
                    }
                }
            }
        }
    }

    #[test]
    fn an_edge_to_edge_virtual_connection_leaves_scores_finite() {
        // Black's b2 bridges to both edges on 3x3: a full edge-to-edge connection.
        let pos = position(3, 3, "b2", "", Color::White);
        let r = evaluate(&pos, ResistanceConfig::default());
        for (c, s) in r.scores() {
            assert!(s.is_finite(), "{c}");
        }
        assert!(r.evaluation(Color::Black) > 0.0);
    }

    #[test]
    fn evaluation_sign_follows_obvious_positions() {
        for config in [plain(), ResistanceConfig::default()] {
            // The empty square board is even; a stone in the centre favours its owner.
            let r = evaluate(&position(5, 5, "", "", Color::Black), config);
            assert!(r.evaluation(Color::Black).abs() < 1e-9);
            let r = evaluate(&position(5, 5, "c3", "", Color::White), config);
            assert!(r.evaluation(Color::Black) > 0.0);
            assert!(r.evaluation(Color::White) < 0.0);
            let r = evaluate(&position(5, 5, "a1", "c3 b4", Color::Black), config);
            assert!(r.evaluation(Color::White) > 0.0);
            // On 4 columns by 6 rows White's edges are closer together.
            let r = evaluate(&position(4, 6, "", "", Color::Black), config);
            assert!(r.evaluation(Color::White) > 0.0);
            // A wall of White stones cuts Black off.
            let r = evaluate(&position(3, 3, "a1", "a2 b2 c2", Color::Black), config);
            assert_eq!(r.resistance(Color::Black), f64::INFINITY);
            assert!(r.evaluation(Color::White) > 20.0);
        }
    }

    #[test]
    fn wide_boards_evaluate() {
        let mut pos = WidePosition::square(13).unwrap();
        pos.play("g7".parse().unwrap()).unwrap();
        pos.play("f8".parse().unwrap()).unwrap();
        let r = evaluate(&pos, ResistanceConfig::default());
        assert_eq!(r.scores().count(), 13 * 13 - 2);
        assert!(r.scores().all(|(_, s)| s.is_finite()));
        assert!(r.evaluation(Color::Black).is_finite());
    }

    #[test]
    fn buffers_are_reused() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut vc = VcBuilder::new(HSearchConfig::default());
        let mut r = Resistance::<B1>::default();
        vc.build(&SmallPosition::square(7).unwrap());
        r.evaluate(&vc);
        let capacity = |r: &Resistance<B1>| {
            (r.matrix.capacity(), r.wires.capacity(), r.node_r.capacity(), r.volt.capacity())
        };
        let warm = capacity(&r);
        for _ in 0..20 {
            let stones = rng.gen_range(1..20);
            vc.build(&random_position(&mut rng, 7, 7, stones));
            r.evaluate(&vc);
            // Fewer nodes than the empty board, at most as many wires once warm.
            assert!(capacity(&r).0 <= warm.0 && capacity(&r).2 <= warm.2);
        }
    }
}
