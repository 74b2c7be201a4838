//! A heuristic value of a position for AIs that stop searching before the end: the
//! mission's score against the best opponent's, then units standing (not stunned, in the
//! ring), then what the mission rewards where a unit stands:
//!
//! - KING OF THE HILL (SDE-KOTH.2): a unit on top of the hill may spend an action for a
//!   token, so holding it is worth [`ON_HILL`] of a token; every unit counts closeness to it.
//! - SOCCER (SDE-SOCCER.2, .3): each ball counts [`BALL_PER_STICK`] a stick it is nearer an
//!   opponent's goal than the seat's own, and units want to stand behind the ball (on the far
//!   side from the goal they shoot at), where a shot drives it goalward (SDE-SHOOT's
//!   knockback runs along the line of fire).
//! - KICK-BOMB (SDE-KICKBOMB.2): a unit within a stick of a bomb loses its owner a token if
//!   the bomb's dice show a six at the turn's end: it counts that chance of a token against.
//! - EGG HUNT, CONVOY, BATTLE ZONES, SAFARI: closeness to credits or an egg, the ship, the
//!   open zone's enemies and blips; an animal carried near an edge.
//! - Cover and reach (SDE-SIGHT, SDE-RANGE): a unit that some enemy can shoot where both
//!   stand (in range with a die left, and a line of sight terrain does not block) counts
//!   [`EXPOSED`] against its seat ([`EXPOSED_GALLERY`] in SHOOTING GALLERY, where every stun
//!   is the shooter's token, SDE-GALLERY.2). A stunned unit cannot be attacked (SDE-KB2),
//!   and a hidden one is only found (SDE-H).
//!
//! It stays cheap (it is asked at every MCTS leaf and every greedy chance state): a pass
//! over the bodies per seat, square roots only for distances, and sight lines traced only
//! for the pairs within range (box-rejected by `Table::sight_boxed`).

use crate::data::{MissionKind, STICK};
use crate::state::{Body, SdEra, UnitId};
use battlemat_core::Seat;
use battlemat_geom::table::{Point, distance_floor, toward};

/// KING OF THE HILL: a unit on top of the hill, in tokens (a token takes one action there).
pub const ON_HILL: f64 = 0.5;
/// SOCCER: what a ball a stick nearer an opponent's goal than one's own is worth, in tokens.
pub const BALL_PER_STICK: f64 = 0.08;
/// A unit an enemy can shoot where it stands, in tokens against its seat.
pub const EXPOSED: f64 = 0.05;
/// The same in SHOOTING GALLERY, where a stun is a token.
pub const EXPOSED_GALLERY: f64 = 0.15;
/// How far behind the ball a unit wants to stand (SOCCER), in ticks.
const BEHIND_BALL: i64 = STICK / 2;

impl SdEra {
    pub fn heuristic(&self, seat: Seat) -> f64 {
        let n = self.fixed.players as usize;
        let scores: Vec<f64> = (0..n).map(|s| self.standing(s as Seat)).collect();
        let mine = scores[seat as usize];
        let best_other = (0..n)
            .filter(|&s| s != seat as usize)
            .map(|s| scores[s])
            .fold(f64::MIN, f64::max);
        ((mine - best_other) / 4.0).tanh()
    }

    /// How well a seat stands, in rough "tokens".
    fn standing(&self, seat: Seat) -> f64 {
        let tokens = f64::from(self.now.tokens[seat as usize]);
        let mut v = match self.fixed.kind {
            MissionKind::RingBattle => 0.0,
            _ => tokens,
        };
        // SAFARI: an animal carried is most of the way to points, more so near an edge; a
        // stunned one beside a unit is a start.
        if self.fixed.kind == MissionKind::Safari {
            let t = &self.fixed.table;
            for a in self.ids() {
                let y = self.unit(a);
                if !y.is_animal() {
                    continue;
                }
                let value = f64::from(self.value(a));
                if let Some(c) = y.aboard
                    && self.unit(c).owner == Some(seat)
                {
                    let p = self.unit(c).at;
                    let edge = p.x.min(p.y).min(t.width - p.x).min(t.depth - p.y);
                    v += value * (0.6 - 0.05 * edge as f64 / STICK as f64);
                } else if y.stunned
                    && y.on_table()
                    && self
                        .ids()
                        .any(|u| self.unit(u).owner == Some(seat) && self.next_to(u, a))
                {
                    v += 0.2 * value;
                }
            }
        }
        // SOCCER: the balls against the goals.
        if self.fixed.kind == MissionKind::Soccer {
            v += self.balls_toward_goals(seat);
        }
        let target = self.objective(seat);
        let hill = self.hill();
        let exposed = if self.fixed.kind == MissionKind::ShootingGallery {
            EXPOSED_GALLERY
        } else {
            EXPOSED
        };
        for u in self.ids() {
            let x = self.unit(u);
            if x.owner != Some(seat) || !x.on_table() {
                continue;
            }
            // SDE-KOTH.2: a unit on top may collect a token (a stunned one first gets up).
            if hill.is_some() && self.standing_on(u) == hill {
                v += if x.stunned { 0.6 * ON_HILL } else { ON_HILL };
            }
            // SDE-KICKBOMB.2: a six among a bomb's dice costs a token for each unit in reach.
            if self.fixed.kind == MissionKind::KickBomb && self.now.tokens[seat as usize] > 0 {
                v -= self.bomb_risk(u);
            }
            // SDE-SIGHT, SDE-RANGE: in an enemy's sights where it stands.
            if x.is_unit() && self.shootable(u) {
                v -= exposed;
            }
            match self.fixed.kind {
                MissionKind::RingBattle => {
                    if !x.outside {
                        v += 1.0 + 0.25 * f64::from(self.value(u));
                    }
                }
                _ => {
                    if !x.stunned {
                        v += 0.1;
                    }
                }
            }
            if let Some(t) = target {
                let d = distance_floor(x.at, t) as f64 / STICK as f64;
                v -= 0.03 * d;
            }
        }
        v
    }

