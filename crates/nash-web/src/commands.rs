//! The one table of requests the module answers (the page and docs/web.md read their names
//! from it), each a function from its JSON arguments to its JSON answer.

use std::time::Duration;

use nash_board::{AnyPosition, BitSet, Cell, CellList, Move, Position};
use nash_play::{decide, MoveBudget, MoveSettings};
use nash_search::{Outcome, SolverConfig, SolverTable};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::game::{Board, Game};

/// A request the module answers.
#[derive(Clone, Copy, Debug)]
pub struct Command {
    /// Its `cmd`.
    pub name: &'static str,
    /// What it answers, one line.
    pub about: &'static str,
    run: fn(Value) -> Result<Value, String>,
}

const COMMANDS: &[Command] = &[
    Command { name: "show", about: "the board of a game", run: |v| show(args(v)?) },
    Command { name: "play", about: "a game with one more move", run: |v| play(args(v)?) },
    Command {
        name: "edit",
        about: "a game set up anew: a stone placed or removed, the side to move chosen",
        run: |v| edit(args(v)?),
    },
    Command {
        name: "solve",
        about: "df-pn's value, winning move, proof carrier and principal variation",
        run: |v| solve(args(v)?),
    },
    Command {
        name: "winning",
        about: "every winning move of the side to move, each move decided",
        run: |v| winning(args(v)?),
    },
    Command {
        name: "analyse",
        about: "the player's move, value, move scores and principal variation",
        run: |v| analyse(args(v)?),
    },
    Command { name: "sgf-export", about: "a game as SGF", run: |v| sgf_export(args(v)?) },
    Command { name: "sgf-import", about: "an SGF record as a game", run: |v| sgf_import(args(v)?) },
];

/// Every request the module answers.
pub fn commands() -> &'static [Command] {
    COMMANDS
}

/// Answers one request (`{"cmd": NAME, ...}`) with `{"ok": ...}` or `{"error": "..."}`.
pub fn call(request: &str) -> String {
    let answer = serde_json::from_str::<Value>(request)
        .map_err(|e| format!("the request is not JSON: {e}"))
        .and_then(dispatch);
    match answer {
        Ok(v) => json!({ "ok": v }).to_string(),
        Err(e) => error_answer(&e),
    }
}

/// The answer for a request that failed.
pub(crate) fn error_answer(message: &str) -> String {
    json!({ "error": message }).to_string()
}

fn dispatch(mut request: Value) -> Result<Value, String> {
    let obj = request.as_object_mut().ok_or("the request is not a JSON object")?;
    let name = match obj.remove("cmd") {
        Some(Value::String(s)) => s,
        Some(other) => return Err(format!("cmd {other}: not a string")),
        None => return Err("the request has no cmd".to_owned()),
    };
    let cmd = COMMANDS.iter().find(|c| c.name == name).ok_or_else(|| {
        let names: Vec<_> = COMMANDS.iter().map(|c| c.name).collect();
        format!("unknown cmd {name:?}: expected one of {}", names.join(", "))
    })?;
    (cmd.run)(request).map_err(|e| format!("{name}: {e}"))
}

fn args<T: DeserializeOwned>(v: Value) -> Result<T, String> {
    serde_json::from_value(v).map_err(|e| e.to_string())
}

