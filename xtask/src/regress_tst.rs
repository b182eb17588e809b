//! `cargo xtask regress-tst`: runs GoGui `.tst` regression suites against `nash htp`.
//!
//! A suite is a list of HTP commands. A line that starts with a number is a test when the line
//! right after it is `#? [regex]`: the regex must match the engine's whole answer (a failed
//! command's answer is checked as `? message`), and a `*` after the closing bracket marks a
//! test that is expected to fail. Other command lines are sent and their answers not checked;
//! comment and blank lines are skipped. Each suite runs in a fresh engine whose working
//! directory is the suite's own, so `loadsgf` paths are relative to it. A command that gets no
//! answer within `--timeout` (or kills the engine) fails, and a new engine replays the suite's
//! setup lines so far (the lines that are not tests) before the suite goes on.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use regex::Regex;

use crate::htp::{build_nash, Engine};

/// Arguments of `cargo xtask regress-tst`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suites to run.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The `nash` binary to test; by default `cargo build --release -p nash-cli` builds it.
    #[arg(long)]
    pub nash: Option<PathBuf>,
    /// Give up on a command after this many seconds: it fails, and the suite goes on in a
    /// fresh engine brought to the same position.
    #[arg(long, value_name = "SECONDS", value_parser = crate::parse_seconds)]
    pub timeout: Option<Duration>,
    /// Print every test with its answer and time, not only the failures.
    #[arg(long, short)]
    pub verbose: bool,
}

/// One line of a suite that is sent to the engine.
#[derive(Debug)]
struct Entry {
    /// Line number in the file, from 1.
    line: usize,
    /// The command as written.
    command: String,
    /// The check, for tests.
    expect: Option<Expect>,
}

#[derive(Debug)]
struct Expect {
    /// The pattern as written between the brackets.
    pattern: String,
    /// The pattern anchored to the whole answer.
    regex: Regex,
    /// Marked `*`: expected to fail.
    expected_failure: bool,
}

/// Counts over all suites.
#[derive(Debug, Default)]
struct Tally {
    passed: usize,
    failed: usize,
    expected_failures: usize,
    unexpected_passes: usize,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let nash = match &args.nash {
        // Each suite runs in its own folder: a relative path is made absolute first.
        Some(p) => std::fs::canonicalize(p).with_context(|| format!("--nash {}", p.display()))?,
        None => build_nash()?,
    };
    let timeout = args.timeout;
    let mut tally = Tally::default();
    let start = Instant::now();
    for file in &args.files {
        let suite_start = Instant::now();
        let (p0, f0) = (tally.passed, tally.failed);
        run_suite(&nash, file, timeout, args.verbose, &mut tally)
            .with_context(|| format!("suite {}", file.display()))?;
        println!(
            "{}: {} passed, {} failed in {:.2}s",
            file.display(),
            tally.passed - p0,
            tally.failed - f0,
            suite_start.elapsed().as_secs_f64()
        );
    }
    println!("total time {:.2}s", start.elapsed().as_secs_f64());
    if tally.expected_failures > 0 || tally.unexpected_passes > 0 {
        println!(
            "{} expected failures, {} unexpected passes",
            tally.expected_failures, tally.unexpected_passes
        );
    }
    println!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.failed > 0 {
        bail!("{} unexpected failures", tally.failed);
    }
    Ok(())
}

/// Reads a suite file into the lines to send.
fn parse_suite(text: &str) -> anyhow::Result<Vec<Entry>> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut last_numbered: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let numbered = last_numbered.take();
        if let Some(rest) = line.strip_prefix("#?") {
            let Some(index) = numbered else { continue };
            entries[index].expect =
                Some(parse_expect(rest).with_context(|| format!("line {}", i + 1))?);
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        if first.bytes().all(|b| b.is_ascii_digit()) {
            last_numbered = Some(entries.len());
        }
        entries.push(Entry { line: i + 1, command: line.to_owned(), expect: None });
    }
    Ok(entries)
}

