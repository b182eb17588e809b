//! Regression tests for issue 24: HexGui's exact command sequences (what HexGui 0.9 sends
//! when it connects, when a cell is clicked, for each analysis entry, for Play Swap Move and
//! for Stop), each answer checked.

use crate::check_session;

/// What HexGui sends on connecting, then a 6x6 board and five clicked cells.
const CONNECT_6X6: &[(&str, &str)] = &[
    ("name", "= nash"),
    ("boardsize 6 6", "= "),
    ("play black b2", "= "),
    ("play white c2", "= "),
    ("play black d4", "= "),
    ("play white b4", "= "),
    ("play black e2", "= "),
];

#[test]
fn issue_24_fill_in_labels_carry_the_colour_in_the_second_letter() {
    let mut steps = CONNECT_6X6.to_vec();
    steps.extend_from_slice(&[
        (
            "compute-inferior black",
            "= a1 fb b1 fb c1 fb d1 fw e1 fb f1 fb a2 fb d2 iv[c3] f2 iv[f3] a3 fw b3 iv[c3] \
             c3 ii[d3] a4 fw a5 fw a6 iv[b5] b6 ii[b5] c6 ii[c5] d6 ii[d5] e6 ii[e5] f6 iv[f5]",
        ),
        ("compute-fillin white", "= a1 fb b1 fb c1 fb d1 fb e1 fb f1 fb a2 fb a3 fb a4 fw a5 fw"),
        (
            "inferior-reasons black",
            "= a1 captured by black, filled black\nb1 captured by black, filled black\n\
             c1 captured by black, filled black\nd1 dead, filled white\n\
             e1 captured by black, filled black\nf1 captured by black, filled black\n\
             a2 captured by black, filled black\nd2 vulnerable to c3\nf2 vulnerable to f3\n\
             a3 dead, filled white\nb3 vulnerable to c3\nc3 dominated by d3\na4 captured by white, filled white\n\
             a5 captured by white, filled white\na6 vulnerable to b5\nb6 dominated by b5\n\
             c6 dominated by c5\nd6 dominated by d5\ne6 dominated by e5\nf6 vulnerable to f5",
        ),
    ]);
    check_session(&steps);
}

/// Runs `input` through a fresh engine; the answers and whether any `gogui-gfx:` block came.
fn gfx_transcript(input: &str) -> (Vec<String>, usize) {
    let text = crate::transcript(input);
    let blocks: Vec<String> = crate::answers(&text);
    let gfx = blocks.iter().filter(|b| gfx_var(b).is_some()).count();
    (blocks.into_iter().filter(|b| !b.starts_with("gogui-gfx:")).collect(), gfx)
}

/// The moves of a df-pn progress block's `VAR` line (`b e5 w f4 ...`), if `block` is one:
/// `gogui-gfx:`, `dfpn`, `VAR ...`, `LABEL`, `TEXT ...`.
fn gfx_var(block: &str) -> Option<Vec<String>> {
    let mut lines = block.lines();
    let head = (lines.next()?, lines.next()?);
    let var = lines.next()?.strip_prefix("VAR")?;
    let tail = (lines.next()?, lines.next()?.starts_with("TEXT "));
    (head == ("gogui-gfx:", "dfpn") && tail == ("LABEL", true))
        .then(|| var.split_whitespace().map(str::to_owned).collect())
}

#[test]
fn issue_24_the_solve_button_draws_the_line_being_searched() {
    // Two and a half seconds of the empty 8x8 board: at least two progress blocks, and the
    // lines they draw are games from the board as it is, Black first, colours alternating.
    let text = crate::transcript(
        "boardsize 8 8\nparam_dfpn use_guifx 1\nparam_dfpn timelimit 2.5\n\
         dfpn-solve-state black\n",
    );
    let lines: Vec<Vec<String>> = crate::answers(&text).iter().filter_map(|b| gfx_var(b)).collect();
    assert!(lines.len() >= 2, "{text}");
    assert!(lines.iter().any(|l| !l.is_empty()), "no line drawn: {lines:?}");
    for line in &lines {
        assert_eq!(line.len() % 2, 0, "{line:?}");
        let mut cells = std::collections::HashSet::new();
        for (i, pair) in line.chunks(2).enumerate() {
            assert_eq!(pair[0], if i % 2 == 0 { "b" } else { "w" }, "{line:?}");
            assert!(
                pair[1].parse::<nash_board::Cell>().is_ok() && cells.insert(&pair[1]),
                "{line:?}"
            );
        }
    }
}

