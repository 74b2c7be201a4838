//! The map as a [`Scene`]: flat-topped hexes named by their printed numbers (`CCRR`), the
//! boards' outlines and numbers, the fortress and beam-disruption screens as areas, and every
//! counter as the boxed game prints it — unit code and pilot rank, anti-MS · anti-ship ·
//! defence and movement, a C or D morale marker — stacked in its hex; counters off the map
//! (to set up, to enter, destroyed) in rows below it. Each declaring step's anchors name the
//! counter asked about and the hex or counter it points at. The game hides nothing.

use crate::data::Pilot;
use crate::events::{Action, HexNo};
use crate::map::{BOARD_COLS, BOARD_ROWS};
use crate::state::{AbaoAqu, Declaring, Morale, Phase, Place, UnitId};
use battlemat_core::scene::{
    self, Anchors, Marker, MarkerLook, Piece, PieceShape, Scene, SceneCell, Shape, StackPlace,
    Table, TableKind, Target,
};

const HT: f64 = 0.866_025_403_784_438_6;
const COUNTER: f64 = 0.26;

impl AbaoAqu {
    /// A hex's centre in world units (hexes a unit across, corner to corner; y up).
    fn hex_xy(&self, h: u16) -> [f64; 2] {
        let map = &self.fixed.layout.map;
        let (x, y) = map.centre(h, 1.0);
        let height = HT * f64::from(map.rows) + HT / 2.0;
        [scene::round(x), scene::round(height - y)]
    }

    fn counter(&self, u: UnitId, at: [f64; 2]) -> Piece {
        let x = self.unit(u);
        let pilot = if x.pilot == Pilot::Regular {
            String::new()
        } else {
            format!(" {}", x.pilot.label())
        };
        let mut p = Piece::new(
            format!("u{u}"),
            self.name(u),
            format!("{:?}", self.kind(u).class).to_lowercase(),
            PieceShape::Counter,
            at,
            COUNTER,
        )
        .stat("anti-MS", self.anti_ms(u))
        .stat("anti-ship", self.anti_ship(u))
        .stat("defence", self.defence(u))
        .stat("movement", self.kind(u).movement);
        if x.pilot != Pilot::Regular {
            p = p.stat("pilot", x.pilot.label());
        }
        p.side = Some(x.side);
        p.seat = Some(x.seat);
        p.label = format!(
            "{}{pilot}\n{}·{}·{} {}",
            self.code(u),
            self.anti_ms(u),
            self.anti_ship(u),
            self.defence(u),
            self.kind(u).movement
        );
        match x.morale {
            Morale::Normal => {}
            Morale::Confused => p.states.push("confused".into()),
            Morale::Panic => p.states.push("demoralised (panic)".into()),
        }
        if x.flipped {
            p.states.push("flipped".into());
        }
        if let Some(h) = x.hex() {
            p.cell = Some(self.fixed.layout.map.name(h));
        }
        match x.at {
            Place::ToDeploy => p.off_table = Some("to set up".into()),
            Place::ToEnter => p.off_table = Some("to enter".into()),
            Place::Gone => {
                p.off_table = Some("destroyed or removed".into());
                p.out = true;
            }
            Place::Hex(_) => {}
        }
        p
    }

    /// The scene (every viewer sees the same).
    pub fn scene_of(&self) -> Scene {
        let lay = &self.fixed.layout;
        let map = &lay.map;
        let width = 0.75 * f64::from(map.cols) + 0.25;
        let height = HT * f64::from(map.rows) + HT / 2.0;
        let cells = (0..map.len() as u16)
            .map(|h| {
                let [x, y] = self.hex_xy(h);
                SceneCell {
                    name: map.name(h),
                    x,
                    y,
                }
            })
            .collect();
        let mut table = Table {
            kind: TableKind::HexFlat,
            unit: "hex".into(),
            width: scene::round(width),
            height: scene::round(height),
            bounds: [0.0, 0.0, scene::round(width), scene::round(height)],
            surface: "space".into(),
            cells,
            cell_size: Some(0.5),
        };
        let markers = self.markers();
        let mut pieces = self.stacked_counters();
        let y = self.off_map_counters(width, &mut pieces);
        table.include([0.0, y, width, height]);
        let status = match &self.now.outcome {
            Some(o) => format!("game over: {}", o.reason),
            None => self.prompt_text(),
        };
        Scene {
            title: self.fixed.setup.scenario.name.clone(),
            status: vec![format!("turn {}", self.now.turn), status],
            table,
            sides: scene::sides(
                &[self.side_name(0), self.side_name(1)],
                &self.fixed.seating,
                scene::deciding(self),
            ),
            terrain: Vec::new(),
            markers,
            pieces,
            traces: Vec::new(),
            actions: Vec::new(),
            key: vec![
                "counter: code and pilot rank; anti-MS·anti-ship·defence and movement".into(),
                "C: confused; D: demoralised; ×N: counters in the stack".into(),
                "blue hexes: the fortress and beam-disruption screens".into(),
            ],
        }
    }

