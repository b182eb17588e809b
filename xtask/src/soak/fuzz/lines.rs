//! The fuzzer's lines: HTP commands with valid arguments, the same with bad ones (huge
//! numbers, cells off the board, extra or missing words, a bad id), bytes inserted or
//! flipped, and random bytes. None contains a newline or the word `quit`.

use rand::seq::SliceRandom;
use rand::Rng;

/// A line to send, and whether it is a search that `# interrupt` should stop.
pub struct Line {
    pub bytes: Vec<u8>,
    pub search: bool,
}

/// Makes lines, keeping the board size the last valid `boardsize` asked for, so that most
/// cells are on the board.
pub struct Lines {
    cols: u32,
    rows: u32,
}

const COLOURS: [&str; 6] = ["b", "w", "black", "white", "B", "WHITE"];

/// Values no argument accepts (out of every range, or no number at all).
const BAD_NUMBERS: [&str; 14] = [
    "99999999999999999999999999",
    "18446744073709551616",
    "4294967296",
    "-1",
    "-9223372036854775809",
    "1e400",
    "NaN",
    "inf",
    "-0",
    "0x10",
    "1000000001",
    "65536",
    "",
    "3.5",
];

/// Words that are not what they stand for.
const BAD_WORDS: [&str; 10] =
    ["red", "a0", "z99", "aa1", "t20", "a-1", "a99999999999999999999", "swap", "é", "\u{0}"];

/// Files `loadsgf` is given, from the workspace root.
const FILES: [&str; 7] = [
    "testdata/games/club-5x5.sgf",
    "testdata/games/littlegolem-13x13.sgf",
    "testdata/games/board-5x5.txt",
    "testdata/games/missing.sgf",
    "testdata",
    "Cargo.toml",
    "/dev/null",
];

/// The searches, stopped by `# interrupt` after a random delay.
const SEARCHES: [&str; 7] = [
    "dfpn-get-pv",
    "dfpn-solve-state",
    "dfs-solve-state",
    "dfpn-solver-find-winning",
    "genmove",
    "vc-build",
    "player-search",
];

/// The analysis commands that take a colour.
const ANALYSES: [&str; 9] = [
    "compute-inferior",
    "compute-fillin",
    "compute-dead",
    "inferior-reasons",
    "vc-get-mustplay",
    "eval-twod",
    "eval-resist-cells",
    "vc-h-scores",
    "player-scores",
];

/// Commands without arguments.
const PLAIN: [&str; 13] = [
    "clear_board",
    "undo",
    "showboard",
    "final_score",
    "all_legal_moves",
    "list_commands",
    "protocol_version",
    "name",
    "version",
    "hexgui-analyze_commands",
    "gogui_analyze_commands",
    "dfpn-clear-tt",
    "nash-solve-stats",
];

impl Lines {
    pub fn new() -> Lines {
        Lines { cols: 11, rows: 11 }
    }

    /// The engine was started again, on its default board.
    pub fn reset(&mut self) {
        *self = Lines::new();
    }

    /// The next line: half valid, a third with a bad argument, the rest damaged bytes.
    pub fn next(&mut self, rng: &mut impl Rng) -> Line {
        loop {
            let (words, search) = self.command(rng);
            let roll: f64 = rng.gen();
            let bytes = if roll < 0.5 {
                if words[0] == "boardsize" {
                    self.resize(&words);
                }
                words.join(" ").into_bytes()
            } else if roll < 0.85 || search {
                // A search keeps its name, so that it is still answered (an interrupt is
                // sent for it).
                bad_argument(words, search, rng).join(" ").into_bytes()
            } else {
                damaged(words.join(" ").into_bytes(), rng)
            };
            if !String::from_utf8_lossy(&bytes).to_lowercase().contains("quit") {
                return Line { bytes, search };
            }
        }
    }

    fn resize(&mut self, words: &[String]) {
        let n = |i: usize| words.get(i).and_then(|w| w.parse::<u32>().ok());
        if let Some(c) = n(1) {
            self.cols = c;
            self.rows = n(2).unwrap_or(c);
        }
    }

