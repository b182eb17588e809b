//! Board pictures rendered to pixels and compared with the expected images in
//! `tests/pictures/`.
//!
//! resvg is built without its text support, so the coordinates and the legend's words are left
//! out of the rendering: text depends on the fonts a machine has, shapes do not. Run with
//! `NASH_BLESS=1` to write the expected images anew (then look at them before committing; the
//! SVG files are left in the temporary directory as `nash-<name>.svg`).

use std::path::PathBuf;

use nash_board::svg::{Overlay, Picture, Style};
use nash_board::{bitboard, BitSet, Bitboard, Color, MoveList, Position, WideBitboard};
use resvg::{tiny_skia, usvg};

/// Two pixels differ when one of their channels differs by more than this.
const CHANNEL_TOLERANCE: u8 = 24;
/// The share of differing pixels a picture may have.
const PIXEL_TOLERANCE: f64 = 0.002;

fn position<B: BitSet>(moves: &str, cols: usize, rows: usize) -> Position<B> {
    let mut p = Position::new(cols, rows).unwrap();
    moves.parse::<MoveList>().unwrap().play_on(&mut p).unwrap();
    p
}

fn render(svg: &str) -> tiny_skia::Pixmap {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
}

/// Renders `svg` and compares it with `tests/pictures/<name>.png`.
fn check(name: &str, svg: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/pictures/{name}.png"));
    let got = render(svg);
    if std::env::var_os("NASH_BLESS").is_some() {
        got.save_png(&path).unwrap();
        // The SVG itself, to look at with its text (a viewer with fonts shows the labels).
        std::fs::write(std::env::temp_dir().join(format!("nash-{name}.svg")), svg).unwrap();
        return;
    }
    let expected = tiny_skia::Pixmap::load_png(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (NASH_BLESS=1 writes it)", path.display()));
    assert_eq!(
        (got.width(), got.height()),
        (expected.width(), expected.height()),
        "{name}: size differs"
    );
    let differing = got
        .pixels()
        .iter()
        .zip(expected.pixels())
        .filter(|(a, b)| {
            let (a, b) = (a.demultiply(), b.demultiply());
            [
                (a.red(), b.red()),
                (a.green(), b.green()),
                (a.blue(), b.blue()),
                (a.alpha(), b.alpha()),
            ]
            .iter()
            .any(|&(x, y)| x.abs_diff(y) > CHANNEL_TOLERANCE)
        })
        .count();
    let share = differing as f64 / got.pixels().len() as f64;
    assert!(
        share <= PIXEL_TOLERANCE,
        "{name}: {differing} pixels ({:.2}%) differ from {}",
        share * 100.0,
        path.display()
    );
}

#[test]
fn stones_last_move_and_winning_moves() {
    let p = position::<Bitboard>("c3 b4", 5, 5);
    let svg = Picture::new(&p)
        .overlay(Overlay::labelled(bitboard![b3 c4 d2], Style::Carrier, "proof carrier"))
        .overlay(Overlay::labelled(bitboard![d2], Style::Winning, "winning moves"))
        .to_string();
    check("winning-5x5", &svg);
}

#[test]
fn analysis_marks_on_a_board_wider_than_tall() {
    let p = position::<Bitboard>("b2 c2 d3", 6, 4);
    let svg = Picture::new(&p)
        .overlay(Overlay::labelled(bitboard![a4 b4], Style::Connection, "connection"))
        .overlay(Overlay::labelled(bitboard![a1], Style::Dead, "dead"))
        .overlay(Overlay::labelled(bitboard![f1], Style::Captured(Color::Black), "black captured"))
        .overlay(Overlay::labelled(bitboard![f4], Style::Captured(Color::White), "white captured"))
        .overlay(Overlay::labelled(bitboard![e1 e2], Style::Inferior, "inferior"))
        .overlay(Overlay::labelled(bitboard![c3 c4], Style::Mustplay, "mustplay"))
        .overlay(Overlay::labelled(bitboard![b4], Style::Key, "key"))
        .overlay(Overlay::labelled(bitboard![d4], Style::Losing, "losing"))
        .to_string();
    check("analysis-6x4", &svg);
}

#[test]
fn a_line_of_play_on_a_wide_board() {
    let p = position::<WideBitboard>("a2 swap-sides", 3, 5);
    let line = ["b2", "b3", "c1"].map(|c| c.parse().unwrap());
    let svg = Picture::new(&p).line(&line).caption("a line").to_string();
    check("line-3x5", &svg);
}
