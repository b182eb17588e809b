//! Edge templates with helper stones (docs/vc.md): the table parses, its placements on the
//! four edges are the images of those on the north edge under the board's symmetries, and the
//! solver's example (7×7, White's d4 and d5 with Black's a3 and d3) gets White's full
//! connection to the west edge that the rules alone do not find. That every template holds is
//! checked by the solver in nash-search's tests.

use nash_board::{Bitboard, Cell, Color, Edge, Geometry, Position};
use nash_vc::templates::{edge_templates, placements, EdgeTemplate, Placement};
use nash_vc::{ConnectionKind, HSearchConfig, VcBuilder};

#[test]
fn the_table_parses_and_mirrors() {
    let table = edge_templates();
    assert!(table.len() >= 100, "only {} templates", table.len());
    for t in table {
        assert_eq!(EdgeTemplate::parse(&t.to_line()).as_ref(), Ok(t));
        assert_eq!(&t.mirrored().mirrored(), t);
        assert!(table.contains(&t.mirrored()) || *t == t.mirrored(), "{}", t.to_line());
    }
    for bad in ["", "4 c 0,-1", "4 h 1,-1", "9 h c 0,-1", "4 h c 0,1", "4 h c 0,-4", "4 h c x,-1"] {
        assert!(EdgeTemplate::parse(bad).is_err(), "{bad:?}");
    }
}

fn key(p: &Placement<Bitboard>) -> (usize, u128, u128) {
    (p.end, p.helpers.0, p.carrier.0)
}

#[test]
fn placements_on_every_edge_are_images_of_the_north_ones() {
    let geom: &'static Geometry<Bitboard> = Geometry::get(8, 8).unwrap();
    let north = placements(geom, Edge::North, edge_templates());
    assert!(!north.is_empty());
    for &sym in geom.symmetries() {
        let edge = geom.map_cell(sym, Cell::NORTH).as_edge().unwrap();
        let mut want: Vec<_> = north
            .iter()
            .map(|p| {
                (
                    geom.map_bit(sym, p.end),
                    geom.map_set(sym, p.helpers).0,
                    geom.map_set(sym, p.carrier).0,
                )
            })
            .collect();
        let mut got: Vec<_> = placements(geom, edge, edge_templates()).iter().map(key).collect();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want, "{sym:?}");
    }
}

#[test]
fn a_pair_on_the_fourth_row_reaches_its_edge() {
    let mut pos: Position<Bitboard> = Position::square(7).unwrap();
    for m in ["a3", "d4", "d3", "d5"] {
        pos.play(m.parse().unwrap()).unwrap();
    }
    let d4: Cell = "d4".parse().unwrap();
    let with = HSearchConfig { templates: true, ..HSearchConfig::default() };
    for (config, found) in [(HSearchConfig::default(), false), (with, true)] {
        let mut vc = VcBuilder::new(config);
        vc.build(&pos);
        let fulls: Vec<_> = vc
            .connections(Color::White, d4, Cell::WEST)
            .filter(|c| c.kind == ConnectionKind::Full)
            .collect();
        assert_eq!(!fulls.is_empty(), found, "{config}: {fulls:?}");
        assert_eq!(vc.opponent_won().is_some(), found, "{config}");
    }
}
