//! Time control: what `time_settings` and `time_left` say, and the share of it one move gets.
//!
//! GTP's time system is main time followed by Canadian byo-yomi: once the main time is used up,
//! each period of `byo_yomi_time` seconds must hold `byo_yomi_stones` moves. `time_settings 0
//! T 1` is therefore T seconds a move. The engine keeps each colour's clock itself (it knows
//! how long its own moves took) and takes `time_left` as the controller's correction.

use std::time::Duration;

/// `time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimeSettings {
    /// Main time.
    pub main: Duration,
    /// The length of one byo-yomi period.
    pub byo_yomi: Duration,
    /// Moves to play within one period; 0 with a non-zero period means no time limit (GTP).
    pub stones: u32,
}

impl TimeSettings {
    /// Whether these settings limit time at all: GTP reads a period with no stones as no
    /// limit, and all zeros (no main time, no period) is read the same way.
    pub fn limited(&self) -> bool {
        let no_stones = self.stones == 0 && !self.byo_yomi.is_zero();
        let nothing = self.main.is_zero() && self.byo_yomi.is_zero();
        !(no_stones || nothing)
    }
}

/// One colour's clock: the time left in the current period, and the moves still due in it
/// (0 during main time).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Clock {
    /// Time left in the current period (main time or byo-yomi).
    pub left: Duration,
    /// Moves still to play in this byo-yomi period; 0 in main time.
    pub stones: u32,
}

/// Kept out of every share, for the answer to travel and the controller to react.
const MARGIN: Duration = Duration::from_millis(20);

/// The part of a share kept back for what follows the search's deadline (the last playout,
/// choosing the move, dropping what is not reused): one twentieth, so that the reserve grows
/// with the period. Measured on 9x9 at a second a move, a search overran its deadline by at
/// most 0.12 s on a loaded two-core machine (docs/players.md, "Equal time").
const RESERVE: f64 = 0.05;

/// What a move may spend of its share: all of it but the reserve and the margin (0.93 s of a
/// second, 1.88 s of two).
fn careful(share: Duration) -> Duration {
    (share.mul_f64(1.0 - RESERVE)).saturating_sub(MARGIN).max(Duration::from_millis(10))
}

impl Clock {
    /// The clock at the start of a game under `s`.
    pub fn start(s: &TimeSettings) -> Clock {
        if s.main.is_zero() {
            Clock { left: s.byo_yomi, stones: s.stones }
        } else {
            Clock { left: s.main, stones: 0 }
        }
    }

    /// The time the next move may take, `empty` being the number of empty cells (how long the
    /// game may still last): in byo-yomi, the period shared among its moves; in main time, a
    /// share of what is left over the moves the game may still ask of this player (at least
    /// ten), plus what one move of byo-yomi allows, since that time comes back after the main
    /// time.
    pub fn move_time(&self, s: &TimeSettings, empty: usize) -> Duration {
        if self.stones > 0 {
            return careful(self.left / self.stones);
        }
        let moves_to_go = (empty as u32 / 2).max(10);
        let per_period = if s.stones > 0 { s.byo_yomi / s.stones } else { Duration::ZERO };
        if self.left.is_zero() {
            // Out of main time with no byo-yomi known yet: the period's share.
            return careful(per_period);
        }
        let share = (self.left / moves_to_go).saturating_add(per_period / 2);
        careful(share.min((self.left / 2).saturating_add(per_period)))
    }

    /// The clock after a move that took `spent`: main time runs down into byo-yomi, and a
    /// period completed by its last stone starts afresh.
    pub fn after_move(&mut self, s: &TimeSettings, spent: Duration) {
        if self.stones == 0 {
            if spent < self.left || s.stones == 0 {
                self.left = self.left.saturating_sub(spent);
                return;
            }
            // Main time ran out during this move; the rest counted against the first period.
            let over = spent - self.left;
            *self = Clock { left: s.byo_yomi.saturating_sub(over), stones: s.stones };
        } else {
            self.left = self.left.saturating_sub(spent);
        }
        self.stones -= 1;
        if self.stones == 0 {
            *self = Clock { left: s.byo_yomi, stones: s.stones };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn seconds_a_move() {
        let s = TimeSettings { main: Duration::ZERO, byo_yomi: secs(2.0), stones: 1 };
        let mut c = Clock::start(&s);
        assert_eq!(c, Clock { left: secs(2.0), stones: 1 });
        assert_eq!(c.move_time(&s, 81), secs(1.88));
        c.after_move(&s, secs(1.5));
        assert_eq!(c, Clock { left: secs(2.0), stones: 1 });
    }

    #[test]
    fn main_time_is_shared_over_the_moves_to_come() {
        let s = TimeSettings { main: secs(60.0), byo_yomi: Duration::ZERO, stones: 0 };
        let mut c = Clock::start(&s);
        // 81 empty cells: 40 moves to go.
        assert_eq!(c.move_time(&s, 81), careful(secs(1.5)));
        // Late in the game, at least ten moves are still provided for.
        assert_eq!(c.move_time(&s, 4), careful(secs(6.0)));
        c.after_move(&s, secs(59.0));
        assert_eq!(c, Clock { left: secs(1.0), stones: 0 });
        assert!(c.move_time(&s, 30) <= secs(0.1));
    }

    #[test]
    fn main_time_runs_into_byo_yomi() {
        let s = TimeSettings { main: secs(10.0), byo_yomi: secs(30.0), stones: 3 };
        let mut c = Clock::start(&s);
        c.after_move(&s, secs(12.0));
        assert_eq!(c, Clock { left: secs(28.0), stones: 2 });
        assert_eq!(c.move_time(&s, 50), careful(secs(14.0)));
        c.after_move(&s, secs(1.0));
        c.after_move(&s, secs(1.0));
        assert_eq!(c, Clock { left: secs(30.0), stones: 3 });
    }

    #[test]
    fn a_period_without_stones_is_no_limit() {
        assert!(!TimeSettings { main: secs(5.0), byo_yomi: secs(1.0), stones: 0 }.limited());
        assert!(TimeSettings { main: secs(5.0), byo_yomi: Duration::ZERO, stones: 0 }.limited());
        assert!(
            !TimeSettings { main: Duration::ZERO, byo_yomi: Duration::ZERO, stones: 0 }.limited()
        );
    }
}
