//! The one registry of players: every name HTP, the CLI and the tournament accept, the
//! default, and the function that builds a player from its spec.

use crate::alphabeta::{AlphaBeta, Config, Depth};
use crate::beam::{Beam, BeamConfig};
use crate::eval::EvalKind;
use crate::greedy::Greedy;
use crate::mcts::{Config as MctsConfig, Mcts, NetFile, Policy};
use crate::player::Player;
use crate::random::RandomPlayer;
use crate::spec::{Settings, Spec, SpecError};
use crate::vc_greedy::VcGreedy;

/// The player `nash htp`, `nash genmove` and `nash play` use when no `--player` is given.
/// One constant, so that the default moves to a stronger player by changing one line.
pub const DEFAULT_PLAYER: &str = "best";

/// A player the registry can build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerInfo {
    /// Its name, the part of a spec before the colon.
    pub name: &'static str,
    /// One line on what it is and where it comes from.
    pub about: &'static str,
    /// The settings its spec takes, in the order its canonical spec gives them.
    pub settings: &'static [&'static str],
}

/// The settings of the players that read them by hand rather than through a settings table.
const RANDOM_SETTINGS: &[&str] = &["seed"];
const GREEDY_SETTINGS: &[&str] = &["swap"];

/// Every player, in the order help texts list them.
pub fn players() -> &'static [PlayerInfo] {
    const AB: &[&str] = Config::KEYS;
    const MCTS: &[&str] = MctsConfig::KEYS;
    const fn info(
        name: &'static str,
        about: &'static str,
        settings: &'static [&'static str],
    ) -> PlayerInfo {
        PlayerInfo { name, about, settings }
    }
    const LIST: &[PlayerInfo] = &[
        info("random", "a uniformly random empty cell", RANDOM_SETTINGS),
        info("greedy", "the move leaving the best shortest-path margin, one ply", GREEDY_SETTINGS),
        info(
            "hexy",
            "alpha-beta on resistance with virtual connections, a depth and a width \
             (Anshelevich 2000 s.6)",
            AB,
        ),
        info("queenbee", "alpha-beta on the two-distance (van Rijswijck 2002 s.3.2)", AB),
        info("yreduction", "alpha-beta on the Y-reduction value (van Rijswijck 2002 s.4)", AB),
        info(
            "pattern-ab",
            "alpha-beta on the two-distance whose proven values carry threat patterns that cut \
             the search (van Rijswijck 2002 App. B Table 2)",
            AB,
        ),
        info(
            "minimax",
            "depth-1 minimax on the plays-to-win difference (Horrell et al. s.2.2.2)",
            AB,
        ),
        info(
            "minimax-bridge",
            "depth-1 minimax on plays-to-win with the bridge discount (Horrell et al. s.2.3.2)",
            AB,
        ),
        info(
            "beam",
            "beam-search minimax: K lines, the opponent's best reply on each (Horrell et al. \
             s.2.3.1)",
            BeamConfig::KEYS,
        ),
        info("mcts", "UCT with random playouts (Horrell et al. s.2.3.3)", MCTS),
        info(
            "amaf",
            "UCT with all-moves-as-first statistics, RAVE's schedule (Horrell et al. s.2.3.4)",
            MCTS,
        ),
        info(
            "amaf-bridge",
            "amaf whose playouts answer an intrusion into a bridge (Horrell et al. s.2.3.4)",
            MCTS,
        ),
        info(
            "best",
            "the strongest Monte Carlo search: RAVE, fill-in, inferior cells, mustplay, virtual \
             connections, solved nodes, the policy and value net's priors and evaluation, \
             widening, reply playouts, subtree reuse",
            MCTS,
        ),
        info("alphabeta", "alpha-beta with iterative deepening over any evaluation", AB),
        info(
            "vc-greedy",
            "H-search's winning key, else the mustplay cell with the best H-score, ties by \
             shortest path",
            &[],
        ),
    ];
    LIST
}