    fn colour(rng: &mut impl Rng) -> String {
        (*COLOURS.choose(rng).expect("colours")).to_owned()
    }

    /// A cell, on the board nine times in ten.
    fn cell(&self, rng: &mut impl Rng) -> String {
        if rng.gen_bool(0.9) {
            let c = rng.gen_range(0..self.cols.clamp(1, 19));
            let r = rng.gen_range(1..=self.rows.clamp(1, 19));
            format!("{}{r}", char::from(b'a' + c as u8))
        } else {
            (*BAD_WORDS.choose(rng).expect("words")).to_owned()
        }
    }

    /// A side: the extremes most of the time.
    fn side(rng: &mut impl Rng) -> u32 {
        *[1, 2, 3, 11, 13, 19, 19, 19].choose(rng).expect("sides")
    }

    /// A valid command, and whether it is a search.
    fn command(&self, rng: &mut impl Rng) -> (Vec<String>, bool) {
        let s = |w: &str| w.to_owned();
        let num = |v: f64| format!("{v}");
        let words = match rng.gen_range(0..100) {
            0..=7 => match rng.gen_bool(0.7) {
                true => vec![s("boardsize"), Self::side(rng).to_string()],
                false => vec![
                    s("boardsize"),
                    Self::side(rng).to_string(),
                    rng.gen_range(1..=19).to_string(),
                ],
            },
            8..=29 => vec![s("play"), Self::colour(rng), self.cell(rng)],
            30..=33 => vec![
                s("play"),
                Self::colour(rng),
                s(["swap-pieces", "swap-sides", "pass", "resign"].choose(rng).expect("moves")),
            ],
            34..=43 => vec![s(PLAIN.choose(rng).expect("plain"))],
            44..=47 => {
                let mut v = vec![s("loadsgf"), s(FILES.choose(rng).expect("files"))];
                if rng.gen_bool(0.5) {
                    v.push(rng.gen_range(1..60).to_string());
                }
                v
            }
            48..=57 => vec![s(ANALYSES.choose(rng).expect("analyses")), Self::colour(rng)],
            58..=61 => {
                vec![s("vc-between-cells"), Self::colour(rng), self.cell(rng), self.cell(rng)]
            }
            62..=67 => {
                let (name, value) = match rng.gen_range(0..6) {
                    0 => ("threads", rng.gen_range(1..=4).to_string()),
                    1 => ("timelimit", num(rng.gen_range(1..20) as f64 / 10.0)),
                    2 => ("tt_mib", rng.gen_range(1..=256).to_string()),
                    3 => ("tt_size", rng.gen_range(1..=100_000).to_string()),
                    4 => ("parallel", s(["auto", "jobs", "tree"].choose(rng).expect("modes"))),
                    _ => ("threads", s("256")),
                };
                vec![s("param_dfpn"), s(name), value]
            }
            68..=72 => {
                let (name, value) = match rng.gen_range(0..6) {
                    0 => (
                        "player",
                        s(["random", "greedy", "best", "alphabeta:depth=2", "vc-greedy"]
                            .choose(rng)
                            .expect("players")),
                    ),
                    1 => ("max_time", num(rng.gen_range(1..10) as f64 / 10.0)),
                    2 => ("max_nodes", rng.gen_range(1..10_000).to_string()),
                    3 => ("max_playouts", rng.gen_range(1..1000).to_string()),
                    4 => ("solve_time", num(rng.gen_range(0..5) as f64 / 10.0)),
                    _ => ("allow_swap", rng.gen_range(0..=1).to_string()),
                };
                vec![s("param_player"), s(name), value]
            }
            73..=75 => vec![
                s("time_settings"),
                rng.gen_range(0..600).to_string(),
                rng.gen_range(0..30).to_string(),
                rng.gen_range(0..25).to_string(),
            ],
            76..=77 => vec![
                s("time_left"),
                Self::colour(rng),
                rng.gen_range(0..600).to_string(),
                rng.gen_range(0..25).to_string(),
            ],
            78..=79 => vec![s("known_command"), s(SEARCHES.choose(rng).expect("searches"))],
            _ => {
                let mut v = vec![s(SEARCHES.choose(rng).expect("searches"))];
                if !v[0].ends_with("-solve-state") || rng.gen_bool(0.5) {
                    v.push(Self::colour(rng));
                }
                return (v, true);
            }
        };
        (words, false)
    }
}

