//! Scripted sessions through the library: every answer checked exactly.

use crate::{answers, check_session, transcript};

const BOARD_3_AFTER_B2: &str =
    "= \n   a  b  c\n1  .  .  .  1\n 2  .  B  .  2\n  3  .  .  .  3\n     a  b  c\nwhite to move";

#[test]
fn standard_commands_answer_as_gtp_asks() {
    check_session(&[
        ("protocol_version", "= 2"),
        ("1 name", "=1 nash"),
        ("2 known_command dfpn-solve-state", "=2 true"),
        ("known_command param_solver_ice", "= true"),
        ("known_command param_solver_vc", "= false"),
        ("boardsize 3", "= "),
        ("play b b2", "= "),
        ("showboard", BOARD_3_AFTER_B2),
        ("all_legal_moves", "= a1 b1 c1 a2 c2 a3 b3 c3"),
        ("undo", "= "),
        ("undo", "? cannot undo: no move to take back"),
        ("10 quit", "=10 "),
    ]);
}

#[test]
fn bad_input_answers_an_error_and_the_engine_goes_on() {
    check_session(&[
        ("boardsize 6", "= "),
        ("frobnicate", "? unknown command"),
        ("7 param_solver_vc use_patterns 0", "?7 unknown command"),
        ("play", "? play expects a colour and a move, got \"\""),
        ("play b", "? play expects a colour and a move, got \"b\""),
        ("play red a1", "? invalid colour \"red\": expected b, black, w or white"),
        (
            "play b 1a",
            "? invalid move \"1a\": expected a cell such as a1, swap-pieces, swap-sides, resign or pass",
        ),
        ("play b g1", "? cell g1 is not on the 6x6 board"),
        ("play b a7", "? cell a7 is not on the 6x6 board"),
        ("play b c3", "= "),
        ("play w c3", "? cell c3 is already occupied"),
        ("boardsize 0", "? invalid board size 0x0: columns and rows must be 1 to 19"),
        ("boardsize 30", "? invalid board size 30x30: columns and rows must be 1 to 19"),
        ("boardsize six", "? invalid number \"six\""),
        ("boardsize 1 2 3", "? boardsize expects N or C R, got \"1 2 3\""),
        ("showboard extra", "? showboard expects no arguments, got \"extra\""),
        ("3", "?3 missing command name"),
        ("time_left b x 0", "? invalid number \"x\""),
        ("param_dfpn threads 0", "? invalid value \"0\" for threads: expected 1 to 256 threads"),
        ("param_dfpn parallel wide", "? invalid value \"wide\" for parallel: expected auto, jobs or tree"),
        ("param_dfpn colour blue", "? unknown parameter \"colour\""),
        ("param_dfpn timelimit", "? param_dfpn expects no arguments, or a parameter name and a value, got \"timelimit\""),
        ("final_score", "? cannot score: the game is not over"),
        ("loadsgf", "? loadsgf expects a file name and an optional move number, got \"\""),
        // The board survived all of that.
        ("all_legal_moves", "= a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 a3 b3 d3 e3 f3 a4 b4 c4 d4 e4 f4 a5 b5 c5 d5 e5 f5 a6 b6 c6 d6 e6 f6"),
    ]);
}

#[test]
fn rectangular_boards_take_columns_then_rows() {
    check_session(&[
        ("boardsize 3 2", "= "),
        ("play b c2", "= "),
        ("play w c3", "? cell c3 is not on the 3x2 board"),
        ("play w d1", "? cell d1 is not on the 3x2 board"),
        ("showboard", "= \n   a  b  c\n1  .  .  .  1\n 2  .  .  B  2\n    a  b  c\nwhite to move"),
        // Benzene's swap keeps the stone, so it needs no square board.
        ("play w swap-pieces", "= "),
        ("showboard", "= \n   a  b  c\n1  .  .  .  1\n 2  .  .  B  2\n    a  b  c\nwhite to move"),
    ]);
}

