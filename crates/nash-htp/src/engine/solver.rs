//! The solver commands: `dfpn-solve-state`, `dfs-solve-state`, `dfpn-solver-find-winning`,
//! `dfs-solver-find-winning`, `dfpn-get-pv`, `dfs-get-pv`, `dfpn-get-bounds`, the kept df-pn
//! table and the last solve's counters.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use std::fmt::Write as _;

use nash_board::{with_position, BitSet, Color};
use nash_play::limits::CommandDeadline;
use nash_search::{Bounds, SolverKind, SolverTable, StopReason};

use super::{arity, color_arg, no_args, with_to_move, Engine};
use crate::protocol::Command;
use crate::{analysis, HtpError};

/// The time `dfpn-get-pv` takes at most when `param_dfpn timelimit` sets none: HexGui leaves
/// its Stop button off for the command.
const PV_TIME: Duration = Duration::from_secs(10);

pub(super) fn clear_tt(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    no_args(cmd)?;
    e.clear_tables();
    Ok(String::new())
}

pub(super) fn solve_state(
    e: &mut Engine,
    cmd: &Command,
    kind: SolverKind,
) -> Result<String, HtpError> {
    arity(cmd, 0, 1, "an optional colour to move")?;
    let to_move = match cmd.args.first() {
        Some(c) => Some(c.parse::<Color>()?),
        None => None,
    };
    let mut cfg = e.solver_config(kind);
    let deadline = CommandDeadline::arm(&mut cfg);
    let started = std::time::Instant::now();
    // Df-pn keeps its table between commands; the depth-first search starts afresh.
    let (winner, stats) = match kind {
        SolverKind::Dfpn => with_position!(&e.pos, p => {
            let table = e.dfpn.get_or_default(p);
            analysis::solve_state(p, to_move, &cfg, Some(table), e.db.as_mut())
        })?,
        _ => with_position!(&e.pos, p => analysis::solve_state(p, to_move, &cfg, None, None))?,
    };
    e.last_solve = Some((stats, started.elapsed().as_secs_f64()));
    let winner = match winner {
        // Stopped by the controller: Benzene's answer for a solve that did not finish.
        Err(_) if e.interrupted() => return Ok("empty".to_owned()),
        Err(StopReason::Cancelled) if deadline.fired() => Err(StopReason::TimeLimit),
        w => w,
    };
    Ok(winner.map_or_else(|reason| format!("unknown ({reason})"), |c| c.to_string()))
}

pub(super) fn solve_stats(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    no_args(cmd)?;
    match e.last_solve {
        Some((s, seconds)) => Ok(format!(
            "nodes {} expanded {} analyses {} seconds {seconds:.3}",
            s.nodes,
            s.expanded,
            s.knowledge_calls - s.knowledge_cached
        )),
        None => Err(HtpError::NoSolve),
    }
}

/// `dfpn-solver-find-winning` and (`kind` the pattern search) `dfs-solver-find-winning`: every
/// winning move. Df-pn solves in the kept table; the pattern search starts afresh.
pub(super) fn find_winning(
    e: &mut Engine,
    cmd: &Command,
    kind: SolverKind,
) -> Result<String, HtpError> {
    let color = color_arg(cmd)?;
    let mut cfg = e.solver_config(kind);
    let _deadline = CommandDeadline::arm(&mut cfg);
    let interrupted = e.stop.as_ref().map(|(_, u)| Arc::clone(u));
    let answer = with_position!(&e.pos, p => {
        let mut fresh = SolverTable::new();
        let table = match kind {
            SolverKind::Dfpn => e.dfpn.get_or_default(p),
            _ => &mut fresh,
        };
        analysis::find_winning(p, color, &cfg, table, e.db.as_mut())
    });
    match answer {
        Err(HtpError::Undecided { cells, .. })
            if interrupted.is_some_and(|u| u.load(Ordering::SeqCst)) =>
        {
            Err(HtpError::Undecided { reason: "interrupted".to_owned(), cells })
        }
        a => a,
    }
}

/// `dfpn-get-pv` and (`kind` the pattern search) `dfs-get-pv`: the principal variation, from
/// the open database as far as it leads, then solved (in the kept table for df-pn, afresh for
/// the pattern search; the line's solves are df-pn's, whose values are every solver's).
pub(super) fn principal_variation(
    e: &mut Engine,
    cmd: &Command,
    kind: SolverKind,
) -> Result<String, HtpError> {
    let color = e.optional_color(cmd)?;
    let mut cfg = e.solver_config(kind);
    // HexGui offers no Stop for this command, so it never runs unbounded.
    cfg.budget.time.get_or_insert(PV_TIME);
    let _deadline = CommandDeadline::arm(&mut cfg);
    let line = with_position!(&e.pos, p => {
        let mut fresh = SolverTable::new();
        let table = match kind {
            SolverKind::Dfpn => e.dfpn.get_or_default(p),
            _ => &mut fresh,
        };
        let p = with_to_move(p, color);
        match &e.db {
            _ if p.winner().is_some() => Vec::new(),
            Some(db) => nash_db::principal_variation(db, &p, &cfg, table, None),
            None => table.principal_variation(&p, &cfg),
        }
    });
    Ok(line.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "))
}

/// `dfpn-get-bounds COLOUR`: what the kept df-pn table holds about each legal move of COLOUR,
/// as Benzene answers it: ` cell W` for a proven win (the position after it is lost for the
/// opponent), ` cell L` for a proven loss, ` cell pn:dn` for the proof and disproof numbers of
/// the position after the move, for the opponent to move; moves the table has nothing on are
/// left out.
pub(super) fn bounds(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let color = color_arg(cmd)?;
    let cfg = e.solver_config(SolverKind::Dfpn);
    let out = with_position!(&e.pos, p => {
        let table = e.dfpn.get_or_default(p);
        let p = with_to_move(p, color);
        let mut out = String::new();
        if p.winner().is_none() {
            for m in p.legal_moves().iter() {
                let mut c = p.clone();
                c.play_unchecked(m);
                let _ = match table.bounds(&c, &cfg) {
                    Some(Bounds::Win) => write!(out, " {m} L"),
                    Some(Bounds::Loss) => write!(out, " {m} W"),
                    Some(Bounds::Open { proof, disproof }) => write!(out, " {m} {proof}:{disproof}"),
                    None => Ok(()),
                };
            }
        }
        out
    });
    Ok(out.trim_start().to_owned())
}
