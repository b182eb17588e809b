//! The page's game as JSON: a board size, setup stones, the side to move and the moves played,
//! read into nash-board's [`GameRecord`] (so the page and SGF share one model), and the board
//! view the page draws.

use nash_board::{AnyPosition, BitSet, Cell, CellList, Color, GameRecord, Move, Position};
use serde::{Deserialize, Serialize};

/// A game as the page keeps it: `{"cols": 7, "rows": 7, "setup": [["black", "d4"]],
/// "to_move": "white", "moves": [["white", "c3"], ["black", "e5"]]}`. Colours are `b`,
/// `black`, `w` or `white`; moves are cells, `swap-pieces`, `swap-sides` or `resign`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    pub cols: usize,
    pub rows: usize,
    #[serde(default)]
    pub setup: Vec<(String, String)>,
    #[serde(default)]
    pub to_move: Option<String>,
    #[serde(default)]
    pub moves: Vec<(String, String)>,
}

impl Game {
    /// The game of a record whose edits (setup inside the game) are folded into its final
    /// position, since the page edits only its root.
    pub fn of_record(rec: &GameRecord) -> Result<Game, String> {
        if !rec.edits.is_empty() {
            let pos = rec.any_position(None).map_err(|e| e.to_string())?;
            let mut flat = GameRecord::new(rec.cols, rec.rows);
            nash_board::with_position!(&pos, p => {
                for color in Color::ALL {
                    flat.setup.extend(p.stones(color).iter().map(|c| (color, c)));
                }
            });
            flat.to_move = Some(pos.to_move());
            return Game::of_record(&flat);
        }
        let pair = |&(c, m): &(Color, Move)| (c.to_string(), m.to_string());
        Ok(Game {
            cols: rec.cols,
            rows: rec.rows,
            setup: rec.setup.iter().map(|&(c, cell)| (c.to_string(), cell.to_string())).collect(),
            to_move: rec.to_move.map(|c| c.to_string()),
            moves: rec.moves.iter().map(pair).collect(),
        })
    }

    /// The record this game describes; an error names the entry that cannot be read.
    pub fn record(&self) -> Result<GameRecord, String> {
        let mut rec = GameRecord::new(self.cols, self.rows);
        for (color, cell) in &self.setup {
            let color = color.parse::<Color>().map_err(|e| format!("setup: {e}"))?;
            let cell = cell.parse::<Cell>().map_err(|e| format!("setup: {e}"))?;
            rec.setup.push((color, cell));
        }
        if let Some(c) = &self.to_move {
            rec.to_move = Some(c.parse().map_err(|e| format!("to_move: {e}"))?);
        }
        for (i, (color, mv)) in self.moves.iter().enumerate() {
            let color = color.parse::<Color>().map_err(|e| format!("move {}: {e}", i + 1))?;
            let mv = mv.parse::<Move>().map_err(|e| format!("move {}: {e}", i + 1))?;
            rec.moves.push((color, mv));
        }
        Ok(rec)
    }

    /// The position after every move; an error names the size, setup stone or move at fault.
    pub fn position(&self) -> Result<AnyPosition, String> {
        self.record()?.any_position(None).map_err(|e| e.to_string())
    }
}

/// What the page draws: the stones, whose turn it is, the winner and the last move.
#[derive(Debug, Serialize)]
pub struct Board {
    pub cols: usize,
    pub rows: usize,
    pub black: Vec<String>,
    pub white: Vec<String>,
    pub to_move: String,
    pub winner: Option<String>,
    /// The last move's cell, if the last move was a cell.
    pub last: Option<String>,
    pub moves: usize,
    pub empty: usize,
}

impl Board {
    pub fn of(game: &Game, pos: &AnyPosition) -> Board {
        let stones = nash_board::with_position!(pos, p => stones(p));
        let last = game.moves.last().and_then(|(_, m)| m.parse::<Cell>().ok());
        Board {
            cols: pos.cols(),
            rows: pos.rows(),
            black: stones.0,
            white: stones.1,
            to_move: pos.to_move().to_string(),
            winner: pos.winner().map(|c| c.to_string()),
            last: last.map(|c| c.to_string()),
            moves: game.moves.len(),
            empty: pos.empty_count(),
        }
    }
}

fn stones<B: BitSet>(p: &Position<B>) -> (Vec<String>, Vec<String>) {
    (CellList(p.stones(Color::Black)).names(), CellList(p.stones(Color::White)).names())
}
