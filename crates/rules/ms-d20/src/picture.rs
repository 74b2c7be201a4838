//! The SVG picture: the square grid (cells named as on a chess board), each combatant as a
//! token in its side's colour with its id, kind and the share of its main body left, its
//! weapons' long range as a faint ring for the combatant whose turn it is, and markers for
//! stunned, knocked over and out.

use crate::state::{MsD20, Phase};
use std::fmt::Write;

const CELL: f64 = 40.0;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

impl MsD20 {
    pub fn svg(&self) -> String {
        let g = self.fixed.grid;
        let (w, h) = (g.width as f64 * CELL + 40.0, g.height as f64 * CELL + 60.0);
        let mut s = String::new();
        let _ = write!(
            s,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}"><rect width="100%" height="100%" fill="#10131f"/>"##
        );
        let xy = |c: battlemat_geom::Cell| {
            (
                20.0 + c.col as f64 * CELL + CELL / 2.0,
                20.0 + (g.height - 1 - c.row) as f64 * CELL + CELL / 2.0,
            )
        };
        for c in g.cells() {
            let (x, y) = xy(c);
            let _ = write!(
                s,
                r##"<rect x="{:.1}" y="{:.1}" width="{CELL}" height="{CELL}" fill="none" stroke="#2a3050" stroke-width="0.8"/><text x="{:.1}" y="{:.1}" font-size="7" fill="#505a88" font-family="monospace">{c}</text>"##,
                x - CELL / 2.0,
                y - CELL / 2.0,
                x - CELL / 2.0 + 2.0,
                y - CELL / 2.0 + 8.0
            );
        }
        let active = match &self.now.phase {
            Phase::Turn { unit, .. } => Some(*unit),
            _ => None,
        };
        for u in self.ids() {
            let x = self.unit(u);
            let d = self.data(u);
            let (cx, cy) = xy(x.at);
            if active == Some(u) {
                let long = d.weapons.iter().map(|w| w.range[2]).max().unwrap_or(0) as f64;
                let _ = write!(
                    s,
                    r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#ffd54a" fill-opacity="0.05" stroke="#ffd54a" stroke-opacity="0.4" stroke-dasharray="4 3"/>"##,
                    cx - (long + 0.5) * CELL,
                    cy - (long + 0.5) * CELL,
                    (2.0 * long + 1.0) * CELL,
                    (2.0 * long + 1.0) * CELL
                );
            }
            let fill = match (x.out, x.side) {
                (true, _) => "#444",
                (false, 0) => "#3b6fd8",
                _ => "#3f9a3a",
            };
            let main = self.main_section(u) as usize;
            let share = x.sections[main] as f64 / d.sections[main].durability.max(1) as f64;
            let _ = write!(
                s,
                r##"<g><title>{} ({:?}) {} — {}</title><circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{fill}" stroke="#fff" stroke-width="{}"/><rect x="{:.1}" y="{:.1}" width="{:.1}" height="3" fill="#e33"/><rect x="{:.1}" y="{:.1}" width="{:.1}" height="3" fill="#4e4"/><text x="{cx:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#fff" font-family="sans-serif" font-weight="bold">u{u}</text>"##,
                esc(&self.name(u)),
                d.kind,
                x.at,
                esc(&d.pilot.name),
                CELL * 0.38,
                if active == Some(u) { 2.5 } else { 1.0 },
                cx - CELL * 0.4,
                cy + CELL * 0.42,
                CELL * 0.8,
                cx - CELL * 0.4,
                cy + CELL * 0.42,
                CELL * 0.8 * share,
                cy + 4.0
            );
            let mark = if x.out {
                "OUT"
            } else if x.stunned.is_some() {
                "STUN"
            } else if x.knocked {
                "DOWN"
            } else if x.flee {
                "FLEE"
            } else {
                ""
            };
            if !mark.is_empty() {
                let _ = write!(
                    s,
                    r##"<text x="{cx:.1}" y="{:.1}" font-size="8" text-anchor="middle" fill="#f66" font-family="sans-serif">{mark}</text>"##,
                    cy - CELL * 0.42
                );
            }
            s.push_str("</g>");
        }
        let status = match &self.now.outcome {
            Some(o) => format!("Game over: {}", o.reason),
            None => self.prompt_text(),
        };
        let _ = write!(
            s,
            r##"<text x="10" y="{:.1}" font-size="13" fill="#dde" font-family="sans-serif">{} — melee {} — {}</text></svg>"##,
            h - 14.0,
            esc(&self.fixed.setup.scenario.name),
            self.now.melee,
            esc(&status)
        );
        s
    }
}
