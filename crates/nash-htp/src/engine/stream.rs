//! The analysis stream: `nash-analyze`, which searches until the next input line and writes
//! the root moves every interval (in the manner of `kata-analyze`), and `nash-analyze-gfx`,
//! the same search for HexGui's analysis menu, drawn on the board while it runs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use nash_board::Color;
use nash_play::{Choice, MoveBudget};

use super::{arguments, parse_number, Engine};
use crate::protocol::Command;
use crate::{display, HtpError};

/// The longest interval, in centiseconds (an hour).
const MAX_INTERVAL: u64 = 360_000;

/// `nash-analyze-gfx`'s interval when none is given, in centiseconds.
const GFX_INTERVAL: u64 = 100;

/// How often a `nash-analyze` whose search has ended looks for the next line.
const POLL: Duration = Duration::from_millis(5);

/// `[COLOUR] [INTERVAL]`: the colour to move (default: the side to move) and the interval in
/// centiseconds (`default` when not given; required when `default` is `None`).
fn colour_and_interval(
    e: &Engine,
    cmd: &Command,
    default: Option<u64>,
) -> Result<(Color, Duration), HtpError> {
    let expected = "[COLOUR] INTERVAL (centiseconds from 1 to 360000)";
    let mut args = cmd.args.as_slice();
    let mut color = e.pos.to_move();
    if let Some(first) = args.first() {
        if let Ok(c) = first.parse::<Color>() {
            color = c;
            args = &args[1..];
        }
    }
    let cs = match args {
        [] => default.ok_or_else(|| arguments(cmd, expected))?,
        [n] => parse_number::<u64>(n)?,
        _ => return Err(arguments(cmd, expected)),
    };
    if !(1..=MAX_INTERVAL).contains(&cs) {
        return Err(arguments(cmd, expected));
    }
    Ok((color, Duration::from_millis(cs * 10)))
}

/// `nash-analyze [COLOUR] INTERVAL`. In a session, it answers `=` at once and then, every
/// `INTERVAL` centiseconds, one `info` line per root move (`display::info_lines`), searching
/// until the next input line (any line, as `kata-analyze`) or `# interrupt`; when the search
/// ends by itself (the root proven, the player's own playout limit) its last lines are
/// written and the command waits for that line. The answer ends with the empty line, and the
/// next command runs. Outside a session (`Engine::execute`) it searches within the move's
/// budget and answers the last lines.
pub(super) fn analyze(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let (color, every) = colour_and_interval(e, cmd, None)?;
    let mut pos = e.pos.clone();
    pos.set_to_move(color);
    let Some(tx) = e.stream.clone() else {
        // No session to stream to: one search within the move's budget.
        let mut out = String::new();
        if pos.winner().is_none() {
            let budget = e.move_budget(color, &pos);
            let c = e.player.analyse(&pos, &budget, every, &mut |_| {});
            display::info_lines(&c, &mut out);
        }
        return Ok(out);
    };
    let cancel = e.stop.as_ref().map_or_else(|| Arc::new(AtomicBool::new(false)), |s| s.0.clone());
    let _ = tx.send(match cmd.id {
        Some(id) => format!("={id}\n"),
        None => "=\n".to_owned(),
    });
    e.streamed = true;
    if pos.winner().is_some() {
        return Ok(String::new());
    }
    // Until the next line: the reader raises `cancel` when one comes.
    let budget = MoveBudget {
        time: None,
        nodes: Some(u64::MAX),
        playouts: Some(u64::MAX),
        cancel: Some(Arc::clone(&cancel)),
        solved: false,
    };
    let mut send = |c: &Choice| {
        let mut lines = String::new();
        display::info_lines(c, &mut lines);
        if !lines.is_empty() {
            let _ = tx.send(lines);
        }
    };
    let last = e.player.analyse(&pos, &budget, every, &mut send);
    send(&last);
    while !cancel.load(Ordering::Relaxed) {
        std::thread::sleep(POLL);
    }
    Ok(String::new())
}

/// `nash-analyze-gfx [COLOUR] [INTERVAL]`: HexGui's analysis entry. The player searches within
/// the move's budget (as `genmove`'s, `param_player`'s limits or the player's own) until it
/// ends or `# interrupt` (HexGui's Stop); every `INTERVAL` centiseconds (1 s by default) a
/// `gogui-gfx:` block shows the moves' win rates and visits and the best line on the board;
/// the answer is the search in the `gfx` form of `player-search`.
pub(super) fn analyze_gfx(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let (color, every) = colour_and_interval(e, cmd, Some(GFX_INTERVAL))?;
    let mut pos = e.pos.clone();
    pos.set_to_move(color);
    if pos.winner().is_some() {
        return Ok(display::search_gfx(None));
    }
    let budget = e.move_budget(color, &pos);
    let tx = e.stream.clone();
    let mut send = |c: &Choice| {
        if let (Some(tx), Some(block)) = (&tx, display::live_gfx(c, color)) {
            let _ = tx.send(block);
        }
    };
    let c = e.player.analyse(&pos, &budget, every, &mut send);
    Ok(display::search_gfx(Some(&c)))
}
