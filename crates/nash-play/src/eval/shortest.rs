//! The shortest-path distance: the empty cells each player must still fill to connect its
//! edges, and the greedy move choice built on it.
//!
//! This is the classic "shortest path" evaluation used by early Hex programs (a one-distance,
//! where Anshelevich 2000 s.3 and Horrell et al. use two-distance or resistance): a move is good
//! when it lengthens the opponent's shortest path and shortens ours.

use std::collections::VecDeque;

use nash_board::{BitSet, Cell, Color, Position};

/// The least number of empty cells `color` must still fill to connect its two edges (0 when
/// already connected, `u32::MAX` when the opponent has cut every path).
///
/// A 0-1 breadth-first search over cells: own stones cost nothing, empty cells cost one,
/// opponent stones are walls.
pub fn distance<B: BitSet>(pos: &Position<B>, color: Color) -> u32 {
    let geom = pos.geometry();
    let own = pos.stones(color);
    let open = own | pos.empty_cells();
    let [from, to] = color.edges();
    let target = Cell::edge(to);
    let mut dist = vec![u32::MAX; B::CAPACITY];
    let mut queue = VecDeque::new();
    let start = B::bit_of(Cell::edge(from));
    dist[start] = 0;
    queue.push_back(start);
    while let Some(bit) = queue.pop_front() {
        let d = dist[bit];
        let cell = B::cell_of(bit);
        if cell == target {
            return d;
        }
        for next in geom.neighbours(cell).iter() {
            let cost = if next == target || own.contains(next) {
                0
            } else if open.contains(next) {
                1
            } else {
                continue;
            };
            let nb = B::bit_of(next);
            if d + cost < dist[nb] {
                dist[nb] = d + cost;
                if cost == 0 {
                    queue.push_front(nb);
                } else {
                    queue.push_back(nb);
                }
            }
        }
    }
    dist[B::bit_of(target)]
}

/// The cell of `moves` with the highest `score`, ties broken by the largest margin of the
/// opponent's distance over ours after playing it, then by nearness to the centre. `None` when
/// `moves` holds no empty cell.
pub fn best_move<B: BitSet>(
    pos: &Position<B>,
    color: Color,
    moves: B,
    score: impl Fn(Cell) -> f32,
) -> Option<Cell> {
    let mut scratch = pos.clone();
    let (cols, rows) = (pos.cols() as i64, pos.rows() as i64);
    let centre_distance = |c: Cell| {
        let dc = 2 * c.col() as i64 - (cols - 1);
        let dr = 2 * c.row() as i64 - (rows - 1);
        // Hex distance on doubled coordinates, so both half-cell centres compare exactly.
        (dc.abs() + dr.abs() + (dc + dr).abs()) / 2
    };
    let mut best: Option<(f32, i64, i64, Cell)> = None;
    for cell in (moves & pos.empty_cells()).iter() {
        if scratch.play_as(color, cell).is_err() {
            continue;
        }
        let margin = clamp(distance(&scratch, !color)) - clamp(distance(&scratch, color));
        scratch.undo();
        let key = (score(cell), margin, -centre_distance(cell));
        let better = match best {
            None => true,
            Some((s, m, c, _)) => key.0 > s || (key.0 == s && (key.1, key.2) > (m, c)),
        };
        if better {
            best = Some((key.0, key.1, key.2, cell));
        }
    }
    best.map(|(_, _, _, c)| c)
}

/// Distances as signed numbers, a cut-off path counting as very long.
fn clamp(d: u32) -> i64 {
    if d == u32::MAX {
        1_000
    } else {
        d as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nash_board::{Bitboard, MoveList};

    fn position(size: usize, moves: &str) -> Position<Bitboard> {
        let mut p = Position::square(size).unwrap();
        moves.parse::<MoveList>().unwrap().play_on(&mut p).unwrap();
        p
    }

    #[test]
    fn distances_count_empty_cells_to_fill() {
        let p = position(3, "-");
        assert_eq!(distance(&p, Color::Black), 3);
        assert_eq!(distance(&p, Color::White), 3);
        let p = position(3, "b2 a2");
        assert_eq!(distance(&p, Color::Black), 2);
        let p = position(3, "b1 a1 b2 a2 b3");
        assert_eq!(distance(&p, Color::Black), 0);
        // White's column a is full of white stones but c-side still needs cells.
        assert_eq!(distance(&p, Color::White), u32::MAX);
    }

    #[test]
    fn best_move_completes_a_connection() {
        // Black has b1 and b2; b3 (or a3) wins at once.
        let p = position(3, "b1 a1 b2 a2");
        let m = best_move(&p, Color::Black, p.empty_cells(), |_| 0.0).unwrap();
        let mut q = p.clone();
        q.play_as(Color::Black, m).unwrap();
        assert_eq!(q.winner(), Some(Color::Black), "chose {m}");
    }

    #[test]
    fn best_move_on_the_empty_board_is_central() {
        let p = position(5, "-");
        assert_eq!(
            best_move(&p, Color::Black, p.empty_cells(), |_| 0.0),
            Some("c3".parse().unwrap())
        );
    }
}
