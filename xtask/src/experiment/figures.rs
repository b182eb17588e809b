//! Horrell et al.'s Figures 2, 3 and 4: the win rate of plain UCT (`mcts`) against their
//! minimax with the bridge discount (`minimax-bridge`) as the exploration constant (Fig. 2,
//! 11x11, 10,000 playouts), the playouts per move (Fig. 3, 11x11) and the board size (Fig. 4,
//! 10,000 playouts) vary. Each figure's games are kept in `DIR/figN.json` after every game, so
//! a run that stops is resumed by running it again (a larger `--games` adds games to every
//! point), and drawn in `DIR/figN.svg` with 95% Wilson intervals.

use std::path::{Path, PathBuf};

use anyhow::Context;
use nash_board::Cell;
use serde::{Deserialize, Serialize};

use crate::tournament::stats::{wilson, Z95};

/// The three figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    Fig2,
    Fig3,
    Fig4,
}

/// One point of a figure: a player against an opponent on a board, and the games so far.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct Point {
    x: f64,
    size: usize,
    player: String,
    opponent: String,
    games: u32,
    wins: u32,
}

/// A figure's file: what it shows and its points (format version 1).
#[derive(Debug, Serialize, Deserialize)]
struct Results {
    version: u32,
    figure: String,
    title: String,
    x_label: String,
    log_x: bool,
    /// What the paper reports for this figure.
    paper: String,
    points: Vec<Point>,
}

const OPPONENT: &str = "minimax-bridge";

fn plan(figure: Figure) -> Results {
    let point = |x: f64, size: usize, player: String| Point {
        x,
        size,
        player,
        opponent: OPPONENT.to_owned(),
        games: 0,
        wins: 0,
    };
    let (name, title, x_label, log_x, paper, points) = match figure {
        Figure::Fig2 => (
            "fig2",
            "Fig. 2: UCT's exploration constant, 11x11, 10,000 playouts, against minimax-bridge",
            "exploration constant c",
            false,
            "the best constant was 0.1 (100 games a point, 10k iterations, 11x11)",
            [0.0, 0.05, 0.1, 0.2, 0.5, 1.0, 1.4, 2.0]
                .map(|c| point(c, 11, format!("mcts:c={c},playouts=10000")))
                .to_vec(),
        ),
        Figure::Fig3 => (
            "fig3",
            "Fig. 3: UCT's playouts per move, 11x11, against minimax-bridge",
            "playouts per move",
            true,
            "10k to 15k iterations a move were the best trade of strength for time (11x11, 100 \
             games a point)",
            [300u32, 1000, 3000, 10000, 30000]
                .map(|n| point(f64::from(n), 11, format!("mcts:playouts={n}")))
                .to_vec(),
        ),
        Figure::Fig4 => (
            "fig4",
            "Fig. 4: UCT against minimax-bridge by board size, 10,000 playouts",
            "board size",
            false,
            "MCTS won on medium boards and fell off sharply above 11x11 (10k iterations, 100 \
             games a point)",
            [5usize, 7, 9, 11, 13]
                .map(|n| point(n as f64, n, "mcts:playouts=10000".to_owned()))
                .to_vec(),
        ),
    };
    Results {
        version: 1,
        figure: name.to_owned(),
        title: title.to_owned(),
        x_label: x_label.to_owned(),
        log_x,
        paper: paper.to_owned(),
        points,
    }
}

/// The default directory of the figures: `docs/horrell`.
pub fn default_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/horrell")
}

/// Game `i` of a point on a `size` board: the opening (White's west edge, `a2` to
/// `a(size-1)`, each twice), whether the player has Black, and its seed (a new one each time
/// the openings come round again).
fn game(i: u32, size: usize) -> (Cell, bool, u32) {
    let openings = (size - 2) as u32;
    let opening = Cell::at(0, (1 + (i / 2) % openings) as u8);
    (opening, i % 2 == 0, 1 + i / (2 * openings))
}

/// Plays every point of `figure` up to `games` games, saving after each game, then draws it.
pub fn run(
    figure: Figure,
    games: u32,
    dir: &Path,
    on_game: &dyn Fn(),
    count: &dyn Fn(usize),
    say: &dyn Fn(String),
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut res = plan(figure);
    let json = dir.join(format!("{}.json", res.figure));
    if json.exists() {
        let text = std::fs::read_to_string(&json)
            .with_context(|| format!("cannot read {}", json.display()))?;
        let old: Results = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a figure's results", json.display()))?;
        for p in &mut res.points {
            if let Some(o) = old.points.iter().find(|o| {
                o.x == p.x && o.size == p.size && o.player == p.player && o.opponent == p.opponent
            }) {
                (p.games, p.wins) = (o.games, o.wins);
            }
        }
    }
    count(res.points.iter().map(|p| games.saturating_sub(p.games) as usize).sum());
    for k in 0..res.points.len() {
        while res.points[k].games < games {
            let p = &res.points[k];
            let (opening, black, seed) = game(p.games, p.size);
            let me = format!("{},seed={seed}", p.player);
            let won = if black {
                super::horrell_game(p.size, Some(opening), &me, &p.opponent)?
            } else {
                !super::horrell_game(p.size, Some(opening), &p.opponent, &me)?
            };
            let p = &mut res.points[k];
            p.games += 1;
            p.wins += u32::from(won);
            let text = serde_json::to_string_pretty(&res)? + "\n";
            std::fs::write(&json, text)
                .with_context(|| format!("cannot write {}", json.display()))?;
            on_game();
        }
    }
    let svg = dir.join(format!("{}.svg", res.figure));
    std::fs::write(&svg, draw(&res)).with_context(|| format!("cannot write {}", svg.display()))?;
    say(res.title.clone());
    say(format!("| {} | player | games | win rate (95%) |", res.x_label));
    say("|---:|---|---:|---|".to_owned());
    for p in &res.points {
        let (lo, hi) = wilson(f64::from(p.wins), f64::from(p.games), Z95);
        say(format!(
            "| {} | {} | {} | {:.2} ({:.2}-{:.2}) |",
            p.x,
            p.player,
            p.games,
            f64::from(p.wins) / f64::from(p.games.max(1)),
            lo,
            hi
        ));
    }
    say(format!("Paper: {}. Written: {} and {}", res.paper, json.display(), svg.display()));
    Ok(())
}