    /// The fortress, the beam-disruption screens and the boards the map is made of.
    fn markers(&self) -> Vec<Marker> {
        let lay = &self.fixed.layout;
        let map = &lay.map;
        let mut markers = Vec::new();
        let fortress: Vec<String> = (0..map.len() as u16)
            .filter(|&h| lay.on_fortress(h))
            .map(|h| map.name(h))
            .collect();
        if !fortress.is_empty() {
            markers.push(Marker {
                id: "fortress".into(),
                kind: "fortress".into(),
                name: "A-Bao-A-Qu".into(),
                look: MarkerLook::Area,
                shape: Shape::Cells { cells: fortress },
                side: None,
                label: String::new(),
            });
        }
        for (i, s) in self.now.screens.iter().enumerate() {
            markers.push(Marker {
                id: format!("screen{i}"),
                kind: "beam-disruption screen".into(),
                name: format!("beam-disruption screen (placed turn {})", s.placed),
                look: MarkerLook::Area,
                shape: Shape::Cells {
                    cells: vec![map.name(s.hex)],
                },
                side: None,
                label: String::new(),
            });
        }
        for &(n, c, r) in &lay.boards {
            let Some(h) = map.at(c, r) else { continue };
            let [x0, y0] = self.hex_xy(h);
            let (x0, y0) = (x0 - 0.5, y0 + HT / 2.0);
            let (bw, bh) = (0.75 * f64::from(BOARD_COLS), HT * f64::from(BOARD_ROWS));
            markers.push(Marker {
                id: format!("board{n}"),
                kind: "board".into(),
                name: format!("board {n}"),
                look: MarkerLook::Board,
                shape: Shape::Polygon {
                    points: vec![[x0, y0], [x0 + bw, y0], [x0 + bw, y0 - bh], [x0, y0 - bh]],
                },
                side: None,
                label: format!("board {n}"),
            });
        }
        markers
    }

    /// The counters on the map, stacked.
    fn stacked_counters(&self) -> Vec<Piece> {
        let map = &self.fixed.layout.map;
        // Stacks: each hex's counters, a side's together, top counter first.
        let mut stacks: Vec<Vec<UnitId>> = vec![Vec::new(); map.len()];
        for u in self.ids() {
            if let Place::Hex(h) = self.unit(u).at {
                stacks[h as usize].push(u);
            }
        }
        let mut pieces = Vec::new();
        for (h, st) in stacks.iter().enumerate() {
            let c = self.hex_xy(h as u16);
            let mixed = st.iter().any(|&u| self.unit(u).side == 0)
                && st.iter().any(|&u| self.unit(u).side == 1);
            for side in 0..2u8 {
                let mine: Vec<UnitId> = st
                    .iter()
                    .copied()
                    .filter(|&u| self.unit(u).side == side)
                    .collect();
                let dx = if mixed {
                    if side == 0 { -0.12 } else { 0.12 }
                } else {
                    0.0
                };
                for (i, &u) in mine.iter().enumerate() {
                    let k = (i.min(4)) as f64 * 0.035;
                    let mut p = self.counter(u, [c[0] + dx + k, c[1] - 0.03 - k]);
                    if mine.len() > 1 {
                        p.stack = Some(StackPlace {
                            cell: map.name(h as u16),
                            index: i as u32,
                            of: mine.len() as u32,
                        });
                    }
                    pieces.push(p);
                }
            }
        }
        pieces
    }

    /// The counters off the map, in rows below it; the lowest row's `y`.
    fn off_map_counters(&self, width: f64, pieces: &mut Vec<Piece>) -> f64 {
        // Off the map: rows below it, each side's groups in turn.
        let per_row = ((width / 0.6).floor() as usize).max(1);
        let mut y = -0.6;
        for side in 0..2u8 {
            for place in [Place::ToDeploy, Place::ToEnter, Place::Gone] {
                let group: Vec<UnitId> = self
                    .ids()
                    .filter(|&u| self.unit(u).side == side && self.unit(u).at == place)
                    .collect();
                if group.is_empty() {
                    continue;
                }
                y -= 0.4;
                for (i, &u) in group.iter().enumerate() {
                    let (col, row) = (i % per_row, i / per_row);
                    pieces.push(self.counter(u, [0.35 + col as f64 * 0.6, y - row as f64 * 0.6]));
                }
                y -= 0.6 * group.len().div_ceil(per_row) as f64 + 0.2;
            }
        }
        y
    }

    /// The counter a step is about: the one being set up or moved, or the one shooting.
    fn asked_about(&self) -> Option<UnitId> {
        match &self.now.phase {
            Phase::Deploy { unit } | Phase::Move { unit, .. } => Some(*unit),
            Phase::Combat {
                declaring: Declaring::Picking { with, .. } | Declaring::Aiming { with, .. },
                ..
            } => with.first().copied(),
            Phase::Combat {
                declaring: Declaring::Launching { unit },
                ..
            } => Some(*unit),
            _ => None,
        }
    }

    /// What an action points at: the counter asked about, and the hex or counter named.
    pub fn anchors_of(&self, action: &Action) -> Anchors {
        let hex = |h: &HexNo| {
            Some(Target::Cell {
                name: h.to_string(),
            })
        };
        let unit = |u: &UnitId| {
            Some(Target::Piece {
                id: format!("u{u}"),
            })
        };
        let asked = self.asked_about().map(|u| format!("u{u}"));
        let (piece, target) = match action {
            Action::Place { hex: h } | Action::Move { to: h } => (asked, hex(h)),
            Action::From { hex: h } | Action::Target { hex: h } | Action::At { hex: h } => {
                (asked, hex(h))
            }
            Action::Hold => (asked, None),
            Action::With { unit: u }
            | Action::Launch { unit: u }
            | Action::Detonate { unit: u } => (Some(format!("u{u}")), None),
            Action::Shoot { unit: u } | Action::Close { unit: u } | Action::Remove { unit: u } => {
                (asked, unit(u))
            }
            _ => (None, None),
        };
        // ABQ-7: shooting at one unit.
        let shot = matches!(action, Action::Shoot { .. }) && piece.is_some();
        Anchors {
            piece,
            target,
            free: None,
            shot,
        }
    }
}