/// Parses ` [regex]` or ` [regex]*`.
fn parse_expect(rest: &str) -> anyhow::Result<Expect> {
    let rest = rest.trim();
    let inner = rest.strip_prefix('[').ok_or_else(|| anyhow!("expected [regex] after #?"))?;
    let close = inner.rfind(']').ok_or_else(|| anyhow!("missing ] after #? ["))?;
    let pattern = inner[..close].to_owned();
    let tail = inner[close + 1..].trim();
    let expected_failure = match tail {
        "" => false,
        "*" => true,
        other => bail!("unexpected {other:?} after the expected answer"),
    };
    let regex = Regex::new(&format!("(?s)^(?:{pattern})$"))
        .with_context(|| format!("invalid regex {pattern:?}"))?;
    Ok(Expect { pattern, regex, expected_failure })
}

fn run_suite(
    nash: &Path,
    file: &Path,
    timeout: Option<Duration>,
    verbose: bool,
    tally: &mut Tally,
) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let entries = parse_suite(&text)?;
    let path = file.canonicalize()?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let htp = ["htp".to_owned()];
    let mut engine = Engine::start(nash, &htp, dir, true)?;
    let name = file.display();
    for (k, entry) in entries.iter().enumerate() {
        let t0 = Instant::now();
        let answer = match engine.ask(&entry.command, timeout) {
            Ok(a) => a,
            Err(e) => {
                // The engine is stuck or gone: this command fails, and a fresh engine is
                // brought to the same position by replaying the setup lines (those that are
                // not tests) sent so far, so that the rest of the suite still runs.
                println!("FAIL {name}:{} `{}`: {e:#}", entry.line, entry.command);
                match &entry.expect {
                    Some(x) if x.expected_failure => tally.expected_failures += 1,
                    Some(_) => tally.failed += 1,
                    None => {}
                }
                drop(engine);
                engine = Engine::start(nash, &htp, dir, true)?;
                for setup in entries[..k].iter().filter(|e| e.expect.is_none()) {
                    // Setup answers are not checked, here as in the first run.
                    let _answer = engine
                        .ask(&setup.command, timeout)
                        .with_context(|| format!("replaying line {}", setup.line))?;
                }
                continue;
            }
        };
        let secs = t0.elapsed().as_secs_f64();
        let Some(expect) = &entry.expect else { continue };
        let shown = match &answer {
            Ok(t) => t.clone(),
            Err(t) if t.is_empty() => "?".to_owned(),
            Err(t) => format!("? {t}"),
        };
        let ok = expect.regex.is_match(&shown);
        match (ok, expect.expected_failure) {
            (true, false) => tally.passed += 1,
            (false, false) => tally.failed += 1,
            (false, true) => tally.expected_failures += 1,
            (true, true) => tally.unexpected_passes += 1,
        }
        if !ok && !expect.expected_failure {
            println!("FAIL {name}:{} `{}` ({secs:.2}s)", entry.line, entry.command);
            println!("  expected: [{}]", expect.pattern);
            println!("  got:      {shown}");
        } else if ok && expect.expected_failure {
            println!("UNEXPECTED PASS {name}:{} `{}`: {shown}", entry.line, entry.command);
        } else if verbose {
            println!("ok   {name}:{} `{}` -> {shown} ({secs:.2}s)", entry.line, entry.command);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_parse_into_commands_and_tests() {
        let suite = "# comment\nboardsize 6 7\n\nplay b a1\n11 dfs-solve-state w\n#? [white]\n\
                     12 name\n#? [nash|x]*\n13 version\nundo\n";
        let entries = parse_suite(suite).unwrap();
        let cmds: Vec<_> = entries.iter().map(|e| e.command.as_str()).collect();
        assert_eq!(
            cmds,
            ["boardsize 6 7", "play b a1", "11 dfs-solve-state w", "12 name", "13 version", "undo"]
        );
        let t = entries[2].expect.as_ref().unwrap();
        assert!(t.regex.is_match("white") && !t.regex.is_match("white black"));
        assert!(!t.expected_failure);
        assert!(entries[3].expect.as_ref().unwrap().expected_failure);
        assert!(entries[4].expect.is_none());
        assert_eq!(entries[1].line, 4);
    }
}