/// The figure as an SVG picture: win rate against x, each point with its 95% interval.
fn draw(res: &Results) -> String {
    const W: f64 = 560.0;
    const H: f64 = 360.0;
    let (left, right, top, bottom) = (64.0, 24.0, 48.0, 56.0);
    let xv = |x: f64| if res.log_x { x.max(1e-9).log10() } else { x };
    let xs: Vec<f64> = res.points.iter().map(|p| xv(p.x)).collect();
    let (lo, hi) =
        xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    let span = if hi > lo { hi - lo } else { 1.0 };
    let (lo, span) = (lo - 0.05 * span, 1.1 * span);
    // Coordinates to a tenth of a pixel.
    let round = |v: f64| (v * 10.0).round() / 10.0;
    let px = |x: f64| round(left + (xv(x) - lo) / span * (W - left - right));
    let py = |y: f64| round(top + (1.0 - y) * (H - top - bottom));
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" \
         viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{W}\" height=\"{H}\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-size=\"13\">{}</text>\n",
        W / 2.0,
        escape(&res.title)
    );
    // Axes, the y ticks and the 50% line.
    let (x0, x1, y0, y1) = (left, W - right, py(0.0), py(1.0));
    s += &format!("<line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x1}\" y2=\"{y0}\" stroke=\"black\"/>\n");
    s += &format!("<line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x0}\" y2=\"{y1}\" stroke=\"black\"/>\n");
    for k in 0..=4 {
        let y = f64::from(k) / 4.0;
        s += &format!(
            "<line x1=\"{0}\" y1=\"{2}\" x2=\"{x0}\" y2=\"{2}\" stroke=\"black\"/>\
             <text x=\"{1}\" y=\"{3}\" text-anchor=\"end\">{y:.2}</text>\n",
            x0 - 5.0,
            x0 - 8.0,
            py(y),
            py(y) + 4.0
        );
    }
    s += &format!(
        "<line x1=\"{x0}\" y1=\"{0}\" x2=\"{x1}\" y2=\"{0}\" stroke=\"gray\" \
         stroke-dasharray=\"4 4\"/>\n",
        py(0.5)
    );
    s += &format!(
        "<text x=\"16\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {0})\">\
         win rate of mcts (95% interval)</text>\n",
        (y0 + y1) / 2.0
    );
    s += &format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>\n",
        (x0 + x1) / 2.0,
        H - 12.0,
        escape(&res.x_label),
        if res.log_x { " (log scale)" } else { "" }
    );
    // A tick at each point's x, then the points with their intervals.
    for p in &res.points {
        let x = px(p.x);
        s += &format!(
            "<line x1=\"{x}\" y1=\"{y0}\" x2=\"{x}\" y2=\"{}\" stroke=\"black\"/>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            y0 + 5.0,
            y0 + 18.0,
            p.x
        );
        if p.games == 0 {
            continue;
        }
        let rate = f64::from(p.wins) / f64::from(p.games);
        let (l, h) = wilson(f64::from(p.wins), f64::from(p.games), Z95);
        s += &format!(
            "<line x1=\"{x}\" y1=\"{0}\" x2=\"{x}\" y2=\"{1}\" stroke=\"steelblue\"/>\
             <line x1=\"{2}\" y1=\"{0}\" x2=\"{3}\" y2=\"{0}\" stroke=\"steelblue\"/>\
             <line x1=\"{2}\" y1=\"{1}\" x2=\"{3}\" y2=\"{1}\" stroke=\"steelblue\"/>\
             <circle cx=\"{x}\" cy=\"{4}\" r=\"4\" fill=\"steelblue\"/>\
             <text x=\"{5}\" y=\"{6}\" font-size=\"10\" fill=\"gray\">{7}/{8}</text>\n",
            py(l),
            py(h),
            x - 4.0,
            x + 4.0,
            py(rate),
            x + 6.0,
            py(rate) - 6.0,
            p.wins,
            p.games
        );
    }
    s + "</svg>\n"
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_cycle_through_openings_colours_and_seeds() {
        // 9x9 has seven openings: games 0 and 1 share a2 with the colours swapped; game 14
        // starts the round again with the next seed.
        assert_eq!(game(0, 9), (Cell::at(0, 1), true, 1));
        assert_eq!(game(1, 9), (Cell::at(0, 1), false, 1));
        assert_eq!(game(13, 9), (Cell::at(0, 7), false, 1));
        assert_eq!(game(14, 9), (Cell::at(0, 1), true, 2));
    }

    #[test]
    fn a_drawing_has_every_point_and_its_interval() {
        let mut res = plan(Figure::Fig3);
        res.points[0].games = 10;
        res.points[0].wins = 7;
        let svg = draw(&res);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<circle").count(), 1);
        assert!(svg.contains(">7/10<") && svg.contains("(log scale)"));
    }
}
