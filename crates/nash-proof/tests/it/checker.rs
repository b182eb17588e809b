//! Hand-written certificates as JSON, each with the checker's verdict.

use nash_proof::{check, check_lazy, Certificate, Lazy};

/// Checks the certificate whose JSON is `header` plus `nodes`, expecting `expected`: `valid:
/// COLOUR` or the checker's message; the same from its binary form with nodes decoded on
/// demand.
fn check_json(header: &str, nodes: &str, expected: &str) {
    let json = format!("{{\"format\":\"nash-proof\",\"version\":1,{header},\"nodes\":[{nodes}]}}");
    let cert = Certificate::from_bytes(json.as_bytes()).expect("test certificate reads");
    let verdict = |r: Result<nash_proof::Checked, nash_proof::Invalid>| match r {
        Ok(c) => format!("valid: {}", c.winner),
        Err(e) => e.to_string(),
    };
    assert_eq!(verdict(check(&cert)), expected, "certificate {json}");
    let bytes = cert.to_bytes();
    let lazy = Lazy::new(&bytes).expect("binary form reads");
    assert_eq!(verdict(check_lazy(&lazy)), expected, "certificate {json}, lazily");
}

/// The empty 2x2 board, Black to move, Black claimed to win.
const TWO: &str = r#""cols":2,"rows":2,"black":[],"white":[],"to_move":"black","winner":"black""#;

