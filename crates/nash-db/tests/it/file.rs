//! The file: round trips, torn tails, foreign files and versions, the writer's lock, conflicts.

use nash_board::{BitSet, Bitboard, Cell, Position};
use nash_db::{log, Db, DbError, Entry, Key};
use nash_search::{Outcome, SolverConfig};

use crate::support::{position, TempPath};

fn cell(s: &str) -> Cell {
    s.parse().expect("cell")
}

fn set(s: &str) -> Bitboard {
    s.split_whitespace().map(cell).collect()
}

/// Positions and outcomes to store: (size, moves, outcome).
fn sample() -> Vec<(Position<Bitboard>, Outcome<Bitboard>)> {
    vec![
        (position(4, "a1"), Outcome::Loss { carrier: set("b2 c2 b3") }),
        (position(4, ""), Outcome::Win { winning_move: Some(cell("b3")), carrier: set("b3 c2") }),
        (position(5, "c3 b2"), Outcome::Win { winning_move: Some(cell("d2")), carrier: set("d2") }),
        (position(3, "b2"), Outcome::Loss { carrier: set("a1 c3") }),
    ]
}

fn filled(path: &std::path::Path) -> Db {
    let mut db = Db::open(path).expect("open");
    for (p, o) in sample() {
        assert!(db.put(&p, &o, 7).expect("put"));
    }
    db
}

#[test]
fn what_is_stored_reads_back() {
    let tmp = TempPath::new("roundtrip");
    drop(filled(tmp.path()));
    for db in [Db::open_read(tmp.path()).expect("read"), Db::open(tmp.path()).expect("write")] {
        assert_eq!(db.len(), 4);
        assert_eq!(db.records(), 4);
        for (p, o) in sample() {
            let got = db.get(&p).expect("stored");
            assert_eq!(got.outcome(&p), o, "{p:?}");
            assert_eq!(got.nodes, 7);
        }
        assert!(db.get(&position(4, "b1")).is_none());
    }
    // Storing what is known already writes nothing; an unknown outcome is not stored.
    let mut db = Db::open(tmp.path()).expect("open");
    let (p, o) = sample().remove(0);
    assert!(!db.put(&p, &o, 7).expect("put"));
    let unknown = Outcome::Unknown { reason: nash_search::StopReason::NodeLimit };
    assert!(!db.put(&position(6, ""), &unknown, 1).expect("put"));
    assert_eq!(db.records(), 4);
}

#[test]
fn a_torn_tail_at_any_byte_keeps_every_record_before_it() {
    let tmp = TempPath::new("torn");
    drop(filled(tmp.path()));
    let whole = std::fs::read(tmp.path()).expect("read");
    // Where the last record starts: the file without it.
    let last = sample().pop().expect("one");
    let before = {
        let t = TempPath::new("torn-before");
        let mut db = Db::open(t.path()).expect("open");
        for (p, o) in &sample()[..3] {
            db.put(p, o, 7).expect("put");
        }
        drop(db);
        std::fs::read(t.path()).expect("read").len()
    };
    assert!(before < whole.len());
    for cut in before..whole.len() {
        std::fs::write(tmp.path(), &whole[..cut]).expect("write");
        let db = Db::open_read(tmp.path()).expect("read");
        assert_eq!(db.len(), 3, "cut at {cut}");
        assert_eq!(db.dropped_bytes(), (cut - before) as u64);
        assert!(db.get(&last.0).is_none());
        // The writer cuts the tear off and appends after the intact records.
        let mut db = Db::open(tmp.path()).expect("open");
        assert_eq!(db.len(), 3);
        assert!(db.put(&last.0, &last.1, 7).expect("put"));
        drop(db);
        assert_eq!(std::fs::read(tmp.path()).expect("read"), whole, "cut at {cut}");
    }
    // A damaged byte in the last record is a tear too.
    let mut bad = whole.clone();
    let n = bad.len();
    bad[n - 1] ^= 0x40;
    std::fs::write(tmp.path(), &bad).expect("write");
    assert_eq!(Db::open_read(tmp.path()).expect("read").len(), 3);
}

