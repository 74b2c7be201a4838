//! SVG charts with plotters' SVG backend (no system fonts: the text is left to the
//! viewer's), small and self-contained.

use plotters::prelude::*;

/// One bar: its label, its height, and an interval drawn as a whisker.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub interval: Option<[f64; 2]>,
}

/// A vertical bar chart: one bar per item from `reference` (a line across: 0 Elo, 50 %)
/// to its value, whiskers for the intervals.
pub fn bars(title: &str, y_label: &str, bars: &[Bar], reference: f64) -> Result<String, String> {
    let mut out = String::new();
    {
        // Room under each bar for its label (about 7 pixels a character at this size).
        let longest = bars
            .iter()
            .map(|b| b.label.chars().count())
            .max()
            .unwrap_or(0) as u32;
        let per_bar = (longest * 7 + 16).max(110);
        let width = (160 + per_bar * bars.len() as u32).max(480);
        let root = SVGBackend::with_string(&mut out, (width, 400)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut lo = reference;
        let mut hi = reference;
        for b in bars {
            lo = lo.min(b.value);
            hi = hi.max(b.value);
            if let Some([a, z]) = b.interval {
                lo = lo.min(a);
                hi = hi.max(z);
            }
        }
        let pad = ((hi - lo) * 0.1).max(1e-9);
        let n = bars.len().max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d(0f64..n as f64, (lo - pad)..(hi + pad))
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_desc(y_label)
            .draw()
            .map_err(|e| e.to_string())?;
        // Each bar's label under it, at the foot of the plot.
        let label_style = TextStyle::from(("sans-serif", 13).into_font()).pos(
            plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Center,
                plotters::style::text_anchor::VPos::Bottom,
            ),
        );
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                Text::new(
                    b.label.clone(),
                    (i as f64 + 0.5, lo - pad),
                    label_style.clone(),
                )
            }))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                let x = i as f64;
                Rectangle::new(
                    [(x + 0.2, reference), (x + 0.8, b.value)],
                    RGBColor(70, 110, 170).filled(),
                )
            }))
            .map_err(|e| e.to_string())?;
        for (i, b) in bars.iter().enumerate() {
            if let Some([a, z]) = b.interval {
                let x = i as f64 + 0.5;
                let style = BLACK.stroke_width(2);
                chart
                    .draw_series([
                        PathElement::new(vec![(x, a), (x, z)], style),
                        PathElement::new(vec![(x - 0.1, a), (x + 0.1, a)], style),
                        PathElement::new(vec![(x - 0.1, z), (x + 0.1, z)], style),
                    ])
                    .map_err(|e| e.to_string())?;
            }
        }
        chart
            .draw_series([PathElement::new(
                vec![(0.0, reference), (n as f64, reference)],
                RGBColor(150, 150, 150).stroke_width(1),
            )])
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}
