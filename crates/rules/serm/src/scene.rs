//! The table as a [`Scene`], in inches (y up from the near edge): terrain, each soldier's
//! base in its side's colour with its four stats and card, its facing and 180° front arc
//! (a Ranger's all round), the last Move's path and the last blast as traces, and a
//! declared Move waiting on a React as a declared trace. Anchors: the soldier acting or
//! reacting, its target, and for a React's stop every point listed along the mover's path.
//! The game hides nothing.

use crate::data::{BASE_RADIUS, INCH, Special};
use crate::events::Action;
use crate::state::{Heading, Phase, Serm, SoldierId, Spot};
use battlemat_core::scene::{
    self, Anchors, FireArc, Piece, PieceShape, Scene, Shape, Table, Target, Trace, TraceKind,
};
use battlemat_geom::table::{Outline, Point};

fn inch(t: i64) -> f64 {
    scene::round(t as f64 / INCH as f64)
}

fn xy(p: Point) -> [f64; 2] {
    [inch(p.x), inch(p.y)]
}

impl Serm {
    fn moving(&self) -> Option<&crate::state::Moving> {
        match &self.now.phase {
            Phase::ReactChoice { moving }
            | Phase::Reacting { moving, .. }
            | Phase::StopWhere { moving, .. } => Some(moving),
            _ => None,
        }
    }

    /// The scene (every viewer sees the same).
    pub fn scene_of(&self) -> Scene {
        let t = self.table();
        let table = Table::open("inch", inch(t.width), inch(t.depth), "field");
        let terrain = t
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| scene::TerrainPiece {
                id: format!("t{i}"),
                kind: "terrain".into(),
                name: format!("terrain {}", i + 1),
                shape: match &p.outline {
                    Outline::Circle { centre, radius } => Shape::Circle {
                        x: inch(centre.x),
                        y: inch(centre.y),
                        r: inch(*radius),
                    },
                    Outline::Polygon { corners } => Shape::Polygon {
                        points: corners.iter().map(|c| xy(*c)).collect(),
                    },
                },
                height: Some(inch(p.height)),
                blocks_sight: p.blocks_sight,
                stand_on: p.holds > 0,
                holds: None,
                cover: false,
            })
            .collect();
        let pieces = self
            .ids()
            .map(|u| {
                let x = self.soldier(u);
                let c = self.card(u);
                let mut p = Piece::new(
                    format!("u{u}"),
                    self.name(u),
                    "soldier",
                    PieceShape::Disc,
                    xy(x.at),
                    inch(BASE_RADIUS),
                )
                .stat("card", &c.name)
                .stat("Shoot", c.shoot)
                .stat("Endure", c.endure)
                .stat("React", c.react)
                .stat("Move", c.movement);
                p.side = Some(x.side);
                p.seat = self.fixed.seating.seats_of(x.side).next();
                p.label = u.to_string();
                let (fx, fy) = (x.facing.0 as f64, x.facing.1 as f64);
                p.facing = Some(scene::round(fy.atan2(fx).to_degrees()));
                p.arc = Some(FireArc {
                    degrees: if c.has(Special::AllRound) {
                        360.0
                    } else {
                        180.0
                    },
                    reach: 3.0,
                });
                if !x.alive {
                    p.out = true;
                    p.states.push("eliminated".into());
                }
                p
            })
            .collect();
        let mut traces = Vec::new();
        if let Some((a, b)) = self.now.last_path {
            traces.push(Trace {
                kind: TraceKind::Move,
                points: vec![xy(a), xy(b)],
                label: "last move".into(),
            });
        }
        if let Some(c) = self.now.last_blast {
            let [x, y] = xy(c);
            traces.push(Trace {
                kind: TraceKind::Blast,
                points: vec![[x, y], [x + 1.5, y]],
                label: "last blast".into(),
            });
        }
        if let Some(m) = self.moving() {
            traces.push(Trace {
                kind: TraceKind::Declared,
                points: vec![xy(self.soldier(m.mover).at), xy(m.end)],
                label: format!("declared move: {} inches", m.total),
            });
        }
        let status = match &self.now.outcome {
            Some(o) => format!("game over: {}", o.reason),
            None => self.prompt_text(),
        };
        Scene {
            title: self.fixed.setup.scenario.name.clone(),
            status: vec![status],
            table,
            sides: scene::sides(
                &[
                    self.fixed.side_names[0].as_str(),
                    self.fixed.side_names[1].as_str(),
                ],
                &self.fixed.seating,
                scene::deciding(self),
            ),
            terrain,
            markers: Vec::new(),
            pieces,
            traces,
            actions: Vec::new(),
            key: vec!["card: Shoot, Endure, React, Move as pools of exploding d6".into()],
        }
    }

    /// What an action points at: the soldier, its target soldier, or the point a React
    /// stops the mover at.
    pub fn anchors_of(&self, action: &Action) -> Anchors {
        let id = |s: SoldierId| Some(format!("u{s}"));
        let soldier = |s: SoldierId| {
            Some(Target::Piece {
                id: format!("u{s}"),
            })
        };
        let mover = self.moving().map(|m| m.mover);
        let (piece, target) = match *action {
            Action::Shoot { soldier: s, target } => (id(s), soldier(target)),
            Action::Blast { soldier: s, .. } => (id(s), None),
            Action::BlastAt {
                soldier: s,
                toward: Spot::Soldier(t),
            } => (id(s), soldier(t)),
            Action::BlastAt {
                soldier: s,
                toward: Spot::Point(p),
            } => (
                id(s),
                Some(Target::Point {
                    x: inch(p.x),
                    y: inch(p.y),
                }),
            ),
            Action::Move { soldier: s, toward } => (
                id(s),
                match toward {
                    Some(Heading::Soldier(t)) => soldier(t),
                    _ => None,
                },
            ),
            Action::Aim { toward, .. } => (
                match &self.now.phase {
                    Phase::Aim { mover: s, .. } => id(*s),
                    _ => mover.and_then(id),
                },
                match toward {
                    Heading::Soldier(t) => soldier(t),
                    Heading::Wind(_) => None,
                },
            ),
            Action::React { soldier: s } => (id(s), mover.and_then(soldier)),
            Action::Stop { at } => match self.moving() {
                Some(m) => {
                    let (p, _) = self.along_path(m, at);
                    (
                        id(m.mover),
                        Some(Target::Point {
                            x: inch(p.x),
                            y: inch(p.y),
                        }),
                    )
                }
                None => (None, None),
            },
            Action::Pass => (None, None),
        };
        // SERM-SHOOT: a Shoot at a soldier in the firer's arc ("for line of sight purposes").
        let shot = matches!(action, Action::Shoot { .. });
        Anchors {
            piece,
            target,
            free: None,
            shot,
        }
    }
}