#[test]
fn a_header_cut_short_is_a_new_database() {
    let tmp = TempPath::new("header");
    for cut in 0..log::HEADER_LEN {
        std::fs::write(tmp.path(), &log::header()[..cut]).expect("write");
        assert!(Db::open_read(tmp.path()).expect("read").is_empty());
        let mut db = Db::open(tmp.path()).expect("open");
        let (p, o) = sample().remove(0);
        db.put(&p, &o, 1).expect("put");
        drop(db);
        assert_eq!(Db::open_read(tmp.path()).expect("read").len(), 1);
    }
}

/// Checks that opening `bytes` as a database fails with `expected` (after the path).
fn refused(bytes: &[u8], expected: &str) {
    let tmp = TempPath::new("refused");
    std::fs::write(tmp.path(), bytes).expect("write");
    for e in [Db::open_read(tmp.path()).unwrap_err(), Db::open(tmp.path()).unwrap_err()] {
        let msg = e.to_string();
        assert_eq!(msg, format!("{}: {expected}", tmp.path().display()));
        assert!(!msg.contains('\n'));
    }
    // Nothing was changed.
    assert_eq!(std::fs::read(tmp.path()).expect("read"), bytes);
}

#[test]
fn another_programs_file_or_version_is_refused() {
    let foreign = "not a Nash solved-position database (no NASHSDB header)";
    refused(b"hello, world\n", foreign);
    refused(b"NASHX", foreign);
    refused(b"NASHPRF\0\x01\0\0\0", foreign);
    let mut v2 = log::header().to_vec();
    v2[8] = 2;
    refused(&v2, "solved-position database format version 2, this program reads version 1");
    let missing = TempPath::new("missing");
    let e = Db::open_read(missing.path()).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("{}: cannot read: no such file", missing.path().display())),
        "{e}"
    );
}

#[test]
fn one_writer_at_a_time_and_readers_beside_it() {
    let tmp = TempPath::new("lock");
    let db = filled(tmp.path());
    let e = Db::open(tmp.path()).unwrap_err();
    assert!(matches!(e, DbError::Locked { .. }), "{e}");
    assert!(e.to_string().contains("being written by another process"));
    assert_eq!(Db::open_read(tmp.path()).expect("read").len(), 4);
    drop(db);
    assert_eq!(Db::open(tmp.path()).expect("open again").len(), 4);
}

#[test]
fn a_conflicting_value_is_refused_and_named() {
    let tmp = TempPath::new("conflict");
    let mut db = filled(tmp.path());
    let (p, _) = sample().remove(0);
    let e = db.put(&p, &Outcome::Win { winning_move: Some(cell("b2")), carrier: set("b2") }, 1);
    let msg = e.unwrap_err().to_string();
    assert!(msg.contains("conflicting values for (;GM[11]SZ[4]"), "{msg}");
    assert!(msg.contains("stored loss for the player to move, new win"), "{msg}");
    // More knowledge about the same value is kept.
    let (key, _) = Key::of(&p);
    let more = Entry { wins: false, winning_set: Some(vec![]), ..Entry::default() };
    assert!(db.insert(key.clone(), more).expect("insert"));
    assert_eq!(db.entry(&key).expect("stored").winning_set, Some(vec![]));
    assert!(db.entry(&key).expect("stored").carrier.is_some());
}

#[test]
fn a_winning_set_is_stored_with_its_children() {
    let tmp = TempPath::new("winning");
    let mut db = Db::open(tmp.path()).expect("open");
    // testdata/solved.tsv: on 4x4 after a1, White wins exactly with c2 b3 a4.
    let p = position(4, "a1");
    let (w, _) = nash_db::winning_moves(&mut db, &p, &SolverConfig::default()).expect("solve");
    assert_eq!(w.winning, set("c2 b3 a4"));
    let (again, from) = nash_db::winning_moves(&mut db, &p, &SolverConfig::default()).expect("db");
    assert_eq!(from, nash_db::Source::Db);
    assert_eq!((again.winning, again.losing), (w.winning, w.losing));
    for m in p.legal_moves().iter() {
        let mut child = p.clone();
        child.play(m).expect("legal");
        assert_eq!(db.get(&child).expect("child stored").wins, !w.winning.contains(m));
    }
}

