//! SERM-MOVE, SERM-REACT and SERM-REACT-H: a Move is declared (a direction: a wind, or
//! toward a soldier, which it then "targets"), rolled, and swept along a straight line to
//! its full length or its first contact (terrain, a table edge, a soldier: an enemy touched
//! is killed). Before it is carried out, the other side may React with one soldier that sees
//! the mover — the only one allowed when the Move targets a soldier, unless a Ranger — and a
//! higher react total stops the mover where the reactor's side chooses on its path, and
//! hands the initiative to the reactor.

use crate::data::{BASE_RADIUS, INCH, Special};
use crate::events::Event;
use crate::state::{Heading, Moving, Phase, Pool, Serm, SoldierId, Turn};
use crate::turn::WIND_VECTORS;
use battlemat_geom::table::{Base, Hit, Point, distance_floor, toward};

impl Serm {
    /// The point a heading points at from `from`.
    pub fn heading_point(&self, from: Point, h: Heading) -> Point {
        match h {
            Heading::Wind(w) => {
                let (dx, dy) = WIND_VECTORS[w as usize % 16];
                Point::new(from.x + dx, from.y + dy)
            }
            Heading::Soldier(s) => self.soldier(s).at,
        }
    }

    /// Declare the Move (the Assault Commando declares nothing yet) and roll it.
    pub fn start_move(&mut self, mover: SoldierId, heading: Option<Heading>, ev: &mut Vec<Event>) {
        ev.push(Event::Moves { soldier: mover });
        self.now.phase = Phase::MoveRoll {
            mover,
            heading,
            pool: Pool::of(self.card(mover).movement),
        };
    }

    pub fn roll_move(
        &mut self,
        mover: SoldierId,
        heading: Option<Heading>,
        mut pool: Pool,
        face: u8,
        ev: &mut Vec<Event>,
    ) {
        let Some(total) = pool.add(face) else {
            self.now.phase = Phase::MoveRoll {
                mover,
                heading,
                pool,
            };
            return;
        };
        ev.push(Event::Pool {
            soldier: mover,
            what: "move".into(),
            dice: pool.dice(),
            total,
        });
        match heading {
            Some(h) => self.path(mover, h, total, None, ev),
            None => self.now.phase = Phase::Aim { mover, total },
        }
    }

    /// The path: exactly `total` inches along the heading, or to the first contact. With a
    /// `turn` (the Assault Commando, `commando_turn = turn_once`), the first `turn.at` ticks
    /// go along the heading and the rest toward `turn.toward`, from where it turned; a
    /// contact on the first leg ends the Move there. The Move targets the soldier its last
    /// leg goes toward, or else the one its first leg does (SERM-REACT-H).
    pub fn path(
        &mut self,
        mover: SoldierId,
        heading: Heading,
        total: u32,
        turn: Option<Turn>,
        ev: &mut Vec<Event>,
    ) {
        let from = self.soldier(mover).at;
        let full = total as i64 * INCH;
        let others: Vec<(SoldierId, Base)> = self
            .ids()
            .filter(|&v| v != mover && self.soldier(v).alive)
            .map(|v| (v, self.base(v)))
            .collect();
        let bases: Vec<Base> = others.iter().map(|o| o.1).collect();
        let first = match turn {
            Some(t) => t.at.clamp(0, full),
            None => full,
        };
        let aim = self.heading_point(from, heading);
        let to = toward(from, aim, first);
        let mut sweep = self
            .table()
            .sweep(Base::new(from, BASE_RADIUS), to, &bases, &[]);
        let mut via = None;
        let mut target = heading;
        if let Some(t) = turn
            && sweep.hit.is_none()
            && first < full
        {
            // SERM cards, the Assault Commando: "may turn during a Move".
            let corner = sweep.stop;
            let aim2 = self.heading_point(corner, t.toward);
            let to2 = toward(corner, aim2, full - distance_floor(from, corner));
            sweep = self
                .table()
                .sweep(Base::new(corner, BASE_RADIUS), to2, &bases, &[]);
            via = Some(corner);
            if matches!(t.toward, Heading::Soldier(_)) || matches!(heading, Heading::Wind(_)) {
                target = t.toward;
            }
        }
        let contact = match sweep.hit {
            Some(Hit::Base(j)) => Some(others[j].0),
            _ => None,
        };
        let moving = Moving {
            mover,
            heading: target,
            total,
            end: sweep.stop,
            contact,
            via,
        };
        self.offer_react(moving, ev);
    }

    /// SERM-REACT-H: who may react to this Move.
    pub fn reactors(&self, m: &Moving) -> Vec<SoldierId> {
        let side = self.soldier(m.mover).side;
        self.ids()
            .filter(|&r| {
                let x = self.soldier(r);
                let ranger = self.card(r).has(Special::ReactAny);
                x.alive
                    && x.side != side
                    && self.card(r).react > 0
                    && match m.heading {
                        // "if the Move targets a soldier, that soldier is the only one that can
                        // React to the Move ... except by a Ranger".
                        Heading::Soldier(t) if self.soldier(t).side != side => r == t || ranger,
                        _ => true,
                    }
                    && self.sees(r, m.mover)
            })
            .collect()
    }