/// The defaults of each alpha-beta player.
fn alphabeta_defaults(name: &str) -> Option<Config> {
    // Players from papers without a connection engine keep the 2-ply threat check only, so an
    // immediate win or loss is never missed; the others search with all of nash-search's
    // knowledge.
    let threats_only = |c: Config| Config { fill_in: false, vc: false, mustplay: false, ..c };
    Some(match name {
        "alphabeta" => Config { width: 12, ..Config::new("alphabeta", EvalKind::Resistance) },
        // Hexy: resistance with virtual connections, the N best moves by the circuit's
        // current, iterative deepening to its depth (Anshelevich 2000 s.6).
        "hexy" => Config { width: 10, ..Config::new("hexy", EvalKind::Resistance) },
        "queenbee" => {
            threats_only(Config { width: 16, ..Config::new("queenbee", EvalKind::TwoDistance) })
        }
        "yreduction" => {
            threats_only(Config { width: 16, ..Config::new("yreduction", EvalKind::YReduction) })
        }
        "pattern-ab" => threats_only(Config {
            patterns: true,
            width: 16,
            ..Config::new("pattern-ab", EvalKind::TwoDistance)
        }),
        // Horrell et al. search one ply on their evaluation.
        "minimax" => threats_only(Config {
            depth: Depth::Fixed(1),
            base_depth: 1,
            ..Config::new("minimax", EvalKind::PlaysToWin)
        }),
        "minimax-bridge" => threats_only(Config {
            depth: Depth::Fixed(1),
            base_depth: 1,
            ..Config::new("minimax-bridge", EvalKind::PlaysToWinBridge)
        }),
        _ => return None,
    })
}

/// The defaults of each Monte Carlo player.
fn mcts_defaults(name: &str) -> Option<MctsConfig> {
    let amaf = |name| MctsConfig { rave: 1000.0, c: 0.0, ..MctsConfig::new(name) };
    Some(match name {
        "mcts" => MctsConfig::new("mcts"),
        "amaf" => amaf("amaf"),
        "amaf-bridge" => MctsConfig { policy: Policy::Bridge, ..amaf("amaf-bridge") },
        "best" => MctsConfig {
            policy: Policy::Reply,
            expand: 10,
            know: 50,
            fill_in: true,
            mustplay: true,
            vc: true,
            prior: 20.0,
            value: 0.3,
            vscale: 3.0,
            widen: 5,
            reuse: true,
            solve: 0,
            net: NetFile::Builtin,
            ..amaf("best")
        },
        _ => return None,
    })
}

/// Builds the player `spec` names (`name` or `name:key=value,...`; `best:level=N` is the
/// ladder's level `N`, `crate::levels`).
pub fn build(spec: &str) -> Result<Box<dyn Player>, SpecError> {
    let spec: Spec = crate::levels::expand(spec.parse()?)?;
    let name = spec.name.clone();
    let mut s = Settings::new(spec);
    let player: Box<dyn Player> = match name.as_str() {
        "random" => Box::new(RandomPlayer::new(s.get(RANDOM_SETTINGS[0], 1, "a whole number")?)),
        "greedy" => Box::new(Greedy::new(s.get(GREEDY_SETTINGS[0], false, "true or false")?)),
        "vc-greedy" => Box::new(VcGreedy),
        "beam" => Box::new(Beam::new(BeamConfig::default().read(&mut s)?)),
        n => match (alphabeta_defaults(n), mcts_defaults(n)) {
            (Some(cfg), _) => Box::new(AlphaBeta::new(cfg.read(&mut s)?)),
            (_, Some(cfg)) => Box::new(Mcts::new(cfg.read(&mut s)?)),
            (None, None) => {
                let known = players().iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
                return Err(SpecError::UnknownPlayer { name, known });
            }
        },
    };
    s.finish()?;
    Ok(player)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_build_or_name_what_is_wrong() {
        assert_eq!(build("vc-greedy").unwrap().spec(), "vc-greedy");
        assert!(build(DEFAULT_PLAYER).unwrap().spec().starts_with(DEFAULT_PLAYER));
        assert!(build("random:seed=3").is_ok());
        let e = build("nobody").unwrap_err().to_string();
        assert!(e.contains("unknown player 'nobody'") && e.contains("vc-greedy"), "{e}");
        let e = build("vc-greedy:depth=3").unwrap_err().to_string();
        assert!(e.contains("'depth'"), "{e}");
    }

    /// Each player's listed settings are the ones its spec takes: all of them are accepted,
    /// and an unknown one is refused naming exactly them.
    #[test]
    fn listed_settings_are_the_ones_read() {
        for info in players() {
            let e = build(&format!("{}:nosuch=1", info.name)).unwrap_err();
            let SpecError::UnknownSetting { known, .. } = e else { panic!("{}: {e}", info.name) };
            assert_eq!(known, info.settings.join(", "), "{}", info.name);
        }
    }
}
