//! The one registry of players: every name HTP, the CLI and the tournament accept, and the
//! function that builds a player from its spec.

use crate::player::Player;
use crate::random::RandomPlayer;
use crate::spec::{Settings, Spec, SpecError};

/// A player the registry can build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerInfo {
    /// Its name, the part of a spec before the colon.
    pub name: &'static str,
    /// One line on what it is and where it comes from.
    pub about: &'static str,
}

/// Every player, in the order help texts list them.
pub fn players() -> &'static [PlayerInfo] {
    &[PlayerInfo { name: "random", about: "a uniformly random empty cell (settings: seed)" }]
}

/// Builds the player `spec` names (`name` or `name:key=value,...`).
pub fn build(spec: &str) -> Result<Box<dyn Player>, SpecError> {
    let spec: Spec = spec.parse()?;
    let name = spec.name.clone();
    let mut s = Settings::new(spec);
    let player: Box<dyn Player> = match name.as_str() {
        "random" => Box::new(RandomPlayer::new(s.get("seed", 1, "a whole number")?)),
        _ => {
            let known = players().iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
            return Err(SpecError::UnknownPlayer { name, known });
        }
    };
    s.finish()?;
    Ok(player)
}
