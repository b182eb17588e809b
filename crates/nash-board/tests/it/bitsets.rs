//! Bitboard operations against a `BTreeSet<Cell>` model, for every width.

use std::collections::BTreeSet;

use nash_board::{BitSet, Bitboard, Cell, CellList, Edge, TinyBitboard, WideBitboard};
use proptest::prelude::*;

use crate::common::hex_neighbours;

type Model = BTreeSet<Cell>;

/// A random set of cells of the `stride`×`stride` layout plus some edges.
fn model(stride: usize) -> impl Strategy<Value = Model> {
    let cells = prop::collection::vec((0..stride as u8, 0..stride as u8), 0..60);
    let edges = prop::collection::vec(0..4usize, 0..4);
    (cells, edges).prop_map(|(cells, edges)| {
        let mut m: Model = cells.into_iter().map(|(c, r)| Cell::at(c, r)).collect();
        m.extend(edges.into_iter().map(|e| Cell::edge(Edge::ALL[e])));
        m
    })
}

fn universe<B: BitSet>() -> Model {
    let s = B::STRIDE as u8;
    let mut u: Model = (0..s).flat_map(|r| (0..s).map(move |c| Cell::at(c, r))).collect();
    u.extend(Edge::ALL.map(Cell::edge));
    u
}

fn to_bits<B: BitSet>(m: &Model) -> B {
    m.iter().copied().collect()
}

fn to_model<B: BitSet>(b: B) -> Model {
    b.iter().collect()
}

/// The dilation by hand: each cell with its neighbours in the layout; edges dropped.
fn dilate_model(m: &Model, stride: usize) -> Model {
    let mut out = Model::new();
    for c in m.iter().filter(|c| !c.is_edge()) {
        out.insert(*c);
        for (nc, nr) in hex_neighbours(c.col() as usize, c.row() as usize, stride, stride) {
            out.insert(Cell::at(nc as u8, nr as u8));
        }
    }
    out
}

fn check_ops<B: BitSet>(a: &Model, b: &Model, probe: Cell) -> Result<(), TestCaseError> {
    let (x, y): (B, B) = (to_bits(a), to_bits(b));
    prop_assert_eq!(to_model(x), a.clone());
    prop_assert_eq!(to_model(x | y), a | b);
    prop_assert_eq!(to_model(x & y), a & b);
    prop_assert_eq!(to_model(x - y), a - b);
    prop_assert_eq!(to_model(x ^ y), a ^ b);
    prop_assert_eq!(to_model(!x), &universe::<B>() - a);
    prop_assert_eq!(x.len(), a.len());
    prop_assert_eq!(x.iter().len(), a.len());
    prop_assert_eq!(x.is_empty(), a.is_empty());
    prop_assert_eq!(x.first(), a.first().copied());
    prop_assert_eq!(x.contains(probe), a.contains(&probe));
    prop_assert_eq!(x.with(probe).contains(probe), true);
    prop_assert_eq!(x.without(probe).contains(probe), false);
    prop_assert_eq!(x.is_subset(y), a.is_subset(b));
    prop_assert_eq!(x.intersects(y), !a.is_disjoint(b));
    prop_assert_eq!(to_model(x.dilate()), dilate_model(a, B::STRIDE));
    let mut z = x;
    z |= y;
    z -= x;
    prop_assert_eq!(to_model(z), b - a);
    // Iteration is in bit order, which is also the order of cells (row-major, then edges).
    let order: Vec<Cell> = x.iter().collect();
    prop_assert_eq!(order, a.iter().copied().collect::<Vec<_>>());
    prop_assert_eq!(x.lowest_bit().map(B::cell_of), a.first().copied());
    let bits: Vec<usize> = x.bits().collect();
    prop_assert_eq!(bits, a.iter().map(|&c| B::bit_of(c)).collect::<Vec<_>>());
    prop_assert_eq!(x.bits().len(), a.len());
    prop_assert_eq!(to_model(x.flood(y)), flood_model(a, b, B::STRIDE));
    let text = CellList(x).to_string();
    prop_assert_eq!(text.parse::<CellList<B>>().unwrap(), CellList(x));
    prop_assert_eq!(text.split(' ').filter(|t| !t.is_empty()).count(), a.len());
    Ok(())
}

