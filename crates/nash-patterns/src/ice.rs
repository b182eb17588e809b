//! The inferior cell engine: fill-in of dead and captured cells to a fixed point, then pruning
//! of the player to move's vulnerable and dominated moves (Chen 2025 s.3.3 Theorem 6, s.5.3).
//!
//! # What is sound, and what a solver may combine
//!
//! Let S be a position that nobody has won, P the player to move and Q the opponent.
//!
//! - **Fill-in.** Dead cells and cells that a stone of either colour on one empty neighbour
//!   would make dead (filled with [`Config::dead_fill`]), and captured sets (filled with the
//!   capturing colour) are filled one proven step at a time; each step keeps the value of
//!   the position for both players to move, so the filled position S' has the value of S. Fill
//!   never changes the side to move. A captured fill may complete a connection: then
//!   [`Analysis::winner`] names the winner and there is nothing to search.
//! - **Vulnerable moves.** P's move to `j` is vulnerable to `k` when a Q stone on `k` makes `j`
//!   dead. Any set of vulnerable moves may be pruned together: if P wins S', P has a winning
//!   move outside the set (induction on Q stones added: a Q reply on the killer turns a
//!   vulnerable winning move into a win in a position with one more Q stone, and dead cells stay
//!   dead as stones are added).
//! - **Dominated moves.** P's move to `j` is dominated by `k` when P on `k` captures `j`, or
//!   when P on `k` makes `j` dead (then `j` may be filled with P, and P on `{j, k}` is at
//!   least as good as P on `j`); either way P on `k` is at least as good as P on `j`. A cell is pruned only in favour of a dominator
//!   that is itself not pruned at that moment, so every pruned cell has a chain of dominators
//!   ending at a candidate, and of two cells that dominate each other one always stays.
//! - Therefore: if P wins S, some cell of [`Analysis::candidates`] wins S' **and** wins S (a
//!   candidate is outside every filled set, and captured and dead sets stay so when P plays
//!   elsewhere). If `candidates` is empty and `winner` is `None`, P loses.
//!
//! Combining with other move restrictions (M a mustplay or any other set of moves):
//!
//! - Sound: searching `candidates ∩ M` when M contains **every** winning move of the filled
//!   position (a mustplay computed on that position does): a winning candidate exists if P
//!   wins, and every winning move lies in M.
//! - Unsound: pruning inside M when M only contains **some** winning move (for instance M was
//!   itself obtained by pruning). A dominated cell may then be dropped only if its dominator
//!   ([`Analysis::dominator`]) is in M and is kept; otherwise the dominator may have been the
//!   only witness and an empty move list would "prove" a loss that is not one. Likewise apply
//!   vulnerable pruning only to the position it was computed for.
//! - Fill-in composes with anything: the filled position has the value of the original for
//!   both players to move, and the side to move is never changed. After fill-in the side to
//!   move cannot be derived from stone counts: keep it explicitly.
//! - The winning *set* of a position (every winning move) is not `candidates`: dominated,
//!   captured, dead and vulnerable cells can win too. Decide every legal move when the
//!   question is "which moves win".
//! - A position that is already won is left alone ([`Analysis::winner`] is set, nothing is
//!   filled or pruned, `candidates` is empty).
//!
//! Proof carriers (a solver's set of empty cells outside which the loser may hold every cell and
//! still lose):
//!
//! - A proof for W of the filled position S' with carrier C is a proof of S with carrier C
//!   plus W's captured cells plus [`Analysis::needs`] of W. Let the loser L hold every other
//!   empty cell of S and replay the fill one step at a time on that board. A step that adds L
//!   stones can only help L, so it may be taken without a proof. A dead cell stays dead when
//!   stones of either colour are added anywhere (a cell in a minimal winset of the larger
//!   position was in one of the smaller), so W's dead fills stay sound even where L's stones
//!   already sit (they may be recoloured). W's pair captures rest on deadness too (the
//!   intruder's stone is dead once W answers), so they stay. A W capture found by a pattern
//!   stays only if its diagram still matches: its stones were there before the step and stay,
//!   its targets are W's captured cells and its `.` cells are in `needs`, so none of them holds
//!   an L stone. Patterns verified by brute force make no claim once a `.` cell is filled.
//! - A loss of the player to move proven by searching only the candidates holds with the
//!   pruned cells, their dominators and [`Analysis::prune_needs`] in its carrier (a domination
//!   pattern is again only as good as its match), plus the opponent's captured cells and
//!   `needs` (a move into the opponent's capture loses only while the capture stands).

