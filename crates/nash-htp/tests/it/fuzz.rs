//! Random lines into the HTP reader: no panic, and exactly one answer per command line.

use proptest::prelude::*;

use crate::{answers, transcript};
use nash_htp::protocol::parse_line;

/// Words that reach the command handlers; the solving commands and `quit` are left out so
/// that a case stays fast and runs to the end.
const WORDS: &[&str] = &[
    "boardsize",
    "play",
    "undo",
    "showboard",
    "clear_board",
    "all_legal_moves",
    "final_score",
    "time_left",
    "time_settings",
    "param_player",
    "param_mohex",
    "param_game",
    "max_time",
    "allow_swap",
    "solve_time",
    "known_command",
    "list_commands",
    "name",
    "version",
    "protocol_version",
    "param_dfpn",
    "dfpn-clear-tt",
    "hexgui-analyze_commands",
    "loadsgf",
    "threads",
    "timelimit",
    "tt_mib",
    "b",
    "w",
    "black",
    "white",
    "a1",
    "b2",
    "c3",
    "k11",
    "s19",
    "t20",
    "aa1",
    "swap-pieces",
    "swap-sides",
    "pass",
    "resign",
    "0",
    "1",
    "2",
    "3",
    "6",
    "19",
    "30",
    "-1",
    "1e9",
    "NaN",
    "#",
    "\t",
    "",
    "12",
    "x",
    "=",
    "?",
];

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        // Mostly well-formed-looking commands with arbitrary arguments.
        3 => prop::collection::vec(prop::sample::select(WORDS), 0..5).prop_map(|w| w.join(" ")),
        // Arbitrary text without line breaks.
        1 => "[^\n\r]{0,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_command_line_gets_exactly_one_answer(lines in prop::collection::vec(line(), 0..30)) {
        // Keep the boards small: a stray 19 is fine, but the solver commands are not sent.
        let commands = lines
            .iter()
            .filter(|l| parse_line(l).is_some())
            .count();
        let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let out = transcript(&input);
        let got = answers(&out);
        prop_assert_eq!(got.len(), commands, "input {:?}\noutput {:?}", input, out);
        for a in &got {
            prop_assert!(a.starts_with('=') || a.starts_with('?'), "answer {:?}", a);
            prop_assert!(!a.contains("internal error"), "answer {:?}", a);
        }
    }
}
