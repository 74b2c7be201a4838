//! One SVG renderer for every game's table: [`svg`] draws a [`Scene`].
//!
//! # Design
//!
//! The renderer knows no game. It reads the scene's generic words — a grid's cells or an
//! open table's size, terrain by its properties (blocks sight, stands on, gives cover),
//! markers and pieces by their looks ([`MarkerLook`], [`PieceShape`]), states as words —
//! and draws each with one style. What makes a picture a game's is in the scene: names,
//! labels, stats, the key's notes.
//!
//! The picture is drawn in *world units*: the viewBox is the table measured in its own unit
//! (cells, sticks, inches), and a world point `(x, y)` (y up, as players measure) is drawn
//! at SVG `(x, -y)`. A client turns a click into a table point with the SVG's screen matrix
//! and one sign change, and every element says what it is: `data-piece="u3"`,
//! `data-cell="c4"`, `data-terrain`, `data-marker`, and the root's `data-unit` and
//! `data-y="up"`. Text is escaped in one place ([`Writer`]). Numbers are printed to a fixed
//! precision, so the same scene always gives the same bytes.
//!
//! # Rejected alternative
//!
//! A drawing library (plotters, resvg's usvg tree) would give us paths and text layout we
//! do not need and take away the plain element-per-thing output a browser scripts against
//! (plotters writes anonymous paths; the lab uses it for charts, where that is fine). SVG
//! is a handful of element types here; we write them.

use battlemat_core::scene::{
    FireArc, Marker, MarkerLook, Piece, PieceShape, Region, Scene, Shape, TableKind, Target,
    TerrainPiece, Trace, TraceKind,
};
use std::collections::BTreeSet;
use std::fmt::Write;

/// Side colours, by side number.
pub const SIDE_COLOURS: [&str; 6] = [
    "#2f6fce", "#c8372d", "#2e9e44", "#8e55c7", "#e07b00", "#1aa5b5",
];
const NEUTRAL: &str = "#6f6f6f";

/// A side's colour.
pub fn side_colour(side: Option<u8>) -> &'static str {
    side.map_or(NEUTRAL, |s| SIDE_COLOURS[s as usize % SIDE_COLOURS.len()])
}

/// The largest number of elements drawn for cells and grid lines, whatever the table: a
/// picture of a huge table stays a bounded document.
const MAX_CELLS: usize = 20_000;
const MAX_GRID_LINES: i64 = 400;