/// The flood fill by hand: `seeds`, and the cells of `within` reached from them by steps to an
/// adjacent cell of `within` (breadth first).
fn flood_model(seeds: &Model, within: &Model, stride: usize) -> Model {
    let mut out = seeds.clone();
    let mut queue: Vec<Cell> = seeds.iter().copied().filter(|c| !c.is_edge()).collect();
    while let Some(c) = queue.pop() {
        for (nc, nr) in hex_neighbours(c.col() as usize, c.row() as usize, stride, stride) {
            let n = Cell::at(nc as u8, nr as u8);
            if within.contains(&n) && out.insert(n) {
                queue.push(n);
            }
        }
    }
    out
}

fn probe(stride: usize) -> impl Strategy<Value = Cell> {
    prop_oneof![
        (0..stride as u8, 0..stride as u8).prop_map(|(c, r)| Cell::at(c, r)),
        (0..4usize).prop_map(|e| Cell::edge(Edge::ALL[e])),
    ]
}

/// Cells of a layout sit at different bits in a narrow width `N` and a wider one `W`, but the
/// sets and their dilations within the narrow layout are the same.
fn check_widths<N: BitSet, W: BitSet>(a: &Model) -> Result<(), TestCaseError> {
    let narrow: N = to_bits(a);
    let wide: W = to_bits(a);
    prop_assert_eq!(to_model(narrow), to_model(wide));
    let area: Model = universe::<N>().into_iter().filter(|c| !c.is_edge()).collect();
    let wide_dilated: Model = &to_model(wide.dilate()) & &area;
    prop_assert_eq!(to_model(narrow.dilate()), wide_dilated);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn small_bitboard_matches_model(a in model(11), b in model(11), p in probe(11)) {
        check_ops::<Bitboard>(&a, &b, p)?;
    }

    #[test]
    fn tiny_bitboard_matches_model(a in model(7), b in model(7), p in probe(7)) {
        check_ops::<TinyBitboard>(&a, &b, p)?;
    }

    #[test]
    fn wide_bitboard_matches_model(a in model(19), b in model(19), p in probe(19)) {
        check_ops::<WideBitboard>(&a, &b, p)?;
    }

    #[test]
    fn widths_agree_on_small_layouts(a in model(11)) {
        check_widths::<Bitboard, WideBitboard>(&a)?;
    }

    #[test]
    fn widths_agree_on_tiny_layouts(a in model(7)) {
        check_widths::<TinyBitboard, Bitboard>(&a)?;
    }
}

#[test]
fn debug_draws_the_rhombus() {
    let b: Bitboard = nash_board::bitboard![a1 b2 north];
    let text = format!("{b:?}");
    assert!(text.starts_with("Bitboard {"), "{text}");
    assert!(text.contains("edges: north"), "{text}");
    assert_eq!(format!("{b:#?}"), "bitboard![a1 b2 north]");
    let w: WideBitboard = nash_board::bitboard![s19 a19 east];
    assert_eq!(format!("{w:#?}"), "bitboard![a19 s19 east]");
}

#[test]
fn cell_lists_read_and_write() {
    let set: Bitboard = nash_board::bitboard![c3 a1 k11 north];
    assert_eq!(CellList(set).to_string(), "a1 c3 k11 north");
    assert_eq!(CellList(Bitboard::EMPTY).to_string(), "");
    assert_eq!(CellList(set).names(), ["a1", "c3", "k11", "north"]);
    for text in ["a1 c3 k11 north", " North,K11  c3\ta1 a1 ", "A1,c3,k11,north"] {
        assert_eq!(text.parse::<CellList<Bitboard>>(), Ok(CellList(set)), "{text:?}");
    }
    assert_eq!("".parse::<CellList<Bitboard>>(), Ok(CellList(Bitboard::EMPTY)));
    for (bad, named) in [("a1 zz", "zz"), ("a1 l1", "l1"), ("a12", "a12"), ("a1 -", "-")] {
        let e = bad.parse::<CellList<Bitboard>>().unwrap_err();
        assert!(e.to_string().contains(&format!("{named:?}")), "{bad:?}: {e}");
    }
    assert!("s19 a1".parse::<CellList<WideBitboard>>().is_ok());
    assert!("h1".parse::<CellList<TinyBitboard>>().is_err());
}
