//! The SVG picture: the table to scale, terrain, each soldier's base in its side's colour
//! with its id and its 180° front arc (a Ranger's all round), the last Move's path and the
//! last blast.

use crate::data::INCH;
use crate::state::Serm;
use std::fmt::Write;

const PX: f64 = 20.0; // pixels an inch

impl Serm {
    pub fn svg(&self) -> String {
        let t = self.table();
        let (w, h) = (
            t.width as f64 / INCH as f64 * PX,
            t.depth as f64 / INCH as f64 * PX,
        );
        let xy = |p: battlemat_geom::table::Point| {
            (
                p.x as f64 / INCH as f64 * PX,
                h - p.y as f64 / INCH as f64 * PX,
            )
        };
        let mut s = String::new();
        let _ = write!(
            s,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{:.0}" viewBox="0 0 {w:.0} {:.0}"><rect width="100%" height="100%" fill="#15190f"/><rect width="{w:.0}" height="{h:.0}" fill="#2d3b22"/>"##,
            h + 30.0,
            h + 30.0
        );
        for p in &t.pieces {
            if let battlemat_geom::table::Outline::Polygon { corners } = &p.outline {
                let pts: Vec<String> = corners
                    .iter()
                    .map(|c| {
                        let (x, y) = xy(*c);
                        format!("{x:.1},{y:.1}")
                    })
                    .collect();
                let _ = write!(
                    s,
                    r##"<polygon points="{}" fill="#6b5a45" stroke="#3b2f22"/>"##,
                    pts.join(" ")
                );
            }
        }
        if let Some((a, b)) = self.now.last_path {
            let ((x1, y1), (x2, y2)) = (xy(a), xy(b));
            let _ = write!(
                s,
                r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#fff" stroke-dasharray="4 3" stroke-width="1.5"/>"##
            );
        }
        // A declared Move waiting on a React: its path, to the first contact.
        if let crate::state::Phase::ReactChoice { moving }
        | crate::state::Phase::Reacting { moving, .. }
        | crate::state::Phase::StopWhere { moving, .. } = &self.now.phase
        {
            let ((x1, y1), (x2, y2)) = (xy(self.soldier(moving.mover).at), xy(moving.end));
            let _ = write!(
                s,
                r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#ffd54a" stroke-width="3" stroke-opacity="0.8"><title>declared move: {} inches</title></line>"##,
                moving.total
            );
        }
        if let Some(c) = self.now.last_blast {
            let (x, y) = xy(c);
            let _ = write!(
                s,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="#f80" fill-opacity="0.35" stroke="#f80"/>"##,
                1.5 * PX
            );
        }
        for u in self.ids() {
            let x = self.soldier(u);
            let (cx, cy) = xy(x.at);
            let r = PX / 2.0;
            let fill = match (x.alive, x.side) {
                (false, _) => "#555",
                (true, 0) => "#3b6fd8",
                _ => "#d04040",
            };
            let _ = write!(
                s,
                r##"<g><title>{} at {:.2},{:.2}</title>"##,
                self.name(u),
                x.at.x as f64 / INCH as f64,
                x.at.y as f64 / INCH as f64
            );
            if x.alive {
                if self.card(u).has(crate::data::Special::AllRound) {
                    let _ = write!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="#fff" fill-opacity="0.08"/>"##,
                        3.0 * PX
                    );
                } else {
                    // The front arc: a half disc facing `facing` (y up on the table, down on screen).
                    let (fx, fy) = (x.facing.0 as f64, -(x.facing.1 as f64));
                    let n = (fx * fx + fy * fy).sqrt().max(1.0);
                    let (ux, uy) = (fx / n, fy / n);
                    let rr = 3.0 * PX;
                    let (ax, ay) = (cx - uy * rr, cy + ux * rr);
                    let (bx, by) = (cx + uy * rr, cy - ux * rr);
                    let sweep = 1;
                    let _ = write!(
                        s,
                        r##"<path d="M {ax:.1} {ay:.1} A {rr:.1} {rr:.1} 0 0 {sweep} {bx:.1} {by:.1} Z" fill="#fff" fill-opacity="0.08"/>"##
                    );
                }
            }
            let _ = write!(
                s,
                r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}" stroke="#fff"/><text x="{cx:.1}" y="{:.1}" font-size="9" text-anchor="middle" fill="#fff" font-family="sans-serif">{u}</text></g>"##,
                cy + 3.0
            );
        }
        let status = match &self.now.outcome {
            Some(o) => format!("Game over: {}", o.reason),
            None => self.prompt_text(),
        };
        let _ = write!(
            s,
            r##"<text x="6" y="{:.1}" font-size="12" fill="#eee" font-family="sans-serif">{}</text></svg>"##,
            h + 20.0,
            status.replace('&', "&amp;").replace('<', "&lt;")
        );
        s
    }
}