#[test]
fn issue_24_stop_interrupts_a_solve_which_answers_empty() {
    // The Solve button on an empty 9x9 board, then Stop: HexGui sends `# interrupt` while the
    // solve runs. The reader sees it after the solve's line, so the solve stops at once.
    let (got, _) = gfx_transcript(
        "name\nboardsize 9 9\nparam_dfpn use_guifx 1\ndfpn-solve-state black\n# interrupt\n\
         showboard\ndfpn-solver-find-winning black\n# interrupt\nplay black e5\nshowboard\n",
    );
    assert_eq!(got.len(), 8, "{got:#?}");
    assert_eq!(got[3], "= empty");
    assert!(got[4].ends_with("black to move"), "{}", got[4]);
    assert!(got[5].starts_with("? undecided within the budget (interrupted): "), "{}", got[5]);
    assert_eq!(got[7].matches('B').count(), 1, "the engine still plays: {}", got[7]);
}

#[test]
fn issue_24_stop_during_genmove_plays_a_move() {
    let (got, _) = gfx_transcript(
        "boardsize 9 9\nparam_player solve_time 0\nplay black e5\ngenmove white\n# interrupt\n\
         showboard\n",
    );
    assert_eq!(got.len(), 5, "{got:#?}");
    let mv = got[3].trim_start_matches("= ");
    assert!(mv.len() == 2 && mv != "e5", "a cell: {mv}");
    assert!(got[4].ends_with("black to move"), "{}", got[4]);
}

#[test]
fn issue_24_an_interrupt_with_nothing_running_changes_nothing() {
    let (got, gfx) = gfx_transcript(
        "boardsize 3 3\n# interrupt\nparam_dfpn use_guifx 1\ndfpn-solve-state black\n",
    );
    assert_eq!(got, ["= ", "= ", "= black"]);
    assert_eq!(gfx, 0, "a solve of no time writes no progress");
}

const BOARD_5_C3_WHITE_TO_MOVE: &str = "= \n   a  b  c  d  e\n1  .  .  .  .  .  1\n 2  .  .  .  .  .  2\n  3  .  .  B  .  .  3\n   4  .  .  .  .  .  4\n    5  .  .  .  .  .  5\n       a  b  c  d  e\nwhite to move";

#[test]
fn issue_24_play_swap_move_keeps_the_stone_and_white_moves() {
    // Game → Play Swap Move after Black's c3: HexGui keeps the black stone and White moves
    // next, so the engine's board must show the same, and genmove white plays a white stone.
    check_session(&[
        ("boardsize 5 5", "= "),
        ("play black c3", "= "),
        ("showboard", BOARD_5_C3_WHITE_TO_MOVE),
        ("play white swap-pieces", "= "),
        ("showboard", BOARD_5_C3_WHITE_TO_MOVE),
        // The centre of 5x5 wins for Black whoever moves: the swapper now owns it.
        ("dfpn-solve-state white", "= black"),
        ("undo", "= "),
        ("showboard", BOARD_5_C3_WHITE_TO_MOVE),
        ("play white swap-pieces", "= "),
        ("play white a1", "= "),
        ("final_score", "? cannot score: the game is not over"),
    ]);
    let got = crate::answers(&crate::transcript(
        "boardsize 5 5\nplay black c3\nplay white swap-pieces\ngenmove white\nshowboard\n",
    ));
    assert!(got[4].ends_with("black to move"), "{}", got[4]);
    assert_eq!(got[4].matches('W').count(), 1, "one white stone: {}", got[4]);
    assert_eq!(got[4].matches('B').count(), 1, "the black stone stays: {}", got[4]);
}

