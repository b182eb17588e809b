//! Resumable certificate builds: a 6x6 opening's build stopped three times and resumed writes
//! the certificate an uninterrupted build writes, a torn journal or spool resumes, and a journal
//! of other settings is refused.

use std::path::{Path, PathBuf};

use nash_board::{Bitboard, Color, Position};
use nash_certify::{certificate_resumable, certificate_to, CertifyConfig, CertifyError, Partial};
use nash_proof::{check_lazy, Lazy};
use nash_search::StopReason;

use crate::support::solved_up_to;

/// A directory of its own under the system's temporary one, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("nash-resume-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary directory");
        TempDir(dir)
    }

    fn files(&self) -> Partial {
        Partial::beside(&self.0.join("cert"))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The position of the test: a 6x6 opening whose certificate takes about 50 re-solves.
fn position() -> (Position<Bitboard>, Color) {
    let s = solved_up_to(6).into_iter().find(|s| s.size == 6 && s.moves == "c2").expect("c2");
    (s.position(), s.winner)
}

/// The settings that stop the build before its node `nodes`.
fn with_budget(nodes: Option<usize>) -> CertifyConfig {
    CertifyConfig { max_nodes: nodes, ..CertifyConfig::default() }
}

/// A finished build's certificate, checked: its bytes.
fn finish(made: &nash_certify::Streamed, files: &Partial, winner: Color) -> Vec<u8> {
    let mut bytes = made.head.binary_head(made.nodes);
    bytes.extend(std::fs::read(&files.nodes).expect("the nodes"));
    let lazy = Lazy::new(&bytes).expect("reads");
    assert_eq!(check_lazy(&lazy).expect("checks").winner, winner);
    bytes
}

/// A build of `files` stopped before its node `nodes`.
fn stopped(pos: &Position<Bitboard>, files: &Partial, nodes: usize) {
    let e = certificate_resumable(pos, &with_budget(Some(nodes)), files).expect_err("stops");
    assert_eq!(e, CertifyError::Unknown(StopReason::NodeLimit));
    assert!(files.journal.exists() && files.nodes.exists());
}

fn cut(path: &Path, bytes: u64) {
    let len = std::fs::metadata(path).expect("file").len();
    let f = std::fs::OpenOptions::new().write(true).open(path).expect("opens");
    f.set_len(len.saturating_sub(bytes)).expect("cut");
}

/// The certificate of an uninterrupted build, its bytes.
fn uninterrupted(pos: &Position<Bitboard>) -> (nash_certify::Streamed, Vec<u8>) {
    let mut spool = Vec::new();
    let whole = certificate_to(pos, &CertifyConfig::default(), &mut spool).expect("builds");
    let mut bytes = whole.head.binary_head(whole.nodes);
    bytes.extend(spool);
    (whole, bytes)
}

#[test]
fn a_stopped_build_resumes_to_the_uninterrupted_certificate() {
    let (pos, winner) = position();
    let (whole, expected) = uninterrupted(&pos);
    let tmp = TempDir::new("stopped");
    let files = tmp.files();
    // Stopped three times part way (once where it was before), then finished.
    for nodes in [30, 30, 80] {
        stopped(&pos, &files, nodes);
    }
    let made = certificate_resumable(&pos, &with_budget(None), &files).expect("resumes");
    assert!(made.kept > 0 && made.journaled > 0, "{made:?}");
    assert!(made.kept < made.nodes && made.journaled < made.solves, "{made:?}");
    let bytes = finish(&made, &files, winner);
    assert_eq!((made.nodes, bytes.len()), (whole.nodes, expected.len()));
    assert_eq!(bytes, expected);
}

#[test]
fn a_torn_journal_or_spool_resumes() {
    let (pos, winner) = position();
    // Bytes cut off the journal's end and the spool's: a torn record (the CPU time), several
    // records naming nodes, a torn node, both.
    for (i, (journal, nodes)) in [(3, 0), (200, 0), (0, 5), (90, 300)].into_iter().enumerate() {
        let tmp = TempDir::new(&format!("torn{i}"));
        let files = tmp.files();
        stopped(&pos, &files, 60);
        cut(&files.journal, journal);
        cut(&files.nodes, nodes);
        let made = certificate_resumable(&pos, &with_budget(None), &files).expect("resumes");
        assert!(made.kept > 0, "cut {journal} and {nodes} bytes: {made:?}");
        // It checks; the re-solves after the resume, from an empty table, may find other
        // proofs than an uninterrupted build's.
        finish(&made, &files, winner);
    }
}

#[test]
fn a_build_on_two_threads_stopped_part_way_resumes() {
    let (pos, winner) = position();
    let on_two = |nodes| CertifyConfig { threads: 2, ..with_budget(nodes) };
    let tmp = TempDir::new("threads");
    let files = tmp.files();
    for nodes in [30, 80] {
        let e = certificate_resumable(&pos, &on_two(Some(nodes)), &files).expect_err("stops");
        assert_eq!(e, CertifyError::Unknown(StopReason::NodeLimit));
    }
    let made = certificate_resumable(&pos, &on_two(None), &files).expect("resumes");
    assert!(made.kept > 0 && made.journaled > 0, "{made:?}");
    finish(&made, &files, winner);
}

#[test]
fn a_build_resumes_with_another_fill_in_beyond() {
    // How long a re-solve goes without fill-in changes the proofs found, not whether they
    // hold: a build stopped with one limit goes on with another, or with none.
    let (pos, winner) = position();
    let tmp = TempDir::new("beyond");
    let files = tmp.files();
    let beyond = |n, nodes| CertifyConfig { fill_in_beyond: n, ..with_budget(nodes) };
    let e = certificate_resumable(&pos, &beyond(Some(5), Some(40)), &files).expect_err("stops");
    assert_eq!(e, CertifyError::Unknown(StopReason::NodeLimit));
    let e = certificate_resumable(&pos, &beyond(Some(500), Some(80)), &files).expect_err("stops");
    assert_eq!(e, CertifyError::Unknown(StopReason::NodeLimit));
    let made = certificate_resumable(&pos, &beyond(None, None), &files).expect("resumes");
    assert!(made.kept > 0 && made.journaled > 0, "{made:?}");
    finish(&made, &files, winner);
}

#[test]
fn a_journal_of_other_settings_is_refused() {
    let (pos, _) = position();
    let tmp = TempDir::new("other");
    let files = tmp.files();
    stopped(&pos, &files, 10);
    let other = CertifyConfig { search: 6, ..CertifyConfig::default() };
    let e = certificate_resumable(&pos, &other, &files).expect_err("refused").to_string();
    assert!(e.starts_with("cannot resume the certificate: ") && e.contains("search"), "{e}");
    assert!(!e.contains('\n'), "{e}");
    // Another first move, or one where the build had none.
    let first = |m: &str| CertifyConfig {
        first_move: Some(m.parse().expect("cell")),
        ..CertifyConfig::default()
    };
    let e = certificate_resumable(&pos, &first("d3"), &files).expect_err("refused").to_string();
    assert!(e.contains("first move") && !e.contains("solver knowledge"), "{e}");
    let mut moved = pos.clone();
    moved.play("a1".parse().expect("cell")).expect("legal");
    let e = certificate_resumable(&moved, &CertifyConfig::default(), &files).expect_err("refused");
    assert!(e.to_string().contains("another position"), "{e}");
    // Not a journal at all.
    std::fs::write(&files.journal, b"something else").expect("write");
    let e = certificate_resumable(&pos, &CertifyConfig::default(), &files).expect_err("refused");
    assert!(e.to_string().contains("not a certificate journal"), "{e}");
}
