//! The game commands: the board, moves, `genmove`, the clocks, and what the player sees.

use std::sync::Arc;
use std::time::Duration;

use nash_board::{with_position, AnyPosition, CellList, Color, Move};
use nash_play::limits;
use nash_play::{decide, Decision, MoveBudget};
use nash_search::SolverKind;

use super::{arity, color_arg, no_args, parse_number, parse_seconds, play_htp, Engine};
use crate::clock::{Clock, TimeSettings};
use crate::protocol::Command;
use crate::{display, HtpError};

pub(super) fn boardsize(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    arity(cmd, 1, 2, "N or C R")?;
    let cols = parse_number::<usize>(&cmd.args[0])?;
    let rows = match cmd.args.get(1) {
        Some(r) => parse_number::<usize>(r)?,
        None => cols,
    };
    e.pos = AnyPosition::new(cols, rows)?;
    e.new_game();
    Ok(String::new())
}

pub(super) fn clear_board(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    no_args(cmd)?;
    e.pos = AnyPosition::new(e.pos.cols(), e.pos.rows())?;
    e.new_game();
    Ok(String::new())
}

pub(super) fn play(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    arity(cmd, 2, 2, "a colour and a move")?;
    let color: Color = cmd.args[0].parse()?;
    let mv: Move = cmd.args[1].parse()?;
    if mv == Move::Resign {
        // A resignation ends the game but leaves the board as it is.
        return Ok(String::new());
    }
    // A finished game takes no more moves (`undo` reopens it).
    if let Some(w) = e.pos.winner() {
        return Err(HtpError::GameOver(w));
    }
    play_htp(&mut e.pos, color, mv)?;
    Ok(String::new())
}

pub(super) fn undo(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    no_args(cmd)?;
    if e.pos.undo() {
        Ok(String::new())
    } else {
        Err(HtpError::NothingToUndo)
    }
}

pub(super) fn showboard(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    no_args(cmd).map(|()| format!("\n{}", e.pos))
}

pub(super) fn loadsgf(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    arity(cmd, 1, 2, "a file name and an optional move number")?;
    let path = &cmd.args[0];
    let upto = cmd.args.get(1).map(|n| parse_number::<usize>(n)).transpose()?;
    let text =
        crate::sgf::read(path).map_err(|reason| HtpError::Read { path: path.clone(), reason })?;
    e.pos = crate::sgf::load(&text, upto)
        .map_err(|reason| HtpError::Sgf { path: path.clone(), reason })?;
    e.new_game();
    Ok(String::new())
}

pub(super) fn all_legal_moves(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    arity(cmd, 0, 1, "an optional colour")?;
    if let Some(c) = cmd.args.first() {
        c.parse::<Color>()?;
    }
    Ok(with_position!(&e.pos, p => {
        if p.winner().is_some() { String::new() } else { CellList(p.empty_cells()).to_string() }
    }))
}

pub(super) fn final_score(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    no_args(cmd)?;
    match e.pos.winner() {
        Some(Color::Black) => Ok("B+".to_owned()),
        Some(Color::White) => Ok("W+".to_owned()),
        None => Err(HtpError::GameNotOver),
    }
}

pub(super) fn time_left(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    arity(cmd, 3, 3, "colour, seconds and stones")?;
    let color: Color = cmd.args[0].parse()?;
    let left = parse_seconds(&cmd.args[1])?;
    let stones = parse_number::<u32>(&cmd.args[2])?;
    e.clocks[color.index()] = Some(Clock { left, stones });
    Ok(String::new())
}

pub(super) fn time_settings(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    arity(cmd, 3, 3, "main time, byo-yomi time and byo-yomi stones")?;
    let s = TimeSettings {
        main: parse_seconds(&cmd.args[0])?,
        byo_yomi: parse_seconds(&cmd.args[1])?,
        stones: parse_number::<u32>(&cmd.args[2])?,
    };
    e.time_settings = Some(s);
    e.clocks = [s.limited().then(|| Clock::start(&s)); 2];
    Ok(String::new())
}

pub(super) fn genmove(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let color = color_arg(cmd)?;
    let d = e.decide_move(color);
    match d.mv {
        Move::Cell(_) | Move::SwapPieces => {
            play_htp(&mut e.pos, color, d.mv)?;
        }
        // A resignation leaves the board as it is, as `play COLOUR resign` does.
        _ => {}
    }
    if let (Some(s), Some(clock)) = (e.time_settings, &mut e.clocks[color.index()]) {
        clock.after_move(&s, d.elapsed);
    }
    e.last_decision = Some(d.clone());
    Ok(d.mv.to_string())
}

/// `player-scores` and `player-search`: the player's scores of the root moves, as a list or as
/// HexGui's graphics.
pub(super) fn player_scores(e: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let color = color_arg(cmd)?;
    let choice = e.player_choice(color);
    Ok(if cmd.name == "player-scores" {
        display::scores_text(choice.as_ref())
    } else {
        display::search_gfx(choice.as_ref())
    })
}

impl Engine {
    /// The move `genmove` plays for `color`, within the move's budget; nothing is played.
    pub(super) fn decide_move(&mut self, color: Color) -> Decision {
        let mut pos = self.pos.clone();
        pos.set_to_move(color);
        let budget = self.move_budget(color, &pos);
        let cfg = self.solver_config(SolverKind::Dfpn);
        decide(&pos, self.player.as_mut(), &budget, &self.play.moves, &cfg)
    }

    /// What the player sees for `color` to move, within the move's time (and nodes, playouts):
    /// its choice, or `None` when the game is over. The position does not change.
    fn player_choice(&mut self, color: Color) -> Option<nash_play::Choice> {
        let mut pos = self.pos.clone();
        pos.set_to_move(color);
        if pos.winner().is_some() {
            return None;
        }
        let budget = self.move_budget(color, &pos);
        Some(self.player.choose(&pos, &budget))
    }

    /// A move's budget for `color` in `pos`: the clock's share and `param_player`'s limits,
    /// with the running command's cancel flag.
    pub(super) fn move_budget(&self, color: Color, pos: &AnyPosition) -> MoveBudget {
        let empty = pos.empty_count();
        MoveBudget {
            time: self.move_time(color, empty),
            nodes: self.play.max_nodes,
            playouts: self.play.max_playouts,
            cancel: self.stop.as_ref().map(|(c, _)| Arc::clone(c)),
            solved: false,
        }
    }

    /// The time `color`'s next move may take: its clock's share (when a time control is
    /// known, or a `time_left` gave its time as absolute), capped by `max_time`; `None` when
    /// nothing limits it.
    fn move_time(&self, color: Color, empty: usize) -> Option<Duration> {
        let clock = self.clocks[color.index()].map(|c| {
            let s = self.time_settings.unwrap_or(TimeSettings {
                main: c.left,
                byo_yomi: Duration::ZERO,
                stones: 0,
            });
            c.move_time(&s, empty)
        });
        let time = match (clock, self.play.max_time) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // A clock set to centuries is no reason for a deadline nothing can represent.
        time.map(|t| t.min(Duration::from_secs_f64(limits::MAX_TIME_LIMIT_SECS)))
    }

    /// A new game begins: the player forgets the last one and the clocks start again.
    pub(super) fn new_game(&mut self) {
        self.player.new_game();
        if let Some(s) = self.time_settings {
            self.clocks = [s.limited().then(|| Clock::start(&s)); 2];
        }
    }
}
