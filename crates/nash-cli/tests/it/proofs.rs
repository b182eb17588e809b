//! `nash solve --proof` killed with SIGKILL while its certificate is built, and run again:
//! the build goes on from its files and writes the certificate an uninterrupted run writes. A
//! target that cannot be written is refused and leaves no file behind, and a file in the way of
//! the build's own is not overwritten.

use crate::{nash, TempDir};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The size and nodes of the certificate a run reports: "proof: FILE (N nodes, B bytes...".
fn written(out: &str) -> String {
    let line = out.lines().find(|l| l.starts_with("proof: ")).unwrap_or_else(|| panic!("{out}"));
    line.split(['(', ';', ')']).nth(1).unwrap_or_default().to_string()
}

#[test]
fn a_killed_certificate_build_resumes() {
    let tmp = TempDir::new("proof-kill");
    let whole = tmp.file("whole.proof");
    let args =
        |file: &str| ["solve", "c2", "--size", "6", "--no-pv", "--proof", file].map(String::from);
    let (code, out, err) = nash(&args(&whole).each_ref().map(String::as_str));
    assert_eq!(code, 0, "{err}");

    let proof = tmp.file("c2.proof");
    let journal = format!("{proof}.journal");
    let mut child = Command::new(env!("CARGO_BIN_EXE_nash"))
        .args(args(&proof))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nash runs");
    // Kill it once some re-solves are in the journal (a real SIGKILL: Child::kill on Unix).
    let start = Instant::now();
    while std::fs::metadata(&journal).map_or(0, |m| m.len()) < 2_000 {
        assert!(start.elapsed() < Duration::from_secs(300), "no journal written");
        assert!(child.try_wait().expect("wait").is_none(), "the build ended before the kill");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("kill");
    child.wait().expect("wait");
    assert!(!std::path::Path::new(&proof).exists(), "a certificate was written");

    let (code, again, err) = nash(&args(&proof).each_ref().map(String::as_str));
    assert_eq!(code, 0, "{err}");
    assert!(again.contains("resumed with "), "{again}");
    assert_eq!(written(&again), written(&out), "{again}\n{out}");
    assert_eq!(std::fs::read(&proof).expect("written"), std::fs::read(&whole).expect("written"));
    assert!(!std::path::Path::new(&journal).exists(), "the journal was not removed");
    let (code, out, err) = nash(&["check", &proof]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("valid: black wins"), "{out}");
}

#[test]
fn fill_in_beyond_a_node_count_still_makes_a_valid_certificate() {
    let tmp = TempDir::new("proof-fill-in-beyond");
    let proof = tmp.file("d2.proof");
    // One node without fill-in is never enough on 5x5: every re-solve is handed to fill-in.
    let args = ["solve", "d2", "--size", "5", "--no-pv", "--proof", &proof];
    let (code, out, err) = nash(&[&args[..], &["--proof-fill-in-beyond", "1"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(written(&out).contains(" nodes, "), "{out}");
    let (code, out, err) = nash(&["check", &proof]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("valid: "), "{out}");
    let (code, _, err) = nash(&[&args[..], &["--proof-fill-in-beyond", "0"]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--proof-fill-in-beyond") && err.lines().count() == 1, "{err}");
}

#[test]
fn a_certificate_built_on_two_threads_checks() {
    let tmp = TempDir::new("proof-threads");
    let proof = tmp.file("c3.proof");
    let args = ["solve", "c3", "--size", "6", "--no-pv", "--threads", "2", "--proof", &proof];
    let (code, out, err) = nash(&args);
    assert_eq!(code, 0, "{err}");
    assert!(written(&out).contains(" nodes, "), "{out}");
    let (code, out, err) = nash(&["check", &proof]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("valid: "), "{out}");
}

#[test]
fn a_certificate_starts_with_the_first_move_asked_for() {
    let tmp = TempDir::new("proof-first");
    let proof = tmp.file("empty.proof");
    let args = ["solve", "--size", "5", "--no-pv", "--proof", &proof, "--proof-first"];
    let (code, out, err) = nash(&[&args[..], &["b4"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(written(&out).contains(" nodes, "), "{out}");
    let (code, out, err) = nash(&["check", &proof]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("valid: black wins"), "{out}");
    // A losing move, a cell off the board, not a cell: one line each, no certificate.
    std::fs::remove_file(&proof).expect("remove");
    for (cell, says) in [
        ("a1", "no certificate starting with a1: it does not win"),
        ("f1", "--proof-first f1: cell f1 is not on the 5x5 board"),
        ("1a", "invalid --proof-first \"1a\""),
    ] {
        let (code, _, err) = nash(&[&args[..], &[cell]].concat());
        assert_ne!(code, 0, "{cell}");
        assert!(err.contains(says) && err.lines().count() == 1, "{cell}: {err}");
    }
    assert!(!std::path::Path::new(&proof).exists());
}

/// The names in `dir`, sorted.
fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("listing")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_certificate_that_cannot_be_written_there_is_refused_and_leaves_nothing() {
    let tmp = TempDir::new("proof-target");
    let solve = ["solve", "b3", "--size", "4", "--no-pv", "--proof"];
    // `--proof .`, in the directory itself: refused before the solve, nothing made there.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_nash"))
        .args(solve)
        .arg(".")
        .current_dir(&tmp.0)
        .output()
        .expect("nash runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(".: is a directory") && err.lines().count() == 1, "{err}");
    assert!(out.stdout.is_empty(), "solved before refusing");
    assert!(listing(&tmp.0).is_empty(), "{:?}", listing(&tmp.0));

    for (target, why) in [
        (tmp.file("missing/x.proof"), "no such directory"),
        (tmp.file(""), "is a directory"),
        // A directory that takes no files, whoever asks.
        ("/proc/nash-cli-test.proof".to_owned(), "cannot create /proc/nash-cli-test.proof.journal"),
    ] {
        let (code, _, err) = nash(&[&solve[..], &[&target]].concat());
        assert_eq!(code, 1, "{target}: {err}");
        assert!(err.contains(why) && err.lines().count() == 1, "{target}: {err}");
    }
    assert!(listing(&tmp.0).is_empty(), "{:?}", listing(&tmp.0));
}

#[test]
fn an_existing_nodes_file_is_not_overwritten() {
    let tmp = TempDir::new("proof-nodes");
    let proof = tmp.file("b3.proof");
    let nodes = format!("{proof}.nodes");
    std::fs::write(&nodes, b"not a spool").expect("write");
    let (code, _, err) = nash(&["solve", "b3", "--size", "4", "--no-pv", "--proof", &proof]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not overwritten") && err.lines().count() == 1, "{err}");
    assert_eq!(std::fs::read(&nodes).expect("still there"), b"not a spool");
    assert_eq!(listing(&tmp.0), ["b3.proof.nodes"]);
    std::fs::remove_file(&nodes).expect("remove");
    let (code, _, err) = nash(&["solve", "b3", "--size", "4", "--no-pv", "--proof", &proof]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(listing(&tmp.0), ["b3.proof"]);
}
