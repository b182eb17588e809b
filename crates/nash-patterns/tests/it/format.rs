//! The pattern text format: parsing, printing, errors and symmetries.

use nash_patterns::{Kind, PatternSet, Req};

#[test]
fn builtin_set_parses_and_round_trips() {
    let set = PatternSet::builtin();
    assert!(set.patterns.len() >= 7);
    for name in ["fig3.3-capture", "fig3.3-dead", "fig3.3-inferior"] {
        assert!(set.get(name).is_some(), "{name}");
    }
    let text: String = set.patterns.iter().map(|p| p.to_string()).collect();
    let again: PatternSet = text.parse().unwrap();
    assert_eq!(again, set);
}

#[test]
fn edge_bridge_reads_as_expected() {
    let set: PatternSet =
        "pattern t\nkind captured black\nb b b\n * *\n  B\nend\n".parse().unwrap();
    let p = &set.patterns[0];
    assert_eq!(p.kind, Kind::Captured(nash_board::Color::Black));
    let cells: Vec<_> = p.cells.iter().map(|c| (c.dc, c.dr, c.req)).collect();
    use nash_board::Color::Black;
    assert_eq!(
        cells,
        vec![
            (0, -1, Req::StoneOrEdge(Black)),
            (1, -1, Req::StoneOrEdge(Black)),
            (2, -1, Req::StoneOrEdge(Black)),
            (0, 0, Req::Target),
            (1, 0, Req::Target),
            (0, 1, Req::Stone(Black)),
        ]
    );
}

#[test]
fn variants_cover_the_24_images() {
    let set = PatternSet::builtin();
    // The edge bridge has a mirror symmetry: 12 distinct images.
    assert_eq!(set.get("fig3.3-capture").unwrap().variants().len(), 12);
    // Neighbour patterns of a single target stay anchored on it.
    for v in set.get("dead-four").unwrap().variants() {
        assert!(v.cells.iter().any(|c| c.dc == 0 && c.dr == 0 && c.req == Req::Target));
        for c in &v.cells {
            assert!(
                c.req == Req::Target
                    || [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)].contains(&(c.dc, c.dr))
            );
        }
    }
}

#[test]
fn errors_name_the_line() {
    let cases = [
        ("pattern a\nkind dead\n x\nend\n", 3, "unknown pattern character"),
        ("pattern a\nkind dead\n*  *\nend\n", 3, "off the hex grid"),
        ("pattern a\nkind dead\n.\nend\n", 1, "no target"),
        ("pattern a\nkind sideways\n*\nend\n", 2, "expected `kind"),
        ("pattern a\nkind dead\n*\n", 1, "no `end`"),
        ("pattern a\nkind dominated black\n*\nend\n", 1, "exactly one '+'"),
        ("hello\n", 1, "expected `pattern NAME`"),
        ("pattern a\nkind dead\n*\nend\npattern a\nkind dead\n*\nend\n", 5, "duplicate"),
    ];
    for (text, line, msg) in cases {
        let e = text.parse::<PatternSet>().unwrap_err();
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.to_string().contains(msg), "{text:?}: {e}");
    }
}
