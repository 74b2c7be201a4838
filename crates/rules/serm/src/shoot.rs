//! SERM-SHOOT and SERM-ENDURE: a shot is the shooter's pool against the target's endure
//! pool, a higher shoot total eliminating it (a tie does not: rulings.md); turning is free,
//! so any enemy the shooter can see may be shot (sight: a clear line between base centres;
//! terrain blocks it, soldiers do not). And the Demolitions Expert's blast.

use crate::data::{BASE_RADIUS, INCH};
use crate::events::Event;
use crate::options::{DemolitionsOne, Turning};
use crate::state::{Phase, Pool, Serm, SoldierId};
use crate::turn::WIND_VECTORS;
use battlemat_geom::table::{Base, Point, toward};

/// The blast: "3-inch diameter".
pub const BLAST_RADIUS: i64 = 3 * INCH / 2;

impl Serm {
    /// A clear line between the two (terrain blocks; rulings.md).
    pub fn clear_line(&self, a: SoldierId, b: SoldierId) -> bool {
        self.table()
            .sight(self.soldier(a).at, self.soldier(b).at, &[])
    }

    /// May `a` see `b` where it faces: in its 180° front arc (a Ranger sees all round; with
    /// `turning = free` anyone turns to see) and a clear line (SERM-REACT: "In order to React a soldier must have line of sight").
    pub fn sees(&self, a: SoldierId, b: SoldierId) -> bool {
        let x = self.soldier(a);
        let y = self.soldier(b);
        // `turning = free`: "turning does not count as a move" — it turns to see.
        let in_arc = self.card(a).has(crate::data::Special::AllRound)
            || self.fixed.setup.options.turning == Turning::Free
            || (x.facing.0 * (y.at.x - x.at.x) + x.facing.1 * (y.at.y - x.at.y)) >= 0;
        in_arc && self.clear_line(a, b)
    }

    /// Turn to face `target` (free), then roll.
    pub fn start_shot(&mut self, shooter: SoldierId, target: SoldierId, ev: &mut Vec<Event>) {
        let (s, t) = (self.soldier(shooter).at, self.soldier(target).at);
        self.soldier_mut(shooter).facing = (t.x - s.x, t.y - s.y);
        ev.push(Event::Shoots {
            soldier: shooter,
            target,
        });
        let pool = Pool::of(self.card(shooter).shoot);
        self.roll_shot_on(shooter, target, pool, None, ev);
    }

    fn roll_shot_on(
        &mut self,
        shooter: SoldierId,
        target: SoldierId,
        pool: Pool,
        shot: Option<u32>,
        ev: &mut Vec<Event>,
    ) {
        if pool.left == 0 {
            // A pool of no dice totals 0 (the Assault Commando's Endure).
            self.pool_done(shooter, target, shot, Vec::new(), 0, ev);
        } else {
            self.now.phase = Phase::Shooting {
                shooter,
                target,
                pool,
                shot,
            };
        }
    }

    pub fn roll_shooting(
        &mut self,
        shooter: SoldierId,
        target: SoldierId,
        mut pool: Pool,
        shot: Option<u32>,
        face: u8,
        ev: &mut Vec<Event>,
    ) {
        match pool.add(face) {
            None => {
                self.now.phase = Phase::Shooting {
                    shooter,
                    target,
                    pool,
                    shot,
                }
            }
            Some(total) => {
                let dice = pool.dice();
                self.pool_done(shooter, target, shot, dice, total, ev)
            }
        }
    }

    fn pool_done(
        &mut self,
        shooter: SoldierId,
        target: SoldierId,
        shot: Option<u32>,
        dice: Vec<Vec<u8>>,
        total: u32,
        ev: &mut Vec<Event>,
    ) {
        match shot {
            None => {
                ev.push(Event::Pool {
                    soldier: shooter,
                    what: "shoot".into(),
                    dice,
                    total,
                });
                let endure = Pool::of(self.card(target).endure);
                self.roll_shot_on(shooter, target, endure, Some(total), ev);
            }
            Some(s) => {
                ev.push(Event::Pool {
                    soldier: target,
                    what: "endure".into(),
                    dice,
                    total,
                });
                if s > total {
                    self.kill(target, ev);
                } else {
                    ev.push(Event::Survives { soldier: target });
                }
                let side = self.soldier(shooter).side;
                self.pass_initiative(side, ev);
            }
        }
    }

    pub fn kill(&mut self, s: SoldierId, ev: &mut Vec<Event>) {
        if self.soldier(s).alive {
            self.soldier_mut(s).alive = false;
            ev.push(Event::Eliminated { soldier: s });
        }
    }

    /// The blast: "blast centre 1D6×2 inches away, 3-inch diameter; on a 1 it kills itself;
    /// anyone partly inside dies" — friends too, and line of sight is ignored. Along a wind,
    /// or toward `at` (`blast_aim = anywhere`). On a 1 the Expert dies, alone
    /// (`demolitions_one = alone`) or with the blast landing 2 inches away as well
    /// (`blast_too`).
    pub fn roll_blast(
        &mut self,
        soldier: SoldierId,
        wind: u8,
        at: Option<Point>,
        face: u8,
        ev: &mut Vec<Event>,
    ) {
        let side = self.soldier(soldier).side;
        let alone = self.fixed.setup.options.demolitions_one == DemolitionsOne::Alone;
        if face == 1 {
            ev.push(Event::BlastFails { soldier, die: face });
            self.kill(soldier, ev);
        }
        if face != 1 || !alone {
            let from = self.soldier(soldier).at;
            let aim = match at {
                Some(p) if p != from => p,
                _ => {
                    let (dx, dy) = WIND_VECTORS[wind as usize % 16];
                    Point::new(from.x + dx, from.y + dy)
                }
            };
            let centre = toward(from, aim, face as i64 * 2 * INCH);
            self.now.last_blast = Some(centre);
            ev.push(Event::Blast {
                soldier,
                die: face,
                centre,
            });
            let zone = Base::new(centre, BLAST_RADIUS);
            for v in self.ids() {
                if self.soldier(v).alive
                    && zone.overlaps(&Base::new(self.soldier(v).at, BASE_RADIUS))
                {
                    self.kill(v, ev);
                }
            }
        }
        self.pass_initiative(side, ev);
    }
}