use nash_board::{BitSet, BoardSizeError, Cell, Color, Geometry, Position, Stop};

use crate::compile::Compiled;
use crate::graph::{self, Labels, Stones};
use crate::pattern::PatternSet;

/// Which analyses run. Every switch defaults to on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Config {
    /// Find dead cells (the neighbourhood test and the dead patterns) and fill them.
    pub dead: bool,
    /// Also fill cells that a stone of either colour on one empty neighbour would make dead
    /// (needs `dead`). Sound, but off by default: on the 6x6 and 7x7 openings it did not
    /// reduce the search (docs/patterns.md). Pair captures use the notion regardless.
    pub dead_once_filled: bool,
    /// Find captured sets with the capture patterns and fill them.
    pub captured: bool,
    /// Also find two-cell captured sets with the neighbourhood test (needs `captured`).
    pub captured_pairs: bool,
    /// Prune the player to move's moves dominated by a capture.
    pub dominated: bool,
    /// Prune the player to move's moves that an opponent reply would make dead.
    pub vulnerable: bool,
    /// Also prune moves dominated by a neighbouring move that would make them dead (needs
    /// `dominated`).
    pub kill_dominated: bool,
    /// Count a cell dead when one player's neighbourhood test passes; otherwise both players'
    /// tests must pass (the weaker rule of earlier versions, kept for comparison).
    pub one_sided: bool,
    /// Repeat fill-in until nothing changes; otherwise one pass.
    pub iterate: bool,
    /// The colour dead cells are filled with; `None` means the opponent of the player to move.
    /// Either colour is sound.
    pub dead_fill: Option<Color>,
    /// Find only this colour's captured sets (`None`: both colours'). A proof for one player
    /// found after the other's captures are filled needs none of their cells in its carrier
    /// (they only add the other's stones), so a proof builder that knows the winner fills the
    /// loser's captures alone.
    pub captures_of: Option<Color>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            dead: true,
            dead_once_filled: false,
            captured: true,
            captured_pairs: true,
            dominated: true,
            vulnerable: true,
            kill_dominated: true,
            one_sided: true,
            iterate: true,
            dead_fill: None,
            captures_of: None,
        }
    }
}

impl Config {
    /// Whether a cell is dead given the two players' neighbourhood tests (evaluated lazily).
    #[inline]
    fn dead_test(self, a: impl FnOnce() -> bool, b: impl FnOnce() -> bool) -> bool {
        if self.one_sided {
            a() || b()
        } else {
            a() && b()
        }
    }

    /// Everything off: the analysis changes nothing.
    pub const NONE: Config = Config {
        dead: false,
        dead_once_filled: false,
        captured: false,
        captured_pairs: false,
        dominated: false,
        vulnerable: false,
        kill_dominated: false,
        one_sided: false,
        iterate: false,
        dead_fill: None,
        captures_of: None,
    };
}

/// Rule number of the neighbourhood (clique) test for dead cells.
pub const RULE_CLIQUE: u16 = 1;
/// Rule number of the neighbourhood test with a hypothetical opponent stone (vulnerable).
pub const RULE_VULNERABLE: u16 = 2;
/// Rule number of the two-cell captures found by the neighbourhood test.
pub const RULE_PAIR: u16 = 3;
/// Rule number of moves dominated by a neighbouring move that would make them dead.
pub const RULE_KILL_DOMINATED: u16 = 4;
/// Rule number of cells that a stone of either colour on one neighbour would make dead.
pub const RULE_DEAD_ONCE_FILLED: u16 = 5;
const FIRST_PATTERN_RULE: u16 = 6;

