//! The table as a [`Scene`], in sticks (y up from the near edge, as players type points):
//! terrain with its name, height and room on top; each player's units with value and letter
//! on the base; the missions' bodies (ball, bombs with their blast radius, animals, eggs,
//! credits, the ship, blips, targets, mines, rocks) as tokens; SOCCER's goals, RING
//! BATTLE's ring and BATTLE ZONES' zones as markers; the last action's move, shots and
//! knockbacks as traces; units off the table (aboard, waiting, captured, gone) in a strip
//! beside it. A move's anchors carry its free point: any point within a stick of the unit.
//! SD ERA hides nothing (eggs and blips are drawn only when revealed), so every viewer sees
//! the same scene.

use crate::data::{MissionKind, STICK};
use crate::events::{Action, Target};
use crate::state::{Body, SdEra, Trail, UnitId};
use battlemat_core::scene::{
    self, Anchors, FreePoint, Marker, MarkerLook, Piece, PieceShape, Region, Scene, SceneSide,
    Shape, Table, Trace, TraceKind,
};
use battlemat_geom::table::{Outline, Point};

/// Ticks as sticks.
fn st(t: i64) -> f64 {
    scene::round(t as f64 / STICK as f64)
}

fn xy(p: Point) -> [f64; 2] {
    [st(p.x), st(p.y)]
}

impl SdEra {
    fn body_piece(&self, u: UnitId) -> Piece {
        let x = self.unit(u);
        let (kind, shape, tint, label) = match x.body {
            Body::Unit { .. } => (
                if x.owner.is_some() {
                    "mobile suit"
                } else {
                    "enemy"
                },
                PieceShape::Disc,
                None,
                self.unit_type(u).map(|t| t.label()).unwrap_or_default(),
            ),
            Body::Ball => ("ball", PieceShape::Token, Some("#ffffff"), String::new()),
            Body::Bomb { dice } => (
                "bomb",
                PieceShape::Token,
                Some("#222222"),
                format!("{dice}d"),
            ),
            Body::Animal { value } => (
                "animal",
                PieceShape::Token,
                Some("#8d6e3f"),
                value.to_string(),
            ),
            Body::Egg => ("egg", PieceShape::Token, Some("#f6d7ef"), "egg".into()),
            Body::Credit { amount } => (
                "credits",
                PieceShape::Token,
                Some("#f2c12e"),
                format!("${amount}"),
            ),
            Body::Ship => ("ship", PieceShape::Hull, Some("#9fb3c8"), "SHIP".into()),
            Body::Blip => ("blip", PieceShape::Token, Some("#263238"), "?".into()),
            Body::Target => ("target", PieceShape::Token, Some("#c62828"), "T".into()),
            Body::Mine { .. } => ("mine", PieceShape::Token, Some("#222222"), "!".into()),
            Body::Rock => (
                "asteroid",
                PieceShape::Token,
                Some("#7a7a7a"),
                String::new(),
            ),
        };
        let mut p = Piece::new(
            crate::events::unit_label(u),
            self.name(u),
            kind,
            shape,
            xy(x.at),
            st(x.radius()),
        );
        p.side = x.owner;
        p.seat = x.owner;
        p.tint = tint.map(str::to_string);
        p.label = label;
        if let Some(t) = self.unit_type(u) {
            p = p.stat("value", t.value);
            if let Some(s) = t.special {
                p = p.stat("letter", s.letter());
            }
            p = p.stat("actions left", x.actions);
        }
        if x.body == Body::Ship {
            p.facing = Some(90.0);
        }
        for (on, word) in [
            (x.stunned, "stunned"),
            (x.hidden, "hidden"),
            (x.outside, "outside the ring"),
            (x.waiting, "waiting to be placed"),
        ] {
            if on {
                p.states.push(word.into());
            }
        }
        if x.cheer > 0 {
            p.states.push(format!("+{} cheer", x.cheer));
        }
        p.dim = x.hidden;
        if let Some(c) = x.aboard {
            p.aboard = Some(crate::events::unit_label(c));
            p.off_table = Some(format!("aboard {}", crate::events::unit_label(c)));
        } else if let Some(s) = x.captured {
            p.off_table = Some(format!("captured by Player {}", s + 1));
        } else if x.gone {
            p.off_table = Some("out of play".into());
            p.out = true;
        } else if x.waiting {
            p.off_table = Some("waiting".into());
        }
        p
    }

