//! The statistics of a tournament table: win rates with a Wilson score interval, and Elo
//! ratings with error bars from a Bradley–Terry fit of all the games.

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo points per natural-log unit of the odds: a rating difference `d` means the stronger side
/// wins with probability `1 / (1 + 10^(-d/400))`.
const ELO_PER_LOGIT: f64 = 400.0 / std::f64::consts::LN_10;

/// The Wilson score interval of a win rate: `wins` of `games` at normal quantile `z` (Wilson
/// 1927). Unlike the normal approximation it stays inside [0, 1] and is not empty at 0 or
/// all wins, which small tournaments reach often. `(0, 1)` for no games.
pub fn wilson(wins: f64, games: f64, z: f64) -> (f64, f64) {
    if games <= 0.0 {
        return (0.0, 1.0);
    }
    let p = wins / games;
    let z2 = z * z;
    let denom = 1.0 + z2 / games;
    let centre = (p + z2 / (2.0 * games)) / denom;
    let half = z * (p * (1.0 - p) / games + z2 / (4.0 * games * games)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference that makes `p` the expected score; infinite at 0 and 1.
pub fn elo_of_rate(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// One engine's rating: Elo (the field's mean is 0) and the half width of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    pub error: f64,
}

/// Ratings of `n` engines from `wins[i][j]`, the games `i` won against `j`: the maximum
/// likelihood Bradley–Terry strengths (Hunter 2004's minorise–maximise iteration), on the
/// Elo scale with a mean of 0. Each pair that met gets one virtual draw (half a win each
/// way), so that an engine that won or lost every game still has a finite rating. The error
/// is `Z95` standard errors from the Fisher information of the engine's own games, its
/// opponents' ratings taken as known.
pub fn ratings(wins: &[Vec<f64>]) -> Vec<Rating> {
    let n = wins.len();
    let met = |i: usize, j: usize| wins[i][j] + wins[j][i] > 0.0;
    // Games and wins with the virtual draws.
    let games = |i: usize, j: usize| if met(i, j) { wins[i][j] + wins[j][i] + 1.0 } else { 0.0 };
    let won = |i: usize| -> f64 { (0..n).filter(|&j| met(i, j)).map(|j| wins[i][j] + 0.5).sum() };
    let mut gamma = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = gamma.clone();
        for i in 0..n {
            let denom: f64 =
                (0..n).filter(|&j| j != i).map(|j| games(i, j) / (gamma[i] + gamma[j])).sum();
            if denom > 0.0 {
                next[i] = won(i) / denom;
            }
        }
        // Fix the scale: geometric mean 1.
        let mean = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        next.iter_mut().for_each(|g| *g /= mean.exp());
        let change =
            next.iter().zip(&gamma).map(|(a, b)| (a.ln() - b.ln()).abs()).fold(0.0, f64::max);
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    (0..n)
        .map(|i| {
            let info: f64 = (0..n)
                .filter(|&j| j != i)
                .map(|j| {
                    let p = gamma[i] / (gamma[i] + gamma[j]);
                    games(i, j) * p * (1.0 - p)
                })
                .sum();
            let error = if info > 0.0 { Z95 * ELO_PER_LOGIT / info.sqrt() } else { f64::INFINITY };
            Rating { elo: ELO_PER_LOGIT * gamma[i].ln(), error }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn wilson_matches_worked_numbers() {
        // 8 of 10: centre (0.8 + 1.9207/10) / 1.38415 = 0.7167, half width
        // 1.96 sqrt(0.016 + 0.0096) / 1.38415 = 0.2266.
        let (lo, hi) = wilson(8.0, 10.0, Z95);
        assert!(close(lo, 0.4902, 1e-4) && close(hi, 0.9433, 1e-4), "{lo} {hi}");
        // All of 20: the upper end is 1, the lower 20 / (20 + z^2) = 0.8389.
        let (lo, hi) = wilson(20.0, 20.0, Z95);
        assert!(close(lo, 0.8389, 1e-4) && hi == 1.0, "{lo} {hi}");
        // Half of 100: 0.5 +- 0.0962 (the normal interval is 0.098).
        let (lo, hi) = wilson(50.0, 100.0, Z95);
        assert!(close(lo, 0.4038, 1e-4) && close(hi, 0.5962, 1e-4), "{lo} {hi}");
        assert_eq!(wilson(0.0, 0.0, Z95), (0.0, 1.0));
    }

    #[test]
    fn elo_of_a_rate_matches_worked_numbers() {
        assert_eq!(elo_of_rate(0.5), 0.0);
        // 3 wins for every loss: 400 log10(3).
        assert!(close(elo_of_rate(0.75), 190.85, 0.01));
        assert!(close(elo_of_rate(0.25), -190.85, 0.01));
        // 10 to 1 odds are 400 points.
        assert!(close(elo_of_rate(10.0 / 11.0), 400.0, 1e-9));
        assert_eq!(elo_of_rate(1.0), f64::INFINITY);
    }

    #[test]
    fn two_engines_rate_by_their_score() {
        // 14.5 to 5.5 with the virtual draw: odds 29/11, a difference of 400 log10(29/11)
        // = 168.4, split around the mean.
        let r = ratings(&[vec![0.0, 14.0], vec![5.0, 0.0]]);
        assert!(close(r[0].elo - r[1].elo, 168.4, 0.1), "{r:?}");
        assert!(close(r[0].elo, -r[1].elo, 1e-6));
        // Fisher information 20 p (1 - p) with p = 29/40: 3.9875; the error is
        // 1.96 * 173.72 / sqrt(3.9875) = 170.5.
        assert!(close(r[0].error, 170.5, 0.1), "{r:?}");
        // Every game won is still a finite rating: 10.5 to 0.5 is 400 log10(21) = 528.9.
        let r = ratings(&[vec![0.0, 10.0], vec![0.0, 0.0]]);
        assert!(close(r[0].elo - r[1].elo, 528.9, 0.1), "{r:?}");
    }

    #[test]
    fn a_round_robin_orders_the_engines() {
        // a beats b beats c, and a beats c most of all.
        let w = vec![vec![0.0, 6.0, 9.0], vec![4.0, 0.0, 7.0], vec![1.0, 3.0, 0.0]];
        let r = ratings(&w);
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo, "{r:?}");
        assert!(close(r.iter().map(|r| r.elo).sum::<f64>(), 0.0, 1e-6));
        // The fit reproduces each engine's total score (with the virtual draws).
        let g = |i: usize| 10f64.powf(r[i].elo / 400.0);
        for (i, row) in w.iter().enumerate() {
            let expected: f64 =
                (0..3).filter(|&j| j != i).map(|j| 11.0 * g(i) / (g(i) + g(j))).sum();
            let actual: f64 = (0..3).filter(|&j| j != i).map(|j| row[j] + 0.5).sum();
            assert!(close(expected, actual, 1e-6), "{i}: {expected} {actual}");
        }
    }
}
