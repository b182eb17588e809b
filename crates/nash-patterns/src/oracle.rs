//! An exact minimax oracle for small boards (up to 32 cells): negamax over the empty cells
//! with winner detection by flood fill, memoised. It shares nothing with the analysis it
//! checks (not even nash-board's union-find), so the soundness tests and
//! `cargo xtask verify-patterns` use it as an independent judge.

use std::collections::HashMap;

use nash_board::{BitSet, Bitboard, Cell, Color, Position};

/// Stones on a small board as compact masks: cell `(c, r)` is bit `r * cols + c`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct State {
    pub black: u32,
    pub white: u32,
    pub black_to_move: bool,
}

enum Memo {
    /// Two bits per state and side to move, indexed by the base-3 number of the board.
    Dense(Vec<u8>),
    Hash(HashMap<u64, bool>),
}

pub struct Oracle {
    pub cols: usize,
    pub rows: usize,
    n: usize,
    nbr: Vec<u32>,
    north: u32,
    south: u32,
    west: u32,
    east: u32,
    pow3: [u32; 256],
    memo: Memo,
}

impl std::fmt::Debug for Oracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Oracle({}x{})", self.cols, self.rows)
    }
}

impl Oracle {
    /// An oracle for `cols` x `rows`; boards of at most 16 cells get a dense table.
    pub fn new(cols: usize, rows: usize) -> Oracle {
        let n = cols * rows;
        assert!(n <= 25);
        let mut nbr = vec![0u32; n];
        let (mut north, mut south, mut west, mut east) = (0, 0, 0, 0);
        for r in 0..rows as i32 {
            for c in 0..cols as i32 {
                let i = (r * cols as i32 + c) as usize;
                for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
                    let (nc, nr) = (c + dc, r + dr);
                    if nc >= 0 && nr >= 0 && nc < cols as i32 && nr < rows as i32 {
                        nbr[i] |= 1 << (nr * cols as i32 + nc);
                    }
                }
                if r == 0 {
                    north |= 1 << i;
                }
                if r == rows as i32 - 1 {
                    south |= 1 << i;
                }
                if c == 0 {
                    west |= 1 << i;
                }
                if c == cols as i32 - 1 {
                    east |= 1 << i;
                }
            }
        }
        let mut pow3 = [0u32; 256];
        for (m, p) in pow3.iter_mut().enumerate() {
            let mut v = 0;
            let mut f = 1;
            for i in 0..8 {
                if m >> i & 1 != 0 {
                    v += f;
                }
                f *= 3;
            }
            *p = v;
        }
        let memo = if n <= 16 {
            Memo::Dense(vec![0u8; 3usize.pow(n as u32) * 2 / 4 + 1])
        } else {
            Memo::Hash(HashMap::new())
        };
        Oracle { cols, rows, n, nbr, north, south, west, east, pow3, memo }
    }

    pub fn full(&self) -> u32 {
        ((1u64 << self.n) - 1) as u32
    }

    /// Forgets memoised values (hash memo only).
    pub fn clear(&mut self) {
        if let Memo::Hash(h) = &mut self.memo {
            h.clear();
        }
    }

    fn joins(&self, stones: u32, from: u32, to: u32) -> bool {
        let mut g = stones & from;
        loop {
            if g & to != 0 {
                return true;
            }
            let mut next = g;
            let mut m = g;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                next |= self.nbr[i] & stones;
            }
            if next == g {
                return false;
            }
            g = next;
        }
    }

    pub fn winner(&self, black: u32, white: u32) -> Option<Color> {
        if self.joins(black, self.north, self.south) {
            Some(Color::Black)
        } else if self.joins(white, self.west, self.east) {
            Some(Color::White)
        } else {
            None
        }
    }

    fn b3(&self, m: u32) -> usize {
        let mut v = 0usize;
        let mut f = 1usize;
        let mut m = m;
        while m != 0 {
            v += self.pow3[(m & 0xff) as usize] as usize * f;
            m >>= 8;
            f *= 6561;
        }
        v
    }

    fn key(&self, s: State) -> usize {
        (self.b3(s.black) + 2 * self.b3(s.white)) * 2 + s.black_to_move as usize
    }

    /// The winner of the game from `s` with perfect play.
    pub fn value(&mut self, s: State) -> Color {
        let to_move = if s.black_to_move { Color::Black } else { Color::White };
        if self.wins(s) {
            to_move
        } else {
            !to_move
        }
    }

    /// Whether the player to move wins `s` (or has already won).
    pub fn wins(&mut self, s: State) -> bool {
        let to_move = if s.black_to_move { Color::Black } else { Color::White };
        if let Some(w) = self.winner(s.black, s.white) {
            return w == to_move;
        }
        let key = self.key(s);
        match &self.memo {
            Memo::Dense(t) => match t[key / 4] >> (key % 4 * 2) & 3 {
                1 => return true,
                2 => return false,
                _ => {}
            },
            Memo::Hash(h) => {
                if let Some(&v) = h.get(&(key as u64)) {
                    return v;
                }
            }
        }
        let mut empty = self.full() & !(s.black | s.white);
        let mut win = false;
        while empty != 0 {
            let i = empty.trailing_zeros();
            empty &= empty - 1;
            if !self.wins(self.child(s, i)) {
                win = true;
                break;
            }
        }
        match &mut self.memo {
            Memo::Dense(t) => t[key / 4] |= (if win { 1 } else { 2 }) << (key % 4 * 2),
            Memo::Hash(h) => {
                h.insert(key as u64, win);
            }
        }
        win
    }

    /// The state after the player to move plays compact cell `i`.
    pub fn child(&self, s: State, i: u32) -> State {
        if s.black_to_move {
            State { black: s.black | 1 << i, white: s.white, black_to_move: false }
        } else {
            State { black: s.black, white: s.white | 1 << i, black_to_move: true }
        }
    }

    pub fn index(&self, cell: Cell) -> u32 {
        (cell.row() as usize * self.cols + cell.col() as usize) as u32
    }

    pub fn compact(&self, set: Bitboard) -> u32 {
        // Layout bit r * 11 + c becomes r * cols + c.
        let mut out = 0u32;
        let mut m = set.0 & <Bitboard as BitSet>::AREA.0;
        while m != 0 {
            let bit = m.trailing_zeros() as usize;
            m &= m - 1;
            out |= 1 << (bit / 11 * self.cols + bit % 11);
        }
        out
    }

    pub fn state(&self, pos: &Position<Bitboard>) -> State {
        State {
            black: self.compact(pos.black()),
            white: self.compact(pos.white()),
            black_to_move: pos.to_move() == Color::Black,
        }
    }

    /// `pos` with extra stones, the side to move unchanged.
    pub fn with_fill(&self, pos: &Position<Bitboard>, fill: [Bitboard; 2]) -> State {
        let s = self.state(pos);
        State {
            black: s.black | self.compact(fill[0]),
            white: s.white | self.compact(fill[1]),
            ..s
        }
    }
}