#[test]
fn swaps_follow_the_hex_conventions() {
    check_session(&[
        ("boardsize 4", "= "),
        ("play b b3", "= "),
        // swap-pieces, as Benzene and HexGui mean it: the players exchange colours, the black
        // stone stays and White moves next.
        ("play w swap-pieces", "= "),
        (
            "showboard",
            "= \n   a  b  c  d\n1  .  .  .  .  1\n 2  .  .  .  .  2\n  3  .  B  .  .  3\n   4  .  .  .  .  4\n      a  b  c  d\nwhite to move",
        ),
        ("undo", "= "),
        // swap-sides: the same.
        ("play b swap-sides", "= "),
        (
            "showboard",
            "= \n   a  b  c  d\n1  .  .  .  .  1\n 2  .  .  .  .  2\n  3  .  B  .  .  3\n   4  .  .  .  .  4\n      a  b  c  d\nwhite to move",
        ),
        ("play w a1", "= "),
        ("play b swap-pieces", "? swap-pieces is only allowed as the second move, after a single black stone"),
    ]);
}

#[test]
fn finished_games_are_scored() {
    check_session(&[
        ("boardsize 2", "= "),
        ("play b a1", "= "),
        ("play w b1", "= "),
        ("play b a2", "= "),
        ("final_score", "= B+"),
        ("dfpn-solve-state", "= black"),
        ("dfs-solve-state white", "= black"),
        ("dfpn-solver-find-winning w", "= "),
        ("dfpn-solver-find-winning b", "= b2"),
        ("all_legal_moves", "= "),
        ("genmove w", "= resign"),
    ]);
}