    fn offer_react(&mut self, moving: Moving, ev: &mut Vec<Event>) {
        if self.reactors(&moving).is_empty() {
            self.complete_move(moving, ev);
        } else {
            self.now.phase = Phase::ReactChoice { moving };
        }
    }

    pub fn start_react(&mut self, moving: Moving, reactor: SoldierId, ev: &mut Vec<Event>) {
        ev.push(Event::Reacts { soldier: reactor });
        self.now.phase = Phase::Reacting {
            moving,
            reactor,
            pool: Pool::of(self.card(reactor).react),
        };
    }

    /// SERM-REACT: "if the React roll is greater than the Move roll, the moving soldier is
    /// stopped anywhere along its move path".
    pub fn roll_react(
        &mut self,
        moving: Moving,
        reactor: SoldierId,
        mut pool: Pool,
        face: u8,
        ev: &mut Vec<Event>,
    ) {
        let Some(total) = pool.add(face) else {
            self.now.phase = Phase::Reacting {
                moving,
                reactor,
                pool,
            };
            return;
        };
        ev.push(Event::Pool {
            soldier: reactor,
            what: "react".into(),
            dice: pool.dice(),
            total,
        });
        if total > moving.total {
            self.now.phase = Phase::StopWhere { moving, reactor };
        } else {
            self.complete_move(moving, ev);
        }
    }

    /// The length of the path, in ticks (both legs of a turned one).
    pub fn path_length(&self, m: &Moving) -> i64 {
        let from = self.soldier(m.mover).at;
        match m.via {
            Some(v) => distance_floor(from, v) + distance_floor(v, m.end),
            None => distance_floor(from, m.end),
        }
    }

    /// The point `d` ticks along the path, and the start of the leg it is on (for the way
    /// the mover faces there).
    pub fn along_path(&self, m: &Moving, d: i64) -> (Point, Point) {
        let from = self.soldier(m.mover).at;
        if d >= self.path_length(m) {
            return (m.end, m.via.unwrap_or(from));
        }
        match m.via {
            Some(v) if d > distance_floor(from, v) => {
                (toward(v, m.end, d - distance_floor(from, v)), v)
            }
            Some(v) => (toward(from, v, d), from),
            None => (toward(from, m.end, d), from),
        }
    }

    /// Stop the mover `d` ticks along its path; the initiative to the reactor (a Ranger may
    /// hand it to a friend it sees).
    pub fn stop_at(&mut self, m: Moving, reactor: SoldierId, d: i64, ev: &mut Vec<Event>) {
        let from = self.soldier(m.mover).at;
        let (at, leg) = self.along_path(&m, d);
        let leg_end = if leg == from {
            m.via.unwrap_or(m.end)
        } else {
            m.end
        };
        self.face_and_place(m.mover, leg, leg_end, at);
        self.now.last_path = Some((from, at));
        ev.push(Event::Stopped {
            soldier: m.mover,
            at,
        });
        self.now.activations += 1;
        let side = self.soldier(reactor).side;
        let mut only = vec![reactor];
        if self.card(reactor).has(Special::HandOver) {
            for f in self.ids() {
                if f != reactor
                    && self.soldier(f).alive
                    && self.soldier(f).side == side
                    && self.sees(reactor, f)
                {
                    only.push(f);
                }
            }
        }
        self.give_initiative(side, Some(only), ev);
    }

    fn face_and_place(&mut self, s: SoldierId, from: Point, dir_to: Point, at: Point) {
        let x = self.soldier_mut(s);
        if dir_to != from {
            x.facing = (dir_to.x - from.x, dir_to.y - from.y);
        }
        x.at = at;
    }

    /// The Move carried out: to the end of its path; an enemy contacted is killed (SERM-MOVE:
    /// "If an enemy soldier is contacted during a Move, it is automatically killed"); the
    /// initiative passes.
    pub fn complete_move(&mut self, m: Moving, ev: &mut Vec<Event>) {
        let from = self.soldier(m.mover).at;
        match m.via {
            // A turned Move faces along its last leg (or its first, if the last went nowhere).
            Some(v) if v != m.end => self.face_and_place(m.mover, v, m.end, m.end),
            Some(v) => self.face_and_place(m.mover, from, v, m.end),
            None => {
                let aim = self.heading_point(from, m.heading);
                self.face_and_place(m.mover, from, aim, m.end);
            }
        }
        self.now.last_path = Some((from, m.end));
        ev.push(Event::Moved {
            soldier: m.mover,
            at: m.end,
        });
        let side = self.soldier(m.mover).side;
        if let Some(c) = m.contact
            && self.soldier(c).side != side
        {
            self.kill(c, ev);
        }
        self.pass_initiative(side, ev);
    }
}
