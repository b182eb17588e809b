//! `reg_genmove` and `player-stats`: the move the engine would play, and what the search of
//! the last `genmove` or `reg_genmove` saw.

use std::fmt::Write as _;

use super::{color_arg, no_args, Engine};
use crate::protocol::Command;
use crate::HtpError;

/// `reg_genmove COLOUR`: the move `genmove` would answer, in GoGui's regression convention:
/// nothing is played and the clocks do not run.
pub(super) fn reg_genmove(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let color = color_arg(cmd)?;
    let d = e.decide_move(color);
    let answer = d.mv.to_string();
    e.last_decision = Some(d);
    Ok(answer)
}

/// `player-stats`: the last generated move, who chose it (the solver or the player), the
/// proven winner if the solver found one, the nodes (or playouts) and seconds spent, the
/// solver's share of the time, the depth reached and the principal variation, one a line.
pub(super) fn player_stats(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    no_args(cmd)?;
    let d = e.last_decision.as_ref().ok_or(HtpError::NoMove)?;
    let c = &d.choice;
    let mut out = String::new();
    let _ = writeln!(out, "move {}", d.mv);
    let _ = writeln!(out, "by {}", d.by.name());
    let _ = writeln!(out, "proven {}", d.proven.map_or("-".to_owned(), |w| format!("{w} wins")));
    let _ = writeln!(out, "nodes {}", c.nodes);
    let _ = writeln!(out, "seconds {:.3}", d.elapsed.as_secs_f64());
    let _ = writeln!(out, "solver_seconds {:.3}", d.solve_elapsed.as_secs_f64());
    let _ = writeln!(out, "depth {}", c.depth);
    let pv: Vec<String> = c.pv.iter().map(|m| m.to_string()).collect();
    let _ = write!(out, "pv {}", pv.join(" "));
    Ok(out)
}
