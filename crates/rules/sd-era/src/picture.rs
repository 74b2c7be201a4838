//! The SVG picture of the table (`battlemat view FILE --svg OUT.svg`): to scale, 100 pixels
//! a stick, the far edge at the top. Bases are circles in their player's colour labelled
//! with value and letter and id; terrain shows its height and how many units fit on top;
//! stunned units are crossed, hidden ones dashed; tokens, goals and the ring are drawn; the
//! last action's move, shots and knockbacks are arrows.

use crate::data::{MissionKind, STICK};
use crate::state::{Body, SdEra, Trail};
use battlemat_geom::table::{Outline, Point};
use std::fmt::Write;

const PX: i64 = 100;
const MARGIN: i64 = 20;
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
];

/// What is written on and under a base: its label (value and letter, or an animal's value),
/// its id, and a cross when it is stunned.
fn base_marks(s: &mut String, (cx, cy, r): (f64, f64, f64), label: &str, u: u8, stunned: bool) {
    let _ = writeln!(
        s,
        r##"<text x="{cx:.1}" y="{:.1}" font-size="12" font-weight="bold" text-anchor="middle" fill="#fff">{label}</text>"##,
        cy + 4.0
    );
    let _ = writeln!(
        s,
        r##"<text x="{cx:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#000">u{u}</text>"##,
        cy + r + 11.0
    );
    if stunned {
        stun_mark(s, cx, cy, r);
    }
}

