//! The table as a [`Scene`]: the mat's squares or hexes (row 1 at the bottom, as the text
//! board), walls, hills and fortified cells, the scenario's objective, every unit — figures
//! and vehicles as discs, Force Users ringed in gold, fliers as diamonds, guns as squares,
//! fallen units crossed where they fell — each side's line of fliers off the battlefield in
//! a strip beside the mat, and each action's unit and target. SWTB hides nothing, so every
//! viewer sees the same scene.

use crate::data::{Class, Goal};
use crate::events::{Action, Dest};
use crate::state::{Place, Swtb, Terrain, UnitId};
use battlemat_core::scene::{
    Anchors, Marker, MarkerLook, Piece, PieceShape, Scene, SceneSide, Shape, Table, TableKind,
    Target, TerrainPiece,
};
use battlemat_geom::{Cell, GridKind};

impl Swtb {
    fn table_kind(&self) -> TableKind {
        match self.fixed.grid.kind {
            GridKind::Square => TableKind::Square,
            GridKind::Hex => TableKind::HexPointy,
        }
    }

    fn centre(&self, c: Cell) -> [f64; 2] {
        Table::centre_of(self.table_kind(), u32::from(c.col), u32::from(c.row))
    }

    fn piece_of(&self, u: UnitId, strip: &mut [f64; 2]) -> Piece {
        let unit = &self.now.units[u as usize];
        let ty = self.ty(u);
        let shape = match ty.class {
            Class::Ship => PieceShape::Diamond,
            Class::Gun => PieceShape::Square,
            _ if ty.force_user => PieceShape::Ringed,
            _ => PieceShape::Disc,
        };
        let kind = match ty.class {
            Class::Figure if ty.force_user => "Force User",
            Class::Figure => "figure",
            Class::Ship => "flier",
            Class::GroundVehicle => "ground vehicle",
            Class::Gun => "fixed gun",
        };
        let (at, off) = match unit.place {
            Place::Field(c) | Place::Fallen(c) => (self.centre(c), None),
            Place::Line => (*strip, Some("on the line".to_string())),
            Place::Gone => (*strip, Some("eliminated".to_string())),
        };
        if off.is_some() {
            strip[1] -= 1.0;
        }
        let mut p = Piece::new(
            format!("u{u}"),
            self.name(u),
            kind,
            shape,
            at,
            if shape == PieceShape::Diamond {
                0.42
            } else {
                0.36
            },
        )
        .stat("type", &ty.name)
        .stat("move", ty.r#move)
        .stat("dice", ty.dice)
        .stat("hits", format!("{}/{}", unit.hits, self.toughness(u)));
        if let Some(a) = ty.attack_dice {
            p = p.stat("attack dice", a);
        }
        if let Some(power) = unit.power {
            p = p.stat(
                "force power",
                format!(
                    "{}{}",
                    crate::text::power_name(power),
                    if unit.power_used { " (used)" } else { "" }
                ),
            );
        }
        p.side = Some(unit.side);
        p.seat = unit.owner;
        p.label = u.to_string();
        p.off_table = off;
        if let Place::Field(c) | Place::Fallen(c) = unit.place {
            p.cell = Some(c.to_string());
        }
        if matches!(unit.place, Place::Fallen(_) | Place::Gone) {
            p.out = true;
            p.states.push(
                if unit.place == Place::Gone {
                    "eliminated"
                } else {
                    "fallen"
                }
                .into(),
            );
        }
        if self.shows_acted(u) {
            p.dim = true;
            p.states.push("acted".into());
        }
        if unit.hits > 0 && !p.out {
            p.states.push(format!(
                "{} hit{}",
                unit.hits,
                if unit.hits == 1 { "" } else { "s" }
            ));
        }
        p
    }

    /// The scene (every viewer sees the same).
    pub fn scene_of(&self) -> Scene {
        let g = self.fixed.grid;
        let mut table = match g.kind {
            GridKind::Square => Table::squares(u32::from(g.width), u32::from(g.height), |c, r| {
                Cell::new(c as u8, r as u8).to_string()
            }),
            GridKind::Hex => Table::hex_rows(u32::from(g.width), u32::from(g.height), |c, r| {
                Cell::new(c as u8, r as u8).to_string()
            }),
        };
        let obs = self.observation();
        let terrain = g
            .cells()
            .filter_map(|c| {
                let (kind, blocks, stand, cover) = match self.terrain(c) {
                    Terrain::Open => return None,
                    Terrain::Wall => ("wall", true, false, false),
                    Terrain::Hill => ("hill", false, true, false),
                    Terrain::Fortified => ("fortified", false, false, true),
                };
                Some(TerrainPiece {
                    id: format!("t{c}"),
                    kind: kind.into(),
                    name: format!("{kind} {c}"),
                    shape: Shape::Cells {
                        cells: vec![c.to_string()],
                    },
                    height: None,
                    blocks_sight: blocks,
                    stand_on: stand,
                    holds: None,
                    cover,
                })
            })
            .collect();
        let mut markers = Vec::new();
        if let Some(Goal::Reach { side, cells } | Goal::Hold { side, cells }) =
            &self.fixed.setup.scenario.goal
        {
            let verb = match &self.fixed.setup.scenario.goal {
                Some(Goal::Reach { .. }) => "reach",
                _ => "hold",
            };
            markers.push(Marker {
                id: "goal".into(),
                kind: "objective".into(),
                name: format!("{}'s objective: {verb}", self.side_name(*side)),
                look: MarkerLook::Objective,
                shape: Shape::Cells {
                    cells: cells.iter().map(Cell::to_string).collect(),
                },
                side: Some(*side),
                label: String::new(),
            });
        }
        // The strip beside the mat: each side's line, then the eliminated.
        let x = table.width + 1.0;
        let mut pieces = Vec::new();
        let mut lowest: f64 = 0.0;
        for side in 0..2u8 {
            let mut strip = [x + 1.4 * f64::from(side), table.height - 0.5];
            for u in self.ids() {
                let unit = &self.now.units[u as usize];
                if unit.side == side {
                    let p = self.piece_of(u, &mut strip);
                    pieces.push(p);
                }
            }
            lowest = lowest.min(strip[1]);
        }
        if pieces.iter().any(|p| p.off_table.is_some()) {
            table.include([0.0, lowest, x + 2.2, table.height]);
        }
        let round = match obs.round {
            0 => format!("before round 1 of {}", obs.max_rounds),
            r => format!("round {r} of {}", obs.max_rounds),
        };
        let to_act = self.next_seat().map(|s| self.fixed.seating.side_of(s));
        Scene {
            title: obs.scenario.clone(),
            status: vec![round, obs.status.clone()],
            table,
            sides: (0..2u8)
                .map(|s| SceneSide {
                    name: self.side_name(s).to_string(),
                    seats: self.fixed.seating.seats_of(s).collect(),
                    note: format!("{} points", self.points_left(s)),
                    to_act: to_act == Some(s),
                })
                .collect(),
            terrain,
            markers,
            pieces,
            traces: Vec::new(),
            actions: Vec::new(),
            key: vec![
                "disc: figure or vehicle; gold ring: Force User; diamond: flier; square: gun"
                    .into(),
                "cross: fallen".into(),
            ],
        }
    }

    fn next_seat(&self) -> Option<u8> {
        match battlemat_core::Game::next(self) {
            battlemat_core::Next::Decide(s) => Some(s),
            _ => None,
        }
    }

    /// What an action points at: its unit and its target unit or cell.
    pub fn anchors_of(&self, action: &Action) -> Anchors {
        let piece = |u: UnitId| Some(format!("u{u}"));
        let unit = |u: UnitId| {
            Some(Target::Piece {
                id: format!("u{u}"),
            })
        };
        // SWTB-4: a blaster's attack at range (a shot, with its clear line) or a gun's fire.
        let shot = match *action {
            Action::Attack {
                unit: u, target, ..
            } => self.attack_kind_of(u, target) == crate::state::AttackKind::Shot,
            Action::Fire { .. } => true,
            _ => false,
        };
        let (p, t) = match *action {
            Action::First { .. } | Action::EndTurn => (None, None),
            Action::ChoosePower { unit: u, .. } => (piece(u), None),
            Action::Move { unit: u, to } => (
                piece(u),
                match to {
                    Dest::Cell(c) => Some(Target::Cell {
                        name: c.to_string(),
                    }),
                    Dest::Line => None,
                },
            ),
            Action::Attack {
                unit: u, target, ..
            }
            | Action::Choke { unit: u, target }
            | Action::MindTrick { unit: u, target } => (piece(u), unit(target)),
            Action::Fire { gun, target, .. } => (piece(gun), unit(target)),
            Action::Revive { unit: u, fallen } => (piece(u), unit(fallen)),
        };
        Anchors {
            piece: p,
            target: t,
            free: None,
            shot,
        }
    }
}