/// The result of inferior cell analysis. It holds no heap memory: returning and copying it
/// never allocates.
#[derive(Clone, Copy, Debug)]
pub struct Analysis<B: BitSet> {
    /// The player to move (unchanged by fill-in).
    pub to_move: Color,
    /// Cells found dead, or dead once a neighbour is filled, and filled (with
    /// [`Config::dead_fill`]).
    pub dead: B,
    /// Cells filled as captured, per capturing colour (`[black, white]`).
    pub captured: [B; 2],
    /// Everything filled, per colour (`[black, white]`): dead and captured cells.
    pub fill: [B; 2],
    /// Per colour (`[black, white]`): the cells that pattern fills of that colour needed
    /// empty besides their targets (the `.` of the diagrams), all empty in the analysed
    /// position. A proof won by that colour after the fill must keep them in its carrier
    /// (with its captured cells): the loser's stones there could undo the fill. The rules that
    /// are not patterns need nothing here: what they rely on is deadness, which stones added
    /// anywhere keep (docs/patterns.md).
    pub needs: [B; 2],
    /// Moves of the player to move pruned as dominated (see [`Analysis::dominator`]).
    pub dominated: B,
    /// Moves of the player to move pruned as vulnerable (see [`Analysis::dominator`] for
    /// the killing cell).
    pub vulnerable: B,
    /// The moves left to search: empty cells after fill-in that were not pruned.
    pub candidates: B,
    /// The cells that the domination patterns which pruned a move needed empty besides their
    /// targets and dominator: a loss proven by searching only the candidates must keep them
    /// in its carrier, like the pruned cells and their dominators.
    pub prune_needs: B,
    /// The winner once the fill is placed, if the position is decided.
    pub winner: Option<Color>,
    /// Fill-in passes run.
    pub passes: u32,
    /// The analysis was cut short by its [`Stop`] ([`Ice::analyse_until`]): what it filled
    /// and pruned is proven, but it may have found less than a full analysis.
    pub interrupted: bool,
    reason: B::Table,
    by: B::Table,
}

impl<B: BitSet> Analysis<B> {
    /// The cells of the analysed position that a proof for `winner` found after the fill
    /// depends on: its captured cells and the empty cells its pattern fills needed (see the
    /// carrier notes atop this module).
    pub fn fill_carrier(&self, winner: Color) -> B {
        self.captured[winner.index()] | self.needs[winner.index()]
    }
}

impl<B: BitSet> Analysis<B> {
    fn empty(to_move: Color) -> Analysis<B> {
        Analysis {
            to_move,
            dead: B::EMPTY,
            captured: [B::EMPTY; 2],
            fill: [B::EMPTY; 2],
            needs: [B::EMPTY; 2],
            dominated: B::EMPTY,
            vulnerable: B::EMPTY,
            candidates: B::EMPTY,
            prune_needs: B::EMPTY,
            winner: None,
            passes: 0,
            interrupted: false,
            reason: B::ZERO_TABLE,
            by: B::ZERO_TABLE,
        }
    }

    /// Every pruned move (dominated or vulnerable).
    pub fn pruned(&self) -> B {
        self.dominated | self.vulnerable
    }

    /// The rule that filled or pruned `cell` (a rule number for [`Ice::rule_name`]), if any.
    pub fn rule(&self, cell: Cell) -> Option<u16> {
        match self.reason.as_ref()[B::bit_of(cell)] {
            0 => None,
            r => Some(r),
        }
    }

    /// For a dominated cell its dominator; for a vulnerable cell the opponent's killing cell.
    pub fn dominator(&self, cell: Cell) -> Option<Cell> {
        if !(self.dominated | self.vulnerable).contains(cell) {
            return None;
        }
        Some(B::cell_of(self.by.as_ref()[B::bit_of(cell)] as usize))
    }

    /// Places the fill on `pos` (the position analysed): one [`Position::fill`] per colour that
    /// has cells to fill, Black first. Returns the number of steps, which is the number of
    /// [`Position::undo`] calls that restore `pos`. The side to move does not change.
    pub fn apply_fill(&self, pos: &mut Position<B>) -> usize {
        let mut steps = 0;
        for c in Color::ALL {
            if !self.fill[c.index()].is_empty() {
                pos.fill(c, self.fill[c.index()]);
                steps += 1;
            }
        }
        steps
    }

    fn set_reason(&mut self, set: B, rule: u16) {
        let r = self.reason.as_mut();
        for b in set.bits() {
            r[b] = rule;
        }
    }
}

/// What [`Ice::fill_in`] did to a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FillReport<B> {
    /// Cells filled per colour (`[black, white]`).
    pub fill: [B; 2],
    /// How many [`Position::undo`] calls restore the position (0, 1 or 2).
    pub steps: usize,
    /// The winner after the fill, if the position is decided.
    pub winner: Option<Color>,
}

