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

/// One chart of a [`panels`] picture.
#[derive(Clone, Debug, PartialEq)]
pub enum Panel {
    /// Labelled bars from `reference` (a line across: 0 Elo, 50 %) to each value.
    Bars {
        title: String,
        y_label: String,
        bars: Vec<Bar>,
        reference: f64,
    },
    /// A distribution over whole numbers (damage, sticks): a bar at each value on a numeric
    /// axis, its height the chance in percent.
    Histogram {
        title: String,
        x_label: String,
        points: Vec<(i64, f64)>,
    },
}

/// A vertical bar chart: one bar per item from `reference` (a line across: 0 Elo, 50 %)
/// to its value, whiskers for the intervals.
pub fn bars(title: &str, y_label: &str, bars: &[Bar], reference: f64) -> Result<String, String> {
    panels(&[Panel::Bars {
        title: title.to_string(),
        y_label: y_label.to_string(),
        bars: bars.to_vec(),
        reference,
    }])
}

const PANEL_HEIGHT: u32 = 400;

/// Charts one under another in one SVG.
pub fn panels(panels: &[Panel]) -> Result<String, String> {
    let width = panels
        .iter()
        .map(|p| match p {
            Panel::Bars { bars, .. } => {
                // Room under each bar for its label (about 7 pixels a character).
                let longest = bars
                    .iter()
                    .map(|b| b.label.chars().count())
                    .max()
                    .unwrap_or(0) as u32;
                let per_bar = (longest * 7 + 16).max(110);
                (160 + per_bar * bars.len() as u32).max(480)
            }
            Panel::Histogram { .. } => 720,
        })
        .max()
        .unwrap_or(480)
        // Room for the longest title (about 10 pixels a character at 20 px).
        .max(
            panels
                .iter()
                .map(|p| match p {
                    Panel::Bars { title, .. } | Panel::Histogram { title, .. } => {
                        title.chars().count() as u32 * 10 + 40
                    }
                })
                .max()
                .unwrap_or(0),
        );
    let mut out = String::new();
    {
        let height = PANEL_HEIGHT * panels.len().max(1) as u32;
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let areas = root.split_evenly((panels.len().max(1), 1));
        for (p, area) in panels.iter().zip(&areas) {
            match p {
                Panel::Bars {
                    title,
                    y_label,
                    bars,
                    reference,
                } => draw_bars(area, title, y_label, bars, *reference)?,
                Panel::Histogram {
                    title,
                    x_label,
                    points,
                } => draw_histogram(area, title, x_label, points)?,
            }
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn draw_bars(
    root: &Area,
    title: &str,
    y_label: &str,
    bars: &[Bar],
    reference: f64,
) -> Result<(), String> {
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
    let mut chart = ChartBuilder::on(root)
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
    Ok(())
}

/// A distribution's bars on a numeric axis: each as wide as 80 % of the closest gap
/// between two values (damage in tens draws as wide bars), heights in percent.
fn draw_histogram(
    root: &Area,
    title: &str,
    x_label: &str,
    points: &[(i64, f64)],
) -> Result<(), String> {
    let lo = points.iter().map(|p| p.0).min().unwrap_or(0);
    let hi = points.iter().map(|p| p.0).max().unwrap_or(0);
    let gap = points
        .windows(2)
        .map(|w| (w[1].0 - w[0].0).abs())
        .filter(|g| *g > 0)
        .min()
        .unwrap_or(1) as f64;
    let top = points.iter().map(|p| 100.0 * p.1).fold(0.0, f64::max);
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(
            (lo as f64 - gap)..(hi as f64 + gap),
            0f64..(top * 1.1).max(1e-9),
        )
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(x_label)
        .y_desc("chance (%)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()
        .map_err(|e| e.to_string())?;
    let half = 0.4 * gap;
    chart
        .draw_series(points.iter().map(|&(x, p)| {
            let x = x as f64;
            Rectangle::new(
                [(x - half, 0.0), (x + half, 100.0 * p)],
                RGBColor(70, 110, 170).filled(),
            )
        }))
        .map_err(|e| e.to_string())?;
    Ok(())
}