fn to_json<T: Serialize>(v: &T) -> Result<Value, String> {
    serde_json::to_value(v).map_err(|e| e.to_string())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameArgs {
    game: Game,
}

fn show(a: GameArgs) -> Result<Value, String> {
    let pos = a.game.position()?;
    to_json(&Board::of(&a.game, &pos))
}

/// The game and its board, the answer of every request that changes the game.
fn game_answer(game: Game) -> Result<Value, String> {
    let pos = game.position()?;
    Ok(json!({ "board": to_json(&Board::of(&game, &pos))?, "game": to_json(&game)? }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayArgs {
    game: Game,
    #[serde(rename = "move")]
    mv: String,
}

fn play(a: PlayArgs) -> Result<Value, String> {
    let mut pos = a.game.position()?;
    let mv: Move = a.mv.parse().map_err(|e| format!("{e}"))?;
    let color = pos.to_move();
    pos.apply(mv).map_err(|e| format!("move {mv}: {e}"))?;
    let mut game = a.game;
    game.moves.push((color.to_string(), mv.to_string()));
    game_answer(game)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EditArgs {
    game: Game,
    /// The cell to change, with `stone` the colour put there (none: emptied).
    cell: Option<String>,
    stone: Option<String>,
    to_move: Option<String>,
}

/// The position of the game as setup stones (the moves folded in), then the edit.
fn edit(a: EditArgs) -> Result<Value, String> {
    let pos = a.game.position()?;
    let mut rec = nash_board::GameRecord::new(pos.cols(), pos.rows());
    let mut to_move = pos.to_move();
    let (black, white) = nash_board::with_position!(&pos, p => stone_lists(p));
    let cell = a.cell.as_deref().map(str::parse::<Cell>).transpose().map_err(|e| e.to_string())?;
    let stone: Option<nash_board::Color> =
        a.stone.as_deref().map(str::parse).transpose().map_err(|e| format!("{e}"))?;
    for (color, list) in [(nash_board::Color::Black, black), (nash_board::Color::White, white)] {
        rec.setup.extend(list.into_iter().filter(|&c| Some(c) != cell).map(|c| (color, c)));
    }
    if let (Some(cell), Some(color)) = (cell, stone) {
        rec.setup.push((color, cell));
    }
    if let Some(c) = &a.to_move {
        to_move = c.parse().map_err(|e| format!("to_move: {e}"))?;
    }
    rec.to_move = Some(to_move);
    // Reading the record back checks the cell against the board.
    rec.any_position(None).map_err(|e| e.to_string())?;
    game_answer(Game::of_record(&rec)?)
}

fn stone_lists<B: BitSet>(p: &Position<B>) -> (Vec<Cell>, Vec<Cell>) {
    let list = |c| p.stones(c).iter().collect();
    (list(nash_board::Color::Black), list(nash_board::Color::White))
}

/// The solver settings a request may give.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveArgs {
    game: Game,
    /// The memory limit in MiB (default 128; the module's memory holds 4 GiB at most).
    tt_mib: Option<usize>,
    /// Give up after this many seconds.
    time: Option<f64>,
    /// Give up after this many nodes.
    nodes: Option<u64>,
    /// Whether `solve` gives the principal variation (default true).
    pv: Option<bool>,
}

/// The memory limit of a solve in the browser unless a request gives one.
const DEFAULT_TT_MIB: usize = 128;
/// The largest memory limit a request may give: the module's memory is 4 GiB at most.
const MAX_TT_MIB: usize = 2048;

impl SolveArgs {
    fn config(&self) -> Result<SolverConfig, String> {
        let tt_mib = self.tt_mib.unwrap_or(DEFAULT_TT_MIB);
        if !(1..=MAX_TT_MIB).contains(&tt_mib) {
            return Err(format!("tt_mib {tt_mib}: expected 1 to {MAX_TT_MIB}"));
        }
        let mut cfg = SolverConfig { tt_mib, threads: 1, ..SolverConfig::default() };
        if let Some(secs) = self.time {
            let t = nash_play::limits::time_limit(secs).map_err(|e| format!("time {secs}: {e}"))?;
            cfg.budget.time = Some(t);
        }
        if self.nodes == Some(0) {
            return Err("nodes 0: give at least 1".to_owned());
        }
        cfg.budget.nodes = self.nodes;
        Ok(cfg)
    }
}

/// Cells only (the carriers hold the edges too), by name.
fn names<B: BitSet>(set: B) -> Vec<String> {
    CellList(set.into_iter().filter(|c| !c.is_edge()).collect::<B>()).names()
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn solve(a: SolveArgs) -> Result<Value, String> {
    let cfg = a.config()?;
    let pos = a.game.position()?;
    let with_pv = a.pv.unwrap_or(true);
    nash_board::with_position!(&pos, p => solve_on(p, &cfg, with_pv))
}

fn solve_on<B: BitSet>(
    p: &Position<B>,
    cfg: &SolverConfig,
    with_pv: bool,
) -> Result<Value, String> {
    let start = nash_board::clock::Instant::now();
    let mut table = SolverTable::new();
    let r = table.solve(p, cfg);
    let me = p.to_move();
    let (result, winner, winning_move, carrier) = match r.outcome {
        Outcome::Win { winning_move, carrier } => ("win", Some(me), winning_move, names(carrier)),
        Outcome::Loss { carrier } => ("loss", Some(!me), None, names(carrier)),
        Outcome::Unknown { .. } => ("unknown", None, None, Vec::new()),
    };
    let reason = match &r.outcome {
        Outcome::Unknown { reason } => Some(reason.to_string()),
        _ => None,
    };
    let pv = if with_pv && winner.is_some() && p.winner().is_none() {
        table.principal_variation_from(p, cfg, winning_move)
    } else {
        Vec::new()
    };
    Ok(json!({
        "to_move": me.to_string(),
        "result": result,
        "winner": winner.map(|c| c.to_string()),
        "winning_move": winning_move.map(|c| c.to_string()),
        "carrier": carrier,
        "pv": pv.iter().map(Cell::to_string).collect::<Vec<_>>(),
        "reason": reason,
        "nodes": r.stats.nodes,
        "solve_ms": millis(r.stats.time),
        "time_ms": millis(start.elapsed()),
    }))
}

fn winning(a: SolveArgs) -> Result<Value, String> {
    let cfg = a.config()?;
    let pos = a.game.position()?;
    nash_board::with_position!(&pos, p => winning_on(p, &cfg))
}

fn winning_on<B: BitSet>(p: &Position<B>, cfg: &SolverConfig) -> Result<Value, String> {
    let start = nash_board::clock::Instant::now();
    let w = nash_search::winning_moves(p, cfg);
    Ok(json!({
        "to_move": p.to_move().to_string(),
        "winning": names(w.winning),
        "losing": names(w.losing),
        "unknown": names(w.unknown),
        "exact": w.unknown.is_empty(),
        "nodes": w.stats.nodes,
        "time_ms": millis(start.elapsed()),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseArgs {
    game: Game,
    /// The player's spec (default `best`).
    player: Option<String>,
    /// The playouts (or nodes, for players that count nodes) of the move (default 2000).
    playouts: Option<u64>,
}

/// The playouts of a move in the browser unless a request gives them.
const DEFAULT_PLAYOUTS: u64 = 2000;

fn analyse(a: AnalyseArgs) -> Result<Value, String> {
    let pos: AnyPosition = a.game.position()?;
    if let Some(w) = pos.winner() {
        return Err(format!("the game is over: {w} has won"));
    }
    let spec = a.player.as_deref().unwrap_or(nash_play::DEFAULT_PLAYER);
    let mut player = nash_play::build(spec).map_err(|e| e.to_string())?;
    let n = a.playouts.unwrap_or(DEFAULT_PLAYOUTS);
    if n == 0 {
        return Err("playouts 0: give at least 1".to_owned());
    }
    let budget = MoveBudget { playouts: Some(n), nodes: Some(n), ..MoveBudget::default() };
    // No time limit and no solve in front: nothing here may start a thread.
    let settings = MoveSettings { solve_time: Duration::ZERO, allow_swap: false };
    let d = decide(&pos, player.as_mut(), &budget, &settings, &SolverConfig::default());
    let c = &d.choice;
    Ok(json!({
        "player": player.spec(),
        "move": d.mv.to_string(),
        "value": c.value.filter(|v| v.is_finite()),
        "pv": c.pv.iter().map(Cell::to_string).collect::<Vec<_>>(),
        "scores": c
            .moves
            .iter()
            .map(|m| json!([m.cell.to_string(), m.win_rate.or(m.value).unwrap_or(0.0)]))
            .collect::<Vec<_>>(),
        "nodes": c.nodes,
        "time_ms": millis(d.elapsed),
    }))
}

fn sgf_export(a: GameArgs) -> Result<Value, String> {
    let rec = a.game.record()?;
    rec.any_position(None).map_err(|e| e.to_string())?;
    Ok(json!({ "sgf": rec.to_sgf() }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportArgs {
    sgf: String,
}

/// Records longer than this are refused (the page's text area is for single games).
const SGF_LIMIT: usize = 1 << 20;

fn sgf_import(a: ImportArgs) -> Result<Value, String> {
    if a.sgf.len() > SGF_LIMIT {
        return Err(format!("the record has {} bytes, more than {SGF_LIMIT}", a.sgf.len()));
    }
    let rec = nash_board::sgf::parse(&a.sgf).map_err(|e| e.to_string())?;
    game_answer(Game::of_record(&rec)?)
}