#[test]
fn hand_written_certificates() {
    // Black's b1 has two ways down: a2 and b2.
    let b1 = r#""won", {"play":{"at":"b2","next":0}}, {"play":{"at":"a2","next":0}}"#;
    for (nodes, expected) in [
        // Every white reply answered.
        (
            r#"{"replies":{"replies":[["a1",2],["a2",1],["b2",2]]}}, {"play":{"at":"b1","next":3}}"#,
            "valid: black",
        ),
        // Restricted to the two cells that matter.
        (
            r#"{"replies":{"replies":[["a2",1],["b2",2]]}},
               {"restrict":{"keep":["a2","b2"],"next":3}}, {"play":{"at":"b1","next":4}}"#,
            "valid: black",
        ),
        // Opponent-oblivious: a2 answers every move but a2, b2 every move but b2.
        (
            r#"{"cover":{"options":[[["b2"],1],[["a2"],2]]}}, {"play":{"at":"b1","next":3}}"#,
            "valid: black",
        ),
        // A reply missing.
        (
            r#"{"replies":{"replies":[["a1",2],["a2",1]]}}, {"play":{"at":"b1","next":3}}"#,
            "node 3 (after b1): no reply to white's move b2",
        ),
        // Both options need b2: White's b2 is unanswered.
        (
            r#"{"cover":{"options":[[["b2"],1],[["a2","b2"],2]]}}, {"play":{"at":"b1","next":3}}"#,
            "node 3 (after b1): no option answers white's move b2",
        ),
        // The carrier shrunk: White is given b2, and with a2 connects.
        (
            r#"{"replies":{"replies":[["a2",1]]}},
               {"restrict":{"keep":["a2"],"next":3}}, {"play":{"at":"b1","next":4}}"#,
            "node 1 (after b1 a2): white has already connected",
        ),
        // A reply on the wrong cell: after White's a2 Black plays a1, and has not connected.
        (
            r#"{"play":{"at":"a1","next":0}},
               {"replies":{"replies":[["a1",2],["a2",3],["b2",2]]}}, {"play":{"at":"b1","next":4}}"#,
            "node 0 (after b1 a2 a1): black has not connected",
        ),
        // Black moves again in White's turn.
        (r#"{"play":{"at":"b1","next":2}}"#, "node 2 (after b1): plays a2 for black out of turn"),
        // A node refers forward (a cycle would be possible otherwise).
        (
            r#"{"play":{"at":"b1","next":4}}, {"play":{"at":"a1","next":3}}"#,
            "node 3 (after a1): refers to node 4, not to an earlier one",
        ),
        // Left to the checker's search: the empty 2x2 board is Black's.
        (r#""search""#, "valid: black"),
    ] {
        check_json(TWO, &format!("{b1}, {nodes}"), expected);
    }
}

#[test]
fn false_claims_are_refused() {
    let white = r#""cols":2,"rows":2,"black":[],"white":[],"to_move":"black","winner":"white""#;
    check_json(white, r#""search""#, "node 0 (the root): the search finds that black holds");
    check_json(white, r#""won""#, "node 0 (the root): white has not connected");
    let lost =
        r#""cols":2,"rows":2,"black":["a1","a2"],"white":[],"to_move":"white","winner":"white""#;
    check_json(lost, r#""search""#, "node 0 (the root): black has already connected");
    let big = r#""cols":5,"rows":5,"black":[],"white":[],"to_move":"black","winner":"black""#;
    check_json(big, r#""search""#, "node 0 (the root): 25 empty cells to search, at most 16");
    let twice =
        r#""cols":2,"rows":2,"black":["a1"],"white":["a1"],"to_move":"black","winner":"black""#;
    check_json(twice, r#""search""#, "two stones on a1");
    let off = r#""cols":2,"rows":2,"black":["c1"],"white":[],"to_move":"black","winner":"black""#;
    check_json(off, r#""search""#, "stone c1 is off the board");
    check_json(TWO, "", "the certificate has no nodes");
}

#[test]
fn virtual_connections_are_derived_again() {
    // Black's b1 reaches the bottom through a2 or b2: two semi connections, one full.
    let b1 = r#""cols":2,"rows":2,"black":["b1"],"white":[],"to_move":"white","winner":"black""#;
    let semis = r#"{"touch":["north","a2"]}, {"touch":["a2","south"]}, {"and":[0,1]},
                   {"touch":["north","b2"]}, {"touch":["b2","south"]}, {"and":[3,4]}"#;
    let vc = |steps: &str| format!(r#"{{"vc":{{"steps":[{steps}]}}}}"#);
    for (header, steps, expected) in [
        (b1, format!(r#"{semis}, {{"or":[2,5]}}"#), "valid: black"),
        // One semi connection is not enough with White to move...
        (b1, semis.to_owned(), "node 0 (the root): a semi connection with white to move"),
        // ...nor are two that share a cell.
        (
            b1,
            format!(r#"{semis}, {{"or":[2,2]}}"#),
            "node 0 (the root): step 6: a2 is in every carrier",
        ),
        (
            b1,
            format!(r#"{semis}, {{"and":[2,5]}}"#),
            "node 0 (the root): step 6: the AND rule takes two full connections",
        ),
        (
            b1,
            r#"{"touch":["a1","south"]}"#.to_owned(),
            "node 0 (the root): step 0: a1 and south do not touch",
        ),
        (
            b1,
            r#"{"touch":["west","a2"]}"#.to_owned(),
            "node 0 (the root): west is not black's edge",
        ),
        (
            b1,
            r#"{"touch":["north","a2"]}"#.to_owned(),
            "node 0 (the root): the connection does not join black's edges",
        ),
        (
            b1,
            r#"{"and":[0,1]}"#.to_owned(),
            "node 0 (the root): step 0 names step 0, not an earlier one",
        ),
        (
            r#""cols":2,"rows":2,"black":["b1"],"white":["a2"],"to_move":"black","winner":"black""#,
            semis.to_owned(),
            "node 0 (the root): a2 is white's",
        ),
    ] {
        check_json(header, &vc(&steps), expected);
    }
}

/// An 11x11 position whose empty cells are a 4x4 block (e5 to h8) and `extra`: Black's stones
/// join the block to the top and bottom edges, White's to the left and right, so the block is
/// an empty 4x4 board inside; each player's claim is one node, or two with White's replies.
fn embedded_four(extra: &str, winner: &str, replies: bool) -> String {
    let (mut black, mut white, mut empty) = (Vec::new(), Vec::new(), Vec::new());
    for row in 1..=11 {
        for (col, letter) in ('a'..='k').enumerate() {
            let cell = format!("\"{letter}{row}\"");
            let in_cols = (4..=7).contains(&col);
            if (in_cols && (5..=8).contains(&row)) || cell == format!("\"{extra}\"") {
                empty.push(cell);
            } else if in_cols {
                black.push(cell);
            } else {
                white.push(cell);
            }
        }
    }
    let (to_move, nodes) = match replies {
        false => ("black", r#""search""#.to_owned()),
        true => {
            let replies: Vec<String> = empty.iter().map(|c| format!("[{c},0]")).collect();
            ("black", format!(r#""search", {{"replies":{{"replies":[{}]}}}}"#, replies.join(",")))
        }
    };
    let to_move = if replies && winner == "black" { "white" } else { to_move };
    format!(
        r#"{{"format":"nash-proof","version":1,"cols":11,"rows":11,"black":[{}],"white":[{}],
            "to_move":"{to_move}","winner":"{winner}","nodes":[{nodes}]}}"#,
        black.join(","),
        white.join(",")
    )
}

#[test]
fn a_tiny_certificate_that_needs_a_long_search_is_refused_as_too_costly() {
    // Two nodes: White's every move answered by the search, 16 empty cells after each; those
    // searches decide more positions than a certificate of 19 entries may cost.
    let json = embedded_four("d5", "black", true);
    let cert = Certificate::from_bytes(json.as_bytes()).expect("reads");
    let e = check(&cert).expect_err("not accepted");
    assert!(e.too_costly, "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "node 0 (after e5): too costly to check: more than {} steps of work, the budget of a \
             certificate of 19 entries ({} and {} an entry)",
            nash_proof::budget(19),
            nash_proof::BUDGET_BASE,
            nash_proof::BUDGET_PER_ENTRY
        )
    );
    // The same refusal from the binary form read lazily.
    let bytes = cert.to_bytes();
    let lazy = Lazy::new(&bytes).expect("binary form reads");
    assert!(check_lazy(&lazy).expect_err("not accepted").too_costly);
}

#[test]
fn a_search_of_the_empty_four_by_four_board_fits_the_budget() {
    // One search leaf of 16 empty cells: the first player's win is found, the other's claim
    // refused as false, both within the budget.
    let cert =
        |w| Certificate::from_bytes(embedded_four("e5", w, false).as_bytes()).expect("reads");
    let checked = check(&cert("black")).expect("black wins the 4x4 board");
    assert!(checked.searched > 1_000_000 && checked.searched < nash_proof::budget(1));
    let e = check(&cert("white")).expect_err("white does not win it");
    assert!(!e.too_costly);
    assert_eq!(e.to_string(), "node 0 (the root): the search finds that black holds");
}
