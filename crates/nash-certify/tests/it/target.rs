//! Where a resumable build's files and its certificate go: a target that cannot be a file is
//! refused before anything is made, a spool file that is not the build's own is never
//! overwritten, and a certificate whose writing fails leaves neither a temporary file nor the
//! build's files behind.

use std::path::{Path, PathBuf};

use nash_board::{Bitboard, Position};
use nash_certify::{certificate_resumable, CertifyConfig, CertifyError, Form, Partial};
use nash_proof::Certificate;

/// A directory of its own under the system's temporary one, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("nash-target-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary directory");
        TempDir(dir)
    }

    /// The names in the directory, sorted.
    fn listing(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .expect("listing")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The 4x4 board's first move, a build of a few nodes.
fn position() -> Position<Bitboard> {
    let mut p = Position::square(4).expect("size");
    p.play("b3".parse().expect("cell")).expect("empty");
    p
}

fn refused(target: &Path) -> String {
    match Partial::for_target(target) {
        Err(CertifyError::Target(e)) => e,
        other => panic!("{} accepted as a target: {other:?}", target.display()),
    }
}

#[test]
fn a_directory_or_a_missing_directory_is_refused_as_a_target() {
    let tmp = TempDir::new("refused");
    for (target, why) in [
        (tmp.0.clone(), "is a directory"),
        (PathBuf::from("."), "is a directory"),
        (tmp.0.join("sub/"), "is a directory"),
        (tmp.0.join("missing/x.proof"), "no such directory"),
    ] {
        let e = refused(&target);
        assert!(e.contains(why), "{}: {e}", target.display());
    }
    let files = Partial::for_target(&tmp.0.join("x.proof")).expect("a file name");
    assert_eq!(files, Partial::beside(&tmp.0.join("x.proof")));
    assert!(tmp.listing().is_empty(), "{:?}", tmp.listing());
}

#[test]
fn an_unrelated_nodes_file_is_not_overwritten() {
    let tmp = TempDir::new("unrelated");
    let target = tmp.0.join("x.proof");
    let files = Partial::for_target(&target).expect("a file name");
    std::fs::write(&files.nodes, b"someone's notes").expect("write");
    let e =
        certificate_resumable(&position(), &CertifyConfig::default(), &files).expect_err("refused");
    assert!(matches!(&e, CertifyError::Target(m) if m.contains("not overwritten")), "{e}");
    assert_eq!(std::fs::read(&files.nodes).expect("still there"), b"someone's notes");
    assert_eq!(tmp.listing(), ["x.proof.nodes"]);
}

#[test]
fn a_build_in_a_directory_that_refuses_files_leaves_nothing() {
    // /proc takes no new files, whoever asks.
    let target = Path::new("/proc/nash-certify-test.proof");
    let files = Partial::for_target(target).expect("a file name in a directory");
    let e =
        certificate_resumable(&position(), &CertifyConfig::default(), &files).expect_err("refused");
    assert!(matches!(e, CertifyError::Write(_)), "{e}");
    assert!(!files.nodes.exists() && !files.journal.exists());
}

#[test]
fn a_certificate_is_written_whole_or_not_at_all() {
    let tmp = TempDir::new("write");
    let target = tmp.0.join("x.proof");
    let files = Partial::for_target(&target).expect("a file name");
    let made = certificate_resumable(&position(), &CertifyConfig::default(), &files).expect("made");
    assert_eq!(tmp.listing(), ["x.proof.journal", "x.proof.nodes"]);
    let n = files.write_certificate(&made, &target, Form::Binary).expect("written");
    assert_eq!(tmp.listing(), ["x.proof"]);
    let bytes = std::fs::read(&target).expect("the certificate");
    assert_eq!(bytes.len() as u64, n);
    let cert = Certificate::from_bytes(&bytes).expect("reads");
    assert!(nash_proof::check(&cert).is_ok());

    // The target turned into a directory while the build ran: the rename fails, and neither
    // the temporary file nor the build's files stay.
    std::fs::remove_file(&target).expect("remove");
    let made = certificate_resumable(&position(), &CertifyConfig::default(), &files).expect("made");
    std::fs::create_dir(&target).expect("a directory in the way");
    std::fs::write(target.join("inside"), b"x").expect("write");
    let e = files.write_certificate(&made, &target, Form::Json).expect_err("cannot rename");
    assert!(matches!(&e, CertifyError::Target(m) if m.contains("x.proof")), "{e}");
    assert_eq!(tmp.listing(), ["x.proof"]);
    assert!(target.join("inside").exists());
}