/// A stunned body: a yellow cross over its base ("place the unit on its back").
fn stun_mark(s: &mut String, cx: f64, cy: f64, r: f64) {
    let k = r * 0.8;
    let _ = writeln!(
        s,
        r##"<path d="M {:.1} {:.1} L {:.1} {:.1} M {:.1} {:.1} L {:.1} {:.1}" stroke="#ffeb3b" stroke-width="3"><title>stunned</title></path>"##,
        cx - k,
        cy - k,
        cx + k,
        cy + k,
        cx - k,
        cy + k,
        cx + k,
        cy - k
    );
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

impl SdEra {
    fn px(&self, t: i64) -> f64 {
        t as f64 * PX as f64 / STICK as f64
    }
    fn sx(&self, p: Point) -> (f64, f64) {
        let d = self.fixed.table.depth;
        (
            MARGIN as f64 + self.px(p.x),
            MARGIN as f64 + self.px(d - p.y),
        )
    }

    pub fn svg(&self) -> String {
        let t = &self.fixed.table;
        let w = self.px(t.width) + 2.0 * MARGIN as f64;
        let legend_h = 40.0 + 18.0 * self.fixed.players as f64;
        let h = self.px(t.depth) + 2.0 * MARGIN as f64 + legend_h;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif">"#
        );
        s.push_str(concat!(
            r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">"#,
            r#"<path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke"/></marker></defs>"#,
            "\n"
        ));
        let _ = writeln!(
            s,
            r##"<rect x="0" y="0" width="{w:.0}" height="{h:.0}" fill="#ffffff"/>"##
        );
        let _ = writeln!(
            s,
            r##"<rect x="{MARGIN}" y="{MARGIN}" width="{:.1}" height="{:.1}" fill="#e8e2cf" stroke="#555" stroke-width="2"/>"##,
            self.px(t.width),
            self.px(t.depth)
        );
        // Stick grid, faint.
        for i in 1..(t.width / STICK + 1) {
            let (x, _) = self.sx(Point::new(i * STICK, 0));
            if i * STICK < t.width {
                let _ = writeln!(
                    s,
                    r##"<line x1="{x:.1}" y1="{MARGIN}" x2="{x:.1}" y2="{:.1}" stroke="#d6cfb8" stroke-width="1"/>"##,
                    MARGIN as f64 + self.px(t.depth)
                );
            }
        }
        for j in 1..(t.depth / STICK + 1) {
            let (_, y) = self.sx(Point::new(0, j * STICK));
            if j * STICK < t.depth {
                let _ = writeln!(
                    s,
                    r##"<line x1="{MARGIN}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#d6cfb8" stroke-width="1"/>"##,
                    MARGIN as f64 + self.px(t.width)
                );
            }
        }
        if self.fixed.kind == MissionKind::RingBattle {
            let (cx, cy) = self.sx(self.fixed.centre);
            let r = self.px(self.fixed.setup.mission.ring_radius);
            let _ = writeln!(
                s,
                r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="#f4efe0" stroke="#8c6d31" stroke-width="4"/>"##
            );
        }
        if self.fixed.kind == MissionKind::Soccer {
            for (g, &(a, b)) in self.fixed.goals.iter().enumerate() {
                let (x1, y1) = self.sx(a);
                let (x2, y2) = self.sx(b);
                let c = COLOURS[g % 6];
                let _ = writeln!(
                    s,
                    r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{c}" stroke-width="8"><title>Player {}'s goal</title></line>"#,
                    g + 1
                );
            }
        }
        for (i, p) in t.pieces.iter().enumerate() {
            let fill = if p.holds > 0 {
                "#9c8a5a"
            } else if p.blocks_sight {
                "#7a7a7a"
            } else {
                "#b5b5b5"
            };
            let name = esc(self
                .fixed
                .setup
                .mission
                .terrain_names
                .get(i)
                .map_or("terrain", |n| n.as_str()));
            let label = format!(
                "h{}{}",
                p.height / STICK,
                if p.holds > 0 {
                    format!(" holds {}", p.holds)
                } else {
                    String::new()
                }
            );
            let centre = crate::movement::piece_centre(&p.outline);
            match &p.outline {
                Outline::Circle { centre, radius } => {
                    let (cx, cy) = self.sx(*centre);
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{fill}" stroke="#333"><title>{name}</title></circle>"##,
                        self.px(*radius)
                    );
                }
                Outline::Polygon { corners } => {
                    let pts: Vec<String> = corners
                        .iter()
                        .map(|c| {
                            let (x, y) = self.sx(*c);
                            format!("{x:.1},{y:.1}")
                        })
                        .collect();
                    let _ = writeln!(
                        s,
                        r##"<polygon points="{}" fill="{fill}" stroke="#333"><title>{name}</title></polygon>"##,
                        pts.join(" ")
                    );
                }
            }
            let (cx, cy) = self.sx(centre);
            let _ = writeln!(
                s,
                r##"<text x="{cx:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#fff">{label}</text>"##,
                cy + 3.0
            );
        }
        // BATTLE ZONES: the lines between zones, each zone's card, the cleared ones shaded.
        if let Some(z) = &self.now.zones {
            for k in 0..self.zone_count() {
                let (lo, hi) = self.zone_span(k);
                let (x0, y_hi) = self.sx(Point::new(0, hi));
                let (x1, y_lo) = self.sx(Point::new(t.width, lo));
                if k < z.cleared {
                    let _ = writeln!(
                        s,
                        r##"<rect x="{x0:.1}" y="{y_hi:.1}" width="{:.1}" height="{:.1}" fill="#2e7d32" fill-opacity="0.08"/>"##,
                        x1 - x0,
                        y_lo - y_hi
                    );
                }
                if k > 0 {
                    let _ = writeln!(
                        s,
                        r##"<line x1="{x0:.1}" y1="{y_lo:.1}" x2="{x1:.1}" y2="{y_lo:.1}" stroke="#444" stroke-width="2" stroke-dasharray="8,4"/>"##
                    );
                }
                let card = z.cards.get(k as usize).copied().flatten();
                let label = format!(
                    "zone {}{}{}",
                    k + 1,
                    card.map_or(String::new(), |c| format!(": {}", c.name())),
                    if k < z.cleared { " (cleared)" } else { "" }
                );
                let _ = writeln!(
                    s,
                    r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="#333">{}</text>"##,
                    x0 + 4.0,
                    y_hi + 13.0,
                    esc(&label)
                );
            }
        }
        // Arrows: the last action's move, shots and knockbacks.
        for tr in &self.now.trail {
            let (from, to, colour, dash) = match *tr {
                Trail::Move { from, to } => (from, to, "#1f4e99", "6,4"),
                Trail::Shot { from, to } => (from, to, "#e67e00", "2,3"),
                Trail::Knockback { from, to } => (from, to, "#c0161d", "none"),
            };
            if from == to {
                continue;
            }
            let (x1, y1) = self.sx(from);
            let (x2, y2) = self.sx(to);
            let _ = writeln!(
                s,
                r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{colour}" stroke-width="3" stroke-dasharray="{dash}" marker-end="url(#arrow)"/>"#
            );
        }
        for u in self.ids() {
            let x = self.unit(u);
            if !x.on_table() {
                continue;
            }
            let (cx, cy) = self.sx(x.at);
            let r = self.px(x.radius());
            let title = esc(&self.name(u));
            match x.body {
                Body::Animal { value } => {
                    let style = if x.stunned {
                        r##" stroke-dasharray="3,2""##
                    } else {
                        ""
                    };
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="#8d6e3f" stroke="#3e2a10" stroke-width="2"{style}><title>{title}</title></circle>"##
                    );
                    base_marks(&mut s, (cx, cy, r), &value.to_string(), u, x.stunned);
                }
                Body::Blip => {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="#263238" stroke="#00e676" stroke-width="2"><title>{title}</title></circle>"##
                    );
                    let _ = writeln!(
                        s,
                        r##"<text x="{cx:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#00e676">?</text>"##,
                        cy + 4.0
                    );
                    base_marks(&mut s, (cx, cy, r), "", u, false);
                }
                Body::Target => {
                    for (k, c) in ["#c62828", "#fff", "#c62828"].iter().enumerate() {
                        let _ = writeln!(
                            s,
                            r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{c}" stroke="#000" stroke-width="1"><title>{title}</title></circle>"##,
                            r * (1.0 - 0.3 * k as f64)
                        );
                    }
                    base_marks(&mut s, (cx, cy, r), "", u, false);
                }
                Body::Mine { .. } => {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="#222" stroke="#c00" stroke-width="2"><title>{title}</title></circle>"##
                    );
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="#c00" stroke-width="1" stroke-dasharray="3,3"/>"##,
                        r + self.px(STICK)
                    );
                }
                Body::Rock => {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="#7a7a7a" stroke="#333"><title>{title}</title></circle>"##
                    );
                }
                Body::Ship => {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="#9fb3c8" stroke="#1d3557" stroke-width="3"><title>{title}</title></circle>"##
                    );
                    // Its bow, toward the far end it is heading for.
                    let _ = writeln!(
                        s,
                        r##"<path d="M {:.1} {:.1} L {:.1} {:.1} L {:.1} {:.1} Z" fill="#1d3557"/>"##,
                        cx - r * 0.35,
                        cy - r * 0.55,
                        cx,
                        cy - r * 0.95,
                        cx + r * 0.35,
                        cy - r * 0.55
                    );
                    let _ = writeln!(
                        s,
                        r##"<text x="{cx:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#1d3557">SHIP {}</text>"##,
                        cy + 4.0,
                        crate::events::unit_label(u)
                    );
                }
                Body::Egg => {
                    let _ = writeln!(
                        s,
                        r##"<ellipse cx="{cx:.1}" cy="{cy:.1}" rx="{:.1}" ry="{r:.1}" fill="#f6d7ef" stroke="#9c4f8a" stroke-width="2"><title>{title}</title></ellipse>"##,
                        r * 0.8
                    );
                    let _ = writeln!(
                        s,
                        r##"<text x="{cx:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#5a1f4e">{}</text>"##,
                        cy + 3.5,
                        crate::events::unit_label(u)
                    );
                }
                Body::Credit { amount } => {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="#f2c12e" stroke="#8a6a00" stroke-width="2"><title>{title}</title></circle>"##
                    );
                    let _ = writeln!(
                        s,
                        r##"<text x="{cx:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#000">${amount}</text>"##,
                        cy + 3.5
                    );
                }
                Body::Ball => {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="#fff" stroke="#000" stroke-width="2"><title>{title}</title></circle>"##
                    );
                }
                Body::Bomb { dice } => {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="#222" stroke="#c00" stroke-width="2"><title>{title}</title></circle>"##
                    );
                    let _ = writeln!(
                        s,
                        r##"<text x="{cx:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#fff">{dice}d</text>"##,
                        cy + 4.0
                    );
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="#c00" stroke-width="1" stroke-dasharray="3,3"/>"##,
                        r + self.px(STICK)
                    );
                }
                Body::Unit { .. } => {
                    // Enemies (no owner) are dark grey.
                    let c = x.owner.map_or("#555", |o| COLOURS[o as usize % 6]);
                    let dash = if x.hidden {
                        r#" stroke-dasharray="4,3" fill-opacity="0.35""#
                    } else {
                        ""
                    };
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{c}" stroke="#000" stroke-width="2"{dash}><title>{title}</title></circle>"##
                    );
                    let label = self.unit_type(u).map(|t| t.label()).unwrap_or_default();
                    base_marks(&mut s, (cx, cy, r), &label, u, x.stunned);
                    if x.cheer > 0 {
                        let _ = writeln!(
                            s,
                            r##"<text x="{:.1}" y="{:.1}" font-size="10" fill="#8c6d31">+{} cheer</text>"##,
                            cx + r + 2.0,
                            cy - r,
                            x.cheer
                        );
                    }
                    let aboard = self
                        .ids()
                        .filter(|&l| self.unit(l).aboard == Some(u))
                        .count();
                    if aboard > 0 {
                        let _ = writeln!(
                            s,
                            r##"<text x="{:.1}" y="{:.1}" font-size="10" fill="#000">carrying {aboard}</text>"##,
                            cx + r + 2.0,
                            cy + r
                        );
                    }
                }
            }
        }
        // Legend.
        let y0 = self.px(t.depth) + 2.0 * MARGIN as f64 + 14.0;
        let _ = writeln!(
            s,
            r##"<text x="{MARGIN}" y="{y0:.1}" font-size="13" font-weight="bold">{} — round {}</text>"##,
            esc(&self.fixed.setup.mission.name),
            self.now.round
        );
        for p in 0..self.fixed.players {
            let y = y0 + 18.0 * (f64::from(p) + 1.0);
            let c = COLOURS[p as usize % 6];
            let turn = if p == self.now.active && self.now.result.is_none() {
                " (to play)"
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r##"<rect x="{MARGIN}" y="{:.1}" width="12" height="12" fill="{c}"/><text x="{}" y="{y:.1}" font-size="12">Player {}: {} {}{turn}</text>"##,
                y - 10.0,
                MARGIN + 18,
                p + 1,
                self.now.tokens[p as usize],
                self.score_word()
            );
        }
        s.push_str("</svg>\n");
        s
    }
}
