//! The table of threat patterns of Rasmussen, Maire and Hayward 2006 s.6: the proven threat
//! patterns of a search, each reused in every position it covers.
//!
//! A threat pattern is the support S (the winner's stones it needs) and the carrier C (the empty
//! cells it needs): the winner wins the game in which the loser owns every other cell, with the
//! side to move the pattern was proven with (weak, the winner to move) or either side to move
//! (strong, proven with the loser to move: a stone more never hurts in Hex). A position in which
//! the winner holds S and the loser no cell of C is at least as good for the winner, so it is
//! won, whatever the other cells hold.

use nash_board::{BitSet, Color, Position};

/// One proven pattern.
#[derive(Clone, Copy, Debug)]
struct Threat<B> {
    support: B,
    carrier: B,
}

/// What a stored pattern says of a position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hit<B> {
    /// Whether the player to move wins.
    pub(super) win: bool,
    /// The pattern's carrier cells that are empty in the position.
    pub(super) carrier: B,
    /// The pattern's support, with its carrier cells that the winner holds in the position.
    pub(super) support: B,
}

/// The patterns, by winner and strength.
#[derive(Debug, Default)]
pub(super) struct ThreatPatterns<B> {
    /// `[winner][strong]`.
    by: [[Vec<Threat<B>>; 2]; 2],
}

impl<B: BitSet> ThreatPatterns<B> {
    /// Adds the pattern of a solved position: `winner` won it with `support` and `carrier`,
    /// `strong` when the loser was to move.
    pub(super) fn add(&mut self, winner: Color, strong: bool, support: B, carrier: B) {
        self.by[winner.index()][usize::from(strong)].push(Threat { support, carrier });
    }

    /// A stored pattern that decides `pos`, if any: one of the player to move's, or a strong
    /// one of the opponent's. The player to move's patterns are tried first, the most recent
    /// first (those of the subtree just searched).
    pub(super) fn find(&self, pos: &Position<B>) -> Option<Hit<B>> {
        let me = pos.to_move();
        for (winner, strengths) in [(me, &[true, false][..]), (!me, &[true][..])] {
            let own = pos.stones(winner);
            let other = pos.stones(!winner);
            for &strong in strengths {
                let list = &self.by[winner.index()][usize::from(strong)];
                let ok = |t: &&Threat<B>| t.support.is_subset(own) && !t.carrier.intersects(other);
                let found = list.iter().rev().find(ok);
                if let Some(t) = found {
                    return Some(Hit {
                        win: winner == me,
                        carrier: t.carrier - own,
                        support: t.support | (t.carrier & own),
                    });
                }
            }
        }
        None
    }
}