#[test]
fn one_flipped_bit_anywhere_loses_at_most_the_record_it_hit() {
    let tmp = TempPath::new("flip");
    drop(filled(tmp.path()));
    let whole = std::fs::read(tmp.path()).expect("read");
    for bit in 0..whole.len() * 8 {
        let mut bad = whole.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        std::fs::write(tmp.path(), &bad).expect("write");
        if bit / 8 < log::HEADER_LEN {
            // A damaged header is refused, and the file is left as it was.
            assert!(Db::open_read(tmp.path()).is_err(), "bit {bit}");
            assert!(Db::open(tmp.path()).is_err(), "bit {bit}");
            assert_eq!(std::fs::read(tmp.path()).expect("read"), bad, "bit {bit}");
            continue;
        }
        let db = Db::open_read(tmp.path()).expect("read");
        assert_eq!(db.len(), 3, "bit {bit}");
        assert!(db.damaged_bytes() + db.dropped_bytes() > 0, "bit {bit}");
        drop(db);
        // A writer keeps every intact record, and storing the lost one again makes all four.
        let mut db = Db::open(tmp.path()).expect("open");
        for (p, o) in sample() {
            db.put(&p, &o, 7).expect("put");
        }
        drop(db);
        let db = Db::open_read(tmp.path()).expect("read");
        assert_eq!(db.len(), 4, "bit {bit}");
        for (p, o) in sample() {
            assert_eq!(db.get(&p).expect("stored").outcome(&p), o, "bit {bit}");
        }
    }
}

#[test]
fn a_checksummed_record_naming_cells_off_the_board_is_damage() {
    let tmp = TempPath::new("offboard");
    drop(filled(tmp.path()));
    let mut bytes = std::fs::read(tmp.path()).expect("read");
    let (key, _) = Key::of(&position(6, "a1"));
    let stone = (0..36).find(|&i| !key.is_empty_cell(i)).expect("a1's image holds a stone");
    let bad = [
        // Cell 36 is not on a 6x6 board.
        Entry { wins: true, winning_move: Some(36), ..Entry::default() },
        // The cell of the stone.
        Entry { wins: true, winning_move: Some(stone), ..Entry::default() },
        // A loss has no winning move.
        Entry { wins: false, winning_move: Some(7), ..Entry::default() },
        Entry { wins: false, carrier: Some(vec![u16::MAX]), ..Entry::default() },
        Entry { wins: true, winning_set: Some(vec![40]), ..Entry::default() },
    ];
    for entry in &bad {
        bytes.extend_from_slice(&log::frame(&key, entry));
    }
    let (p, o) = (position(6, "a1 b2"), Outcome::Loss { carrier: set("c3") });
    let good = {
        let (k, _) = Key::of(&p);
        let t = TempPath::new("offboard-good");
        let mut db = Db::open(t.path()).expect("open");
        db.put(&p, &o, 1).expect("put");
        drop(db);
        let whole = std::fs::read(t.path()).expect("read");
        assert!(Db::open_read(t.path()).expect("read").entry(&k).is_some());
        whole[log::HEADER_LEN..].to_vec()
    };
    bytes.extend_from_slice(&good);
    std::fs::write(tmp.path(), &bytes).expect("write");
    let db = Db::open_read(tmp.path()).expect("read");
    assert_eq!(db.len(), 5);
    assert!(db.get(&position(6, "a1")).is_none());
    assert_eq!(db.get(&p).expect("kept").outcome(&p), o);
    assert!(db.damaged_bytes() > 0);
}

#[test]
fn records_that_disagree_are_reported_and_neither_is_served() {
    let tmp = TempPath::new("disagree");
    drop(filled(tmp.path()));
    let mut bytes = std::fs::read(tmp.path()).expect("read");
    let p = position(4, "a1");
    let (key, _) = Key::of(&p);
    bytes.extend_from_slice(&log::frame(&key, &Entry { wins: true, ..Entry::default() }));
    std::fs::write(tmp.path(), &bytes).expect("write");
    for mut db in [Db::open_read(tmp.path()).expect("read"), Db::open(tmp.path()).expect("open")] {
        assert_eq!(db.conflicts(), 1);
        assert_eq!(db.len(), 3);
        assert!(db.get(&p).is_none());
        // Nothing more is written for it.
        assert!(!db.put(&p, &Outcome::Loss { carrier: set("b2") }, 1).expect("put"));
    }
}

