//! The analysis commands: inferior cells, virtual connections and per-cell values, shown on the
//! current position without changing it.

use nash_board::with_position;
use nash_search::SolverKind;

use super::{arity, color_arg, Engine};
use crate::protocol::Command;
use crate::{analysis, display, HtpError};

/// `compute-inferior`, `compute-fillin` and `compute-dead`.
pub(super) fn inferior(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let color = color_arg(cmd)?;
    let kind = match cmd.name.as_str() {
        "compute-inferior" => analysis::Inferior::All,
        "compute-fillin" => analysis::Inferior::Fillin,
        _ => analysis::Inferior::Dead,
    };
    with_position!(&e.pos, p => analysis::inferior(p, color, kind))
}

pub(super) fn inferior_reasons(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let color = color_arg(cmd)?;
    with_position!(&e.pos, p => analysis::inferior_reasons(p, color))
}

pub(super) fn vc_build(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let color = color_arg(cmd)?;
    let hsearch = e.params.config(SolverKind::Dfpn).knowledge.hsearch;
    with_position!(&e.pos, p => analysis::vc_build(p, color, hsearch))
}

pub(super) fn mustplay(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let color = color_arg(cmd)?;
    let hsearch = e.params.config(SolverKind::Dfpn).knowledge.hsearch;
    with_position!(&e.pos, p => analysis::mustplay(p, color, hsearch))
}

/// `vc-between-cells`, `vc-between-cells-full` and `vc-between-cells-semi`.
pub(super) fn vc_between(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    arity(cmd, 3, 3, "a colour and two cells")?;
    let args = &cmd.args;
    let color = e.color_or_to_move(&args[0])?;
    let kinds = match cmd.name.as_str() {
        "vc-between-cells-full" => display::Kinds::Full,
        "vc-between-cells-semi" => display::Kinds::Semi,
        _ => display::Kinds::Both,
    };
    let hsearch = e.params.config(SolverKind::Dfpn).knowledge.hsearch;
    with_position!(&e.pos, p => {
        let x = display::cell_arg(p, &args[1])?;
        let y = display::cell_arg(p, &args[2])?;
        display::vc_between(p, color, x, y, kinds, hsearch)
    })
}

/// `eval-twod`, `eval-resist-cells` and `vc-h-scores`.
pub(super) fn cell_values(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    arity(cmd, 1, 1, "a colour")?;
    let color = e.color_or_to_move(&cmd.args[0])?;
    let what = match cmd.name.as_str() {
        "eval-twod" => display::CellValue::TwoDistance,
        "eval-resist-cells" => display::CellValue::Resistance,
        _ => display::CellValue::HScore,
    };
    let hsearch = e.params.config(SolverKind::Dfpn).knowledge.hsearch;
    with_position!(&e.pos, p => display::cell_values(p, color, what, hsearch))
}