    /// The scene (every viewer sees the same).
    pub fn scene_of(&self) -> Scene {
        let t = &self.fixed.table;
        let mut table = Table::open("stick", st(t.width), st(t.depth), "mat");
        let terrain = self.terrain_pieces();
        let markers = self.markers();
        let mut pieces = Vec::new();
        let mut strip = [table.width + 0.6, table.height - 0.3];
        for u in self.ids() {
            let mut p = self.body_piece(u);
            if p.off_table.is_some() {
                p.x = scene::round(strip[0]);
                p.y = scene::round(strip[1]);
                strip[1] -= 0.7;
            }
            pieces.push(p);
        }
        table.include([0.0, strip[1].min(0.0), table.width + 1.4, table.height]);
        let traces = self
            .now
            .trail
            .iter()
            .filter_map(|tr| {
                let (kind, from, to) = match *tr {
                    Trail::Move { from, to } => (TraceKind::Move, from, to),
                    Trail::Shot { from, to } => (TraceKind::Shot, from, to),
                    Trail::Knockback { from, to } => (TraceKind::Knockback, from, to),
                };
                (from != to).then(|| Trace {
                    kind,
                    points: vec![xy(from), xy(to)],
                    label: String::new(),
                })
            })
            .collect();
        let over = self.now.result.is_some();
        Scene {
            title: self.fixed.setup.mission.name.clone(),
            status: vec![format!("round {}", self.now.round), self.prompt_text()],
            table,
            sides: (0..self.fixed.players)
                .map(|p| SceneSide {
                    name: format!("Player {}", p + 1),
                    seats: vec![p],
                    note: format!("{} {}", self.now.tokens[p as usize], self.score_word()),
                    to_act: p == self.now.active && !over,
                })
                .collect(),
            terrain,
            markers,
            pieces,
            traces,
            actions: Vec::new(),
            key: vec![
                "on a base: value and special letter; yellow cross: stunned".into(),
                "grey discs: enemies the rules move".into(),
            ],
        }
    }

