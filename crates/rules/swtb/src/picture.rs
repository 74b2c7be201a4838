//! The table as a picture: an SVG document of the mat to scale (`battlemat view FILE --svg`).
//!
//! Squares or hexes (odd rows shifted right, as the text board), terrain (walls, hills,
//! fortified cells), every unit as a disc in its side's colour labelled with its id, fliers
//! over the battlefield as diamonds, each side's line of fliers off the battlefield in a strip
//! beside the mat, fallen units as crosses, units that have acted this turn faded, and the
//! scenario's objective cells outlined. Row 1 is at the bottom, as on the text board.
//!
//! Written as text (SVG is a few element types here); pixel positions are printed with one
//! decimal, so the same state always gives the same bytes.

use crate::data::{Class, Goal};
use crate::state::{Place, Swtb, Terrain, UnitId};
use battlemat_geom::{Cell, GridKind};
use std::fmt::Write;

const SIDE_COLOURS: [&str; 2] = ["#2f6fce", "#c8372d"];
const CELL: f64 = 44.0;
const MARGIN: f64 = 34.0;
const TOP: f64 = 58.0;
const STRIP: f64 = 195.0;

/// Text for SVG: `&`, `<`, `>` and quotes escaped.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Swtb {
    /// The centre of a cell in pixels.
    fn pixel(&self, c: Cell) -> (f64, f64) {
        let g = self.fixed.grid;
        let row_from_top = (g.height - 1 - c.row) as f64;
        match g.kind {
            GridKind::Square => (
                MARGIN + (c.col as f64 + 0.5) * CELL,
                TOP + (row_from_top + 0.5) * CELL,
            ),
            GridKind::Hex => {
                let shift = if c.row % 2 == 1 { 0.5 } else { 0.0 };
                (
                    MARGIN + (c.col as f64 + 0.5 + shift) * CELL,
                    TOP + CELL * 0.58 + row_from_top * CELL * 0.866,
                )
            }
        }
    }

    /// The outline of a cell, as SVG points or a rectangle.
    fn cell_shape(&self, c: Cell, style: &str) -> String {
        let (x, y) = self.pixel(c);
        match self.fixed.grid.kind {
            GridKind::Square => format!(
                r#"<rect x="{:.1}" y="{:.1}" width="{CELL:.1}" height="{CELL:.1}" {style}/>"#,
                x - CELL / 2.0,
                y - CELL / 2.0
            ),
            GridKind::Hex => {
                // Pointy-top hexes whose flat sides touch their row neighbours.
                let r = CELL / 3f64.sqrt();
                let pts: Vec<String> = [
                    (0.0, -1.0),
                    (0.866, -0.5),
                    (0.866, 0.5),
                    (0.0, 1.0),
                    (-0.866, 0.5),
                    (-0.866, -0.5),
                ]
                .iter()
                .map(|(dx, dy)| format!("{:.1},{:.1}", x + dx * r, y + dy * r))
                .collect();
                format!(r#"<polygon points="{}" {style}/>"#, pts.join(" "))
            }
        }
    }

    fn picture_size(&self) -> (f64, f64) {
        let g = self.fixed.grid;
        let (w, h) = match g.kind {
            GridKind::Square => (g.width as f64 * CELL, g.height as f64 * CELL),
            GridKind::Hex => (
                (g.width as f64 + 0.5) * CELL,
                CELL * 1.16 + (g.height as f64 - 1.0) * CELL * 0.866,
            ),
        };
        (MARGIN * 2.0 + w + STRIP, TOP + h + MARGIN * 1.6)
    }

    fn unit_mark(&self, out: &mut String, u: UnitId, x: f64, y: f64) {
        let unit = &self.now.units[u as usize];
        let colour = SIDE_COLOURS[unit.side as usize & 1];
        let faded = if unit.acted { r#" opacity="0.55""# } else { "" };
        let title = format!(
            "u{u} {} ({}){}",
            self.name(u),
            self.ty(u).name,
            if unit.hits > 0 {
                format!(", hits {}/{}", unit.hits, self.toughness(u))
            } else {
                String::new()
            }
        );
        let _ = write!(out, r#"<g{faded}><title>{}</title>"#, esc(&title));
        if self.ty(u).class == Class::Ship {
            let r = CELL * 0.42;
            let _ = write!(
                out,
                r##"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{colour}" stroke="#111" stroke-width="1.5"/>"##,
                x,
                y - r,
                x + r,
                y,
                x,
                y + r,
                x - r,
                y
            );
        } else if self.ty(u).class == Class::Gun {
            let r = CELL * 0.34;
            let _ = write!(
                out,
                r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{colour}" stroke="#111" stroke-width="2"/>"##,
                x - r,
                y - r,
                2.0 * r,
                2.0 * r
            );
        } else {
            let r = CELL * 0.36;
            let ring = if self.ty(u).force_user {
                "#f2c94c"
            } else {
                "#111"
            };
            let _ = write!(
                out,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{colour}" stroke="{ring}" stroke-width="2"/>"#
            );
        }
        let _ = write!(
            out,
            r##"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#fff" font-family="sans-serif" font-weight="bold">{u}</text></g>"##,
            y + 4.0
        );
    }

    /// The picture (SWTB hides nothing, so every viewer sees the same).
    pub fn svg(&self) -> String {
        let g = self.fixed.grid;
        let (w, h) = self.picture_size();
        let mut out = String::new();
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}">"#
        );
        let _ = write!(
            out,
            r##"<rect width="100%" height="100%" fill="#f7f4ec"/>"##
        );
        let obs = self.observation();
        let _ = write!(
            out,
            r#"<text x="{MARGIN:.1}" y="24" font-size="16" font-family="sans-serif" font-weight="bold">{}</text>"#,
            esc(&format!(
                "{} — {}",
                obs.scenario,
                match obs.round {
                    0 => format!("before round 1 of {}", obs.max_rounds),
                    r => format!("round {r} of {}", obs.max_rounds),
                }
            ))
        );
        let _ = write!(
            out,
            r#"<text x="{MARGIN:.1}" y="44" font-size="13" font-family="sans-serif">{}</text>"#,
            esc(&obs.status)
        );
        // The mat.
        let goal: Vec<Cell> = match &self.fixed.setup.scenario.goal {
            Some(Goal::Reach { cells, .. } | Goal::Hold { cells, .. }) => cells.clone(),
            None => vec![],
        };
        for c in g.cells() {
            let fill = match self.terrain(c) {
                Terrain::Open => r##"fill="#e9e2cf""##,
                Terrain::Wall => r##"fill="#4a4a4a""##,
                Terrain::Hill => r##"fill="#b08d57""##,
                Terrain::Fortified => r##"fill="#cfd8c3""##,
            };
            out.push_str(
                &self.cell_shape(c, &format!(r##"{fill} stroke="#b9b09a" stroke-width="1""##)),
            );
            if self.terrain(c) == Terrain::Fortified {
                out.push_str(&self.cell_shape(
                    c,
                    r##"fill="none" stroke="#55704a" stroke-width="2.5" stroke-dasharray="5 3""##,
                ));
            }
            if goal.contains(&c) {
                out.push_str(
                    &self.cell_shape(c, r##"fill="none" stroke="#d4a017" stroke-width="3""##),
                );
            }
        }
        // Column letters and row numbers.
        for col in 0..g.width {
            let (x, _) = self.pixel(Cell::new(col, 0));
            let _ = write!(
                out,
                r##"<text x="{x:.1}" y="{:.1}" font-size="11" text-anchor="middle" font-family="sans-serif" fill="#6b6250">{}</text>"##,
                h - MARGIN * 0.9,
                (b'a' + col) as char
            );
        }
        for row in 0..g.height {
            let (_, y) = self.pixel(Cell::new(0, row));
            let _ = write!(
                out,
                r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" font-family="sans-serif" fill="#6b6250">{}</text>"##,
                MARGIN * 0.5,
                y + 4.0,
                row + 1
            );
        }
        // Fallen units first (under the living), then units on the battlefield.
        for u in self.ids() {
            if let Place::Fallen(c) = self.now.units[u as usize].place {
                let (x, y) = self.pixel(c);
                let d = CELL * 0.25;
                let _ = write!(
                    out,
                    r##"<g><title>{}</title><path d="M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}" stroke="#7a7a7a" stroke-width="3"/></g>"##,
                    esc(&format!("u{u} {} (fallen)", self.name(u))),
                    x - d,
                    y - d,
                    x + d,
                    y + d,
                    x - d,
                    y + d,
                    x + d,
                    y - d
                );
            }
        }
        for u in self.ids() {
            if let Place::Field(c) = self.now.units[u as usize].place {
                let (x, y) = self.pixel(c);
                self.unit_mark(&mut out, u, x, y);
            }
        }
        // Each side's line of fliers, beside the mat.
        let strip_x = w - STRIP + 12.0;
        let mut y = TOP + 10.0;
        for side in 0..2u8 {
            let _ = write!(
                out,
                r#"<text x="{strip_x:.1}" y="{y:.1}" font-size="13" font-family="sans-serif" font-weight="bold" fill="{}">{}</text>"#,
                SIDE_COLOURS[side as usize],
                esc(&format!(
                    "{}: {} points",
                    self.side_name(side),
                    self.points_left(side)
                ))
            );
            y += 10.0;
            let lined: Vec<UnitId> = self
                .ids()
                .filter(|&u| {
                    self.now.units[u as usize].side == side
                        && self.now.units[u as usize].place == Place::Line
                })
                .collect();
            if !lined.is_empty() {
                y += 12.0;
                let _ = write!(
                    out,
                    r##"<text x="{strip_x:.1}" y="{y:.1}" font-size="11" font-family="sans-serif" fill="#6b6250">on the line:</text>"##
                );
            }
            for u in lined {
                y += CELL * 0.95;
                self.unit_mark(&mut out, u, strip_x + CELL * 0.45, y - CELL * 0.3);
                let _ = write!(
                    out,
                    r#"<text x="{:.1}" y="{:.1}" font-size="11" font-family="sans-serif">{}</text>"#,
                    strip_x + CELL,
                    y - CELL * 0.25,
                    esc(self.name(u))
                );
            }
            y += 24.0;
        }
        // The key.
        let keys = [
            (r##"fill="#4a4a4a""##, "wall"),
            (r##"fill="#b08d57""##, "hill"),
            (
                r##"fill="#cfd8c3" stroke="#55704a" stroke-dasharray="4 2""##,
                "fortified",
            ),
            (
                r##"fill="none" stroke="#d4a017" stroke-width="3""##,
                "objective",
            ),
        ];
        let notes = [
            "disc: figure or vehicle",
            "gold ring: Force User",
            "diamond: flier; square: gun",
            "faded: has acted; cross: fallen",
        ];
        let mut ky = h - MARGIN - 16.0 * (keys.len() + notes.len()) as f64;
        for note in notes {
            let _ = write!(
                out,
                r##"<text x="{strip_x:.1}" y="{ky:.1}" font-size="11" font-family="sans-serif" fill="#6b6250">{note}</text>"##
            );
            ky += 15.0;
        }
        ky -= 6.0;
        for (style, label) in keys {
            let _ = write!(
                out,
                r##"<rect x="{strip_x:.1}" y="{ky:.1}" width="12" height="12" {style}/><text x="{:.1}" y="{:.1}" font-size="11" font-family="sans-serif">{label}</text>"##,
                strip_x + 18.0,
                ky + 10.0
            );
            ky += 16.0;
        }
        out.push_str("</svg>\n");
        out
    }
}
