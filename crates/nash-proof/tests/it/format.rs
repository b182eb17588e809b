//! The binary and JSON forms: round trips, and the errors for files of another kind.

use nash_board::Cell;
use nash_proof::{At, Certificate, Node, Side};

fn sample() -> Certificate {
    let at = |s: &str| At(s.parse::<Cell>().expect("cell"));
    Certificate {
        cols: 3,
        rows: 2,
        black: vec![at("b1")],
        white: vec![at("c2")],
        to_move: Side::White,
        winner: Side::Black,
        nodes: vec![
            Node::Won,
            Node::Search,
            Node::Play { at: at("a2"), next: 0 },
            Node::Cover { options: vec![(vec![at("a2")], 2), (vec![], 0)] },
            Node::Restrict { keep: vec![at("a1"), at("a2")], next: 3 },
            Node::Replies { replies: vec![(at("a1"), 1), (at("a2"), 4)] },
        ],
    }
}

#[test]
fn both_forms_round_trip() {
    let cert = sample();
    assert_eq!(Certificate::from_bytes(&cert.to_bytes()).expect("binary"), cert);
    let json = cert.to_json();
    assert!(json.starts_with("{\"format\":\"nash-proof\",\"version\":1,\"cols\":3,"), "{json}");
    assert_eq!(Certificate::from_bytes(json.as_bytes()).expect("json"), cert);
}

#[test]
fn other_files_are_refused() {
    let mut binary = sample().to_bytes();
    binary[8] = 2;
    let json = sample().to_json().replace("\"version\":1", "\"version\":7");
    let other = sample().to_json().replace("nash-proof", "something-else");
    let edge = sample().to_json().replace("\"b1\"", "\"north\"");
    let torn = &sample().to_bytes()[..20];
    for (bytes, expected) in [
        (binary.as_slice(), "certificate format version 2, this program reads version 1"),
        (json.as_bytes(), "certificate format version 7, this program reads version 1"),
        (other.as_bytes(), "not a nash proof certificate (JSON format \"something-else\")"),
        (
            b"(;GM[11]SZ[5])".as_slice(),
            "not a nash proof certificate (no NASHPRF header and no JSON object)",
        ),
        (
            edge.as_bytes(),
            "corrupt JSON certificate: north is an edge, not a cell at line 1 column 70",
        ),
        (torn, "corrupt binary certificate: Hit the end of buffer, expected more data"),
    ] {
        let got = Certificate::from_bytes(bytes).map(|_| ()).unwrap_err().to_string();
        assert_eq!(got, expected);
    }
}