    /// Where `seat`'s units want to be: the hill, behind a ball (from the nearest opponent's
    /// goal), credits or an egg, by the ship, the open zone's enemies and blips, or nowhere
    /// in particular.
    fn objective(&self, seat: Seat) -> Option<Point> {
        match self.fixed.kind {
            MissionKind::KingOfTheHill => Some(self.fixed.centre),
            MissionKind::Soccer => {
                let ball = self
                    .ids()
                    .find(|&b| self.unit(b).is_ball() && self.unit(b).on_table())
                    .map(|b| self.unit(b).at)?;
                Some(match self.goal_to_shoot_at(seat, ball) {
                    Some(g) => toward(ball, g, -BEHIND_BALL),
                    None => ball,
                })
            }
            // EGG HUNT: credits to pick up, else an egg to break.
            MissionKind::EggHunt => self
                .ids()
                .filter(|&b| {
                    let y = self.unit(b);
                    (y.is_marker() || y.is_egg()) && y.on_table()
                })
                .min_by_key(|&b| !self.unit(b).is_marker())
                .map(|b| self.unit(b).at),
            // CONVOY: by the ship, to screen it.
            MissionKind::Convoy => self.now.convoy.as_ref().map(|c| self.unit(c.ship).at),
            // BATTLE ZONES: the open zone's enemies, targets and blips.
            MissionKind::BattleZones => {
                let open = self.open_zone();
                self.ids()
                    .filter(|&b| {
                        let y = self.unit(b);
                        y.on_table()
                            && (y.is_enemy() || y.is_target() || y.is_blip())
                            && self.zone_of(y.at) == open
                    })
                    .min_by_key(|&b| !self.unit(b).is_enemy())
                    .map(|b| self.unit(b).at)
            }
            _ => None,
        }
    }

    /// SOCCER (SDE-SOCCER.2, .3): for each ball, how many sticks nearer the nearest
    /// opponent's goal than `seat`'s own it is, in tokens.
    fn balls_toward_goals(&self, seat: Seat) -> f64 {
        let Some(own) = self.goal_middle(seat) else {
            return 0.0;
        };
        let mut v = 0.0;
        for b in self.ids() {
            let y = self.unit(b);
            if !y.is_ball() || !y.on_table() {
                continue;
            }
            let Some(g) = self.goal_to_shoot_at(seat, y.at) else {
                continue;
            };
            let to_own = distance_floor(y.at, own) as f64;
            let to_theirs = distance_floor(y.at, g) as f64;
            v += BALL_PER_STICK * (to_own - to_theirs) / STICK as f64;
        }
        v
    }

    /// The middle of `seat`'s goal (none while its edge is still to be chosen).
    fn goal_middle(&self, seat: Seat) -> Option<Point> {
        let (a, b) = self.goal_of(seat)?;
        Some(Point::new((a.x + b.x) / 2, (a.y + b.y) / 2))
    }

    /// SOCCER: the opponent's goal nearest `ball` (the middle of it), for `seat`.
    fn goal_to_shoot_at(&self, seat: Seat, ball: Point) -> Option<Point> {
        (0..self.fixed.players)
            .filter(|&s| s != seat)
            .filter_map(|s| self.goal_middle(s))
            .min_by_key(|&g| distance_floor(ball, g))
    }

    /// KICK-BOMB (SDE-KICKBOMB.2): the chance that a bomb within a stick of `u` explodes at
    /// the turn's end (at least one six among its explode dice), summed over such bombs.
    fn bomb_risk(&self, u: UnitId) -> f64 {
        let base = self.unit(u).base();
        self.ids()
            .filter_map(|b| {
                let y = self.unit(b);
                match y.body {
                    Body::Bomb { dice } if y.on_table() && y.base().within(&base, STICK) => {
                        Some(1.0 - (5.0f64 / 6.0).powi(i32::from(dice)))
                    }
                    _ => None,
                }
            })
            .sum()
    }

    /// SDE-SHOOT, SDE-RANGE, SDE-SIGHT: could some enemy shoot `u` from where it stands —
    /// within range with a die left after the range penalty, and with a line of sight? A
    /// stunned unit cannot be attacked (SDE-KB2), and a shot that hits a hidden one only
    /// finds it (SDE-H); in RING BATTLE a unit outside the ring shoots only units outside it
    /// (SDE-RING.2).
    pub fn shootable(&self, u: UnitId) -> bool {
        let x = self.unit(u);
        if x.stunned || x.hidden || !x.on_table() {
            return false;
        }
        self.ids().any(|e| {
            let y = self.unit(e);
            if !y.is_unit() || !y.on_table() || y.stunned || !self.enemies(e, u) {
                return false;
            }
            if self.fixed.kind == MissionKind::RingBattle && y.outside && !x.outside {
                return false;
            }
            let dice = self.attack_dice(e, false);
            let extra = self.extra_range(y.at, y.radius(), u);
            self.shooting_dice(e, dice, extra) > 0 && self.sees(e, y.at, u)
        })
    }
}