#[test]
fn sgf_files_load_and_bad_ones_are_refused() {
    let dir = std::env::temp_dir().join(format!("nash-htp-sgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("game.sgf");
    let bad = dir.join("bad.sgf");
    std::fs::write(&good, "(;FF[4]GM[11]SZ[4:3];B[b2];W[c3];B[a1])").unwrap();
    std::fs::write(&bad, "(;FF[4]GM[11]SZ[4];B[b2];W[").unwrap();
    let g = good.display();
    let b = bad.display();
    let missing = dir.join("missing.sgf");
    let script = format!(
        "loadsgf {g}\nshowboard\nloadsgf {g} 3\nshowboard\nloadsgf {b}\nloadsgf {m}\nloadsgf {g} x\nshowboard\nundo\nundo\nundo\n",
        m = missing.display()
    );
    let got = answers(&transcript(&script));
    let board_after = |stones: [&str; 3], to_move: &str| {
        format!(
            "= \n   a  b  c  d\n1  {}  .  .  .  1\n 2  .  {}  .  .  2\n  3  .  .  {}  .  3\n     a  b  c  d\n{to_move} to move",
            stones[0], stones[1], stones[2]
        )
    };
    assert_eq!(got[0], "= ");
    assert_eq!(got[1], board_after(["B", "B", "W"], "white"));
    assert_eq!(got[2], "= ");
    assert_eq!(got[3], board_after([".", "B", "W"], "black"));
    assert!(got[4].starts_with(&format!("? cannot load \"{b}\": ")), "{}", got[4]);
    assert!(!got[4].contains('\n'));
    assert!(
        got[5].starts_with(&format!("? cannot read \"{}\": ", missing.display())),
        "{}",
        got[5]
    );
    assert_eq!(got[6], "? invalid number \"x\"");
    assert_eq!(got[7], got[3], "a failed load leaves the position alone");
    assert_eq!(got[8..], ["= ", "= ", "? cannot undo: no move to take back"]);
    // Editors on some systems start a UTF-8 file with a byte order mark: it is not part of
    // the record.
    let bom = dir.join("bom.sgf");
    std::fs::write(&bom, "\u{feff}(;FF[4]GM[11]SZ[4:3];B[b2];W[c3];B[a1])").unwrap();
    let got = answers(&transcript(&format!("loadsgf {}\nshowboard\n", bom.display())));
    assert_eq!(got, ["= ".to_owned(), board_after(["B", "B", "W"], "white")]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn parameters_list_in_benzene_format_and_change() {
    check_session(&[
        ("param_dfpn", "= \n[string] parallel auto\n[string] threads 1\n[string] timelimit 0\n[string] tt_mib 256\n[bool] use_guifx 0"),
        ("param_dfpn timelimit 2.5", "= "),
        ("param_dfpn tt_mib 64", "= "),
        ("param_dfpn threads 2", "= "),
        ("param_dfpn parallel tree", "= "),
        ("param_dfpn", "= \n[string] parallel tree\n[string] threads 2\n[string] timelimit 2.5\n[string] tt_mib 64\n[bool] use_guifx 0"),
        ("param_dfpn timelimit 0", "= "),
        ("dfpn-clear-tt", "= "),
    ]);
}

#[test]
fn the_dfpn_table_is_kept_between_commands_until_cleared() {
    // The same answers from a fresh table, a table kept from earlier solves (also of other
    // board sizes and parameters) and a cleared one.
    let solves = [
        ("dfpn-solver-find-winning b", "= d1 c2 b3 a4"),
        ("dfpn-solve-state black", "= black"),
        ("dfpn-solve-state white", "= white"),
    ];
    let mut script = vec![("boardsize 4", "= ")];
    script.extend(solves);
    script.extend([("boardsize 3", "= "), ("dfpn-solve-state", "= black")]);
    script.extend([("boardsize 4", "= ")]);
    script.extend(solves);
    script.extend(solves);
    script.extend([("param_dfpn tt_mib 32", "= ")]);
    script.extend(solves);
    script.extend([("dfpn-clear-tt", "= ")]);
    script.extend(solves);
    check_session(&script);
}

#[test]
fn every_listed_command_is_known_and_implemented() {
    let list = answers(&transcript("list_commands\n"));
    let names: Vec<&str> = list[0].trim_start_matches("= ").lines().collect();
    assert_eq!(names, nash_htp::COMMANDS);
    for name in names {
        let got =
            answers(&transcript(&format!("boardsize 2\nknown_command {name}\n{name} x y z w\n")));
        assert_eq!(got[1], "= true");
        assert_ne!(got[2], "? unknown command", "{name} is listed but not implemented");
    }
    let analyze = answers(&transcript("hexgui-analyze_commands\n"));
    for line in analyze[0].trim_start_matches("= ").lines() {
        let parts: Vec<&str> = line.split('/').collect();
        assert_eq!(parts.len(), 3, "type/label/command: {line}");
        let command = parts[2].split_whitespace().next().unwrap();
        assert!(
            nash_htp::COMMANDS.contains(&command),
            "{command} in the analyze menu is not a command"
        );
    }
}

#[test]
fn genmove_plays_a_move_and_takes_a_win() {
    // Black to move wins at once with b3 or a3 (b1 and b2 are Black's).
    let got = answers(&transcript(
        "boardsize 3\nplay b b1\nplay w a1\nplay b b2\nplay w a2\n1 genmove b\nfinal_score\n",
    ));
    assert!(got[5] == "=1 b3" || got[5] == "=1 a3", "{}", got[5]);
    assert_eq!(got[6], "= B+");
    // On an empty board the move lands on the board and is recorded.
    let got = answers(&transcript("boardsize 5\ngenmove w\nall_legal_moves\nundo\nundo\n"));
    let cell = got[1].trim_start_matches("= ");
    assert!(!got[2].contains(cell), "{cell} still empty: {}", got[2]);
    assert_eq!(got[3..], ["= ", "? cannot undo: no move to take back"]);
}

#[test]
fn lines_without_a_command_get_no_answer() {
    assert_eq!(transcript("\n   \n# comment only\n\t\n"), "");
    assert_eq!(transcript("name # trailing comment\n"), "= nash\n\n");
    // Invalid UTF-8 is replaced, not fatal.
    let mut out = Vec::new();
    nash_htp::Engine::new().run(&b"\xff\xfe name\nname\n"[..], &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "? unknown command\n\n= nash\n\n");
}

#[test]
fn quit_ends_the_session() {
    assert_eq!(transcript("quit\nname\n"), "= \n\n");
    assert_eq!(transcript("5 quit\n"), "=5 \n\n");
}

#[test]
fn small_positions_are_solved_against_known_values() {
    check_session(&[
        ("boardsize 3", "= "),
        ("dfpn-solve-state", "= black"),
        ("dfs-solve-state", "= black"),
        // The empty 3x3 board: Black wins exactly with c1, a2, b2, c2, a3.
        ("dfpn-solver-find-winning b", "= c1 a2 b2 c2 a3"),
        // By the transpose symmetry White's winning set is the mirror image.
        ("dfpn-solver-find-winning w", "= b1 c1 b2 a3 b3"),
        ("boardsize 4", "= "),
        ("dfpn-solver-find-winning b", "= d1 c2 b3 a4"),
        ("play b a1", "= "),
        ("11 dfpn-solve-state white", "=11 white"),
        ("12 dfs-solve-state w", "=12 white"),
        ("13 dfpn-solve-state black", "=13 black"),
        ("undo", "= "),
        // 3 columns, 2 rows: Black's edges are closer, so Black wins even moving second.
        ("boardsize 3 2", "= "),
        ("dfpn-solve-state white", "= black"),
        ("dfs-solve-state w", "= black"),
        ("boardsize 2 3", "= "),
        ("dfpn-solve-state black", "= white"),
    ]);
}

/// The ` cell label` pairs of an `inferior` answer.
fn labels(answer: &str) -> Vec<(String, String)> {
    let text = answer.trim_start_matches("= ");
    let words: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(words.len() % 2, 0, "cell/label pairs: {answer:?}");
    words.chunks(2).map(|w| (w[0].to_owned(), w[1].to_owned())).collect()
}

#[test]
fn analysis_answers_use_hexgui_inferior_labels() {
    let script = "boardsize 5\nplay b c3\nplay w c2\nplay b b4\n\
                  compute-inferior w\ncompute-fillin w\ncompute-dead w\nvc-build w\nvc-get-mustplay w\n\
                  dfpn-solver-find-winning w\nall_legal_moves\n";
    let got = answers(&transcript(script));
    assert_eq!(got.len(), 11);
    let empty: Vec<String> =
        got[10].trim_start_matches("= ").split_whitespace().map(str::to_owned).collect();
    let winning: Vec<String> =
        got[9].trim_start_matches("= ").split_whitespace().map(str::to_owned).collect();
    let label_ok = |l: &str| {
        ["fb", "fw", "x"].contains(&l)
            || ((l.starts_with("iv[") || l.starts_with("ii[")) && l.ends_with(']'))
    };
    for (i, answer) in got[4..9].iter().enumerate() {
        assert!(answer.starts_with("= "), "{answer}");
        for (cell, label) in labels(answer) {
            assert!(empty.contains(&cell), "{cell} labelled in {answer:?} but not empty");
            assert!(label_ok(&label), "label {label} in {answer:?}");
            match i {
                1 | 2 => assert!(label.starts_with('f'), "{answer}"),
                _ => {}
            }
            // A move outside the mustplay loses.
            if label == "x" && i == 4 {
                assert!(!winning.contains(&cell), "{cell} is outside the mustplay but wins");
            }
        }
    }
}

#[test]
fn a_virtually_won_position_leaves_no_mustplay() {
    // 4x4, a black stone on b3 wins for Black even with White to move (Chen 2025 Figure 1.3):
    // every white move is outside the (empty) mustplay.
    let got = answers(&transcript("boardsize 4\nplay b b3\nvc-get-mustplay w\nall_legal_moves\n"));
    let marked: Vec<String> = labels(&got[2]).into_iter().map(|(c, _)| c).collect();
    let empty: Vec<String> =
        got[3].trim_start_matches("= ").split_whitespace().map(str::to_owned).collect();
    let unmarked: Vec<&String> = empty.iter().filter(|c| !marked.contains(c)).collect();
    assert!(unmarked.is_empty(), "cells left in the mustplay: {unmarked:?}");
}

#[test]
fn nash_solve_stats_gives_the_last_solve_s_nodes() {
    let got = answers(&transcript(
        "boardsize 6\nnash-solve-stats\nplay b a1\ndfpn-solve-state white\nnash-solve-stats\n",
    ));
    assert!(got[1].starts_with("? no solve yet"), "{}", got[1]);
    let words: Vec<&str> = got[4].trim_start_matches("= ").split_whitespace().collect();
    let names: Vec<&str> = words.iter().step_by(2).copied().collect();
    assert_eq!(names, ["nodes", "expanded", "analyses", "seconds"], "{}", got[4]);
    let count = |i: usize| words[i].parse::<u64>().unwrap_or_else(|_| panic!("{}", got[4]));
    let (nodes, expanded, analyses) = (count(1), count(3), count(5));
    assert!(nodes > 0 && expanded > 0 && analyses > 0, "{}", got[4]);
    assert!(expanded < nodes, "a decided node is visited but not expanded: {}", got[4]);
}

/// One `nash-analyze` line as a GUI reads it: `(cell, visits, win rate, proven, order, pv)`.
type Info = (String, Option<u64>, Option<f64>, Option<String>, usize, Vec<String>);

/// Parses an `info` line field by field; an unknown field fails the test.
pub fn parse_info(line: &str) -> Info {
    let mut words = line.split_whitespace();
    assert_eq!(words.next(), Some("info"), "{line}");
    let (mut cell, mut visits, mut rate, mut proven, mut order) = (None, None, None, None, None);
    while let Some(key) = words.next() {
        let mut value = || words.next().unwrap_or_else(|| panic!("{key} without value: {line}"));
        match key {
            "move" => cell = Some(value().to_owned()),
            "visits" => visits = Some(value().parse().unwrap()),
            "winrate" => rate = Some(value().parse::<f64>().unwrap()),
            "prior" | "value" => {
                value().parse::<f64>().unwrap();
            }
            "proven" => proven = Some(value().to_owned()),
            "order" => order = Some(value().parse().unwrap()),
            "pv" => {
                let pv: Vec<String> = words.map(str::to_owned).collect();
                let cell = cell.expect("move before pv");
                assert_eq!(pv.first(), Some(&cell), "{line}");
                return (cell, visits, rate, proven, order.expect("order before pv"), pv);
            }
            other => panic!("unknown field {other}: {line}"),
        }
    }
    panic!("no pv: {line}")
}

#[test]
fn nash_analyze_stops_at_the_next_line_and_that_line_runs() {
    // The whole input at once: the next command is read before the search starts, so it
    // stops at once; the answer is `=`, the lines so far, the empty line; then `name` runs.
    // At the end of the input it stops too.
    let got = answers(&transcript("boardsize 5\n3 nash-analyze 10\nname\nnash-analyze w 1\n"));
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(got[1].starts_with("=3\n") || got[1] == "=3", "{:?}", got[1]);
    for line in got[1].lines().skip(1) {
        parse_info(line);
    }
    assert_eq!(got[2], "= nash");
    assert!(got[3].starts_with('='), "{:?}", got[3]);
}

#[test]
fn nash_analyze_refuses_a_bad_interval() {
    check_session(&[
        (
            "nash-analyze",
            "? nash-analyze expects [COLOUR] INTERVAL (centiseconds from 1 to 360000), got \"\"",
        ),
        (
            "nash-analyze 0",
            "? nash-analyze expects [COLOUR] INTERVAL (centiseconds from 1 to 360000), got \"0\"",
        ),
        ("nash-analyze soon", "? invalid number \"soon\""),
        (
            "nash-analyze b 10 20",
            "? nash-analyze expects [COLOUR] INTERVAL (centiseconds from 1 to 360000), got \"b 10 20\"",
        ),
        ("nash-analyze-gfx b 0", "? nash-analyze-gfx expects [COLOUR] INTERVAL (centiseconds from 1 to 360000), got \"b 0\""),
        ("name", "= nash"),
    ]);
}

#[test]
fn issue_61_player_scores_come_sorted_with_visits() {
    // `best` within 300 playouts on 5x5 after c3: each move `rate@visits` (or `W`/`L` when
    // proven), by visits, proven wins first and proven losses last; never a bare -1.
    let got = answers(&transcript(
        "boardsize 5\nplay b c3\nparam_player max_playouts 300\nplayer-scores w\nnash-analyze-gfx w\n",
    ));
    let pairs: Vec<&str> = got[3].trim_start_matches("= ").split_whitespace().collect();
    assert!(pairs.len() >= 4 && pairs.len() % 2 == 0, "{:?}", got[3]);
    let mut rank = Vec::new();
    for label in pairs.iter().skip(1).step_by(2) {
        rank.push(match *label {
            "W" => (0, 0),
            "L" => (2, 0),
            l => {
                let (rate, visits) = l.split_once('@').unwrap_or_else(|| panic!("{l}"));
                assert!((0.0..=1.0).contains(&rate.parse::<f64>().unwrap()), "{l}");
                (1, u64::MAX - visits.parse::<u64>().unwrap())
            }
        });
    }
    assert!(rank.windows(2).all(|w| w[0] <= w[1]), "{:?}", got[3]);
    // The gfx entry: win rates as INFLUENCE, the first moves' visits in the TEXT.
    assert!(got[4].starts_with("= INFLUENCE ") && got[4].contains("\nTEXT move "), "{:?}", got[4]);
}
