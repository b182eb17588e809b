//! 3×3 convolution over a batch of grids as im2col and one matrix product.
//!
//! Activations are matrices with one row per channel and one column per grid cell of the whole
//! batch (`channels × pixels`, row-major); each board's grid is a run of columns, a [`Grid`].
//! im2col unfolds the input into a `(9 · in) × pixels` matrix whose column holds a cell's 3×3
//! neighbourhood (zero outside its own grid), so the convolution is `weights × columns`.

/// One board's grid inside a batch: its first column and its size.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Grid {
    /// Index of its first cell among the batch's columns.
    pub offset: usize,
    /// Grid width.
    pub width: usize,
    /// Grid height.
    pub height: usize,
}

impl Grid {
    /// Its number of cells.
    pub fn pixels(&self) -> usize {
        self.width * self.height
    }
}

/// `c = a × b + beta · c` for row-major `a` (`m × k`), `b` (`k × n`) and `c` (`m × n`); with
/// `trans_a` (`trans_b`), `a` (`b`) is given transposed: stored as `k × m` (`n × k`).
#[allow(clippy::too_many_arguments)]
pub fn gemm(
    m: usize,
    k: usize,
    n: usize,
    a: &[f32],
    trans_a: bool,
    b: &[f32],
    trans_b: bool,
    beta: f32,
    c: &mut [f32],
) {
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n, "gemm: short matrix");
    if m == 0 || n == 0 {
        return;
    }
    let (rsa, csa) = if trans_a { (1, m as isize) } else { (k as isize, 1) };
    let (rsb, csb) = if trans_b { (1, k as isize) } else { (n as isize, 1) };
    // SAFETY: the assertion above keeps every index the strides reach inside the slices: `a`
    // spans m·k elements read as m×k (or k×m), `b` k·n, `c` m·n, and `c` is borrowed mutably
    // so it cannot alias `a` or `b`.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            rsa,
            csa,
            b.as_ptr(),
            rsb,
            csb,
            beta,
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

/// The source column of output column `x` for kernel column `kx`, within a row of `width`.
#[inline]
fn span(width: usize, k: usize) -> (usize, usize) {
    // Output columns x with 0 <= x + k - 1 < width.
    let lo = 1usize.saturating_sub(k);
    let hi = (width + 1 - k).min(width);
    (lo, hi)
}

/// Unfolds `input` (`channels × pixels`) into `cols` (`(9 · channels) × pixels`).
pub fn im2col(input: &[f32], channels: usize, pixels: usize, grids: &[Grid], cols: &mut [f32]) {
    let cols = &mut cols[..9 * channels * pixels];
    for c in 0..channels {
        let src = &input[c * pixels..(c + 1) * pixels];
        for ky in 0..3 {
            for kx in 0..3 {
                let row = (c * 9 + ky * 3 + kx) * pixels;
                let dst = &mut cols[row..row + pixels];
                for g in grids {
                    let (w, h) = (g.width, g.height);
                    let (lo, hi) = span(w, kx);
                    for y in 0..h {
                        let out = &mut dst[g.offset + y * w..g.offset + (y + 1) * w];
                        let sy = y + ky;
                        if sy < 1 || sy > h {
                            out.fill(0.0);
                            continue;
                        }
                        let from = g.offset + (sy - 1) * w;
                        out[..lo].fill(0.0);
                        out[hi..].fill(0.0);
                        out[lo..hi].copy_from_slice(&src[from + lo + kx - 1..from + hi + kx - 1]);
                    }
                }
            }
        }
    }
}

/// The adjoint of [`im2col`]: adds each column entry of `cols` back to the input cell it was
/// read from, into `input` (`channels × pixels`, overwritten).
pub fn col2im(cols: &[f32], channels: usize, pixels: usize, grids: &[Grid], input: &mut [f32]) {
    let input = &mut input[..channels * pixels];
    input.fill(0.0);
    for c in 0..channels {
        let dst = &mut input[c * pixels..(c + 1) * pixels];
        for ky in 0..3 {
            for kx in 0..3 {
                let row = (c * 9 + ky * 3 + kx) * pixels;
                let src = &cols[row..row + pixels];
                for g in grids {
                    let (w, h) = (g.width, g.height);
                    let (lo, hi) = span(w, kx);
                    for y in 0..h {
                        let sy = y + ky;
                        if sy < 1 || sy > h {
                            continue;
                        }
                        let to = g.offset + (sy - 1) * w;
                        let from = &src[g.offset + y * w..g.offset + (y + 1) * w];
                        for (d, s) in
                            dst[to + lo + kx - 1..to + hi + kx - 1].iter_mut().zip(&from[lo..hi])
                        {
                            *d += s;
                        }
                    }
                }
            }
        }
    }
}

