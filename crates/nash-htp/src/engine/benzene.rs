//! Benzene's inferior-cell settings, `param_player_ice` and `param_solver_ice`, as its
//! regression suites and HexGui's parameter dialogs send them. Nash's inferior-cell analysis
//! has no such switches (its dead, captured and inferior cells are always sound for the solver
//! and the player alike), so these settings are kept and listed back, and change nothing.

use super::{arguments, Engine};
use crate::protocol::Command;
use crate::HtpError;

/// The settings, with Benzene's defaults, in the order of its listing.
const ICE: &[(&str, bool)] = &[
    ("backup_opponent_dead", false),
    ("find_all_pattern_dominators", false),
    ("find_all_pattern_killers", true),
    ("find_permanently_inferior", true),
    ("find_presimplicial_pairs", true),
    ("find_three_sided_dead_regions", false),
    ("iterative_dead_regions", false),
    ("use_hand_coded_patterns", true),
];

/// The values a controller set, for the player's analysis and the solver's.
#[derive(Clone, Debug)]
pub(crate) struct IceSettings([[bool; ICE.len()]; 2]);

impl Default for IceSettings {
    fn default() -> IceSettings {
        let defaults = std::array::from_fn(|i| ICE[i].1);
        IceSettings([defaults; 2])
    }
}

/// `param_player_ice` or `param_solver_ice`: without arguments the listing, with a name and
/// `0` or `1` that setting (recorded, without effect).
pub(super) fn param_ice(engine: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    let which = usize::from(cmd.name == "param_solver_ice");
    let values = &mut engine.ice_settings.0[which];
    match cmd.args.as_slice() {
        [] => Ok(ICE
            .iter()
            .zip(values.iter())
            .map(|((name, _), &v)| format!("\n[bool] {name} {}", u8::from(v)))
            .collect()),
        [name, value] => {
            let Some(i) = ICE.iter().position(|(n, _)| n == name) else {
                return Err(HtpError::UnknownParameter(name.clone()));
            };
            values[i] = match value.as_str() {
                "0" => false,
                "1" => true,
                _ => {
                    return Err(HtpError::ParameterValue {
                        name: name.clone(),
                        value: value.clone(),
                        reason: "expected 0 or 1".to_owned(),
                    })
                }
            };
            Ok(String::new())
        }
        _ => Err(arguments(cmd, "no arguments, or a parameter name and a value")),
    }
}
