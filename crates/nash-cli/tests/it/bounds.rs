//! Hostile inputs (issue 62): files larger than their kind ever is, devices that never end,
//! splits too deep for memory. Each is refused with one line naming it, before it is read
//! whole.

use super::{nash, TempDir};

/// `nash ARGS` fails with one line on stderr that contains `expected`.
fn check_refused(args: &[&str], expected: &str) {
    let (code, _, stderr) = nash(args);
    assert_ne!(code, 0, "{args:?}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
}

#[test]
fn issue62_endless_files_are_refused_by_name() {
    check_refused(&["show", "/dev/zero"], "error: /dev/zero: larger than 16 MB");
    check_refused(&["solve", "--batch", "/dev/zero"], "batch file: /dev/zero: larger than 16 MB");
    check_refused(
        &["solve", "a1", "--size", "3", "--db", "/dev/zero"],
        "/dev/zero: not a regular file",
    );
    check_refused(
        &["solve", "a1", "--size", "3", "--db", "/dev/full"],
        "/dev/full: not a regular file",
    );
    check_refused(&["db", "stats", "/dev/zero"], "/dev/zero: not a regular file");
    let dir = TempDir::new("bounds-dir");
    check_refused(&["db", "stats", &dir.file("")], "not a regular file");
}

#[test]
fn issue62_a_position_file_over_the_limit_is_refused_by_name() {
    let dir = TempDir::new("bounds-big");
    let big = dir.file("big.sgf");
    // 16 MB and one byte: one byte over.
    let mut text = vec![b' '; 16 << 20];
    text.push(b'(');
    std::fs::write(&big, &text).expect("write");
    check_refused(&["show", &big], &format!("{big}: larger than 16 MB"));
    // At the limit it is read (and is not SGF: a syntax error, not a size error).
    text.truncate(16 << 20);
    std::fs::write(&big, &text).expect("write");
    let (code, _, stderr) = nash(&["show", &big]);
    assert_ne!(code, 0);
    assert!(!stderr.contains("larger than"), "{stderr}");
}

#[test]
fn issue62_a_record_of_many_passes_is_read() {
    let dir = TempDir::new("bounds-passes");
    let path = dir.file("passes.sgf");
    let mut text = String::from("(;FF[4]GM[11]SZ[5]");
    for i in 0..40_000 {
        text.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
    }
    text.push_str(";B[c3])");
    std::fs::write(&path, text).expect("write");
    let (code, out, stderr) = nash(&["show", &path]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.contains("3  .  .  B  .  .  3"), "{out}");
    assert!(out.trim_end().ends_with("white to move"), "{out}");
}

#[test]
fn issue62_a_split_too_deep_for_memory_is_refused() {
    let dir = TempDir::new("bounds-split");
    let (db, out) = (dir.file("split.db"), dir.file("jobs"));
    let args = ["split", "--size", "19", "--depth", "4", "--db", &db, "--out", &out];
    check_refused(&args, "--depth 4 is too deep for this 19x19 position");
    // Refused before anything is written.
    assert!(!std::path::Path::new(&db).exists());
    assert!(!std::path::Path::new(&out).exists());
}