/// A 3×3 convolution with bias: `out = weights × im2col(input) + bias` (`weights` is
/// `out_ch × 9·in_ch`), using `cols` as scratch.
#[allow(clippy::too_many_arguments)]
pub fn conv3x3(
    input: &[f32],
    in_ch: usize,
    out_ch: usize,
    weights: &[f32],
    bias: &[f32],
    pixels: usize,
    grids: &[Grid],
    cols: &mut [f32],
    out: &mut [f32],
) {
    im2col(input, in_ch, pixels, grids, cols);
    let out = &mut out[..out_ch * pixels];
    for (row, &b) in out.chunks_exact_mut(pixels).zip(bias) {
        row.fill(b);
    }
    gemm(out_ch, 9 * in_ch, pixels, weights, false, cols, false, 1.0, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A direct convolution to check im2col + gemm against.
    fn direct(input: &[f32], cin: usize, cout: usize, w: &[f32], g: Grid) -> Vec<f32> {
        let n = g.pixels();
        let mut out = vec![0.0; cout * n];
        for o in 0..cout {
            for y in 0..g.height as isize {
                for x in 0..g.width as isize {
                    let mut s = 0.0;
                    for c in 0..cin {
                        for ky in 0..3isize {
                            for kx in 0..3isize {
                                let (sy, sx) = (y + ky - 1, x + kx - 1);
                                if sy < 0
                                    || sx < 0
                                    || sy >= g.height as isize
                                    || sx >= g.width as isize
                                {
                                    continue;
                                }
                                let wi = o * 9 * cin + c * 9 + (ky * 3 + kx) as usize;
                                s += w[wi] * input[c * n + (sy as usize) * g.width + sx as usize];
                            }
                        }
                    }
                    out[o * n + y as usize * g.width + x as usize] = s;
                }
            }
        }
        out
    }

    fn values(len: usize, seed: u32) -> Vec<f32> {
        (0..len)
            .map(|i| (((i as u32).wrapping_mul(2654435761) ^ seed) % 97) as f32 / 97.0 - 0.5)
            .collect()
    }

    #[test]
    fn im2col_gemm_is_a_convolution_per_grid() {
        let (cin, cout) = (3, 4);
        let grids =
            [Grid { offset: 0, width: 5, height: 4 }, Grid { offset: 20, width: 3, height: 6 }];
        let pixels = 38;
        let input = values(cin * pixels, 1);
        let w = values(cout * 9 * cin, 2);
        let mut cols = vec![0.0; 9 * cin * pixels];
        let mut out = vec![0.0; cout * pixels];
        conv3x3(&input, cin, cout, &w, &[0.0; 4], pixels, &grids, &mut cols, &mut out);
        for g in grids {
            let part: Vec<f32> = (0..cin)
                .flat_map(|c| {
                    input[c * pixels + g.offset..c * pixels + g.offset + g.pixels()].to_vec()
                })
                .collect();
            let want = direct(&part, cin, cout, &w, Grid { offset: 0, ..g });
            for o in 0..cout {
                for p in 0..g.pixels() {
                    let got = out[o * pixels + g.offset + p];
                    assert!((got - want[o * g.pixels() + p]).abs() < 1e-5);
                }
            }
        }
    }

    #[test]
    fn col2im_is_the_adjoint_of_im2col() {
        // <im2col(x), y> == <x, col2im(y)> for any x, y.
        let cin = 2;
        let grids =
            [Grid { offset: 0, width: 4, height: 3 }, Grid { offset: 12, width: 2, height: 2 }];
        let pixels = 16;
        let x = values(cin * pixels, 3);
        let y = values(9 * cin * pixels, 4);
        let mut cx = vec![0.0; 9 * cin * pixels];
        im2col(&x, cin, pixels, &grids, &mut cx);
        let mut ty = vec![0.0; cin * pixels];
        col2im(&y, cin, pixels, &grids, &mut ty);
        let a: f32 = cx.iter().zip(&y).map(|(a, b)| a * b).sum();
        let b: f32 = x.iter().zip(&ty).map(|(a, b)| a * b).sum();
        assert!((a - b).abs() < 1e-4, "{a} vs {b}");
    }

    #[test]
    fn transposed_gemm() {
        let a = values(6, 5); // 2x3
        let b = values(12, 6); // 3x4
        let mut c = vec![0.0; 8];
        gemm(2, 3, 4, &a, false, &b, false, 0.0, &mut c);
        let at: Vec<f32> = (0..6).map(|i| a[(i % 2) * 3 + i / 2]).collect(); // 3x2
        let bt: Vec<f32> = (0..12).map(|i| b[(i % 3) * 4 + i / 3]).collect(); // 4x3
        let mut d = vec![0.0; 8];
        gemm(2, 3, 4, &at, true, &bt, true, 0.0, &mut d);
        for (x, y) in c.iter().zip(&d) {
            assert!((x - y).abs() < 1e-6);
        }
    }
}
