//! The binary and JSON forms: round trips, and the errors for files of another kind.

use nash_board::Cell;
use nash_proof::{At, Certificate, Lazy, Node, Side, Spool};

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
fn streamed_forms_are_the_same_bytes() {
    let cert = sample();
    let mut spool = Spool::new(Vec::new());
    for node in &cert.nodes {
        spool.push(node).expect("a vector takes it");
    }
    assert_eq!((spool.len(), spool.bytes()), (6, 29));
    let count = spool.len();
    let mut bytes = cert.binary_head(count);
    bytes.extend(spool.into_inner());
    assert_eq!(bytes, cert.to_bytes());
    assert_eq!(bytes[12..], postcard::to_stdvec(&cert).expect("encodes"));
    let lazy = Lazy::new(&bytes).expect("reads");
    assert_eq!(lazy.len(), 6);
    assert_eq!(lazy.node(3), Some(cert.nodes[3].clone()));
    let mut json = Vec::new();
    lazy.write_json(&mut json).expect("a vector takes it");
    assert_eq!(String::from_utf8(json).expect("UTF-8"), cert.to_json());
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        Lazy::new(&longer).map(|_| ()).unwrap_err().to_string(),
        "corrupt binary certificate: 1 bytes after the last node"
    );
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
