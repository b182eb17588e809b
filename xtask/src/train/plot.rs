//! Line charts as SVG: the training curves of `cargo xtask train`.

/// One line of a chart: its name in the legend, its colour and its points `(x, y)`.
#[derive(Debug)]
pub struct Series<'a> {
    pub name: &'a str,
    pub color: &'a str,
    pub points: Vec<(f64, f64)>,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A short label for a tick value.
fn tick_label(v: f64) -> String {
    if v == 0.0 {
        "0".to_owned()
    } else if v.abs() >= 1000.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

/// A chart of the series against a shared x axis, with four ticks on each axis and a legend;
/// a series of one point is drawn as a dot.
pub fn line_chart(title: &str, x_label: &str, y_label: &str, series: &[Series<'_>]) -> String {
    const W: f64 = 640.0;
    const H: f64 = 360.0;
    let (left, right, top, bottom) = (72.0, 140.0, 40.0, 48.0);
    let all = || series.iter().flat_map(|s| s.points.iter().copied());
    let fold = |f: fn(f64, f64) -> f64, init| {
        all().fold(init, |acc: (f64, f64), (x, y)| (f(acc.0, x), f(acc.1, y)))
    };
    let (x_lo, y_lo) = fold(f64::min, (f64::INFINITY, f64::INFINITY));
    let (x_hi, y_hi) = fold(f64::max, (f64::NEG_INFINITY, f64::NEG_INFINITY));
    let (x_lo, x_hi) = if x_lo.is_finite() { (x_lo, x_hi) } else { (0.0, 1.0) };
    let (y_lo, y_hi) = if y_lo.is_finite() { (y_lo.min(0.0), y_hi) } else { (0.0, 1.0) };
    let x_span = if x_hi > x_lo { x_hi - x_lo } else { 1.0 };
    let y_span = if y_hi > y_lo { (y_hi - y_lo) * 1.05 } else { 1.0 };
    let round = |v: f64| (v * 10.0).round() / 10.0;
    let px = |x: f64| round(left + (x - x_lo) / x_span * (W - left - right));
    let py = |y: f64| round(top + (1.0 - (y - y_lo) / y_span) * (H - top - bottom));
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" \
         viewBox=\"0 0 {W} {H}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{W}\" height=\"{H}\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-size=\"13\">{}</text>\n",
        (left + W - right) / 2.0,
        escape(title)
    );
    let (x0, x1, y0, y1) = (left, W - right, H - bottom, top);
    s += &format!("<line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x1}\" y2=\"{y0}\" stroke=\"black\"/>\n");
    s += &format!("<line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x0}\" y2=\"{y1}\" stroke=\"black\"/>\n");
    for k in 0..=4 {
        let y = y_lo + y_span * f64::from(k) / 4.0;
        s += &format!(
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{x0}\" y2=\"{1}\" stroke=\"black\"/>\
             <text x=\"{2}\" y=\"{3}\" text-anchor=\"end\">{4}</text>\n",
            x0 - 5.0,
            py(y),
            x0 - 8.0,
            py(y) + 4.0,
            tick_label(y)
        );
        let x = x_lo + x_span * f64::from(k) / 4.0;
        s += &format!(
            "<line x1=\"{0}\" y1=\"{y0}\" x2=\"{0}\" y2=\"{1}\" stroke=\"black\"/>\
             <text x=\"{0}\" y=\"{2}\" text-anchor=\"middle\">{3}</text>\n",
            px(x),
            y0 + 5.0,
            y0 + 18.0,
            tick_label(x)
        );
    }
    s += &format!(
        "<text x=\"18\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 18 {0})\">{1}</text>\n\
         <text x=\"{2}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        (y0 + y1) / 2.0,
        escape(y_label),
        (x0 + x1) / 2.0,
        H - 10.0,
        escape(x_label)
    );
    for (i, line) in series.iter().enumerate() {
        let color = line.color;
        let points: Vec<String> =
            line.points.iter().map(|&(x, y)| format!("{},{}", px(x), py(y))).collect();
        if points.len() == 1 {
            let (x, y) = line.points[0];
            s += &format!("<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{color}\"/>\n", px(x), py(y));
        } else if !points.is_empty() {
            s += &format!(
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"1.5\"/>\n",
                points.join(" ")
            );
        }
        let ly = top + 16.0 * i as f64;
        s += &format!(
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{color}\" stroke-width=\"2\"/>\
             <text x=\"{3}\" y=\"{4}\">{5}</text>\n",
            x1 + 10.0,
            ly,
            x1 + 30.0,
            x1 + 36.0,
            ly + 4.0,
            escape(line.name)
        );
    }
    s + "</svg>\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_has_each_series_and_its_legend() {
        let svg = line_chart(
            "loss & more",
            "step",
            "loss",
            &[
                Series { name: "train", color: "steelblue", points: vec![(1.0, 3.0), (2.0, 2.5)] },
                Series { name: "held out", color: "darkorange", points: vec![(2.0, 2.7)] },
                Series { name: "empty", color: "gray", points: vec![] },
            ],
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert_eq!(svg.matches("<circle").count(), 1);
        assert!(svg.contains(">held out<") && svg.contains("loss &amp; more"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }
}
