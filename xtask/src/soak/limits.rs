//! The limit tests: `nash solve` and `nash winning` under `--time-limit` across solvers, thread
//! counts and board sizes up to 19x19, each timed from start to exit (the overrun is the wall
//! time beyond the limit) with its peak memory.

use std::time::Duration;

use super::child::{self, Input};
use super::{verdict, Ctx};

/// One row: the arguments of `nash` and the limit they carry.
struct Case {
    args: Vec<String>,
    limit: Duration,
}

/// The rows, the cheapest first so that a short run reaches as many as it can: the issue's
/// four, then the empty 19x19 board with every solver.
fn cases() -> Vec<Case> {
    let case = |args: &str, limit: f64| Case {
        args: args.split_whitespace().map(str::to_owned).collect(),
        limit: Duration::from_secs_f64(limit),
    };
    let mut v = vec![case(
        "solve testdata/games/littlegolem-13x13.sgf --solver pattern --time-limit 0.01 --no-pv",
        0.01,
    )];
    for solver in nash_search::SolverKind::ALL {
        v.push(case(
            &format!("solve --size 19 --solver {} --time-limit 0.5 --no-pv", solver.name()),
            0.5,
        ));
    }
    v.push(case("solve --size 11 --threads 2 --time-limit 1 --no-pv", 1.0));
    v.push(case("solve --size 8 --threads 256 --time-limit 3", 3.0));
    v.push(case("winning --size 13 --solver pattern --time-limit 3", 3.0));
    v.push(case("solve --size 19 --solver pattern --time-limit 5", 5.0));
    v
}

/// How long past its limit a run is let go on before it is killed.
const KILL_AFTER: Duration = Duration::from_secs(20);

/// Runs the rows that fit in the part's time; returns the number of failed rows.
pub fn run(ctx: &Ctx) -> anyhow::Result<usize> {
    let cases = cases();
    println!("limit tests: wall time and peak memory of commands under --time-limit");
    println!(
        "  {:<82} {:>7} {:>8} {:>8} {:>8} {:>11}  verdict",
        "nash ...", "limit", "wall", "overrun", "MiB", "exit"
    );
    let (mut fails, mut skipped) = (0, 0);
    for (i, case) in cases.iter().enumerate() {
        // An equal share of what is left to each row still to run, and at least the limit
        // and the allowed lateness; a row that cannot have that is skipped.
        let share = ctx.left() / (cases.len() - i) as u32;
        let least = case.limit + ctx.late + Duration::from_millis(200);
        if ctx.left() < least {
            skipped += 1;
            println!(
                "  {:<82} {:>7.2}  skipped: no time left",
                case.args.join(" "),
                secs(case.limit)
            );
            continue;
        }
        let cap = share.max(least).min(case.limit + KILL_AFTER);
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let r = child::run(&ctx.nash, &args, &ctx.root, Input::Null, ctx.bounds(cap))?;
        let overrun = r.wall.saturating_sub(case.limit);
        let ok = r.killed.is_none()
            && !r.panicked()
            && r.status.success()
            && overrun <= ctx.late
            && r.peak_rss < super::RSS_BOUND;
        fails += usize::from(!ok);
        let over = match r.killed {
            Some(_) => format!(">{:.2}", secs(overrun)),
            None => format!("{:.2}", secs(overrun)),
        };
        println!(
            "  {:<82} {:>7.2} {:>8.2} {:>8} {:>8.0} {:>11}  {}",
            case.args.join(" "),
            secs(case.limit),
            secs(r.wall),
            over,
            child::mib(r.peak_rss),
            r.ending(),
            verdict(ok)
        );
    }
    println!(
        "  {} rows, {} failed, {} skipped (bar: overrun at most {:.0} ms, exit 0, under 1 GiB)",
        cases.len(),
        fails,
        skipped,
        ctx.late.as_secs_f64() * 1e3
    );
    Ok(fails)
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_carries_its_limit() {
        for c in cases() {
            let at = c.args.iter().position(|a| a == "--time-limit").expect("a limit");
            let given: f64 = c.args[at + 1].parse().unwrap();
            assert_eq!(Duration::from_secs_f64(given), c.limit, "{:?}", c.args);
        }
    }
}
