//! The one registry of players: every name HTP, the CLI and the tournament accept, and the
//! function that builds a player from its spec.

use crate::alphabeta::{eval_names, AlphaBeta, Config, Depth};
use crate::beam::{Beam, BeamConfig};
use crate::eval::EvalKind;
use crate::greedy::Greedy;
use crate::mcts::{Config as MctsConfig, Mcts, Policy};
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
            name: "hexy",
            about: "alpha-beta on resistance with virtual connections, a depth and a width \
                    (Anshelevich 2000 s.6; alpha-beta's settings)",
        },
        PlayerInfo {
            name: "queenbee",
            about: "alpha-beta on the two-distance (van Rijswijck 2002 s.3.2; alpha-beta's \
                    settings)",
        },
        PlayerInfo {
            name: "yreduction",
            about: "alpha-beta on the Y-reduction value (van Rijswijck 2002 s.4; alpha-beta's \
                    settings)",
        },
        PlayerInfo {
            name: "pattern-ab",
            about: "alpha-beta on the two-distance whose proven values carry threat patterns \
                    that cut the search (van Rijswijck 2002 App. B Table 2; alpha-beta's settings)",
        },
        PlayerInfo {
            name: "minimax",
            about: "depth-1 minimax on the plays-to-win difference (Horrell et al. s.2.2.2; \
                    alpha-beta's settings)",
        },
        PlayerInfo {
            name: "minimax-bridge",
            about: "depth-1 minimax on plays-to-win with the bridge discount (Horrell et al. \
                    s.2.3.2; alpha-beta's settings)",
        },
        PlayerInfo {
            name: "beam",
            about: "beam-search minimax: K lines, the opponent's best reply on each (Horrell et \
                    al. s.2.3.1; settings: eval, beam, depth, swap)",
        },
        PlayerInfo {
            name: "mcts",
            about: "UCT with random playouts (Horrell et al. s.2.3.3; settings: c, rave, fpu, \
                    playout, playouts, expand, know, fillin, mustplay, vc, solver, prior, value, \
                    vscale, widen, order, spread, bias, playfill, reuse, solve, defend, threads, \
                    parallel, mem, seed, swap)",
        },
        PlayerInfo {
            name: "amaf",
            about: "UCT with all-moves-as-first statistics, RAVE's schedule (Horrell et al. \
                    s.2.3.4; mcts's settings)",
        },
        PlayerInfo {
            name: "amaf-bridge",
            about: "amaf whose playouts answer an intrusion into a bridge (Horrell et al. \
                    s.2.3.4; mcts's settings)",
        },
        PlayerInfo {
            name: "best",
            about: "the strongest Monte Carlo search: RAVE, fill-in, inferior cells, mustplay, \
                    virtual connections, solved nodes, priors, the circuit's evaluation, \
                    widening, reply playouts, subtree reuse (mcts's settings)",
        },
        PlayerInfo {
            name: "alphabeta",
            about: "alpha-beta with iterative deepening over any evaluation (settings: eval, \
                    depth, width, threats, fillin, vc, mustplay, patterns, tt, swap)",
        },
    ]
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
            ..amaf("best")
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
        "beam" => {
            let cfg = BeamConfig {
                eval: s.get("eval", EvalKind::PlaysToWin, &eval_names())?,
                beam: s.get_checked("beam", 6, "a number of lines from 1 to 1000", |k| {
                    (1..=1000).contains(k)
                })?,
                depth: s.get_checked("depth", 2, "a number of rounds from 1 to 100", |d| {
                    (1..=100).contains(d)
                })?,
                swap: s.get("swap", false, "true or false")?,
            };
            Box::new(Beam::new(cfg))
        }
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
