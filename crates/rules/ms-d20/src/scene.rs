//! The grid as a [`Scene`]: squares named as on a chess board, each combatant as a token in
//! its side's colour with its sections' durability as bars (the first is the main body),
//! its attacks per melee, pilot and weapons on its card, and its states (stunned, knocked
//! over, fleeing, out); the combatant whose turn it is shows its weapons' longest range as
//! a marker. An action's anchors name the combatant acting or defending and its target.
//! The game hides nothing.

use crate::events::Action;
use crate::state::{MsD20, Phase, UnitId};
use battlemat_core::scene::{
    self, Anchors, Bar, Marker, MarkerLook, Piece, PieceShape, Scene, Shape, Table, TableKind,
    Target,
};

impl MsD20 {
    /// The combatant a decision is about: the one whose turn it is, deciding to fight, or
    /// defending.
    fn deciding(&self) -> Option<UnitId> {
        match &self.now.phase {
            Phase::Turn { unit, .. } | Phase::FightOrFlight { unit } => Some(*unit),
            Phase::Defend { attack } => Some(attack.target),
            _ => None,
        }
    }

    /// The scene (every viewer sees the same).
    pub fn scene_of(&self) -> Scene {
        let g = self.fixed.grid;
        let table = Table::squares(u32::from(g.width), u32::from(g.height), |c, r| {
            battlemat_geom::Cell::new(c as u8, r as u8).to_string()
        });
        let active = match &self.now.phase {
            Phase::Turn { unit, .. } => Some(*unit),
            _ => None,
        };
        let mut markers = Vec::new();
        let mut pieces = Vec::new();
        for u in self.ids() {
            let x = self.unit(u);
            let d = self.data(u);
            let at = Table::centre_of(TableKind::Square, u32::from(x.at.col), u32::from(x.at.row));
            let mut p = Piece::new(
                format!("u{u}"),
                self.name(u),
                format!("{:?}", d.kind).to_lowercase().replace('_', " "),
                PieceShape::Disc,
                at,
                0.38,
            )
            .stat("pilot", &d.pilot.name)
            .stat("attacks per melee left", x.apm)
            .stat("speed", d.speed);
            for w in &d.weapons {
                p = p.stat(
                    "weapon",
                    format!(
                        "{} ({}, range {}/{}/{})",
                        w.name,
                        format!("{:?}", w.kind).to_lowercase(),
                        w.range[0],
                        w.range[1],
                        w.range[2]
                    ),
                );
            }
            p.side = Some(x.side);
            p.seat = Some(x.seat);
            p.cell = Some(x.at.to_string());
            p.label = format!("u{u}");
            let main = self.main_section(u) as usize;
            let mut order: Vec<usize> = (0..d.sections.len()).collect();
            order.retain(|&s| s != main);
            order.insert(0, main);
            p.bars = order
                .into_iter()
                .map(|s| Bar {
                    name: d.sections[s].name.clone(),
                    value: i64::from(x.sections[s]),
                    max: i64::from(d.sections[s].durability),
                })
                .collect();
            p.out = x.out;
            for (on, word) in [
                (x.out, "out"),
                (x.stunned.is_some(), "stunned"),
                (x.knocked, "knocked over"),
                (x.flee, "fleeing"),
            ] {
                if on {
                    p.states.push(word.into());
                }
            }
            if active == Some(u) {
                let long = d.weapons.iter().map(|w| w.range[2]).max().unwrap_or(0);
                if long > 0 {
                    // D20-8: ranges are counted in squares, king-wise: a square of cells.
                    let (cx, cy, r) = (at[0], at[1], f64::from(long) + 0.5);
                    let clip = |v: f64, hi: f64| v.clamp(0.0, hi);
                    let (w, h) = (f64::from(g.width), f64::from(g.height));
                    markers.push(Marker {
                        id: "reach".into(),
                        kind: "long range".into(),
                        name: format!("{}'s long range ({long} squares)", self.name(u)),
                        look: MarkerLook::Danger,
                        shape: Shape::Polygon {
                            points: vec![
                                [clip(cx - r, w), clip(cy - r, h)],
                                [clip(cx + r, w), clip(cy - r, h)],
                                [clip(cx + r, w), clip(cy + r, h)],
                                [clip(cx - r, w), clip(cy + r, h)],
                            ],
                        },
                        side: Some(x.side),
                        label: String::new(),
                    });
                }
            }
            pieces.push(p);
        }
        let status = match &self.now.outcome {
            Some(o) => format!("game over: {}", o.reason),
            None => self.prompt_text(),
        };
        Scene {
            title: self.fixed.setup.scenario.name.clone(),
            status: vec![format!("melee {}", self.now.melee), status],
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
                "bar: the main body's durability left (green); every section on the card".into(),
                "dashed square: the acting combatant's longest range".into(),
            ],
        }
    }

    /// What an action points at: the combatant deciding, and its target or square.
    pub fn anchors_of(&self, action: &Action) -> Anchors {
        let piece = self.deciding().map(|u| format!("u{u}"));
        let target = match action {
            Action::Move { to } => Some(Target::Cell {
                name: to.to_string(),
            }),
            Action::Attack { target, .. } => Some(Target::Piece {
                id: format!("u{target}"),
            }),
            _ => None,
        };
        // D20-5, D20-8: an attack with a ranged weapon (not a blade or a melee blow) is a shot.
        let shot = match (action, self.deciding()) {
            (Action::Attack { weapon, .. }, Some(u)) => {
                self.data(u).weapons.get(*weapon as usize).is_some_and(|w| {
                    !matches!(
                        w.kind,
                        crate::data::WeaponType::Melee | crate::data::WeaponType::Blade
                    )
                })
            }
            _ => false,
        };
        Anchors {
            piece,
            target,
            free: None,
            shot,
        }
    }
}
