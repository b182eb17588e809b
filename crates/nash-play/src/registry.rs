//! The one registry of players: every name HTP, the CLI and the tournament accept, and the
//! function that builds a player from its spec.

use crate::alphabeta::{AlphaBeta, Config, Depth};
use crate::eval::EvalKind;
use crate::greedy::Greedy;
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
    &[
        PlayerInfo { name: "random", about: "a uniformly random empty cell (settings: seed)" },
        PlayerInfo {
            name: "greedy",
            about: "the move leaving the best shortest-path margin, one ply (settings: swap)",
        },
        PlayerInfo {
            name: "alphabeta",
            about: "alpha-beta with iterative deepening over any evaluation, knowledge on \
                    (settings: eval, depth, width, threats, fillin, vc, mustplay, patterns, tt, swap)",
        },
        PlayerInfo {
            name: "pattern-ab",
            about: "alpha-beta whose proven values carry threat patterns that cut the search \
                    (van Rijswijck 2002 App. B Table 2; alpha-beta's settings)",
        },
        PlayerInfo {
            name: "minimax",
            about: "depth-1 minimax on the plays-to-win difference (Horrell et al. s.2.2.2; \
                    alpha-beta's settings)",
        },
    ]
}

/// The defaults of each alpha-beta player.
fn alphabeta_defaults(name: &str) -> Option<Config> {
    Some(match name {
        "alphabeta" => Config { width: 12, ..Config::new("alphabeta", EvalKind::ShortestPath) },
        "pattern-ab" => Config {
            patterns: true,
            width: 0,
            // Van Rijswijck's search has no connection engine: the threat check and the
            // patterns are its knowledge.
            fill_in: false,
            vc: false,
            mustplay: false,
            ..Config::new("pattern-ab", EvalKind::ShortestPath)
        },
        // Horrell et al. search one ply on their evaluation, without knowledge; the 2-ply
        // threat check stays, so that an immediate win or loss is never missed.
        "minimax" => Config {
            depth: Depth::Fixed(1),
            base_depth: 1,
            fill_in: false,
            vc: false,
            mustplay: false,
            ..Config::new("minimax", EvalKind::ShortestPath)
        },
        _ => return None,
    })
}

/// Builds the player `spec` names (`name` or `name:key=value,...`).
pub fn build(spec: &str) -> Result<Box<dyn Player>, SpecError> {
    let spec: Spec = spec.parse()?;
    let name = spec.name.clone();
    let mut s = Settings::new(spec);
    let player: Box<dyn Player> = match name.as_str() {
        "random" => Box::new(RandomPlayer::new(s.get("seed", 1, "a whole number")?)),
        "greedy" => Box::new(Greedy::new(s.get("swap", false, "true or false")?)),
        n => match alphabeta_defaults(n) {
            Some(cfg) => Box::new(AlphaBeta::new(cfg.read(&mut s)?)),
            None => {
                let known = players().iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
                return Err(SpecError::UnknownPlayer { name, known });
            }
        },
    };
    s.finish()?;
    Ok(player)
}
