//! Values at the edges: solver settings out of range are refused (and leave the settings as
//! they were), and a finished game takes no more moves.

use crate::check_session;

#[test]
fn out_of_range_settings_are_refused_and_change_nothing() {
    let huge = (nash_play::limits::max_tt_mib() + 1).to_string();
    let tt = format!("param_dfpn tt_mib {huge}");
    let tt_answer = format!(
        "? invalid value \"{huge}\" for tt_mib: more than this machine's memory; expected 1 to {} MiB",
        nash_play::limits::max_tt_mib()
    );
    let secs = "expected a positive number of seconds up to 1000000000";
    check_session(&[
        ("param_dfpn timelimit 1e19", &format!("? invalid value \"1e19\" for timelimit: {secs}")),
        ("param_dfpn timelimit -1", &format!("? invalid value \"-1\" for timelimit: {secs}")),
        ("param_dfpn timelimit NaN", &format!("? invalid value \"NaN\" for timelimit: {secs}")),
        ("param_dfpn timelimit inf", &format!("? invalid value \"inf\" for timelimit: {secs}")),
        ("param_dfpn timelimit soon", "? invalid number \"soon\""),
        (&tt, &tt_answer),
        ("param_dfpn tt_mib 0", &format!("? invalid value \"0\" for tt_mib: expected 1 to {} MiB", nash_play::limits::max_tt_mib())),
        ("param_dfpn threads 257", "? invalid value \"257\" for threads: expected 1 to 256 threads"),
        // HexGui sends this before a solve: progress while a solve runs (3x3 takes no time).
        ("param_dfpn use_guifx 1", "= "),
        ("param_dfpn use_guifx yes", "? invalid value \"yes\" for use_guifx: expected 0 or 1"),
        ("param_dfpn", "= \n[string] parallel auto\n[string] threads 1\n[string] timelimit 0\n[string] tt_mib 256\n[bool] use_guifx 1"),
        // The engine still solves.
        ("boardsize 3", "= "),
        ("dfpn-solve-state", "= black"),
        ("dfpn-solver-find-winning b", "= c1 a2 b2 c2 a3"),
    ]);
}

#[test]
fn a_finished_game_takes_no_more_moves() {
    check_session(&[
        ("boardsize 2", "= "),
        ("play b a1", "= "),
        ("play w b1", "= "),
        ("play b a2", "= "),
        ("final_score", "= B+"),
        ("play w b2", "? the game is over: black has won"),
        ("play b b2", "? the game is over: black has won"),
        ("play w pass", "? the game is over: black has won"),
        ("play w resign", "= "),
        ("genmove w", "= resign"),
        ("showboard", "= \n   a  b\n1  B  W  1\n 2  B  .  2\n    a  b\nwhite to move"),
        // Taking the winning move back reopens the game.
        ("undo", "= "),
        ("play b b2", "= "),
        ("final_score", "? cannot score: the game is not over"),
    ]);
}

/// Issue 62: on 19x19 (and 13x13), where one node's analysis used to take seconds, an
/// interrupted `dfs-solve-state` or `dfpn-solve-state` answers `empty`, and a tiny time limit
/// gives `unknown (time limit reached)`; the engine goes on answering.
#[test]
fn issue_62_solves_on_large_boards_stop_on_interrupt_and_time_limit() {
    let got = crate::answers(&crate::transcript(
        "boardsize 19 19\ndfs-solve-state\n# interrupt\ndfpn-solve-state\n# interrupt\n\
         boardsize 13 13\ndfs-solve-state\n# interrupt\n\
         boardsize 19 19\nparam_dfpn timelimit 0.01\ndfs-solve-state\ndfpn-solve-state\nname\n",
    ));
    assert_eq!(
        got,
        [
            "= ",
            "= empty",
            "= empty",
            "= ",
            "= empty",
            "= ",
            "= ",
            "= unknown (time limit reached)",
            "= unknown (time limit reached)",
            "= nash",
        ]
    );
}
