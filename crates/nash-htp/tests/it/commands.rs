//! Issue 61's commands: `reg_genmove`, `player-stats`, the pattern search's `dfs-…` commands,
//! `dfpn-get-bounds`, the database and the book from HTP, each with its bad arguments.

use nash_board::{Bitboard, Color, Position};

use crate::{answers, check_session, transcript};

/// A database file of its own for each test, removed when dropped.
struct TempDb(std::path::PathBuf);

impl TempDb {
    fn new(name: &str) -> TempDb {
        let path = std::env::temp_dir().join(format!("nash-htp-{name}-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        TempDb(path)
    }

    fn path(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The answers of a session, each without its `= `; panics on an error answer.
fn ok_answers(input: &str) -> Vec<String> {
    answers(&transcript(input))
        .into_iter()
        .map(|a| a.strip_prefix("= ").unwrap_or_else(|| panic!("an error: {a}")).to_owned())
        .collect()
}

/// Plays `line` from `moves` on an `n`×`n` board: every move legal; the winner at the end.
fn replay(n: usize, moves: &[&str], line: &str) -> Option<Color> {
    let mut pos = Position::<Bitboard>::square(n).unwrap();
    for m in moves.iter().copied().chain(line.split_whitespace()) {
        pos.play(m.parse().unwrap()).unwrap_or_else(|e| panic!("{m}: {e} in {line}"));
    }
    pos.winner()
}

#[test]
fn issue61_reg_genmove_answers_genmoves_move_without_playing_it() {
    let got = ok_answers("boardsize 4\nreg_genmove b\nall_legal_moves\ngenmove b\nplayer-stats\n");
    assert_eq!(got[2].split_whitespace().count(), 16, "nothing played: {got:?}");
    assert_eq!(got[1], got[3], "the move genmove plays: {got:?}");
    let stats: Vec<&str> = got[4].lines().collect();
    assert_eq!(stats[0], format!("move {}", got[3]));
    // 4x4 is solved at once: the solver chose, and proved Black's win.
    assert_eq!(&stats[1..3], ["by solver", "proven black wins"], "{stats:?}");
    for (line, key) in stats.iter().zip([
        "move",
        "by",
        "proven",
        "nodes",
        "seconds",
        "solver_seconds",
        "depth",
        "pv",
    ]) {
        assert!(line.starts_with(key), "{key}: {stats:?}");
    }
}

#[test]
fn issue61_player_stats_reports_the_players_search() {
    let mut out = Vec::new();
    let input = "boardsize 9\nparam_player solve_time 0\nparam_player max_playouts 200\ngenmove b\nplayer-stats\n";
    nash_htp::Engine::with_player("mcts:seed=1").unwrap().run(input.as_bytes(), &mut out).unwrap();
    let got = answers(&String::from_utf8(out).unwrap());
    let stats = got[4].strip_prefix("= ").expect("an answer");
    assert!(
        stats.starts_with(&format!("move {}\nby player\nproven -\nnodes ", &got[3][2..])),
        "{stats}"
    );
    let nodes: u64 = stats.lines().nth(3).unwrap()[6..].parse().unwrap();
    assert!(nodes > 0, "{stats}");
}

#[test]
fn issue61_dfs_commands_answer_as_their_dfpn_counterparts() {
    let got = ok_answers(
        "boardsize 4\nplay b a1\ndfpn-solver-find-winning w\ndfs-solver-find-winning w\ndfs-get-pv w\ndfpn-get-pv w\n",
    );
    assert_eq!(got[2], got[3], "{got:?}");
    assert_eq!(got[2], "c2 b3 a4", "testdata/solved.tsv: 4x4 after a1");
    for line in &got[4..] {
        assert_eq!(replay(4, &["a1"], line), Some(Color::White), "{line}");
        assert!(got[2].split(' ').any(|m| line.starts_with(m)), "a winning move first: {line}");
    }
}

#[test]
fn issue61_dfpn_get_bounds_reads_the_kept_table() {
    let got = ok_answers("boardsize 4\nplay b a1\ndfpn-get-bounds w\ndfpn-solver-find-winning w\ndfpn-get-bounds w\n");
    assert_eq!(got[2], "", "nothing before a solve");
    // After deciding every move, every move is in the table, proven.
    let pairs: Vec<&str> = got[4].split_whitespace().collect();
    assert_eq!(pairs.len(), 30, "{got:?}");
    let winning: Vec<&str> = pairs.chunks(2).filter(|p| p[1] == "W").map(|p| p[0]).collect();
    assert_eq!(winning.join(" "), got[3]);
    assert!(pairs.chunks(2).all(|p| p[1] == "W" || p[1] == "L"), "{got:?}");
}

#[test]
fn issue61_bad_arguments_answer_an_error() {
    check_session(&[
        ("reg_genmove", "? reg_genmove expects a colour, got \"\""),
        ("reg_genmove red", "? invalid colour \"red\": expected b, black, w or white"),
        ("player-stats", "? no move generated yet: genmove or reg_genmove first"),
        ("player-stats now", "? player-stats expects no arguments, got \"now\""),
        ("dfs-solver-find-winning", "? dfs-solver-find-winning expects a colour, got \"\""),
        ("dfs-get-pv b w", "? dfs-get-pv expects an optional colour to move, got \"b w\""),
        ("dfpn-get-bounds a1", "? invalid colour \"a1\": expected b, black, w or white"),
        ("dfpn-close-db", "? no open database: dfpn-open-db FILE first"),
        ("dfpn-db-stat", "? no open database: dfpn-open-db FILE first"),
        ("dfpn-merge-db x.db", "? no open database: dfpn-open-db FILE first"),
        ("dfpn-open-db", "? dfpn-open-db expects a database file, got \"\""),
        (
            "dfpn-open-db /nonexistent/dir/x.db",
            "? /nonexistent/dir/x.db: cannot open: no such file or directory (os error 2)",
        ),
        ("dfpn-open-db /dev/null", "? /dev/null: not a regular file (a database is a file)"),
        (
            "book-open /nonexistent.db",
            "? /nonexistent.db: cannot read: no such file or directory (os error 2)",
        ),
        ("book-close", "? no open book: book-open FILE first"),
        ("book-stat", "? no open book: book-open FILE first"),
        ("book-scores", "? no open book: book-open FILE first"),
        ("book-depths b w", "? book-depths expects an optional colour to move, got \"b w\""),
        ("book-scores red", "? invalid colour \"red\": expected b, black, w or white"),
    ]);
}

#[test]
fn issue61_solves_fill_the_database_opened_from_htp_and_the_book_reads_it() {
    let db = TempDb::new("db");
    let path = db.path();
    let got = ok_answers(&format!(
        "boardsize 4\nplay b a1\ndfpn-open-db {path}\ndfpn-solver-find-winning w\ndfpn-db-stat\n\
         dfpn-close-db\nbook-open {path}\nbook-scores\nbook-depths\nbook-stat\nbook-close\n"
    ));
    let stat = &got[4];
    assert!(stat.starts_with(&format!("{path}: ")), "{stat}");
    assert!(stat.contains("\n4x4: positions "), "{stat}");
    // The winning set and every move's value were stored: the book proves each move.
    let scores: Vec<&str> = got[7].split_whitespace().collect();
    assert_eq!(scores.len(), 30, "{got:?}");
    let winning: Vec<&str> = scores.chunks(2).filter(|p| p[1] == "W").map(|p| p[0]).collect();
    assert_eq!(winning, ["c2", "b3", "a4"], "{got:?}");
    let depths: Vec<&str> = got[8].split_whitespace().collect();
    assert_eq!(depths.len(), 30, "{got:?}");
    assert!(depths.chunks(2).all(|p| p[1].parse::<usize>().is_ok_and(|d| d >= 1)), "{got:?}");
    assert_eq!(got[9], *stat);
    // Opened again, the database answers: no node spent.
    let got = ok_answers(&format!(
        "boardsize 4\nplay b a1\ndfpn-open-db {path}\ndfpn-solve-state w\nnash-solve-stats\n"
    ));
    assert_eq!(got[3], "white");
    assert!(got[4].starts_with("nodes 0 "), "{got:?}");
}

#[test]
fn issue61_merge_db_adds_another_databases_positions() {
    let (a, b) = (TempDb::new("merge-a"), TempDb::new("merge-b"));
    ok_answers(&format!("boardsize 3\ndfpn-open-db {}\ndfpn-solver-find-winning b\n", a.path()));
    let got = ok_answers(&format!(
        "boardsize 4\ndfpn-open-db {}\ndfpn-solve-state b\ndfpn-merge-db {}\ndfpn-merge-db {}\ndfpn-db-stat\n",
        b.path(),
        a.path(),
        a.path()
    ));
    let added: usize = got[3].split(' ').next().unwrap().parse().unwrap();
    // The 3x3 root and its moves, a move and its mirror image sharing a position.
    assert!(added >= 2, "{got:?}");
    assert!(got[4].starts_with("0 new positions"), "{got:?}");
    assert!(
        got[5].contains("\n3x3: positions ") && got[5].contains("\n4x4: positions "),
        "{got:?}"
    );
}
