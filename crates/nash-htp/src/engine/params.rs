//! The settings commands: `param_player`, Benzene's `param_mohex`, `param_wolve` and
//! `param_game`, and `param_dfpn`.

use std::time::Duration;

use nash_play::limits;

use super::{arguments, parse_number, Engine};
use crate::protocol::Command;
use crate::HtpError;

/// The size of one entry of Benzene's df-pn table, by which `param_dfpn tt_size` counts.
const BENZENE_ENTRY_BYTES: usize = 128;

impl Engine {
    /// `param_player`'s settings as `(type, name, value)`, in the order the listing gives them.
    fn play_param_values(&self) -> Vec<(&'static str, &'static str, String)> {
        let p = &self.play;
        let secs = |d: Option<Duration>| d.map_or(0.0, |d| d.as_secs_f64()).to_string();
        vec![
            ("string", "player", self.player_spec.clone()),
            ("string", "max_time", secs(p.max_time)),
            ("string", "max_nodes", p.max_nodes.unwrap_or(0).to_string()),
            ("string", "max_playouts", p.max_playouts.unwrap_or(0).to_string()),
            ("string", "solve_time", p.moves.solve_time.as_secs_f64().to_string()),
            ("bool", "allow_swap", u8::from(p.moves.allow_swap).to_string()),
            ("string", "threads", self.params.threads.to_string()),
        ]
    }

    pub(super) fn param_player(&mut self, cmd: &Command) -> Result<String, HtpError> {
        let Some((name, value)) = cmd.args.split_first() else {
            let lines = self.play_param_values();
            // `threads` belongs to param_dfpn; it is listed here only for Benzene's names.
            let lines = lines.iter().filter(|(_, n, _)| *n != "threads");
            return Ok(lines.map(|(t, n, v)| format!("\n[{t}] {n} {v}")).collect());
        };
        // A spec may be written with spaces after its commas.
        let value = value.join(" ");
        if value.is_empty() {
            return Err(arguments(cmd, "no arguments, or a parameter name and a value"));
        }
        self.set_play_param(name, &value)
    }

    /// Sets one of `param_player`'s settings; a bad value names itself and changes nothing.
    fn set_play_param(&mut self, name: &str, value: &str) -> Result<String, HtpError> {
        let bad = |reason: String| HtpError::ParameterValue {
            name: name.to_owned(),
            value: value.to_owned(),
            reason,
        };
        let count = |v: &str| -> Result<Option<u64>, HtpError> {
            let n =
                v.parse::<u64>().map_err(|_| bad("expected a whole number, 0 for none".into()))?;
            Ok((n > 0).then_some(n))
        };
        let seconds = |v: &str| -> Result<Option<Duration>, HtpError> {
            match v.parse::<f64>() {
                Ok(0.0) => Ok(None),
                Ok(s) => {
                    limits::time_limit(s).map(Some).map_err(|e| bad(format!("{e}, 0 for none")))
                }
                Err(_) => Err(bad("expected a number of seconds, 0 for none".into())),
            }
        };
        match name {
            "player" => {
                self.player = nash_play::build(value).map_err(|e| bad(e.to_string()))?;
                self.player_spec = value.to_owned();
            }
            "max_time" => self.play.max_time = seconds(value)?,
            "max_nodes" => self.play.max_nodes = count(value)?,
            "max_playouts" => self.play.max_playouts = count(value)?,
            "solve_time" => self.play.moves.solve_time = seconds(value)?.unwrap_or(Duration::ZERO),
            "allow_swap" => {
                self.play.moves.allow_swap = match value {
                    "0" => false,
                    "1" => true,
                    _ => return Err(bad("expected 0 or 1".to_owned())),
                }
            }
            _ => return Err(HtpError::UnknownParameter(name.to_owned())),
        }
        Ok(String::new())
    }

