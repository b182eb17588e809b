//! The solving commands agree with each other on random small positions: `dfpn-solve-state`
//! and `dfs-solve-state` name the same winner, and the side to move wins exactly when
//! `dfpn-solver-find-winning` names a move, each of which then solves as a win.

use proptest::prelude::*;

use crate::{answers, transcript};

/// A random game prefix on a `cols`×`rows` board: distinct cells, colours alternating.
fn prefix() -> impl Strategy<Value = (usize, usize, Vec<(usize, usize)>)> {
    (3usize..=4, 3usize..=4).prop_flat_map(|(cols, rows)| {
        let cells = prop::sample::subsequence((0..cols * rows).collect::<Vec<_>>(), 0..=6)
            .prop_shuffle()
            .prop_map(move |v| v.into_iter().map(|i| (i % cols, i / cols)).collect::<Vec<_>>());
        (Just(cols), Just(rows), cells)
    })
}

fn cell_name((c, r): (usize, usize)) -> String {
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn solvers_and_winning_sets_agree((cols, rows, cells) in prefix()) {
        let mut script = format!("boardsize {cols} {rows}\n");
        for (i, &cell) in cells.iter().enumerate() {
            let colour = if i % 2 == 0 { "b" } else { "w" };
            script.push_str(&format!("play {colour} {}\n", cell_name(cell)));
        }
        let to_move = if cells.len() % 2 == 0 { "black" } else { "white" };
        script.push_str(&format!(
            "final_score\ndfpn-solve-state\ndfs-solve-state\ndfpn-solver-find-winning {to_move}\n"
        ));
        let got = answers(&transcript(&script));
        let n = got.len();
        prop_assume!(got[n - 4].starts_with('?'), "the game is already over");
        let dfpn = got[n - 3].trim_start_matches("= ").to_owned();
        let dfs = got[n - 2].trim_start_matches("= ").to_owned();
        prop_assert!(dfpn == "black" || dfpn == "white", "{}", dfpn);
        prop_assert_eq!(&dfpn, &dfs, "script {}", script);
        let winning = got[n - 1].trim_start_matches("= ").to_owned();
        prop_assert!(!winning.starts_with('?'), "{}", winning);
        prop_assert_eq!(dfpn == to_move, !winning.is_empty(), "script {} winning {}", script, winning);
        // Each winning move leaves a position the opponent loses.
        for cell in winning.split_whitespace() {
            let colour = &to_move[..1];
            let check = format!("{script}play {colour} {cell}\ndfpn-solve-state\n");
            let after = answers(&transcript(&check));
            prop_assert_eq!(after.last().unwrap().trim_start_matches("= "), to_move, "after {}", cell);
        }
    }
}