/// Forty records of about 40 KB each on 11x11 boards (one stone on a different cell each), so
/// that a file of them spans the pieces a file is read in.
fn large() -> Vec<(Key, Entry)> {
    (0..40u8)
        .map(|i| {
            let name = format!("{}{}", char::from(b'a' + i % 11), 1 + i / 11);
            let (key, _) = Key::of(&position(11, &name));
            let carrier = (0..40_000u16).map(|c| c % 121).collect();
            (
                key,
                Entry {
                    wins: false,
                    carrier: Some(carrier),
                    nodes: u64::from(i),
                    ..Entry::default()
                },
            )
        })
        .collect()
}

fn file_of(records: &[(Key, Entry)]) -> Vec<u8> {
    let mut bytes = log::header().to_vec();
    for (k, e) in records {
        bytes.extend_from_slice(&log::frame(k, e));
    }
    bytes
}

#[test]
fn a_file_read_in_pieces_keeps_every_record_and_skips_damage_across_pieces() {
    let records = large();
    let mut bytes = file_of(&records);
    assert!(bytes.len() > 1 << 20, "the file spans two pieces");
    let tmp = TempPath::new("pieces");
    std::fs::write(tmp.path(), &bytes).expect("write");
    let db = Db::open_read(tmp.path()).expect("read");
    assert_eq!(db.len(), records.len());
    for (k, e) in &records {
        assert_eq!(db.entry(k), Some(e));
    }
    drop(db);
    // Damage the record that straddles the first piece's end: only it is lost, and the same
    // scan over the whole bytes agrees.
    bytes[1 << 20] ^= 0x10;
    std::fs::write(tmp.path(), &bytes).expect("write");
    let db = Db::open_read(tmp.path()).expect("read");
    assert_eq!(db.len(), records.len() - 1);
    assert!(db.damaged_bytes() > 0);
    let scan = log::scan(&bytes);
    assert_eq!(scan.records.len(), records.len() - 1);
    assert_eq!(scan.skipped, db.damaged_bytes());
}

#[test]
fn a_device_is_not_a_database() {
    // /dev/zero is refused before it is read.
    match Db::open_read("/dev/zero") {
        Err(e @ DbError::NotAFile { .. }) => assert!(e.to_string().contains("/dev/zero")),
        other => panic!("/dev/zero read as {other:?}"),
    }
    // A writer needs a regular file: /dev/full would take every write and lose it.
    match Db::open("/dev/full") {
        Err(e @ DbError::NotAFile { .. }) => assert!(e.to_string().contains("/dev/full")),
        Err(e @ DbError::Io { .. }) => assert!(e.to_string().contains("/dev/full")),
        other => panic!("/dev/full opened as {other:?}"),
    }
}

#[test]
fn repair_keeps_what_is_served_and_leaves_damage_and_conflicts_out() {
    let tmp = TempPath::new("repair");
    drop(filled(tmp.path()));
    let mut bytes = std::fs::read(tmp.path()).expect("read");
    // Damage inside the second record, a conflict for 4x4 a1, and a torn tail.
    bytes[log::HEADER_LEN + 40] ^= 1;
    let (key, _) = Key::of(&position(4, "a1"));
    bytes.extend_from_slice(&log::frame(&key, &Entry { wins: true, ..Entry::default() }));
    bytes.extend_from_slice(&[7, 0, 0]);
    std::fs::write(tmp.path(), &bytes).expect("write");
    let before = Db::open_read(tmp.path()).expect("read");
    let served: Vec<(Key, Entry)> =
        before.entries().into_iter().map(|(k, e)| (k.clone(), e.clone())).collect();
    drop(before);
    let r = nash_db::repair(tmp.path()).expect("repair");
    assert_eq!(r.positions, served.len());
    assert_eq!(r.conflicts, 1);
    assert!(r.damaged_bytes > 0);
    assert_eq!(r.torn_bytes, 3);
    let after = Db::open_read(tmp.path()).expect("read");
    assert_eq!(after.damaged_bytes() + after.dropped_bytes(), 0);
    assert_eq!(after.conflicts(), 0);
    assert_eq!(after.records(), served.len());
    for (k, e) in &served {
        assert_eq!(after.entry(k), Some(e));
    }
    // No side file is left beside it.
    let dir = tmp.path().parent().expect("dir");
    let name = tmp.path().file_name().expect("name").to_string_lossy().into_owned();
    let left = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(Result::ok)
        .any(|f| f.file_name().to_string_lossy().starts_with(&format!(".{name}.repair")));
    assert!(!left);
}