#[test]
fn issue_24_a_hexgui_record_with_a_swap_loads_as_hexgui_shows_it() {
    let dir = std::env::temp_dir().join(format!("nash-htp-hexgui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("swap.sgf");
    std::fs::write(&file, "(;FF[4]AP[HexGui:0.9]GM[11]SZ[5];B[c3];W[swap-pieces];W[a1])").unwrap();
    let path = file.display();
    check_session(&[
        (&format!("loadsgf {path}"), "= "),
        (
            "showboard",
            "= \n   a  b  c  d  e\n1  W  .  .  .  .  1\n 2  .  .  .  .  .  2\n  3  .  .  B  .  .  3\n   4  .  .  .  .  .  4\n    5  .  .  .  .  .  5\n       a  b  c  d  e\nblack to move",
        ),
        (&format!("loadsgf {path} 3"), "= "),
        ("showboard", BOARD_5_C3_WHITE_TO_MOVE),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn issue_24_the_analysis_displays_answer_in_hexgui_formats() {
    check_session(&[
        ("boardsize 4 4", "= "),
        ("play black b3", "= "),
        // vc: two cells chosen on the board, the colour from the dialog (`empty` when none).
        (
            "vc-between-cells b b3 d4",
            "= \nblack b3 d4 semi hsearch [ c3 d3 c4 ] [ ] c3\nblack b3 d4 semi hsearch [ c3 b4 c4 ] [ ] c4",
        ),
        ("vc-between-cells-full empty b3 d4", "= "),
        ("vc-between-cells b b3 e9", "? cell e9 is not on the 4x4 board"),
        ("vc-between-cells b b3 pass", "? expected a cell or an edge, got \"pass\""),
        // var: the loser's most stubborn defence, White first.
        ("dfpn-get-pv w", "= a4 c2 c1 d1 b4 d3 a1 c4 d2 c3"),
        // pspairs: a number on every empty cell.
        ("eval-twod b", "= a1 6 b1 5 c1 4 d1 5 a2 5 b2 4 c2 4 d2 6 a3 5 c3 5 d3 6 a4 4 b4 4 c4 5 d4 6"),
        ("param_player player alphabeta:depth=2", "= "),
        (
            "player-scores w",
            "= b2 0.06 c2 0 b1 -0.35 d1 -0.58 c1 -0.66 b4 -0.71 a2 -0.84 a4 -0.85 a3 -0.92 c3 -1.60 d2 -1.62 c4 -1.67",
        ),
        ("showboard", "= \n   a  b  c  d\n1  .  .  .  .  1\n 2  .  .  .  .  2\n  3  .  B  .  .  3\n   4  .  .  .  .  4\n      a  b  c  d\nwhite to move"),
    ]);
}

#[test]
fn issue_24_every_analysis_entry_runs_as_hexgui_sends_it() {
    let listing = crate::answers(&crate::transcript("hexgui-analyze_commands\n"))[0].clone();
    let entries: Vec<&str> = listing.trim_start_matches("= ").lines().collect();
    assert!(entries.len() >= 20, "{listing}");
    let db = std::env::temp_dir().join(format!("nash-htp-menu-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&db);
    // A move generated first, for `player-stats`.
    let mut script = String::from(
        "boardsize 4 4\nplay black b3\nparam_player player alphabeta:depth=2\nreg_genmove w\n",
    );
    for e in &entries {
        let command = e.splitn(3, '/').nth(2).expect("type/label/command");
        // As HexGui fills the wildcards: %m the colour to move, %c the dialog's, %P the cells chosen.
        // %r a file to read: the database the menu opens, merges into itself and opens as the book.
        let command = command.replace("%m", "w").replace("%c", "b").replace("%P", "b3 d4");
        let command = command.replace("%r", &db.display().to_string());
        script.push_str(&command);
        script.push('\n');
    }
    let got = crate::answers(&crate::transcript(&script));
    let _ = std::fs::remove_file(&db);
    assert_eq!(got.len(), entries.len() + 4);
    for (entry, answer) in entries.iter().zip(&got[4..]) {
        let ok = answer.starts_with("= ") || entry.ends_with("final_score");
        assert!(ok, "{entry}: {answer}");
        let body = answer.trim_start_matches("= ");
        match entry.split('/').next().unwrap() {
            "pspairs" | "inferior" => {
                assert_eq!(body.split_whitespace().count() % 2, 0, "{entry}: {answer}")
            }
            "gfx" => assert!(body.starts_with("INFLUENCE") && body.contains("\nTEXT "), "{answer}"),
            _ => {}
        }
    }
    // GoGui's listing leaves out the displays only HexGui draws.
    let gogui = crate::answers(&crate::transcript("gogui_analyze_commands\n"))[0].clone();
    assert!(!gogui.contains("inferior/") && !gogui.contains("vc/") && gogui.contains("var/"));
}