    /// The terrain pieces, in the mission's names.
    fn terrain_pieces(&self) -> Vec<scene::TerrainPiece> {
        let t = &self.fixed.table;
        t.pieces
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let name = self
                    .fixed
                    .setup
                    .mission
                    .terrain_names
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("terrain {}", i + 1));
                let shape = match &p.outline {
                    Outline::Circle { centre, radius } => Shape::Circle {
                        x: st(centre.x),
                        y: st(centre.y),
                        r: st(*radius),
                    },
                    Outline::Polygon { corners } => Shape::Polygon {
                        points: corners.iter().map(|c| xy(*c)).collect(),
                    },
                };
                scene::TerrainPiece {
                    id: format!("t{i}"),
                    kind: if p.holds > 0 {
                        "terrain to stand on".into()
                    } else if p.blocks_sight {
                        "terrain that blocks sight".into()
                    } else {
                        "low terrain".into()
                    },
                    name,
                    shape,
                    height: Some(st(p.height)),
                    blocks_sight: p.blocks_sight,
                    stand_on: p.holds > 0,
                    holds: (p.holds > 0).then_some(u32::from(p.holds)),
                    cover: false,
                }
            })
            .collect()
    }

    /// The missions' markers: the ring, SOCCER's goals, BATTLE ZONES' zones, and each bomb's
    /// or mine's blast.
    fn markers(&self) -> Vec<Marker> {
        let t = &self.fixed.table;
        let mut markers = Vec::new();
        if self.fixed.kind == MissionKind::RingBattle {
            let c = xy(self.fixed.centre);
            markers.push(Marker {
                id: "ring".into(),
                kind: "ring".into(),
                name: "the ring".into(),
                look: MarkerLook::Ring,
                shape: Shape::Circle {
                    x: c[0],
                    y: c[1],
                    r: st(self.fixed.setup.mission.ring_radius),
                },
                side: None,
                label: String::new(),
            });
        }
        if self.fixed.kind == MissionKind::Soccer {
            for (g, (a, b)) in self.goals() {
                markers.push(Marker {
                    id: format!("goal{g}"),
                    kind: "goal".into(),
                    name: format!("Player {}'s goal", g + 1),
                    look: MarkerLook::Goal,
                    shape: Shape::Line {
                        points: vec![xy(a), xy(b)],
                    },
                    side: Some(g),
                    label: String::new(),
                });
            }
        }
        if let Some(z) = &self.now.zones {
            for k in 0..self.zone_count() {
                let (lo, hi) = self.zone_span(k);
                let card = z.cards.get(k as usize).copied().flatten();
                markers.push(Marker {
                    id: format!("zone{k}"),
                    kind: "zone".into(),
                    name: format!("zone {}", k + 1),
                    look: MarkerLook::Zone,
                    shape: Shape::Polygon {
                        points: vec![
                            [0.0, st(lo)],
                            [st(t.width), st(lo)],
                            [st(t.width), st(hi)],
                            [0.0, st(hi)],
                        ],
                    },
                    side: None,
                    label: format!(
                        "zone {}{}{}",
                        k + 1,
                        card.map_or(String::new(), |c| format!(": {}", c.name())),
                        if k < z.cleared { " (cleared)" } else { "" }
                    ),
                });
            }
        }
        // A bomb's or a mine's blast reaches a stick past its base.
        for u in self.ids() {
            let x = self.unit(u);
            if matches!(x.body, Body::Bomb { .. } | Body::Mine { .. }) && x.on_table() {
                let c = xy(x.at);
                markers.push(Marker {
                    id: format!("blast{u}"),
                    kind: "blast radius".into(),
                    name: format!("{}'s blast", self.name(u)),
                    look: MarkerLook::Danger,
                    shape: Shape::Circle {
                        x: c[0],
                        y: c[1],
                        r: st(x.radius() + STICK),
                    },
                    side: None,
                    label: String::new(),
                });
            }
        }
        markers
    }

    /// What an action points at: the unit, its target unit or point, and for a plain move
    /// the free point — anywhere within a stick (SDE-MOVE).
    pub fn anchors_of(&self, action: &Action) -> Anchors {
        let id = |u: UnitId| Some(crate::events::unit_label(u));
        let unit = |u: UnitId| {
            Some(scene::Target::Piece {
                id: crate::events::unit_label(u),
            })
        };
        match action {
            Action::Move { unit: u, to, cargo } => {
                let from = self.unit(*u).at;
                let p = to.resolve(from);
                let free = cargo.is_none().then(|| FreePoint {
                    region: Region::Circle {
                        x: st(from.x),
                        y: st(from.y),
                        r: st(STICK),
                    },
                    template: format!("move {} {{x}},{{y}}", crate::events::unit_label(*u)),
                });
                Anchors {
                    piece: id(*u),
                    target: Some(scene::Target::Point {
                        x: st(p.x),
                        y: st(p.y),
                    }),
                    free,
                    shot: false,
                }
            }
            // SDE-SHOOT (SD ERA, Shooting): a shooting attack, usually within a stick of the target.
            Action::Shoot { unit: u, aims, .. } => Anchors {
                piece: id(*u),
                target: aims.first().and_then(|a| unit(a.target)),
                free: None,
                shot: !aims.is_empty(),
            },
            Action::Melee { unit: u, target } | Action::Cheer { unit: u, target } => Anchors {
                piece: id(*u),
                target: unit(*target),
                free: None,
                shot: false,
            },
            Action::PickUp { unit: u, animal } => Anchors {
                piece: id(*u),
                target: unit(*animal),
                free: None,
                shot: false,
            },
            Action::Deploy { unit: u, at } => Anchors {
                piece: id(*u),
                target: Some(scene::Target::Point {
                    x: st(at.x),
                    y: st(at.y),
                }),
                free: Some(self.deploy_region(*u, *at)),
                shot: false,
            },
            Action::Edge { edge } => {
                let p = self.edge_middle(*edge);
                Anchors {
                    piece: None,
                    target: Some(scene::Target::Point {
                        x: st(p.x),
                        y: st(p.y),
                    }),
                    free: None,
                    shot: false,
                }
            }
            Action::Place { target } => Anchors {
                piece: None,
                target: unit(*target),
                free: None,
                shot: false,
            },
            Action::Recover { unit: u }
            | Action::Hide { unit: u }
            | Action::Collect { unit: u }
            | Action::BreakIn { unit: u }
            | Action::GiveUp { unit: u } => Anchors {
                piece: id(*u),
                target: None,
                free: None,
                shot: false,
            },
            Action::Push {
                toward: Target::Point(p),
            } if p.x >= 0
                && p.y >= 0
                && p.x <= self.fixed.table.width
                && p.y <= self.fixed.table.depth =>
            {
                Anchors {
                    piece: None,
                    target: Some(scene::Target::Point {
                        x: st(p.x),
                        y: st(p.y),
                    }),
                    free: None,
                    shot: false,
                }
            }
            _ => Anchors::default(),
        }
    }

    /// Where a click may place a unit before play: the strip along its player's edge (the
    /// line its bases' centres touch the edge on), or RING BATTLE's ring for a place in it.
    fn deploy_region(&self, u: UnitId, at: battlemat_geom::table::Point) -> FreePoint {
        let seat = self.unit(u).owner.unwrap_or(0);
        let region = if self.fixed.kind == MissionKind::RingBattle && self.in_ring_zone(at) {
            let c = self.fixed.centre;
            Region::Circle {
                x: st(c.x),
                y: st(c.y),
                r: st(self.fixed.setup.mission.ring_radius),
            }
        } else {
            let [a, b] = self.edge_strip(seat);
            Region::Path {
                points: vec![xy(a), xy(b)],
            }
        };
        FreePoint {
            region,
            template: format!("deploy {} {{x}},{{y}}", crate::events::unit_label(u)),
        }
    }
}