/// The inferior cell engine for one board size: the compiled patterns and the configuration.
/// Build it once per board size and share it; analysing never allocates.
#[derive(Clone, Debug)]
pub struct Ice<B: BitSet> {
    geom: &'static Geometry<B>,
    config: Config,
    compiled: Compiled<B>,
}

impl<B: BitSet> Ice<B> {
    /// An engine for `geom` with a pattern set and a configuration.
    pub fn new(geom: &'static Geometry<B>, patterns: &PatternSet, config: Config) -> Ice<B> {
        Ice { geom, config, compiled: Compiled::new(geom, patterns, FIRST_PATTERN_RULE) }
    }

    /// The engine with the shipped patterns and the default configuration for `geom`, compiled
    /// once per board size and bitboard width in the process and shared from then on.
    /// Compiling the placements takes about a millisecond, more than a small solve or one
    /// analysis, so the solver, the HTP engine and the CLI all take the engine from here.
    pub fn shared(geom: &'static Geometry<B>) -> &'static Ice<B> {
        Ice::shared_with(geom, Config::default())
    }

    /// [`Ice::shared`] with another configuration: one engine per board size, bitboard width
    /// and configuration in the process.
    pub fn shared_with(geom: &'static Geometry<B>, config: Config) -> &'static Ice<B> {
        geom.shared(config, |g| Ice::new(g, &PatternSet::builtin(), config))
    }

    /// [`Ice::shared`] for a board of `cols` × `rows`.
    pub fn for_size(cols: usize, rows: usize) -> Result<&'static Ice<B>, BoardSizeError> {
        Ok(Ice::shared(Geometry::get(cols, rows)?))
    }

    /// The board geometry this engine serves.
    pub fn geometry(&self) -> &'static Geometry<B> {
        self.geom
    }

    /// The configuration.
    pub fn config(&self) -> Config {
        self.config
    }

    /// Number of compiled pattern placements.
    pub fn placements(&self) -> usize {
        self.compiled.len()
    }

    /// The name of a rule number from [`Analysis::rule`].
    pub fn rule_name(&self, rule: u16) -> &str {
        match rule {
            RULE_CLIQUE => "neighbourhood-clique",
            RULE_VULNERABLE => "vulnerable-clique",
            RULE_PAIR => "captured-pair-clique",
            RULE_KILL_DOMINATED => "dominated-kill-clique",
            RULE_DEAD_ONCE_FILLED => "dead-once-neighbour-filled",
            r => self
                .compiled
                .names
                .get((r - FIRST_PATTERN_RULE) as usize)
                .map_or("unknown", String::as_str),
        }
    }

    /// Analyses `pos` without changing it: fill-in to a fixed point on a copy of its stones,
    /// then pruning for the player to move in the filled position.
    ///
    /// # Panics
    /// If `pos` is on a board of another size than the engine's.
    pub fn analyse(&self, pos: &Position<B>) -> Analysis<B> {
        self.analyse_until(pos, &Stop::never())
    }

    /// [`Ice::analyse`] that polls `stop` once per cell examined and, when it fires, returns
    /// what it found so far with [`Analysis::interrupted`] set. That is sound: every fill step
    /// taken is proven on its own (dead cells stay dead as stones are added, each capture is
    /// its own step) and pruning fewer moves only leaves more candidates. A capture that
    /// completes a connection is still reported as the winner.
    ///
    /// # Panics
    /// If `pos` is on a board of another size than the engine's.
    pub fn analyse_until(&self, pos: &Position<B>, stop: &Stop) -> Analysis<B> {
        assert!(
            std::ptr::eq(pos.geometry(), self.geom),
            "position and engine differ in board size"
        );
        let mut a = Analysis::empty(pos.to_move());
        if let Some(w) = pos.winner() {
            a.winner = Some(w);
            return a;
        }
        let mut st = Stones { black: pos.black(), white: pos.white(), empty: pos.empty_cells() };
        let mut labels = [Labels::new(), Labels::new()];
        let fresh = self.fill_loop(&mut st, &mut labels, &mut a, stop);
        if a.winner.is_none() {
            self.prune(&st, &mut labels, fresh, &mut a, stop);
        }
        a
    }

