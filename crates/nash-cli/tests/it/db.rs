//! `--db`, `nash db` and `nash split`: stored answers reused, a batch killed and resumed,
//! databases merged and verified, bad files refused.

use crate::{nash, TempDir};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nash_board::{Bitboard, MoveList, Position};
use nash_db::{Db, Key};

fn testdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata").join(name)
}

/// The 6x6 positions of testdata/solved.tsv: (moves, winner).
fn solved_6x6() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(testdata("solved.tsv")).expect("solved.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[0] == "6")
        .map(|f| (f[1].to_owned(), f[3].to_owned()))
        .collect()
}

fn key_of(moves: &str) -> Key {
    let mut p = Position::<Bitboard>::square(6).expect("size");
    if moves != "-" {
        moves.parse::<MoveList>().expect("moves").play_on(&mut p).expect("legal");
    }
    Key::of(&p).0
}

/// `nash solve --batch` killed with SIGKILL part way and started again solves none of the
/// positions it stored, and every answer agrees with the ground truth.
#[test]
fn a_killed_batch_resumes_without_solving_again() {
    let tmp = TempDir::new("db-kill");
    let positions = solved_6x6();
    let batch = tmp.file("batch.txt");
    let text: String = positions.iter().map(|(m, _)| format!("{m}\n")).collect();
    std::fs::write(&batch, text).expect("write");
    let db = tmp.file("solved.db");
    let args = ["solve", "--batch", &batch, "--size", "6", "--db", &db, "--json"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_nash"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nash runs");
    // Kill it once a few positions are stored (a real SIGKILL: Child::kill on Unix).
    let start = Instant::now();
    loop {
        let stored = Db::open_read(&db).map(|d| d.len()).unwrap_or(0);
        if stored >= 5 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "no positions stored");
        assert!(child.try_wait().expect("wait").is_none(), "the batch ended before the kill");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("kill");
    child.wait().expect("wait");
    let stored = Db::open_read(&db).expect("the killed writer's file reads");
    let keys: Vec<Key> = positions.iter().map(|(m, _)| key_of(m)).collect();
    let done: Vec<bool> = keys.iter().map(|k| stored.entry(k).is_some()).collect();
    let finished = done.iter().filter(|&&d| d).count();
    assert!(finished >= 5 && finished < positions.len(), "{finished} of {}", positions.len());

    let (code, stdout, stderr) = nash(&args);
    assert_eq!(code, 0, "{stderr}");
    let report: Vec<serde_json::Value> = serde_json::from_str(&stdout).expect("json");
    assert_eq!(report.len(), positions.len());
    for (((moves, winner), r), was_done) in positions.iter().zip(&report).zip(&done) {
        assert_eq!(r["winner"], winner.as_str(), "{moves}: {r}");
        assert_eq!(r["from_db"], *was_done, "{moves}: {r}");
        if *was_done {
            assert_eq!(r["stats"]["nodes"], 0, "{moves}: {r}");
        }
    }
    // A third run finds everything stored.
    let (code, stdout, _) = nash(&args);
    assert_eq!(code, 0);
    let report: Vec<serde_json::Value> = serde_json::from_str(&stdout).expect("json");
    assert!(report.iter().all(|r| r["from_db"] == true));
}

#[test]
fn solve_and_winning_reuse_the_database() {
    let tmp = TempDir::new("db-reuse");
    let db = tmp.file("a.db");
    let (code, stdout, stderr) = nash(&["solve", "a1", "--size", "5", "--db", &db]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains("from the database"), "{stdout}");
    // e5 is a1's image under the 180-degree rotation: answered from the file.
    let (code, stdout, _) = nash(&["solve", "e5", "--size", "5", "--db", &db]);
    assert_eq!(code, 0);
    assert!(stdout.contains("from the database"), "{stdout}");
    assert!(stdout.contains("white wins"), "{stdout}");
    // testdata/solved.tsv: on 4x4 after a1, White wins exactly with c2 b3 a4; after d4 (the
    // image), with b3 c2 d1.
    let (code, stdout, _) = nash(&["winning", "a1", "--size", "4", "--db", &db]);
    assert_eq!(code, 0);
    assert!(stdout.contains("c2 b3 a4"), "{stdout}");
    let (code, stdout, _) = nash(&["winning", "d4", "--size", "4", "--db", &db, "--json"]);
    assert_eq!(code, 0);
    let r: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(r["winning"], serde_json::json!(["d1", "c2", "b3"]), "{r}");
    assert_eq!(r["from_db"], true);
}