/// The command with one thing wrong: a bad value for an argument (or the name, unless
/// `keep_name`), a word dropped, words added, a long word, or a bad id in front.
fn bad_argument(mut words: Vec<String>, keep_name: bool, rng: &mut impl Rng) -> Vec<String> {
    let bad = |rng: &mut dyn rand::RngCore| -> String {
        match rng.gen_range(0..3) {
            0 => (*BAD_NUMBERS.choose(rng).expect("numbers")).to_owned(),
            1 => (*BAD_WORDS.choose(rng).expect("words")).to_owned(),
            _ => "x".repeat(rng.gen_range(100..5000)),
        }
    };
    match rng.gen_range(0..5) {
        0 if !keep_name => {
            let i = rng.gen_range(0..words.len());
            words[i] = bad(rng);
        }
        1 if words.len() > 1 => {
            words.pop();
        }
        2 => {
            for _ in 0..rng.gen_range(1..4) {
                words.push(bad(rng));
            }
        }
        3 => words.insert(0, (*BAD_NUMBERS.choose(rng).expect("numbers")).to_owned()),
        _ if words.len() > 1 => {
            let i = rng.gen_range(1..words.len());
            words[i] = bad(rng);
        }
        _ => words.push(bad(rng)),
    }
    words
}

/// The line's bytes damaged: a byte flipped, control or non-UTF-8 bytes inserted, or cut, or
/// replaced by random bytes. Newlines are left out.
fn damaged(mut bytes: Vec<u8>, rng: &mut impl Rng) -> Vec<u8> {
    let byte = |rng: &mut dyn rand::RngCore| loop {
        let b: u8 = rng.gen();
        if b != b'\n' {
            return b;
        }
    };
    match rng.gen_range(0..4) {
        0 if !bytes.is_empty() => {
            let i = rng.gen_range(0..bytes.len());
            bytes[i] ^= 1 << rng.gen_range(0..8);
            if bytes[i] == b'\n' {
                bytes[i] = b' ';
            }
        }
        1 => {
            for _ in 0..rng.gen_range(1..8) {
                let i = rng.gen_range(0..=bytes.len());
                let b = *[0u8, 0x7f, 0xff, 0xc3, b'\r', b'\t', 0x1b, byte(rng)]
                    .choose(rng)
                    .expect("bytes");
                bytes.insert(i, b);
            }
        }
        2 if !bytes.is_empty() => bytes.truncate(rng.gen_range(0..bytes.len())),
        _ => bytes = (0..rng.gen_range(1..200)).map(|_| byte(rng)).collect(),
    }
    bytes
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn lines_have_no_newline_and_no_quit_and_cover_the_searches() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut lines = Lines::new();
        let mut searches = 0;
        for _ in 0..20_000 {
            let line = lines.next(&mut rng);
            assert!(!line.bytes.contains(&b'\n'));
            let text = String::from_utf8_lossy(&line.bytes).to_lowercase();
            assert!(!text.contains("quit"));
            if line.search {
                // Still a search by its name, maybe after an id: it is answered.
                let name = text.split(' ').take(2).any(|w| SEARCHES.contains(&w));
                assert!(name, "{text:?}");
                searches += 1;
            }
        }
        assert!((2_000..8_000).contains(&searches), "{searches} searches");
    }

    #[test]
    fn cells_follow_the_board_size_asked_for() {
        let mut lines = Lines::new();
        lines.resize(&["boardsize".to_owned(), "3".to_owned(), "2".to_owned()]);
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let on = (0..1000)
            .map(|_| lines.cell(&mut rng))
            .filter(|c| ["a1", "a2", "b1", "b2", "c1", "c2"].contains(&c.as_str()));
        assert!(on.count() > 800);
    }
}
