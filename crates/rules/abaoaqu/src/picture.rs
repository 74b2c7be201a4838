//! The SVG picture of the map: the boards (numbered), the fortress, beam-disruption screens,
//! and each hex's stacks as counters the way the boxed game prints them — the unit code
//! with its pilot rank, anti-MS · anti-ship · defence and movement, a C or D marker, and
//! how many counters are in the stack.

use crate::data::Pilot;
use crate::map::{BOARD_COLS, BOARD_ROWS};
use crate::state::{AbaoAqu, Morale, Place, UnitId};
use std::fmt::Write;

const SIZE: f64 = 44.0;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

impl AbaoAqu {
    fn counter(&self, svg: &mut String, u: UnitId, cx: f64, cy: f64, n: usize) {
        let x = self.unit(u);
        let (fill, ink) = if x.side == 0 {
            ("#cfe0ff", "#123a8c")
        } else {
            ("#d8f0c8", "#2f5d1a")
        };
        let w = SIZE * 0.46;
        let _ = write!(
            svg,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="2" fill="{fill}" stroke="{ink}" stroke-width="1"/>"##,
            cx - w / 2.0,
            cy - w / 2.0,
            w,
            w
        );
        let pilot = if x.pilot == Pilot::Regular {
            String::new()
        } else {
            x.pilot.label().to_string()
        };
        let _ = write!(
            svg,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="7" text-anchor="middle" fill="{ink}" font-family="sans-serif" font-weight="bold">{}{}</text>"##,
            cy - 2.0,
            esc(self.code(u)),
            if pilot.is_empty() {
                String::new()
            } else {
                format!(" {pilot}")
            }
        );
        let _ = write!(
            svg,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="6" text-anchor="middle" fill="{ink}" font-family="sans-serif">{}·{}·{} {}</text>"##,
            cy + 7.0,
            self.anti_ms(u),
            self.anti_ship(u),
            self.defence(u),
            self.kind(u).movement
        );
        let mark = match x.morale {
            Morale::Normal => "",
            Morale::Confused => "C",
            Morale::Panic => "D",
        };
        if !mark.is_empty() {
            let _ = write!(
                svg,
                r##"<text x="{:.1}" y="{:.1}" font-size="8" fill="#c00" font-family="sans-serif" font-weight="bold">{mark}</text>"##,
                cx + w / 2.0 - 5.0,
                cy - w / 2.0 + 7.0
            );
        }
        if n > 1 {
            let _ = write!(
                svg,
                r##"<text x="{:.1}" y="{:.1}" font-size="6" fill="#000" font-family="sans-serif">×{n}</text>"##,
                cx - w / 2.0 + 1.0,
                cy - w / 2.0 + 6.0
            );
        }
    }

    /// The whole map as an SVG document.
    pub fn svg(&self) -> String {
        let lay = &self.fixed.layout;
        let map = &lay.map;
        let ht = SIZE * 0.866_025_403_784_438_6;
        let width = SIZE * 0.75 * map.cols as f64 + SIZE * 0.25 + 2.0;
        let height = ht * map.rows as f64 + ht / 2.0 + 40.0;
        let mut svg = String::new();
        let _ = write!(
            svg,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}"><rect width="100%" height="100%" fill="#0b0d1a"/>"##
        );
        let mut stacks: Vec<Vec<UnitId>> = vec![Vec::new(); map.len()];
        for u in self.ids() {
            if let Place::Hex(h) = self.unit(u).at {
                stacks[h as usize].push(u);
            }
        }
        for h in 0..map.len() as u16 {
            let (cx, cy) = map.centre(h, SIZE);
            let fill = if self.screened(h) {
                "#2c4f7a"
            } else if lay.on_fortress(h) {
                "#5b5b66"
            } else {
                "#161a33"
            };
            let mut pts = String::new();
            for k in 0..6 {
                let a = std::f64::consts::PI / 3.0 * k as f64;
                let _ = write!(
                    pts,
                    "{:.1},{:.1} ",
                    cx + SIZE / 2.0 * a.cos(),
                    cy + SIZE / 2.0 * a.sin()
                );
            }
            let _ = write!(
                svg,
                r##"<polygon points="{pts}" fill="{fill}" stroke="#3a4170" stroke-width="0.6"/>"##
            );
            let _ = write!(
                svg,
                r##"<text x="{cx:.1}" y="{:.1}" font-size="5" text-anchor="middle" fill="#7780b0" font-family="monospace">{}</text>"##,
                cy - ht / 2.0 + 6.0,
                map.name(h)
            );
            let st = &stacks[h as usize];
            if !st.is_empty() {
                // A hover title naming every counter in the stack.
                let names: Vec<String> = st
                    .iter()
                    .map(|&u| {
                        let m = match self.unit(u).morale {
                            Morale::Normal => "",
                            Morale::Confused => " C",
                            Morale::Panic => " D",
                        };
                        format!("{}{m}", self.name(u))
                    })
                    .collect();
                let _ = write!(
                    svg,
                    r##"<title>{}: {}</title>"##,
                    map.name(h),
                    esc(&names.join(", "))
                );
            }
            let fed: Vec<UnitId> = st
                .iter()
                .copied()
                .filter(|&u| self.unit(u).side == 0)
                .collect();
            let zeon: Vec<UnitId> = st
                .iter()
                .copied()
                .filter(|&u| self.unit(u).side == 1)
                .collect();
            match (fed.first(), zeon.first()) {
                (Some(&f), Some(&z)) => {
                    self.counter(&mut svg, f, cx - 5.0, cy + 1.0, fed.len());
                    self.counter(&mut svg, z, cx + 5.0, cy + 4.0, zeon.len());
                }
                (Some(&f), None) => self.counter(&mut svg, f, cx, cy + 2.0, fed.len()),
                (None, Some(&z)) => self.counter(&mut svg, z, cx, cy + 2.0, zeon.len()),
                (None, None) => {}
            }
        }
        for &(n, c, r) in &lay.boards {
            let Some(h) = map.at(c, r) else { continue };
            let (x0, y0) = map.centre(h, SIZE);
            let bw = SIZE * 0.75 * BOARD_COLS as f64;
            let bh = ht * BOARD_ROWS as f64;
            let _ = write!(
                svg,
                r##"<rect x="{:.1}" y="{:.1}" width="{bw:.1}" height="{bh:.1}" fill="none" stroke="#8890c8" stroke-width="1.5" stroke-dasharray="6 4"/><text x="{:.1}" y="{:.1}" font-size="16" fill="#aab" font-family="sans-serif" font-weight="bold">{n}</text>"##,
                x0 - SIZE / 2.0,
                y0 - ht / 2.0,
                x0 - SIZE / 2.0 + bw - 18.0,
                y0 - ht / 2.0 + bh - 6.0
            );
        }
        let status = match &self.now.outcome {
            Some(o) => format!("Game over: {}", o.reason),
            None => self.prompt_text(),
        };
        let _ = write!(
            svg,
            r##"<text x="8" y="{:.1}" font-size="14" fill="#dde" font-family="sans-serif">{} — turn {} — {}</text></svg>"##,
            height - 14.0,
            esc(&self.fixed.setup.scenario.name),
            self.now.turn,
            esc(&status)
        );
        svg
    }
}
