//! The position's value for AIs that stop searching before the end
//! ([`battlemat_core::Game::evaluate`]): the share of the armies' worth left, a little for
//! closing in, and the scenario's goal.
//!
//! - Worth: each unit's cost, and a share more where it stands better: in cover ([`COVER`],
//!   SWTB-4: "cannot shoot through obstructions (other figures, walls, hills, vehicles)" —
//!   no enemy ground unit with a blaster has a clear line to it, and none is in contact) or
//!   defending from a fortified cell ([`FORTIFIED`], SWTB-O7, with the option on). Fliers
//!   ignore obstructions and are never in cover; the cover counted is the terrain's, against
//!   the enemy's ground units (a flier can reach any ground unit, cover or not). Both are
//!   less than a unit, so a kill always outweighs hiding.
//! - The goal (the scenarios' `[goal]`): for `reach`, how near the goal side's nearest
//!   ground unit is to the cells; for `hold`, the same, and who stands on the cells (the
//!   goal side wins after the last round with a ground unit there and none of the enemy's),
//!   weighed more as the last round nears. The other side counts the same with the sign
//!   turned.
//!
//! One pass over the units per side, and a sight line traced (the topology's bitset test)
//! only for the enemy blasters of each ground unit.

use crate::data::{Goal, Weapon};
use crate::movement::Occupancy;
use crate::state::{Place, Swtb, UnitId, other};
use battlemat_geom::Cell;

/// What cover adds to a unit's worth (a share of its cost).
pub const COVER: f64 = 0.15;
/// What a fortified position adds to a unit's worth (SWTB-O7: +1d6 defending).
pub const FORTIFIED: f64 = 0.15;

impl Swtb {
    /// A heuristic for AIs, for `side` (a seat's side: seats of one side share it): mostly
    /// the share of worth left, plus a little for closing in and the goal.
    pub fn heuristic(&self, side: u8) -> f64 {
        let looked = self.look();
        let (mine, theirs) = (
            looked.worth[side as usize],
            looked.worth[other(side) as usize],
        );
        let material = if mine + theirs > 0.0 {
            (mine - theirs) / (mine + theirs)
        } else {
            0.0
        };
        let approach = |s: u8| looked.approach[s as usize];
        let goal = match &self.fixed.setup.scenario.goal {
            Some(Goal::Reach { side: s, cells }) => {
                let v = self.nearness(*s, cells);
                if *s == side { v } else { -v }
            }
            Some(Goal::Hold { side: s, cells }) => {
                // The goal side wins with a ground unit on the cells and none of the enemy's
                // after the last round (turn.rs, `end_by_round_limit`).
                let on = |t: u8| f64::from(u8::from(self.on_cells(t, cells)));
                let rounds = f64::from(self.fixed.setup.scenario.max_rounds.max(1));
                let late = 0.5 + 0.5 * (f64::from(self.now.round) / rounds).min(1.0);
                let v =
                    late * (0.4 * self.nearness(*s, cells) + 0.3 * on(*s) - 0.3 * on(other(*s)));
                if *s == side { v } else { -v }
            }
            None => 0.0,
        };
        (0.8 * material + 0.05 * (approach(other(side)) - approach(side)) + 0.15 * goal)
            .clamp(-0.99, 0.99)
    }