#[test]
fn databases_merge_export_and_verify() {
    let tmp = TempDir::new("db-merge");
    let (a, b, c, merged) =
        (tmp.file("a.db"), tmp.file("b.db"), tmp.file("c.db"), tmp.file("m.db"));
    assert_eq!(nash(&["solve", "b2", "--size", "4", "--db", &a]).0, 0);
    assert_eq!(nash(&["winning", "a1", "--size", "4", "--db", &b]).0, 0);
    let (code, stdout, stderr) = nash(&["db", "merge", &a, &b, "--into", &merged]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("positions"), "{stdout}");
    let (code, stdout, _) = nash(&["db", "stats", &merged]);
    assert_eq!(code, 0);
    assert!(stdout.contains("4x4"), "{stdout}");
    let (code, stdout, _) = nash(&["db", "export", &merged]);
    assert_eq!(code, 0);
    assert!(stdout.lines().count() > 3, "{stdout}");
    let (code, stdout, _) = nash(&["db", "export", &merged, "--format", "jsonl"]);
    assert_eq!(code, 0);
    for line in stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        assert_eq!((v["cols"].as_u64(), v["rows"].as_u64()), (Some(4), Some(4)), "{line}");
        // Every exported position reads back as a position of its own.
        let pos = v["position"].as_str().expect("position");
        let (code, shown, stderr) = nash(&["solve", pos, "--db", &merged, "--json"]);
        assert_eq!(code, 0, "{pos}: {stderr}");
        let shown: serde_json::Value = serde_json::from_str(&shown).expect("json");
        assert_eq!(shown["winner"], v["winner"], "{pos}");
    }
    let (code, stdout, stderr) = nash(&["db", "verify", &merged, "--sample", "5", "--seed", "3"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("5 positions checked: 5 agree, 0 disagree"), "{stdout}");
    // A wrong value in another database is a conflict, refused with the position named.
    let mut wrong = Db::open(&c).expect("open");
    let p = {
        let mut p = Position::<Bitboard>::square(4).expect("size");
        p.play("b2".parse().expect("cell")).expect("legal");
        p
    };
    // 4x4 b2 is not a winning opening: White, to move, wins; store a loss.
    let loss = nash_search::Outcome::Loss { carrier: Bitboard::EMPTY };
    wrong.put(&p, &loss, 1).expect("put");
    drop(wrong);
    let (code, _, stderr) = nash(&["db", "merge", &c, "--into", &merged]);
    assert_ne!(code, 0);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("conflicting values for (;GM[11]SZ[4]"), "{stderr}");
    let (code, stdout, _) = nash(&["db", "verify", &c]);
    assert_eq!(code, 1);
    assert!(stdout.contains("stored loss for black to move, solved win"), "{stdout}");
}

#[test]
fn a_damaged_database_is_reported_and_repaired() {
    let tmp = TempDir::new("db-repair");
    let db = tmp.file("t.db");
    assert_eq!(nash(&["winning", "--size", "4", "--db", &db]).0, 0);
    let (_, whole, _) = nash(&["db", "export", &db]);
    let mut bytes = std::fs::read(&db).expect("read");
    bytes[30] ^= 4;
    std::fs::write(&db, &bytes).expect("write");
    let (code, stdout, stderr) = nash(&["db", "stats", &db]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("damaged bytes inside the file were skipped"), "{stderr}");
    let kept: usize = stdout
        .split(": ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a count");
    assert_eq!(kept + 1, whole.lines().count() - 1, "{stdout}");
    let (code, _, _) = nash(&["db", "verify", &db]);
    assert_eq!(code, 1);
    let (code, stdout, stderr) = nash(&["db", "repair", &db]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains(&format!("{kept} positions kept")), "{stdout}");
    let (code, _, stderr) = nash(&["db", "verify", &db]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let (code, _, stderr) = nash(&["solve", "--size", "4", "--db", "/dev/full"]);
    assert_ne!(code, 0);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("/dev/full: not a regular file"), "{stderr}");
}