    /// Benzene's names for the settings HexGui and match scripts send to MoHex and Wolve:
    /// `param_mohex max_time|max_games|num_threads`, `param_wolve max_time`, and `param_game
    /// allow_swap`. Each sets the `param_player` (or `param_dfpn threads`) setting it means.
    pub(super) fn param_benzene(&mut self, cmd: &Command) -> Result<String, HtpError> {
        let (keys, ours): (&[&str], &[&str]) = match cmd.name.as_str() {
            "param_mohex" => (
                &["max_time", "max_games", "num_threads"],
                &["max_time", "max_playouts", "threads"],
            ),
            "param_wolve" => (&["max_time"], &["max_time"]),
            _ => (&["allow_swap"], &["allow_swap"]),
        };
        let listing = || -> String {
            let values = self.play_param_values();
            let mut out = String::new();
            for (key, our) in keys.iter().zip(ours) {
                if let Some((t, _, v)) = values.iter().find(|(_, n, _)| n == our) {
                    out.push_str(&format!("\n[{t}] {key} {v}"));
                }
            }
            out
        };
        match cmd.args.as_slice() {
            [] => Ok(listing()),
            [name, value] => {
                let Some(i) = keys.iter().position(|k| k == name) else {
                    return Err(HtpError::UnknownParameter(name.clone()));
                };
                match ours[i] {
                    "threads" => {
                        let bad = |reason| HtpError::ParameterValue {
                            name: name.clone(),
                            value: value.clone(),
                            reason,
                        };
                        let n = parse_number::<usize>(value)?;
                        self.params.threads = limits::threads(n).map_err(|e| bad(e.to_string()))?;
                        Ok(String::new())
                    }
                    our => self.set_play_param(our, value).map_err(|e| match e {
                        HtpError::ParameterValue { value, reason, .. } => {
                            HtpError::ParameterValue { name: name.clone(), value, reason }
                        }
                        e => e,
                    }),
                }
            }
            _ => Err(arguments(cmd, "no arguments, or a parameter name and a value")),
        }
    }

    pub(super) fn param_dfpn(&mut self, cmd: &Command) -> Result<String, HtpError> {
        match cmd.args.as_slice() {
            [] => {
                let p = &self.params;
                let secs = p.time_limit.map_or(0.0, |d| d.as_secs_f64());
                Ok(format!(
                    "\n[string] parallel {}\n[string] threads {}\n[string] timelimit {}\n[string] tt_mib {}\n[bool] use_guifx {}",
                    p.parallel.name(),
                    p.threads,
                    secs,
                    p.tt_mib,
                    u8::from(self.guifx)
                ))
            }
            [name, value] => {
                let bad = |reason| HtpError::ParameterValue {
                    name: name.clone(),
                    value: value.clone(),
                    reason,
                };
                match name.as_str() {
                    "parallel" => {
                        self.params.parallel = value
                            .parse()
                            .map_err(|_| bad("expected auto, jobs or tree".to_owned()))?;
                    }
                    "threads" => {
                        let n = parse_number::<usize>(value)?;
                        self.params.threads = limits::threads(n).map_err(|e| bad(e.to_string()))?;
                    }
                    "timelimit" => {
                        let secs = parse_number::<f64>(value)?;
                        self.params.time_limit = if secs == 0.0 {
                            None
                        } else {
                            Some(limits::time_limit(secs).map_err(|e| bad(e.to_string()))?)
                        };
                    }
                    "tt_mib" => {
                        let n = parse_number::<usize>(value)?;
                        self.params.tt_mib = limits::tt_mib(n).map_err(|e| bad(e.to_string()))?;
                    }
                    "tt_size" => {
                        // Benzene's size in entries of about 128 bytes, as HexGui and match
                        // scripts send it to MoHex and Wolve: the same memory as a limit in MiB.
                        let n = parse_number::<usize>(value)?;
                        let mib = n.saturating_mul(BENZENE_ENTRY_BYTES).div_ceil(1 << 20);
                        self.params.tt_mib = limits::tt_mib(mib).map_err(|e| bad(e.to_string()))?;
                    }
                    "use_guifx" => {
                        // HexGui's switch for the solver's live display (its Solve button
                        // turns it on): progress as `gogui-gfx:` blocks while a command runs.
                        self.guifx = match value.as_str() {
                            "0" => false,
                            "1" => true,
                            _ => return Err(bad("expected 0 or 1".to_owned())),
                        };
                    }
                    _ => return Err(HtpError::UnknownParameter(name.clone())),
                }
                Ok(String::new())
            }
            _ => Err(arguments(cmd, "no arguments, or a parameter name and a value")),
        }
    }
}