    /// Both sides' worth and mean distance to the nearest enemy, in one pass over the pairs
    /// of units on the battlefield: each pair's distance once, a sight line looked up (the
    /// grid's sight table against the blocking cells, as `Swtb::occupancy` marks them) only
    /// while the target may still be in cover and the other is a ground blaster. A line is
    /// taken as clear both ways (the cells between two cells are the same from either end).
    fn look(&self) -> Looked {
        let g = &self.fixed.grid;
        let mut on = Vec::with_capacity(self.now.units.len());
        for u in self.ids() {
            if let Some(c) = self.cell_of(u) {
                let x = &self.now.units[u as usize];
                let t = self.ty(u);
                on.push(OnField {
                    u,
                    cell: c,
                    side: x.side as usize & 1,
                    flies: t.flies(),
                    // Reaches a ground unit: in contact, any weapon; past it, a blaster's line.
                    strikes: !t.flies() && t.weapon != Weapon::None && t.attacks_ground,
                    shoots: !t.flies() && t.weapon == Weapon::Blaster && t.attacks_ground,
                    nearest: u32::MAX,
                    covered: !t.flies(),
                });
            }
        }
        // The cells that block sight (SWTB-4: walls, hills, ground units), as the grid's
        // sight table wants them; on a grid without one, the occupancy, built if needed.
        let topo = &self.fixed.topology;
        let mut blocking = self.fixed.terrain_blocking;
        for x in on.iter().filter(|x| !x.flies) {
            blocking.insert(g.index(x.cell));
        }
        let mut occ: Option<Occupancy> = None;
        let mut clear = |a: Cell, b: Cell| {
            if topo.has_sight_table() {
                topo.clear_in(a, b, &blocking)
            } else {
                let occ = occ.get_or_insert_with(|| self.occupancy());
                self.clear_line(a, b, occ)
            }
        };
        for a in 0..on.len() {
            for b in a + 1..on.len() {
                if on[a].side == on[b].side {
                    continue;
                }
                let d = g.distance(on[a].cell, on[b].cell);
                on[a].nearest = on[a].nearest.min(d);
                on[b].nearest = on[b].nearest.min(d);
                let a_hits = on[b].covered && on[a].strikes;
                let b_hits = on[a].covered && on[b].strikes;
                if !a_hits && !b_hits {
                    continue;
                }
                if d <= 1 {
                    on[b].covered &= !a_hits;
                    on[a].covered &= !b_hits;
                    continue;
                }
                let a_shoots = a_hits && on[a].shoots;
                let b_shoots = b_hits && on[b].shoots;
                if !a_shoots && !b_shoots {
                    continue;
                }
                if clear(on[a].cell, on[b].cell) {
                    on[b].covered &= !a_shoots;
                    on[a].covered &= !b_shoots;
                }
            }
        }
        let size = g.width.max(g.height) as f64;
        let mut l = Looked {
            worth: [0.0; 2],
            approach: [0.0; 2],
        };
        let mut counted = [0.0f64; 2];
        for x in &on {
            let d = if x.nearest == u32::MAX { 0 } else { x.nearest };
            l.approach[x.side] += d as f64;
            counted[x.side] += 1.0;
        }
        for (a, n) in l.approach.iter_mut().zip(counted) {
            if n > 0.0 {
                *a /= n * size;
            }
        }
        let mut field = on.iter().peekable();
        for u in self.ids() {
            if !self.alive(u) {
                continue;
            }
            let mut share = 1.0;
            if field.peek().is_some_and(|x| x.u == u) {
                let x = field.next().expect("peeked");
                if x.covered && !x.flies {
                    share += COVER;
                }
            }
            if self.fortified_defender(u) {
                share += FORTIFIED;
            }
            l.worth[self.now.units[u as usize].side as usize & 1] += self.ty(u).cost as f64 * share;
        }
        l
    }

    /// 1 with a ground unit of `side` on one of `cells`, falling to 0 as its nearest one is
    /// a board's length away.
    fn nearness(&self, side: u8, cells: &[Cell]) -> f64 {
        let g = &self.fixed.grid;
        let best = self
            .ids()
            .filter(|&u| self.now.units[u as usize].side == side && !self.ty(u).flies())
            .filter_map(|u| self.cell_of(u))
            .map(|c| cells.iter().map(|t| g.distance(c, *t)).min().unwrap_or(0))
            .min()
            .unwrap_or(99) as f64;
        1.0 - (best / (g.width.max(g.height) as f64)).min(1.0)
    }

    /// A ground unit of `side` stands on one of `cells`.
    fn on_cells(&self, side: u8, cells: &[Cell]) -> bool {
        self.ids().any(|u| {
            let x = &self.now.units[u as usize];
            x.side == side
                && matches!(x.place, Place::Field(c) if cells.contains(&c))
                && !self.ty(u).flies()
        })
    }

    /// SWTB-4: is `u` (a ground unit on the battlefield) out of every enemy ground unit's
    /// reach where it stands — no enemy blaster with a clear line to it, no enemy in contact?
    pub fn in_cover(&self, u: UnitId) -> bool {
        if self.ty(u).flies() {
            return false;
        }
        let Some(at) = self.cell_of(u) else {
            return false;
        };
        let occ = self.occupancy();
        let side = self.now.units[u as usize].side;
        let g = &self.fixed.grid;
        self.ids().all(|e| {
            if self.now.units[e as usize].side == side {
                return true;
            }
            let t = self.ty(e);
            if t.flies() || t.weapon == Weapon::None || !t.attacks_ground {
                return true;
            }
            let Some(from) = self.cell_of(e) else {
                return true;
            };
            if g.distance(at, from) <= 1 {
                return false;
            }
            t.weapon != Weapon::Blaster || !self.clear_line(from, at, &occ)
        })
    }
}

/// A unit on the battlefield, as the evaluation's one pass sees it.
struct OnField {
    u: UnitId,
    cell: Cell,
    side: usize,
    flies: bool,
    strikes: bool,
    shoots: bool,
    /// The distance to the nearest enemy on the battlefield.
    nearest: u32,
    /// A ground unit no enemy reaches so far.
    covered: bool,
}

/// What the pass works out for both sides.
struct Looked {
    worth: [f64; 2],
    /// The mean distance to the nearest enemy, over the board's length.
    approach: [f64; 2],
}
