//! Hostile inputs: /dev/zero as every kind of file, /dev/full as a database, a huge SGF, a
//! game of 40,000 passes, an HTP line without end and a split too large to hold. Each must end
//! on its own (with a one-line error where the input is unusable), without a panic and under
//! 1 GiB of memory.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use anyhow::Context;

use super::child::{self, Input};
use super::{verdict, Ctx};

/// The longest a hostile input may take before it counts as a failure.
const CAP: Duration = Duration::from_secs(15);

/// What a row must end with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// A non-zero exit with one line on stderr.
    Error,
    /// Any exit of its own (success or a one-line error).
    Ends,
}

struct Case {
    name: &'static str,
    args: Vec<String>,
    input: fn() -> Input,
    expect: Expect,
}

fn no_input() -> Input {
    Input::Null
}

/// 2 GiB without a newline on standard input, then its end: more than the memory bound, so
/// an engine that holds the line whole is killed.
fn endless_line() -> Input {
    child::repeated(b'a', 2 << 30)
}

/// A game record of `n` nodes without properties after its root.
fn tiny_nodes(n: usize) -> Vec<u8> {
    let mut v = b"(;FF[4]GM[11]SZ[5]".to_vec();
    v.resize(v.len() + n, b';');
    v.push(b')');
    v
}

/// A game record of `n` passes, alternating.
fn passes(n: usize) -> Vec<u8> {
    let mut v = b"(;FF[4]GM[11]SZ[11]".to_vec();
    for i in 0..n {
        v.extend_from_slice(if i % 2 == 0 { b";B[pass]" } else { b";W[pass]" });
    }
    v.push(b')');
    v
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<String> {
    std::fs::File::create(path)
        .and_then(|mut f| f.write_all(bytes))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path.to_string_lossy().into_owned())
}

fn cases(dir: &Path) -> anyhow::Result<Vec<Case>> {
    let huge = write(&dir.join("tiny-nodes.sgf"), &tiny_nodes(100 << 20))?;
    let passes = write(&dir.join("passes.sgf"), &passes(40_000))?;
    let at = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let case = |name, args: &[&str], input, expect| Case {
        name,
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        input,
        expect,
    };
    use Expect::{Ends, Error};
    Ok(vec![
        case("/dev/zero as a position", &["solve", "/dev/zero"], no_input, Error),
        case("/dev/zero as a certificate", &["check", "/dev/zero"], no_input, Error),
        case("/dev/zero as a database", &["db", "stats", "/dev/zero"], no_input, Error),
        case(
            "/dev/zero as a batch",
            &["solve", "--batch", "/dev/zero", "--size", "5"],
            no_input,
            Error,
        ),
        case(
            "/dev/full as a database",
            &["solve", "--size", "3", "--db", "/dev/full"],
            no_input,
            Error,
        ),
        case("100 MB SGF of tiny nodes", &["show", &huge], no_input, Ends),
        case("SGF of 40,000 passes", &["show", &passes, "--size", "11"], no_input, Ends),
        case("HTP line of 2 GiB, no newline", &["htp"], endless_line, Ends),
        case(
            "split --size 19 --depth 4",
            &[
                "split",
                "--size",
                "19",
                "--depth",
                "4",
                "--db",
                &at("split.db"),
                "--out",
                &at("jobs"),
            ],
            no_input,
            Error,
        ),
    ])
}

/// Runs every row; returns the number that failed.
pub fn run(ctx: &Ctx) -> anyhow::Result<usize> {
    let cases = cases(&ctx.scratch)?;
    println!("hostile inputs: each ends by itself, no panic, under 1 GiB");
    println!(
        "  {:<32} {:>8} {:>8} {:>11}  {:<58}  verdict",
        "input", "wall", "MiB", "exit", "stderr"
    );
    let mut fails = 0;
    for (i, case) in cases.iter().enumerate() {
        let share = ctx.left() / (cases.len() - i) as u32;
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let r =
            child::run(&ctx.nash, &args, &ctx.root, (case.input)(), ctx.bounds(CAP.min(share)))?;
        let ended = r.killed.is_none() && !r.panicked() && r.status.code().is_some();
        let ok = r.peak_rss < super::RSS_BOUND
            && match case.expect {
                Expect::Error => r.one_line_error(),
                Expect::Ends => ended && (r.status.success() || r.one_line_error()),
            };
        fails += usize::from(!ok);
        println!(
            "  {:<32} {:>8.2} {:>8.0} {:>11}  {:<58}  {}",
            case.name,
            r.wall.as_secs_f64(),
            child::mib(r.peak_rss),
            r.ending(),
            r.first_error_line(58),
            verdict(ok)
        );
    }
    println!("  {} inputs, {} failed", cases.len(), fails);
    let _ = std::fs::remove_file(ctx.scratch.join("tiny-nodes.sgf"));
    Ok(fails)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_records_have_their_sizes() {
        let t = tiny_nodes(10);
        assert!(t.starts_with(b"(;FF[4]GM[11]") && t.ends_with(b";;)"));
        assert_eq!(t.iter().filter(|&&b| b == b';').count(), 11);
        let p = passes(40_000);
        assert_eq!(p.len(), 19 + 8 * 40_000 + 1);
        assert!(String::from_utf8(p).unwrap().ends_with(";B[pass];W[pass])"));
    }
}