    /// Fills the dead and captured cells of `pos` to a fixed point, with one
    /// [`Position::fill`] per colour that has cells to fill (Black first); the report says
    /// how many [`Position::undo`] calls restore the position. The side to move never changes.
    pub fn fill_in(&self, pos: &mut Position<B>) -> FillReport<B> {
        assert!(
            std::ptr::eq(pos.geometry(), self.geom),
            "position and engine differ in board size"
        );
        let mut a = Analysis::empty(pos.to_move());
        if pos.winner().is_none() {
            let mut st =
                Stones { black: pos.black(), white: pos.white(), empty: pos.empty_cells() };
            let mut labels = [Labels::new(), Labels::new()];
            self.fill_loop(&mut st, &mut labels, &mut a, &Stop::never());
        }
        let steps = a.apply_fill(pos);
        FillReport { fill: a.fill, steps, winner: pos.winner() }
    }

    /// Returns whether `labels` describe the final stones. Stops between cells when `stop`
    /// fires, keeping the fills found so far (see [`Ice::analyse_until`]).
    fn fill_loop(
        &self,
        st: &mut Stones<B>,
        labels: &mut [Labels<B>; 2],
        a: &mut Analysis<B>,
        stop: &Stop,
    ) -> bool {
        let geom = self.geom;
        let cfg = self.config;
        if !cfg.dead && !cfg.captured {
            return false;
        }
        let dead_color = cfg.dead_fill.unwrap_or(!a.to_move);
        let ring = &self.compiled.ring;
        // Patterns are local: after the first pass only anchors near a filled cell can match
        // anew. The neighbourhood test is not local (groups merge), so it always runs in full.
        let mut scope = geom.cells();
        loop {
            a.passes += 1;
            let before = st.empty;
            if cfg.dead {
                for c in Color::ALL {
                    labels[c.index()].compute(geom, st.of(c), c);
                }
                let mut dead = B::EMPTY;
                for j in st.empty.bits() {
                    if halted(stop, a) {
                        break;
                    }
                    // One player's test suffices: a cell in no minimal winset of one player
                    // is in none of the other's (see `graph`).
                    if cfg.dead_test(
                        || graph::clique(geom, st, &labels[0], Color::Black, j, B::EMPTY, None),
                        || graph::clique(geom, st, &labels[1], Color::White, j, B::EMPTY, None),
                    ) {
                        dead |= B::from_bit(j);
                    }
                }
                a.set_reason(dead, RULE_CLIQUE);
                if cfg.dead_once_filled {
                    // A cell that a stone of either colour on one empty neighbour k would make
                    // dead may be filled with either colour now (docs/patterns.md): if Q plays
                    // it, P answers on k; if Q plays k, the cell is dead.
                    let mut more = B::EMPTY;
                    for j in (st.empty - dead).bits() {
                        if halted(stop, a) {
                            break;
                        }
                        for k in (geom.neighbours_of_bit(j) & st.empty).bits() {
                            if dead_once(cfg, geom, st, labels, Color::Black, j, k)
                                && dead_once(cfg, geom, st, labels, Color::White, j, k)
                            {
                                more |= B::from_bit(j);
                                break;
                            }
                        }
                    }
                    a.set_reason(more, RULE_DEAD_ONCE_FILLED);
                    dead |= more;
                }
                // Dead patterns are matched before the fill: a cell dead now stays dead.
                for j in (st.empty & scope).bits() {
                    if halted(stop, a) {
                        break;
                    }
                    let code = ring.code(j, st.black, st.white);
                    self.compiled.dead.candidates(j, code, |e| {
                        if e.matches(st.black, st.white, st.empty) {
                            let new = e.targets - dead;
                            if !new.is_empty() {
                                a.set_reason(new, e.rule);
                                a.needs[dead_color.index()] |= e.empty - e.targets;
                                dead |= new;
                            }
                        }
                    });
                }
                if !dead.is_empty() {
                    st.fill(dead_color, dead);
                    a.dead |= dead;
                    a.fill[dead_color.index()] |= dead;
                }
            }
            if cfg.captured {
                let mut filled = false;
                for c in Color::ALL {
                    if cfg.captures_of.is_some_and(|only| only != c) {
                        continue;
                    }
                    let table = &self.compiled.captured[c.index()];
                    for j in (st.empty & scope).bits() {
                        if halted(stop, a) {
                            break;
                        }
                        let code = ring.code(j, st.black, st.white);
                        table.candidates(j, code, |e| {
                            // Matched against the current stones: each fill is its own step.
                            if e.matches(st.black, st.white, st.empty) {
                                st.fill(c, e.targets);
                                a.captured[c.index()] |= e.targets;
                                a.needs[c.index()] |= e.empty - e.targets;
                                a.fill[c.index()] |= e.targets;
                                a.set_reason(e.targets, e.rule);
                                filled = true;
                            }
                        });
                    }
                }
                if cfg.captured_pairs && !a.interrupted {
                    filled |= self.capture_pairs(st, labels, a, stop);
                }
                if filled {
                    for c in Color::ALL {
                        if graph::connects(geom, st.of(c), c) {
                            a.winner = Some(c);
                            return false;
                        }
                    }
                }
            }
            let changed = before - st.empty;
            if a.interrupted {
                return false;
            }
            if changed.is_empty() || !cfg.iterate {
                // Labels are computed at the start of a pass (dead cells) and after every
                // pair capture; with no change in this pass they describe the final stones.
                return changed.is_empty() && (cfg.dead || (cfg.captured && cfg.captured_pairs));
            }
            scope = changed;
            for _ in 0..self.compiled.radius {
                scope = scope.dilate();
            }
        }
    }

