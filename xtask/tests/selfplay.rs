//! `cargo xtask selfplay` refuses bad inputs with a one-line error and a non-zero exit.

use std::path::PathBuf;
use std::process::Command;

const XTASK: &str = env!("CARGO_BIN_EXE_xtask");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nash-selfplay-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `xtask selfplay ARGS`, expecting a failure whose error (the first line of stderr, or
/// clap's usage message) holds `words`.
fn refused(args: &[&str], words: &str) {
    let o = Command::new(XTASK).arg("selfplay").args(args).output().expect("xtask runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{args:?} accepted");
    let first = err.lines().next().unwrap_or("");
    assert!(first.to_lowercase().starts_with("error"), "{args:?}: {err}");
    assert!(
        first.contains(words) || err.contains(words) && first.contains("required"),
        "{args:?}: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn bad_inputs_are_one_line_errors() {
    let dir = scratch("bad");
    let out = dir.join("x.nsp");
    let out = out.to_str().unwrap();
    refused(&["--size", "30", "--games", "1", "--out", out], "30");
    refused(&["--size", "2", "--games", "1", "--out", out], "'--size");
    refused(&["--size", "5", "--games", "0", "--out", out], "'--games");
    refused(&["--size", "5", "--games", "1"], "--out");
    std::fs::write(dir.join("x.nsp"), b"not samples at all").unwrap();
    refused(&["--size", "5", "--games", "1", "--out", out], "not a Nash sample file");
    refused(&["--summary", out], "not a Nash sample file");
    let missing = dir.join("missing.nsp");
    refused(&["--summary", missing.to_str().unwrap()], "missing.nsp");
    let net = dir.join("bad.nnw");
    std::fs::write(&net, b"garbage").unwrap();
    let fresh = dir.join("y.nsp");
    let args = ["--size", "5", "--games", "1", "--out", fresh.to_str().unwrap()];
    refused(&[&args[..], &["--net", net.to_str().unwrap()]].concat(), "bad.nnw");
    refused(&[&args[..], &["--player", "greedy"]].concat(), "not a Monte Carlo player");
    refused(&[&args[..], &["--player", "best:playouts=0"]].concat(), "playouts");
    refused(&[&args[..], &["--openings", "z9"]].concat(), "z9");
    std::fs::remove_dir_all(&dir).unwrap();
}