#[test]
fn bad_database_files_are_refused_in_one_line() {
    let tmp = TempDir::new("db-bad");
    let foreign = tmp.file("foreign.db");
    std::fs::write(&foreign, "hello\n").expect("write");
    let mut v9 = nash_db::log::header().to_vec();
    v9[8] = 9;
    let future = tmp.file("future.db");
    std::fs::write(&future, v9).expect("write");
    let missing = tmp.file("missing.db");
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec!["solve", "a1", "--size", "4", "--db", &foreign], format!("{foreign}: not a Nash")),
        (
            vec!["db", "stats", &future],
            format!("{future}: solved-position database format version 9"),
        ),
        (vec!["db", "export", &missing], format!("{missing}: cannot read")),
        (vec!["db", "frobnicate", &missing], "frobnicate".to_owned()),
    ];
    for (args, expected) in cases {
        let (code, _, stderr) = nash(&args);
        assert_ne!(code, 0, "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(&expected), "{args:?}: {stderr}");
    }
}

#[test]
fn a_split_solve_completes_from_the_merged_jobs() {
    let tmp = TempDir::new("db-split");
    let (root, jobs) = (tmp.file("root.db"), tmp.file("jobs"));
    let (code, stdout, stderr) = nash(&[
        "split",
        "--size",
        "4",
        "--depth",
        "2",
        "--db",
        &root,
        "--out",
        &jobs,
        "--jobs",
        "3",
        "--quick-nodes",
        "0",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("3 job files"), "{stdout}");
    let mut dbs = vec![root.clone()];
    for i in 1..=3 {
        let job = format!("{jobs}/job-{i}.txt");
        let db = tmp.file(&format!("worker-{i}.db"));
        let (code, _, stderr) = nash(&["solve", "--batch", &job, "--size", "4", "--db", &db]);
        assert_eq!(code, 0, "{stderr}");
        dbs.push(db);
    }
    let merged = tmp.file("merged.db");
    let mut args = vec!["db", "merge"];
    args.extend(dbs.iter().map(String::as_str));
    args.extend(["--into", &merged]);
    assert_eq!(nash(&args).0, 0);
    let (code, stdout, _) = nash(&["solve", "--size", "4", "--db", &merged, "--json"]);
    assert_eq!(code, 0);
    let r: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(r["winner"], "black");
    assert_eq!(r["from_db"], true);
    assert_eq!(r["stats"]["nodes"], 0);
}

#[test]
fn issue61_a_database_hit_prints_the_principal_variation() {
    let tmp = TempDir::new("db-pv");
    let db = tmp.file("a.db");
    let (code, _, stderr) = nash(&["solve", "a1", "--size", "5", "--db", &db]);
    assert_eq!(code, 0, "{stderr}");
    // e5, a1's image, is a hit: its line is read from the file (and solved on where it stops).
    let (code, stdout, stderr) = nash(&["solve", "e5", "--size", "5", "--db", &db, "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let r: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(r["from_db"], true, "{r}");
    let line: Vec<String> = r["principal_variation"]
        .as_array()
        .expect("a principal variation")
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(Some(&line[0]), r["winning_move"].as_str().map(str::to_owned).as_ref(), "{r}");
    // A real line: every move legal, and White connects at its end.
    let mut pos = nash_board::Position::<nash_board::Bitboard>::square(5).unwrap();
    pos.play("e5".parse().unwrap()).unwrap();
    for m in &line {
        pos.play(m.parse().unwrap()).unwrap_or_else(|e| panic!("{m}: {e} in {line:?}"));
    }
    assert_eq!(pos.winner(), Some(nash_board::Color::White), "{line:?}");
    let (code, stdout, _) = nash(&["solve", "e5", "--size", "5", "--db", &db]);
    assert_eq!(code, 0);
    assert!(stdout.contains("principal variation ("), "{stdout}");
}