    /// Two-cell captures found by the neighbourhood test: empty neighbours `x`, `y` such that
    /// after the opponent takes either cell and the owner the other, the opponent's stone is
    /// dead (one player's neighbourhood test passes for it), or dead once one of its other
    /// empty neighbours is filled with either colour. The owner's reply strategy makes
    /// every opponent stone in the pair dead, so the pair is captured (Chen 2025 s.3.3). This is
    /// the reasoning of the bridge patterns, applied wherever it holds. Labels are recomputed
    /// after every fill so that each test sees the current groups.
    fn capture_pairs(
        &self,
        st: &mut Stones<B>,
        labels: &mut [Labels<B>; 2],
        a: &mut Analysis<B>,
        stop: &Stop,
    ) -> bool {
        let geom = self.geom;
        let mut any = false;
        labels[0].compute(geom, st.black, Color::Black);
        labels[1].compute(geom, st.white, Color::White);
        for c in Color::ALL {
            if self.config.captures_of.is_some_and(|only| only != c) {
                continue;
            }
            // A fill of colour c changes only c's groups; the other labels stay valid.
            let (p, q) = (c, !c);
            for x in st.empty.bits() {
                if halted(stop, a) {
                    return any;
                }
                if !st.empty.has_bit(x) {
                    continue;
                }
                let nx = geom.neighbours_of_bit(x);
                // Each pair once: y after x in bit order.
                for y in (nx & st.empty & B::AREA).bits() {
                    if y < x {
                        continue;
                    }
                    let (xb, yb) = (B::from_bit(x), B::from_bit(y));
                    let lp = &labels[p.index()];
                    let lq = &labels[q.index()];
                    let cfg = self.config;
                    // Q's stone on t is worth nothing once P holds r: t is dead, or t is dead
                    // once its neighbour k is filled with either colour (then t may be filled
                    // with either colour, docs/patterns.md). Tests with P on both r and k use
                    // Q's graph only, which takes any number of blocked cells.
                    let idle = |t: usize, r: usize| {
                        let rb = B::from_bit(r);
                        if cfg.dead_test(
                            || graph::clique(geom, st, lp, p, t, B::EMPTY, Some(r)),
                            || graph::clique(geom, st, lq, q, t, rb, None),
                        ) {
                            return true;
                        }
                        for k in (geom.neighbours_of_bit(t) & (st.empty - rb)).bits() {
                            let kb = B::from_bit(k);
                            if graph::clique(geom, st, lq, q, t, rb | kb, None)
                                && (graph::clique(geom, st, lq, q, t, rb, Some(k))
                                    || graph::clique(geom, st, lp, p, t, kb, Some(r)))
                            {
                                return true;
                            }
                        }
                        false
                    };
                    if idle(x, y) && idle(y, x) {
                        let pair = xb | yb;
                        st.fill(p, pair);
                        a.captured[p.index()] |= pair;
                        a.fill[p.index()] |= pair;
                        a.set_reason(pair, RULE_PAIR);
                        any = true;
                        labels[p.index()].compute(geom, st.of(p), p);
                        break;
                    }
                }
            }
        }
        any
    }