/// A number for SVG: at most three decimals, no trailing zeros, no `-0`.
fn n(v: f64) -> String {
    let v = (v * 1000.0).round() / 1000.0;
    let v = if v == 0.0 { 0.0 } else { v };
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// Text and attribute values escaped: the one place that does it.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// An SVG document being written: elements with attributes, text escaped once.
struct Writer {
    out: String,
}

impl Writer {
    /// An element's start tag; a repeated attribute keeps its last value (SVG refuses a
    /// repeat, so a style laid over another's may simply name it again).
    fn open(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.out.push('<');
        self.out.push_str(tag);
        for (i, (k, v)) in attrs.iter().enumerate() {
            if attrs[i + 1..].iter().any(|(later, _)| later == k) {
                continue;
            }
            let _ = write!(self.out, " {k}=\"{}\"", esc(v));
        }
        self.out.push('>');
    }
    fn empty(&mut self, tag: &str, attrs: &[(&str, String)]) {
        self.open(tag, attrs);
        self.out.pop();
        self.out.push_str("/>");
    }
    fn close(&mut self, tag: &str) {
        let _ = write!(self.out, "</{tag}>");
    }
    fn text(&mut self, attrs: &[(&str, String)], text: &str) {
        self.open("text", attrs);
        self.out.push_str(&esc(text));
        self.close("text");
    }
    fn title(&mut self, text: &str) {
        self.open("title", &[]);
        self.out.push_str(&esc(text));
        self.close("title");
    }
    fn nl(&mut self) {
        self.out.push('\n');
    }
}

fn a(k: &'static str, v: impl ToString) -> (&'static str, String) {
    (k, v.to_string())
}

/// SVG coordinates of a world point.
fn sv(p: [f64; 2]) -> (String, String) {
    (n(p[0]), n(-p[1]))
}

fn points(pts: &[[f64; 2]]) -> String {
    pts.iter()
        .map(|p| {
            let (x, y) = sv(*p);
            format!("{x},{y}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The corners of a cell.
fn cell_corners(kind: TableKind, size: f64, x: f64, y: f64) -> Vec<[f64; 2]> {
    match kind {
        TableKind::Square | TableKind::Open => {
            let h = size / 2.0;
            vec![
                [x - h, y - h],
                [x + h, y - h],
                [x + h, y + h],
                [x - h, y + h],
            ]
        }
        TableKind::HexPointy | TableKind::HexFlat => {
            let start = if kind == TableKind::HexPointy {
                30.0
            } else {
                0.0
            };
            (0..6)
                .map(|k| {
                    let t = (start + 60.0 * k as f64).to_radians();
                    [x + size * t.cos(), y + size * t.sin()]
                })
                .collect()
        }
    }
}

/// The scale of text and strokes: a tenth of a cell, or of a fortieth of the table.
struct Scale {
    /// A typical label's size.
    em: f64,
    stroke: f64,
}

/// The scene as an SVG document.
pub fn svg(scene: &Scene) -> String {
    let t = &scene.table;
    let [x0, y0, x1, y1] = t.bounds;
    let span = (x1 - x0).max(y1 - y0).max(1e-6);
    let em = match t.cell_size {
        Some(c) => (c * 0.36).min(span / 30.0),
        None => span / 45.0,
    };
    let sc = Scale {
        em,
        stroke: em / 9.0,
    };
    // Words around the table (title, status, key) are sized to the whole picture, so a big
    // map's title stays readable.
    let words = Scale {
        em: em.max(span / 60.0),
        stroke: em / 9.0,
    };
    let margin = em * 2.2;
    let head = words.em * 1.6 * (1 + scene.status.len()) as f64 + words.em;
    let key_lines = scene.sides.len() + key_notes(scene).len() + 1;
    let foot = words.em * 1.4 * key_lines as f64 + em * 2.0;
    let (vx, vy) = (x0 - margin, -y1 - margin - head);
    let (vw, vh) = (x1 - x0 + 2.0 * margin, y1 - y0 + 2.0 * margin + head + foot);
    let px = 900.0 / vw.max(vh) * vw.max(vh) / vw.max(1e-6);
    let width = (900.0f64).max(px.min(1400.0));
    let height = width * vh / vw;
    let mut w = Writer { out: String::new() };
    w.open(
        "svg",
        &[
            a("xmlns", "http://www.w3.org/2000/svg"),
            a("width", n(width.round())),
            a("height", n(height.round())),
            a(
                "viewBox",
                format!("{} {} {} {}", n(vx), n(vy), n(vw), n(vh)),
            ),
            a("font-family", "sans-serif"),
            a("data-unit", &t.unit),
            a("data-y", "up"),
        ],
    );
    w.nl();
    defs(&mut w, &sc);
    let (bg, ink, felt) = match t.surface.as_str() {
        "space" => ("#0b0d1a", "#dde0f0", "#161a33"),
        _ => ("#fbfaf6", "#222", "#e9e2cf"),
    };
    w.empty(
        "rect",
        &[
            a("x", n(vx)),
            a("y", n(vy)),
            a("width", n(vw)),
            a("height", n(vh)),
            a("fill", bg),
        ],
    );
    w.nl();
    header(&mut w, scene, &words, [x0, y1 + margin * 0.3], ink);
    // The playing area.
    w.empty(
        "rect",
        &[
            a("x", n(0.0)),
            a("y", n(-t.height)),
            a("width", n(t.width)),
            a("height", n(t.height)),
            a("fill", if t.cells.is_empty() { felt } else { "none" }),
            a(
                "stroke",
                if t.surface == "space" {
                    "#3a4170"
                } else {
                    "#555"
                },
            ),
            a("stroke-width", n(sc.stroke * 2.0)),
            a("data-table", &t.unit),
        ],
    );
    w.nl();
    if t.kind == TableKind::Open {
        open_grid(&mut w, scene, &sc);
    } else {
        cells(&mut w, scene, &sc, felt);
    }
    for tp in &scene.terrain {
        terrain(&mut w, scene, tp, &sc);
    }
    for m in &scene.markers {
        marker(&mut w, scene, m, &sc);
    }
    for tr in &scene.traces {
        trace(&mut w, tr, &sc);
    }
    // Off-table groups: a caption over the first piece of each.
    let mut captions = BTreeSet::new();
    for p in &scene.pieces {
        if let Some(g) = &p.off_table
            && captions.insert((p.side, g.clone()))
        {
            let name = p
                .side
                .and_then(|s| scene.sides.get(s as usize))
                .map_or(String::new(), |s| format!("{}: ", s.name));
            let (x, y) = sv([p.x - p.radius, p.y + p.radius + em * 0.5]);
            w.text(
                &[
                    a("x", x),
                    a("y", y),
                    a("font-size", n(em * 0.8)),
                    a("fill", ink),
                ],
                &format!("{name}{g}"),
            );
        }
    }
    let acting: BTreeSet<&str> = scene
        .actions
        .iter()
        .filter_map(|x| x.anchors.piece.as_deref())
        .collect();
    // Out pieces under the rest; a stack's lower counters before its top.
    let mut order: Vec<&Piece> = scene.pieces.iter().collect();
    order.sort_by_key(|p| {
        (
            !p.out,
            std::cmp::Reverse(p.stack.as_ref().map_or(0, |s| s.index)),
        )
    });
    for p in order {
        piece(
            &mut w,
            p,
            &sc,
            acting.contains(p.id.as_str()),
            ink,
            t.kind == TableKind::Open,
        );
    }
    key(&mut w, scene, &words, [x0, y0 - margin * 0.6], ink);
    w.close("svg");
    w.nl();
    w.out
}

fn defs(w: &mut Writer, sc: &Scale) {
    let _ = write!(
        w.out,
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="{0}" markerHeight="{0}" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke"/></marker></defs>"#,
        n(sc.em * 0.9)
    );
    w.nl();
}

fn header(w: &mut Writer, scene: &Scene, sc: &Scale, at: [f64; 2], ink: &str) {
    let lines = scene.status.len() as f64;
    let mut y = at[1] + sc.em * 1.6 * lines + sc.em * 0.4;
    let (x, sy) = sv([at[0], y]);
    w.text(
        &[
            a("x", x),
            a("y", sy),
            a("font-size", n(sc.em * 1.25)),
            a("font-weight", "bold"),
            a("fill", ink),
            a("data-title", ""),
        ],
        &scene.title,
    );
    for line in &scene.status {
        y -= sc.em * 1.6;
        let (x, sy) = sv([at[0], y]);
        w.text(
            &[
                a("x", x),
                a("y", sy),
                a("font-size", n(sc.em)),
                a("fill", ink),
                a("data-status", ""),
            ],
            line,
        );
    }
    w.nl();
}

/// The open table: faint lines every unit (or every few, on a big table), and the
/// coordinates along the bottom and left edges, as a player types them.
fn open_grid(w: &mut Writer, scene: &Scene, sc: &Scale) {
    let t = &scene.table;
    let span = t.width.max(t.height);
    let mut step = 1.0;
    while span / step > 40.0 && step < 1e9 {
        step *= if (step.log10().fract()).abs() < 1e-9 {
            2.0
        } else {
            2.5
        };
    }
    let line = if t.surface == "space" {
        "#2a3050"
    } else {
        "#d6cfb8"
    };
    let tick = if t.surface == "space" {
        "#8890c8"
    } else {
        "#6b6250"
    };
    let mut k = 0i64;
    loop {
        let x = k as f64 * step;
        if x > t.width + 1e-9 || k > MAX_GRID_LINES {
            break;
        }
        if x > 0.0 && x < t.width {
            let (sx, _) = sv([x, 0.0]);
            w.empty(
                "line",
                &[
                    a("x1", &sx),
                    a("y1", n(0.0)),
                    a("x2", &sx),
                    a("y2", n(-t.height)),
                    a("stroke", line),
                    a("stroke-width", n(sc.stroke)),
                ],
            );
        }
        w.text(
            &[
                a("x", sx_of(x)),
                a("y", n(sc.em * 1.1)),
                a("font-size", n(sc.em * 0.7)),
                a("text-anchor", "middle"),
                a("fill", tick),
                a("data-axis", "x"),
            ],
            &n(x),
        );
        k += 1;
    }
    let mut k = 0i64;
    loop {
        let y = k as f64 * step;
        if y > t.height + 1e-9 || k > MAX_GRID_LINES {
            break;
        }
        if y > 0.0 && y < t.height {
            let (_, sy) = sv([0.0, y]);
            w.empty(
                "line",
                &[
                    a("x1", n(0.0)),
                    a("y1", &sy),
                    a("x2", n(t.width)),
                    a("y2", &sy),
                    a("stroke", line),
                    a("stroke-width", n(sc.stroke)),
                ],
            );
        }
        w.text(
            &[
                a("x", n(-sc.em * 0.4)),
                a("y", n(-y + sc.em * 0.25)),
                a("font-size", n(sc.em * 0.7)),
                a("text-anchor", "end"),
                a("fill", tick),
                a("data-axis", "y"),
            ],
            &n(y),
        );
        k += 1;
    }
    // A scale bar of one unit, and what the unit is.
    let (bx, by) = sv([t.width - step, -sc.em * 2.0]);
    let (ex, _) = sv([t.width, 0.0]);
    w.empty(
        "line",
        &[
            a("x1", &bx),
            a("y1", &by),
            a("x2", &ex),
            a("y2", &by),
            a("stroke", tick),
            a("stroke-width", n(sc.stroke * 3.0)),
        ],
    );
    w.text(
        &[
            a("x", &ex),
            a("y", n(sc.em * 2.0 + sc.em * 1.2)),
            a("font-size", n(sc.em * 0.7)),
            a("text-anchor", "end"),
            a("fill", tick),
        ],
        &format!(
            "{} {}{}",
            n(step),
            t.unit,
            if step == 1.0 { "" } else { "s" }
        ),
    );
    w.nl();
}

fn sx_of(x: f64) -> String {
    n(x)
}

fn cells(w: &mut Writer, scene: &Scene, sc: &Scale, felt: &str) {
    let t = &scene.table;
    let size = t.cell_size.unwrap_or(1.0);
    let (stroke, label) = if t.surface == "space" {
        ("#3a4170", "#7780b0")
    } else {
        ("#b9b09a", "#8a8070")
    };
    for c in t.cells.iter().take(MAX_CELLS) {
        let corners = cell_corners(t.kind, size, c.x, c.y);
        w.empty(
            "polygon",
            &[
                a("points", points(&corners)),
                a("fill", felt),
                a("stroke", stroke),
                a("stroke-width", n(sc.stroke)),
                a("data-cell", &c.name),
            ],
        );
        let (x, y) = sv([c.x, c.y + size * 0.55]);
        let _ = y;
        let top = match t.kind {
            TableKind::HexFlat => c.y + size * 0.866 - size * 0.3,
            TableKind::HexPointy => c.y + size * 0.55,
            _ => c.y + size * 0.5 - size * 0.22,
        };
        let (_, ty) = sv([c.x, top]);
        w.text(
            &[
                a("x", x),
                a("y", ty),
                a("font-size", n(size * 0.2)),
                a("text-anchor", "middle"),
                a("fill", label),
                a("font-family", "monospace"),
                a("pointer-events", "none"),
            ],
            &c.name,
        );
    }
    w.nl();
}

/// Where a shape is drawn, as SVG element(s) with these style attributes.
fn shape(w: &mut Writer, scene: &Scene, s: &Shape, style: &[(&'static str, String)], title: &str) {
    let t = &scene.table;
    let size = t.cell_size.unwrap_or(1.0);
    // The shape's own attributes win over the style's (an open line is never filled).
    let put = |w: &mut Writer, tag: &str, attrs: Vec<(&'static str, String)>| {
        let mut all: Vec<(&'static str, String)> = style.to_vec();
        all.extend(attrs);
        w.open(tag, &all);
        w.title(title);
        w.close(tag);
    };
    match s {
        Shape::Cells { cells } => {
            for name in cells {
                if let Some(c) = scene.cell(name) {
                    let corners = cell_corners(t.kind, size, c.x, c.y);
                    put(w, "polygon", vec![a("points", points(&corners))]);
                }
            }
        }
        Shape::Circle { x, y, r } => {
            let (cx, cy) = sv([*x, *y]);
            put(w, "circle", vec![a("cx", cx), a("cy", cy), a("r", n(*r))]);
        }
        Shape::Polygon { points: p } => put(w, "polygon", vec![a("points", points(p))]),
        Shape::Line { points: p } => put(
            w,
            "polyline",
            vec![a("points", points(p)), a("fill", "none")],
        ),
    }
}

/// A shape's centre, for its label.
fn centre(scene: &Scene, s: &Shape) -> Option<[f64; 2]> {
    let avg = |p: &[[f64; 2]]| {
        let k = p.len().max(1) as f64;
        [
            p.iter().map(|q| q[0]).sum::<f64>() / k,
            p.iter().map(|q| q[1]).sum::<f64>() / k,
        ]
    };
    match s {
        Shape::Cells { cells } => {
            let pts: Vec<[f64; 2]> = cells
                .iter()
                .filter_map(|c| scene.cell(c).map(|c| [c.x, c.y]))
                .collect();
            (!pts.is_empty()).then(|| avg(&pts))
        }
        Shape::Circle { x, y, .. } => Some([*x, *y]),
        Shape::Polygon { points } | Shape::Line { points } => {
            (!points.is_empty()).then(|| avg(points))
        }
    }
}

/// Terrain by its properties: sight-blocking dark, stand-on brown, cover dashed green.
fn terrain_fill(t: &TerrainPiece) -> (&'static str, &'static str) {
    if t.cover {
        ("#cfd8c3", "#55704a")
    } else if t.blocks_sight && t.stand_on {
        ("#8a7650", "#3e3222")
    } else if t.blocks_sight {
        ("#5c5c5c", "#2b2b2b")
    } else if t.stand_on {
        ("#b08d57", "#6b5330")
    } else {
        ("#b9b4a4", "#6f6a5c")
    }
}

fn terrain(w: &mut Writer, scene: &Scene, t: &TerrainPiece, sc: &Scale) {
    let (fill, stroke) = terrain_fill(t);
    let mut title = t.name.clone();
    if t.name != t.kind {
        title = format!("{} ({})", t.name, t.kind);
    }
    if let Some(h) = t.height {
        let _ = write!(title, ", height {} {}", n(h), scene.table.unit);
    }
    if t.blocks_sight {
        title.push_str(", blocks sight");
    }
    if let Some(k) = t.holds {
        let _ = write!(title, ", holds {k}");
    }
    w.open("g", &[a("data-terrain", &t.id), a("data-kind", &t.kind)]);
    let mut style = vec![
        a("fill", fill),
        a("stroke", stroke),
        a("stroke-width", n(sc.stroke * 1.5)),
    ];
    if t.cover {
        style.push(a(
            "stroke-dasharray",
            format!("{} {}", n(sc.em * 0.4), n(sc.em * 0.25)),
        ));
    }
    shape(w, scene, &t.shape, &style, &title);
    // Names on open tables (pieces are few and large); a grid's cells say it by colour.
    if scene.table.kind == TableKind::Open
        && let Some(c) = centre(scene, &t.shape)
    {
        let mut label = t.name.clone();
        if let Some(h) = t.height {
            let _ = write!(label, " h{}", n(h));
        }
        let (x, y) = sv(c);
        w.text(
            &[
                a("x", x),
                a("y", y),
                a("font-size", n(sc.em * 0.75)),
                a("text-anchor", "middle"),
                a("fill", "#fff"),
                a("pointer-events", "none"),
            ],
            &label,
        );
    }
    w.close("g");
    w.nl();
}

fn marker(w: &mut Writer, scene: &Scene, m: &Marker, sc: &Scale) {
    let col = side_colour(m.side);
    let dash = |k: f64| format!("{} {}", n(sc.em * k), n(sc.em * k * 0.6));
    let style: Vec<(&'static str, String)> = match m.look {
        MarkerLook::Objective => vec![
            a("fill", "none"),
            a("stroke", "#d4a017"),
            a("stroke-width", n(sc.stroke * 3.5)),
        ],
        MarkerLook::Goal => vec![
            a("fill", col),
            a("fill-opacity", "0.25"),
            a("stroke", col),
            a("stroke-width", n(sc.stroke * 8.0)),
        ],
        MarkerLook::Zone => vec![
            a("fill", "#2e7d32"),
            a(
                "fill-opacity",
                if m.label.contains("cleared") {
                    "0.10"
                } else {
                    "0"
                },
            ),
            a("stroke", "#444"),
            a("stroke-width", n(sc.stroke * 2.0)),
            a("stroke-dasharray", dash(0.8)),
        ],
        MarkerLook::Ring => vec![
            a("fill", "#f4efe0"),
            a("fill-opacity", "0.6"),
            a("stroke", "#8c6d31"),
            a("stroke-width", n(sc.stroke * 4.0)),
        ],
        MarkerLook::Danger => vec![
            a("fill", "#c00"),
            a("fill-opacity", "0.06"),
            a("stroke", "#c00"),
            a("stroke-width", n(sc.stroke)),
            a("stroke-dasharray", dash(0.3)),
        ],
        MarkerLook::Area => vec![
            a("fill", "#4f8fd6"),
            a("fill-opacity", "0.30"),
            a("stroke", "#4f8fd6"),
            a("stroke-width", n(sc.stroke)),
        ],
        MarkerLook::Board => vec![
            a("fill", "none"),
            a("stroke", "#8890c8"),
            a("stroke-width", n(sc.stroke * 1.5)),
            a("stroke-dasharray", dash(0.6)),
        ],
    };
    w.open(
        "g",
        &[
            a("data-marker", &m.id),
            a("data-kind", &m.kind),
            a("pointer-events", "none"),
        ],
    );
    let title = if m.label.is_empty() {
        m.name.clone()
    } else {
        format!("{}: {}", m.name, m.label)
    };
    shape(w, scene, &m.shape, &style, &title);
    if !m.label.is_empty()
        && let Some(c) = label_place(scene, &m.shape)
    {
        let (x, y) = sv(c);
        let fill = if scene.table.surface == "space" {
            "#aab"
        } else {
            "#333"
        };
        w.text(
            &[
                a("x", x),
                a("y", y),
                a("font-size", n(sc.em * 0.85)),
                a("fill", fill),
            ],
            &m.label,
        );
    }
    w.close("g");
    w.nl();
}

/// A marker's label: inside its top-left corner for areas and lines, at its centre otherwise.
fn label_place(scene: &Scene, s: &Shape) -> Option<[f64; 2]> {
    match s {
        Shape::Polygon { points } | Shape::Line { points } if !points.is_empty() => {
            let minx = points.iter().map(|p| p[0]).fold(f64::INFINITY, f64::min);
            let maxy = points
                .iter()
                .map(|p| p[1])
                .fold(f64::NEG_INFINITY, f64::max);
            let em = scene.table.width.max(scene.table.height) / 60.0;
            Some([minx + em * 0.4, maxy - em * 1.3])
        }
        _ => centre(scene, s),
    }
}

fn trace(w: &mut Writer, t: &Trace, sc: &Scale) {
    if t.points.len() < 2 {
        return;
    }
    let (colour, dash, width) = match t.kind {
        TraceKind::Move => (
            "#1f4e99",
            format!("{} {}", n(sc.em * 0.5), n(sc.em * 0.3)),
            2.5,
        ),
        TraceKind::Shot => (
            "#e67e00",
            format!("{} {}", n(sc.em * 0.2), n(sc.em * 0.25)),
            2.5,
        ),
        TraceKind::Knockback => ("#c0161d", "none".to_string(), 3.0),
        TraceKind::Declared => ("#d4a017", "none".to_string(), 4.0),
        TraceKind::Blast => ("#f80", "none".to_string(), 1.5),
    };
    w.open(
        "g",
        &[
            a("data-trace", format!("{:?}", t.kind).to_lowercase()),
            a("pointer-events", "none"),
        ],
    );
    if t.kind == TraceKind::Blast {
        let (c, e) = (t.points[0], t.points[1]);
        let r = (e[0] - c[0]).hypot(e[1] - c[1]);
        let (cx, cy) = sv(c);
        w.open(
            "circle",
            &[
                a("cx", cx),
                a("cy", cy),
                a("r", n(r)),
                a("fill", colour),
                a("fill-opacity", "0.3"),
                a("stroke", colour),
                a("stroke-width", n(sc.stroke * width)),
            ],
        );
    } else {
        w.open(
            "polyline",
            &[
                a("points", points(&t.points)),
                a("fill", "none"),
                a("stroke", colour),
                a("stroke-width", n(sc.stroke * width)),
                a("stroke-dasharray", dash),
                a("marker-end", "url(#arrow)"),
                a("stroke-opacity", "0.85"),
            ],
        );
    }
    w.title(&t.label);
    w.close(if t.kind == TraceKind::Blast {
        "circle"
    } else {
        "polyline"
    });
    w.close("g");
    w.nl();
}

/// A fire arc: a wedge (or a disc for all round) centred on the facing. World angles turn
/// anticlockwise; drawn with y flipped, that is SVG's positive sweep.
fn arc(w: &mut Writer, p: &Piece, f: &FireArc, facing: f64, sc: &Scale) {
    let style = [
        a("fill", "#ffffff"),
        a("fill-opacity", "0.10"),
        a("stroke", "#ffffff"),
        a("stroke-opacity", "0.35"),
        a("stroke-width", n(sc.stroke)),
        a("data-arc", n(f.degrees)),
    ];
    let (cx, cy) = sv([p.x, p.y]);
    if f.degrees >= 360.0 {
        let mut attrs = vec![a("cx", cx), a("cy", cy), a("r", n(f.reach))];
        attrs.extend(style);
        w.empty("circle", &attrs);
        return;
    }
    let at = |deg: f64| {
        let t = deg.to_radians();
        sv([p.x + f.reach * t.cos(), p.y + f.reach * t.sin()])
    };
    let (ax, ay) = at(facing - f.degrees / 2.0);
    let (bx, by) = at(facing + f.degrees / 2.0);
    let large = u8::from(f.degrees > 180.0);
    // Anticlockwise on the table from one edge to the other is clockwise on screen (y is
    // flipped): sweep flag 0.
    let d = format!(
        "M {cx} {cy} L {ax} {ay} A {r} {r} 0 {large} 0 {bx} {by} Z",
        r = n(f.reach)
    );
    let mut attrs = vec![a("d", d)];
    attrs.extend(style);
    w.empty("path", &attrs);
}

fn piece(w: &mut Writer, p: &Piece, sc: &Scale, acts: bool, ink: &str, open: bool) {
    let colour = match (&p.tint, p.side) {
        (Some(t), _) => t.as_str(),
        (None, s) => side_colour(s),
    };
    let fill = if p.out { "#9a9a9a" } else { colour };
    let r = p.radius;
    let mut attrs = vec![a("data-piece", &p.id), a("data-kind", &p.kind)];
    if let Some(s) = p.side {
        attrs.push(a("data-side", s));
    }
    if let Some(c) = &p.cell {
        attrs.push(a("data-cell", c));
    }
    if acts {
        attrs.push(a("data-acts", "true"));
    }
    if p.dim {
        attrs.push(a("opacity", "0.55"));
    }
    w.open("g", &attrs);
    w.title(&card(p));
    if let (Some(f), Some(facing)) = (&p.arc, p.facing)
        && !p.out
    {
        arc(w, p, f, facing, sc);
    }
    let (cx, cy) = sv([p.x, p.y]);
    let sw = n(sc.stroke * 1.6);
    let dash = if p.dim && p.states.iter().any(|s| s == "hidden") {
        Some(a(
            "stroke-dasharray",
            format!("{} {}", n(r * 0.3), n(r * 0.2)),
        ))
    } else {
        None
    };
    let mut body: Vec<(&'static str, String)> = vec![a("fill", fill)];
    match p.shape {
        PieceShape::Disc | PieceShape::Token | PieceShape::Ringed => {
            let ring = if p.shape == PieceShape::Ringed {
                "#f2c94c"
            } else {
                "#111"
            };
            body.extend([
                a("cx", &cx),
                a("cy", &cy),
                a("r", n(r)),
                a("stroke", ring),
                a(
                    "stroke-width",
                    if p.shape == PieceShape::Ringed {
                        n(sc.stroke * 3.5)
                    } else {
                        sw.clone()
                    },
                ),
            ]);
            body.extend(dash);
            w.empty("circle", &body);
        }
        PieceShape::Hull => {
            body.extend([
                a("cx", &cx),
                a("cy", &cy),
                a("r", n(r)),
                a("stroke", "#1d3557"),
                a("stroke-width", n(sc.stroke * 3.0)),
            ]);
            w.empty("circle", &body);
            let bow = p.facing.unwrap_or(90.0).to_radians();
            let tip = [p.x + r * 0.95 * bow.cos(), p.y + r * 0.95 * bow.sin()];
            let side = |d: f64| {
                let t = bow + d.to_radians();
                [p.x + r * 0.6 * t.cos(), p.y + r * 0.6 * t.sin()]
            };
            w.empty(
                "polygon",
                &[
                    a("points", points(&[side(-35.0), tip, side(35.0)])),
                    a("fill", "#1d3557"),
                ],
            );
        }
        PieceShape::Square | PieceShape::Counter => {
            let h = r * 0.9;
            body.extend([
                a("x", n(p.x - h)),
                a("y", n(-p.y - h)),
                a("width", n(2.0 * h)),
                a("height", n(2.0 * h)),
                a("rx", n(h * 0.08)),
                a("stroke", "#111"),
                a("stroke-width", sw.clone()),
            ]);
            if p.shape == PieceShape::Counter && !p.out {
                for (k, v) in body.iter_mut() {
                    match *k {
                        "fill" => *v = lighten(colour),
                        "stroke" => *v = colour.to_string(),
                        _ => {}
                    }
                }
            }
            w.empty("rect", &body);
        }
        PieceShape::Diamond => {
            body.extend([
                a(
                    "points",
                    points(&[
                        [p.x, p.y + r],
                        [p.x + r, p.y],
                        [p.x, p.y - r],
                        [p.x - r, p.y],
                    ]),
                ),
                a("stroke", "#111"),
                a("stroke-width", sw.clone()),
            ]);
            w.empty("polygon", &body);
        }
    }
    if acts {
        w.empty(
            "circle",
            &[
                a("cx", &cx),
                a("cy", &cy),
                a("r", n(r * 1.25)),
                a("fill", "none"),
                a("stroke", "#00c853"),
                a("stroke-width", n(sc.stroke * 2.0)),
                a("data-can-act", ""),
            ],
        );
    }
    // The label: one line or several (a counter's code and its values).
    let lines: Vec<&str> = p.label.lines().collect();
    let counter = p.shape == PieceShape::Counter;
    let size = if counter {
        r * 0.55
    } else {
        (r * 0.8).min(sc.em * 1.2)
    };
    let text_fill = if counter && !p.out { colour } else { "#fff" };
    for (i, line) in lines.iter().enumerate() {
        let dy = (i as f64 - (lines.len() as f64 - 1.0) / 2.0) * size * 1.1 + size * 0.35;
        w.text(
            &[
                a("x", &cx),
                a("y", n(-p.y + dy)),
                a("font-size", n(size)),
                a("font-weight", "bold"),
                a("text-anchor", "middle"),
                a("fill", text_fill),
                a("pointer-events", "none"),
            ],
            line,
        );
    }
    // The id under the base on an open table (a grid's cells are tight: there the label
    // names the piece, and the card has the id).
    if !counter && open {
        w.text(
            &[
                a("x", &cx),
                a("y", n(-p.y + r + sc.em * 0.8)),
                a("font-size", n(sc.em * 0.7)),
                a("text-anchor", "middle"),
                a("fill", ink),
                a("pointer-events", "none"),
            ],
            &p.id,
        );
    }
    // The first bar (a quantity with its maximum: the main one) across the base's foot;
    // the rest are on the card.
    for (i, b) in p.bars.iter().take(1).enumerate() {
        let share = if b.max > 0 {
            (b.value as f64 / b.max as f64).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let y = -p.y + r * 0.55 + i as f64 * sc.em * 0.3;
        let x = p.x - r * 0.9;
        for (wid, c) in [(2.0 * r * 0.9, "#e33"), (2.0 * r * 0.9 * share, "#4e4")] {
            w.empty(
                "rect",
                &[
                    a("x", n(x)),
                    a("y", n(y)),
                    a("width", n(wid)),
                    a("height", n(sc.em * 0.22)),
                    a("fill", c),
                    a("data-bar", &b.name),
                ],
            );
        }
    }
    // States in words, above the base; a stunned or out piece crossed.
    let shown: Vec<&str> = p
        .states
        .iter()
        .map(String::as_str)
        .filter(|s| *s != "acted")
        .collect();
    if !shown.is_empty() && !counter {
        w.text(
            &[
                a("x", &cx),
                a("y", n(-p.y - r - sc.em * 0.25)),
                a("font-size", n(sc.em * 0.65)),
                a("text-anchor", "middle"),
                a("fill", "#c0161d"),
                a("font-weight", "bold"),
                a("pointer-events", "none"),
            ],
            &shown.join(", "),
        );
    }
    if counter && !shown.is_empty() {
        let mark: String = shown
            .iter()
            .map(|s| s.chars().next().unwrap_or(' ').to_ascii_uppercase())
            .collect();
        w.text(
            &[
                a("x", n(p.x + r * 0.55)),
                a("y", n(-p.y - r * 0.45)),
                a("font-size", n(r * 0.45)),
                a("fill", "#c00"),
                a("font-weight", "bold"),
                a("pointer-events", "none"),
            ],
            &mark,
        );
    }
    if let Some(s) = &p.stack
        && s.index == 0
        && s.of > 1
    {
        w.text(
            &[
                a("x", n(p.x - r * 0.85)),
                a("y", n(-p.y - r * 0.55)),
                a("font-size", n(r * 0.38)),
                a("fill", "#000"),
                a("pointer-events", "none"),
            ],
            &format!("×{}", s.of),
        );
    }
    if p.out || p.states.iter().any(|s| s == "stunned") {
        let k = r * 0.75;
        let c = if p.out { "#444" } else { "#ffd600" };
        w.empty(
            "path",
            &[
                a(
                    "d",
                    format!(
                        "M {} {} L {} {} M {} {} L {} {}",
                        n(p.x - k),
                        n(-p.y - k),
                        n(p.x + k),
                        n(-p.y + k),
                        n(p.x - k),
                        n(-p.y + k),
                        n(p.x + k),
                        n(-p.y - k)
                    ),
                ),
                a("stroke", c),
                a("stroke-width", n(sc.stroke * 3.0)),
                a("pointer-events", "none"),
            ],
        );
    }
    w.close("g");
    w.nl();
}

/// A counter's pale fill from its side's colour.
fn lighten(hex: &str) -> String {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0x6f6f6f);
    let mix = |c: u32| (c + (255 - c) * 3 / 4).min(255);
    format!(
        "#{:02x}{:02x}{:02x}",
        mix((v >> 16) & 0xff),
        mix((v >> 8) & 0xff),
        mix(v & 0xff)
    )
}

/// A piece's card: what hovering shows.
pub fn card(p: &Piece) -> String {
    let mut s = format!("{} {} ({})", p.id, p.name, p.kind);
    if let Some(c) = &p.cell {
        let _ = write!(s, " at {c}");
    } else if p.off_table.is_none() {
        let _ = write!(s, " at {},{}", n(p.x), n(p.y));
    }
    if let Some(o) = &p.off_table {
        let _ = write!(s, ", {o}");
    }
    for st in &p.stats {
        let _ = write!(s, "\n{}: {}", st.name, st.value);
    }
    for b in &p.bars {
        let _ = write!(s, "\n{}: {}/{}", b.name, b.value, b.max);
    }
    if !p.states.is_empty() {
        let _ = write!(s, "\n{}", p.states.join(", "));
    }
    if let Some(x) = &p.aboard {
        let _ = write!(s, "\naboard {x}");
    }
    s
}

/// The key's notes: what the looks in this scene mean, then the game's own.
fn key_notes(scene: &Scene) -> Vec<String> {
    let mut notes = Vec::new();
    let terr: BTreeSet<&str> = scene.terrain.iter().map(|t| t.kind.as_str()).collect();
    if !terr.is_empty() {
        notes.push(format!(
            "terrain: {}",
            terr.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    if scene.pieces.iter().any(|p| p.arc.is_some()) {
        notes.push("pale wedge: fire arc".into());
    }
    if scene.pieces.iter().any(|p| p.dim) {
        notes.push("faded: has acted or is hidden".into());
    }
    if !scene.actions.is_empty() {
        notes.push("green ring: may act now".into());
    }
    if !scene.traces.is_empty() {
        notes.push("arrows: last move (blue dashes), shot (orange dots), knockback (red)".into());
    }
    notes.extend(scene.key.iter().cloned());
    notes
}

fn key(w: &mut Writer, scene: &Scene, sc: &Scale, at: [f64; 2], ink: &str) {
    let mut y = at[1] - sc.em * 1.8;
    w.open("g", &[a("data-key", "")]);
    for (i, s) in scene.sides.iter().enumerate() {
        let (x, sy) = sv([at[0], y]);
        w.empty(
            "rect",
            &[
                a("x", &x),
                a("y", n(-y - sc.em * 0.8)),
                a("width", n(sc.em * 0.9)),
                a("height", n(sc.em * 0.9)),
                a("fill", side_colour(Some(i as u8))),
            ],
        );
        let mut line = s.name.clone();
        if !s.note.is_empty() {
            let _ = write!(line, ": {}", s.note);
        }
        if s.to_act {
            line.push_str(" (to act)");
        }
        w.text(
            &[
                a("x", n(at[0] + sc.em * 1.3)),
                a("y", sy),
                a("font-size", n(sc.em * 0.9)),
                a("fill", ink),
                a("font-weight", if s.to_act { "bold" } else { "normal" }),
            ],
            &line,
        );
        let _ = x;
        y -= sc.em * 1.4;
    }
    for note in key_notes(scene) {
        let (x, sy) = sv([at[0], y]);
        w.text(
            &[
                a("x", x),
                a("y", sy),
                a("font-size", n(sc.em * 0.8)),
                a("fill", ink),
            ],
            &note,
        );
        y -= sc.em * 1.4;
    }
    w.close("g");
    w.nl();
}

/// Where an action's anchors point, for a caller that draws them (the browser): the
/// target's point, if it has one in the scene.
pub fn target_point(scene: &Scene, t: &Target) -> Option<[f64; 2]> {
    match t {
        Target::Piece { id } => scene.piece(id).map(|p| [p.x, p.y]),
        Target::Cell { name } => scene.cell(name).map(|c| [c.x, c.y]),
        Target::Point { x, y } => Some([*x, *y]),
    }
}

/// A free point's region as a short description ("within 1.5 of 2,3").
pub fn describe_region(r: &Region) -> String {
    match r {
        Region::Circle { x, y, r } => format!("within {} of {},{}", n(*r), n(*x), n(*y)),
        Region::Path { points } => format!("on a path of {} points", points.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battlemat_core::scene::*;

    fn open_scene() -> Scene {
        let mut p = Piece::new(
            "u0",
            "Zaku <II> & \"co\"",
            "mobile suit",
            PieceShape::Disc,
            [1.0, 2.0],
            0.25,
        );
        p.side = Some(0);
        p.facing = Some(90.0);
        p.arc = Some(FireArc {
            degrees: 180.0,
            reach: 3.0,
        });
        p.label = "4V".into();
        let mut c = Piece::new("u1", "GM", "ms", PieceShape::Counter, [4.0, 1.0], 0.26);
        c.side = Some(1);
        c.label = "GM N2\n4·4·3 5".into();
        c.states = vec!["confused".into()];
        c.stack = Some(StackPlace {
            cell: "0101".into(),
            index: 0,
            of: 2,
        });
        Scene {
            title: "Test & <table>".into(),
            status: vec!["round 1".into()],
            table: Table::open("stick", 6.0, 4.0, "mat"),
            sides: vec![SceneSide {
                name: "Player 1".into(),
                seats: vec![0],
                note: String::new(),
                to_act: true,
            }],
            terrain: vec![TerrainPiece {
                id: "t0".into(),
                kind: "hill".into(),
                name: "the hill".into(),
                shape: Shape::Circle {
                    x: 3.0,
                    y: 2.0,
                    r: 0.5,
                },
                height: Some(1.0),
                blocks_sight: false,
                stand_on: true,
                holds: Some(1),
                cover: false,
            }],
            markers: vec![],
            pieces: vec![p, c],
            traces: vec![],
            actions: vec![],
            key: vec![],
        }
    }

    /// The document parses as XML, every piece carries its id, text is escaped, and the
    /// viewBox is the table in world units (y drawn negated).
    #[test]
    fn renders_well_formed_svg_in_world_units() {
        let s = svg(&open_scene());
        let doc = roxmltree::Document::parse(&s).expect("well-formed");
        let root = doc.root_element();
        assert_eq!(root.attribute("data-unit"), Some("stick"));
        let vb: Vec<f64> = root
            .attribute("viewBox")
            .unwrap()
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        assert!(vb[0] < 0.0 && vb[1] < -4.0 && vb[2] > 6.0, "{vb:?}");
        let piece = doc
            .descendants()
            .find(|n| n.attribute("data-piece") == Some("u0"))
            .unwrap();
        let circle = piece.children().find(|n| n.has_tag_name("circle")).unwrap();
        assert_eq!(circle.attribute("cx"), Some("1"));
        assert_eq!(circle.attribute("cy"), Some("-2"));
        assert!(s.contains("Zaku &lt;II&gt; &amp; &quot;co&quot;"));
        assert!(
            doc.descendants()
                .any(|n| n.attribute("data-axis") == Some("x"))
        );
        assert!(
            doc.descendants()
                .any(|n| n.attribute("data-terrain") == Some("t0"))
        );
    }

    /// A 180° arc facing up (90°) lies above its soldier: its far points have world y
    /// greater than the soldier's, so in SVG (y negated) they are above it.
    #[test]
    fn serm_picture_an_arc_is_drawn_on_the_side_the_piece_faces() {
        let s = svg(&open_scene());
        let doc = roxmltree::Document::parse(&s).unwrap();
        let path = doc
            .descendants()
            .find(|n| n.attribute("data-arc").is_some())
            .unwrap();
        let d = path.attribute("d").unwrap();
        // M cx cy L ax ay A r r 0 large sweep bx by Z: the arc from the right edge (0°)
        // anticlockwise through the top (90°) to the left (180°) is drawn clockwise on
        // screen: sweep flag 0, and its middle lies at SVG y = -(2 + 3).
        let parts: Vec<&str> = d.split_whitespace().collect();
        assert_eq!(parts[0], "M");
        assert_eq!((parts[4], parts[5]), ("4", "-2"), "{d}");
        assert_eq!(parts[11], "0", "sweep flag in {d}");
        assert_eq!((parts[12], parts[13]), ("-2", "-2"), "{d}");
    }

    /// A repeated attribute is written once, with its last value.
    #[test]
    fn an_attribute_is_written_once() {
        let mut w = Writer { out: String::new() };
        w.empty("line", &[a("fill", "red"), a("x", 1), a("fill", "none")]);
        assert_eq!(w.out, r#"<line x="1" fill="none"/>"#);
    }

    /// The same scene always gives the same bytes.
    #[test]
    fn deterministic() {
        assert_eq!(svg(&open_scene()), svg(&open_scene()));
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(n(1.0), "1");
        assert_eq!(n(-0.0001), "0");
        assert_eq!(n(2.50049), "2.5");
        assert_eq!(n(0.125), "0.125");
    }
}
