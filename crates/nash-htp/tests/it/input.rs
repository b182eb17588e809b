//! Hostile input (issue 62): lines without end, game records of many moves, files that never
//! end. Each gets an answer, in bounded memory, and the session goes on.

use nash_board::alloc_count::allocations;
use nash_board::sgf::GameRecord;
use nash_board::{Color, Move};
use nash_htp::protocol::MAX_LINE;

use crate::{answers, transcript};

#[test]
fn issue62_a_line_over_the_limit_is_answered_and_the_next_command_runs() {
    let long = format!("7 play b {}\n", "a1 ".repeat(MAX_LINE / 3 + 1));
    let endless = "x".repeat(2 * MAX_LINE);
    let input = format!("boardsize 3\n{long}1 name\n{endless}");
    let got = answers(&transcript(&input));
    assert_eq!(got, ["= ", "?7 line too long", "=1 nash", "? line too long"]);
    // A line just within the limit is a command as any other.
    let fits = format!("2 name{}\n", " ".repeat(MAX_LINE - 8));
    assert_eq!(answers(&transcript(&fits)), ["=2 nash"]);
}

/// A record of `n` passes on 5x5, colours alternating.
fn passes(n: usize) -> GameRecord {
    let mut rec = GameRecord::new(5, 5);
    let colors = [Color::Black, Color::White];
    rec.moves.extend((0..n).map(|i| (colors[i % 2], Move::Pass)));
    rec
}

#[test]
fn issue62_checking_a_long_record_replays_it_once() {
    let rec = passes(100_000);
    let before = allocations();
    nash_htp::sgf::check_game_end(&rec).expect("one game");
    let used = allocations() - before;
    // One replay allocates as the position's logs double. Replaying each of the 100,000
    // prefixes, as checking move by move did, allocates at least once for each.
    assert!(used < 1_000, "{used} allocations");
}

#[test]
fn issue62_loadsgf_reads_a_record_of_many_passes() {
    let dir = std::env::temp_dir().join(format!("nash-htp-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("passes.sgf");
    std::fs::write(&path, passes(40_000).to_sgf()).expect("write");
    let script =
        format!("loadsgf {p}\nloadsgf {p} 3\nloadsgf /dev/zero\nname\n", p = path.display());
    let got = answers(&transcript(&script));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(got[..2], ["= ", "= "]);
    assert_eq!(got[2], "? cannot read \"/dev/zero\": larger than 16 MB");
    assert_eq!(got[3], "= nash");
}