    /// Prunes the mover's vulnerable and dominated moves of the filled position. Stops between
    /// cells when `stop` fires: the moves pruned so far stay pruned (each in favour of a cell
    /// that is kept), the rest stay candidates.
    fn prune(
        &self,
        st: &Stones<B>,
        labels: &mut [Labels<B>; 2],
        fresh: bool,
        a: &mut Analysis<B>,
        stop: &Stop,
    ) {
        let geom = self.geom;
        let p = a.to_move;
        let q = !p;
        let mut pruned = B::EMPTY;
        if halted(stop, a) {
            a.candidates = st.empty;
            return;
        }
        if (self.config.vulnerable || self.config.dominated) && !fresh {
            for c in Color::ALL {
                labels[c.index()].compute(geom, st.of(c), c);
            }
        }
        if self.config.vulnerable {
            for j in st.empty.bits() {
                if halted(stop, a) {
                    break;
                }
                for k in (geom.neighbours_of_bit(j) & st.empty).bits() {
                    if dead_once(self.config, geom, st, labels, q, j, k) {
                        pruned |= B::from_bit(j);
                        a.reason.as_mut()[j] = RULE_VULNERABLE;
                        a.by.as_mut()[j] = k as u16;
                        break;
                    }
                }
            }
            a.vulnerable = pruned;
        }
        if self.config.dominated {
            let table = &self.compiled.dominated[p.index()];
            for j in st.empty.bits() {
                if halted(stop, a) {
                    break;
                }
                let code = self.compiled.ring.code(j, st.black, st.white);
                table.candidates(j, code, |e| {
                    if e.dominator.intersects(pruned) || !e.matches(st.black, st.white, st.empty) {
                        return;
                    }
                    let Some(k) = e.dominator.lowest_bit() else { return };
                    if !(e.targets - pruned).is_empty() {
                        a.prune_needs |= e.empty - e.targets - e.dominator;
                    }
                    for b in (e.targets - pruned).bits() {
                        pruned |= B::from_bit(b);
                        a.dominated |= B::from_bit(b);
                        a.reason.as_mut()[b] = e.rule;
                        a.by.as_mut()[b] = k as u16;
                    }
                });
            }
        }
        if self.config.dominated && self.config.kill_dominated {
            // A P stone on a neighbour k that makes j dead dominates j: with P on k, j may be
            // filled with P, and P on {j, k} is at least as good as P on j alone.
            for j in (st.empty - pruned).bits() {
                if halted(stop, a) {
                    break;
                }
                for k in (geom.neighbours_of_bit(j) & (st.empty - pruned)).bits() {
                    if dead_once(self.config, geom, st, labels, p, j, k) {
                        pruned |= B::from_bit(j);
                        a.dominated |= B::from_bit(j);
                        a.reason.as_mut()[j] = RULE_KILL_DOMINATED;
                        a.by.as_mut()[j] = k as u16;
                        break;
                    }
                }
            }
        }
        a.candidates = st.empty - pruned;
    }
}

/// Whether the analysis must stop: it was cut short already, or `stop` fires now (then it is
/// marked so).
#[inline]
fn halted<B: BitSet>(stop: &Stop, a: &mut Analysis<B>) -> bool {
    if !a.interrupted && stop.should_stop() {
        a.interrupted = true;
    }
    a.interrupted
}

/// Whether the empty cell `j` is dead once `color` has a stone on its empty neighbour `k`: the
/// neighbourhood test of `color` with `k` joined to its groups, and of the other player with `k`
/// taken away (either one or both, as [`Config::one_sided`] says).
fn dead_once<B: BitSet>(
    cfg: Config,
    geom: &Geometry<B>,
    st: &Stones<B>,
    labels: &[Labels<B>; 2],
    color: Color,
    j: usize,
    k: usize,
) -> bool {
    let other = !color;
    cfg.dead_test(
        || graph::clique(geom, st, &labels[color.index()], color, j, B::EMPTY, Some(k)),
        || graph::clique(geom, st, &labels[other.index()], other, j, B::from_bit(k), None),
    )
}
