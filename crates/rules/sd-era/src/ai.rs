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
//! - Cover and reach (SDE-SIGHT, SDE-RANGE), where a shot's knockback costs the mission
//!   something directly (KING OF THE HILL's hill, RING BATTLE's ring, SHOOTING GALLERY's
//!   tokens): a unit that some enemy can shoot where both stand (in range with a die left,
//!   and a line of sight terrain does not block) counts [`EXPOSED`] against its seat
//!   ([`EXPOSED_GALLERY`] in SHOOTING GALLERY, where every stun is the shooter's token,
//!   SDE-GALLERY.2). A stunned unit cannot be attacked (SDE-KB2), and a hidden one is only
//!   found (SDE-H).
//!
//! - What a fight sets in motion: a fight whose dice are rolled is valued as they lie (a
//!   VETERAN's re-roll declined, SDE-V), and a melee won with its winner still to choose
//!   where the loser goes (SDE-KB1) or whether to take its place on the hill (SDE-KOTH.2)
//!   at the winner's best choice, so that one ply of greedy, which stops at those
//!   questions, sees a won melee do what it will do (before, a won melee was worth exactly
//!   a lost one, and greedy seldom meleed). Not yet: a charge (SDE-CHARGE), whose free
//!   melee is a decision after the move, is valued as the move alone.
//!
//! It stays cheap (it is asked at every MCTS leaf and every greedy chance state): one pass
//! over the pairs of enemy units for every seat at once (each pair once; a pair farther apart
//! than either's reach rejected without a square; a sight line traced only where one can
//! reach the other), then a pass over the bodies per seat; no allocation. Only at a
//! winner's choice does it look further: the sixteen pushes played and valued (remembering
//! the choice per thread was tried: eight greedy games of King of the Hill took 14.1 s with
//! it and 14.1 s without, so it is not kept).
//!
//! Rejected for the winner's choice: the knockback's expected worth as a number (a stick
//! of knockback worth so much). What a push does depends on where it sends the loser —
//! off the hill, into terrain (a stun), out of the ring — which only playing it shows.

use crate::combat::Question;
use crate::data::{MissionKind, STICK, Special};
use crate::events::Action;
use crate::state::{Body, Choice, Phase, SdEra, Unit, UnitId};
use battlemat_core::{Game, Seat};
use battlemat_geom::table::Point;

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
        // SDE-V: a fight whose dice are rolled, a VETERAN still to say whether to re-roll.
        // Nothing has happened yet: valued as it stands, every fight a VETERAN can still
        // turn would be worth nothing — to greedy, which stops at that question, a shot at a
        // VETERAN it is winning would be no better than not shooting. So the fight is valued
        // as its dice lie, every re-roll declined (a re-roll only helps the one who takes it:
        // a floor for them, a ceiling for the other side).
        if let Some(resolved) = self.veteran_declines() {
            return resolved.evaluate(seat);
        }
        // SDE-KB1, SDE-KOTH.2: a melee won, its winner still to say where the loser is
        // knocked (and, on the hill, whether to take its place). The dice have done their
        // work, but nothing has moved yet: valued as it stands, a won melee would be worth
        // no more than a lost one, and greedy, whose one ply stops at that choice, would
        // not melee at all. So the choice is valued as the winner would make it.
        if let Some(chosen) = self.winner_chooses() {
            return chosen.evaluate(seat);
        }
        let n = (self.fixed.players as usize).min(MAX_SEATS);
        let mut at = Looked {
            exposed: if self.shots_count() {
                self.exposure()
            } else {
                [0; 4]
            },
            goals: [None; MAX_SEATS],
        };
        if self.fixed.kind == MissionKind::Soccer {
            for (s, g) in at.goals.iter_mut().enumerate().take(n) {
                *g = self.goal_middle(s as Seat);
            }
        }
        let mut scores = [0.0f64; MAX_SEATS];
        for (s, v) in scores.iter_mut().enumerate().take(n) {
            *v = self.standing(s as Seat, &at);
        }
        let mine = scores[seat as usize];
        let best_other = (0..n)
            .filter(|&s| s != seat as usize)
            .map(|s| scores[s])
            .fold(f64::MIN, f64::max);
        ((mine - best_other) / 4.0).tanh()
    }

    /// At a fight's winner's choice of where the loser goes (SDE-KB1) or whether to take
    /// its place on the hill (SDE-KOTH.2), the game after the choice best for the winner
    /// by this evaluation (of the listed ones: the sixteen winds, or take and stay; a
    /// choice that follows, as taking the hill follows a push off it, valued the same
    /// way). `None` anywhere else. Each choice carries a fight's result out and the next
    /// is of a later part of it, so this ends after a few choices.
    fn winner_chooses(&self) -> Option<SdEra> {
        let Phase::Choose(c @ (Choice::Push { .. } | Choice::TakeHill { .. })) = &self.now.phase
        else {
            return None;
        };
        let winner = c.seat();
        let mut best: Option<(f64, SdEra)> = None;
        let mut events = Vec::new();
        for a in self.legal() {
            let mut g = self.clone();
            events.clear();
            if g.apply_action(&a, &mut events).is_err() {
                continue;
            }
            let v = g.evaluate(winner);
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, g));
            }
        }
        best.map(|(_, g)| g)
    }

    /// At a VETERAN's question (SDE-V), the game with every re-roll declined: the fight
    /// resolved as its dice lie, up to the next die or decision that is not such a question.
    /// `None` anywhere else.
    fn veteran_declines(&self) -> Option<SdEra> {
        let asks = |g: &SdEra| match &g.now.phase {
            Phase::Fight(f) => matches!(g.fight_question(f), Some((_, Question::Reroll(_)))),
            _ => false,
        };
        if !asks(self) {
            return None;
        }
        let mut g = self.clone();
        let mut events = Vec::new();
        // Each side is asked at most once a fight (the attacker, then the defender).
        for _ in 0..2 {
            if !asks(&g) || g.apply_action(&Action::Keep, &mut events).is_err() {
                break;
            }
            events.clear();
        }
        Some(g)
    }

    /// How well a seat stands, in rough "tokens".
    fn standing(&self, seat: Seat, at: &Looked) -> f64 {
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
            v += self.balls_toward_goals(seat, &at.goals);
        }
        let target = self.objective(seat, &at.goals);
        let near = self.nearest_objectives();
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
            if hill.is_some_and(|h| self.near_box(x.at, h)) && self.standing_on(u) == hill {
                v += if x.stunned { 0.6 * ON_HILL } else { ON_HILL };
            }
            // SDE-KICKBOMB.2: a six among a bomb's dice costs a token for each unit in reach.
            if self.fixed.kind == MissionKind::KickBomb && self.now.tokens[seat as usize] > 0 {
                v -= self.bomb_risk(u);
            }
            // SDE-SIGHT, SDE-RANGE: in an enemy's sights where it stands.
            if x.is_unit() && at.exposed(u) {
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
                v -= 0.03 * sticks(x.at, t);
            } else if let Some(d) = near.nearest(x.at) {
                v -= 0.03 * d;
            }
        }
        v
    }

    /// Where all of `seat`'s units want to be: the hill, behind a ball (from the nearest
    /// opponent's goal), by the ship; or nowhere in particular (see
    /// [`SdEra::nearest_objectives`] for EGG HUNT and BATTLE ZONES).
    fn objective(&self, seat: Seat, goals: &[Option<Point>; MAX_SEATS]) -> Option<(f64, f64)> {
        let spot = match self.fixed.kind {
            MissionKind::KingOfTheHill => Some(self.fixed.centre),
            MissionKind::Soccer => {
                let ball = self
                    .ids()
                    .find(|&b| self.unit(b).is_ball() && self.unit(b).on_table())
                    .map(|b| self.unit(b).at)?;
                let Some(g) = goal_to_shoot_at(goals, seat, ball) else {
                    return Some(ticks_of(ball));
                };
                // Half a stick from the ball, on the line from the goal through it.
                let (dx, dy) = ((ball.x - g.x) as f64, (ball.y - g.y) as f64);
                let len = (dx * dx + dy * dy).sqrt().max(1.0);
                let behind = BEHIND_BALL as f64 / len;
                return Some((ball.x as f64 + dx * behind, ball.y as f64 + dy * behind));
            }
            _ => None,
        };
        spot.map(ticks_of)
    }

    /// EGG HUNT: credits to pick up, else eggs to break; BATTLE ZONES: the open zone's
    /// enemies, else its targets and blips. Each unit wants the nearest of them, not one
    /// picked for the whole side: one spot for everyone (the lowest id's, as it once was)
    /// sent both sides to the same blip, which stood nearer one seat's start — so that seat
    /// revealed the ambushes and the other beat them, and seat 1 won two games in three.
    fn nearest_objectives(&self) -> Spots {
        let mut out = Spots::default();
        let (first, then): (Wanted, Wanted) = match self.fixed.kind {
            MissionKind::EggHunt => (Unit::is_marker, Unit::is_egg),
            MissionKind::BattleZones => (Unit::is_enemy, |y| y.is_target() || y.is_blip()),
            _ => return out,
        };
        // BATTLE ZONES: only what is in the open zone.
        let open = (self.fixed.kind == MissionKind::BattleZones).then(|| self.open_zone());
        for wanted in [first, then] {
            for b in self.ids() {
                let y = self.unit(b);
                if y.on_table() && wanted(y) && open.is_none_or(|z| self.zone_of(y.at) == z) {
                    out.push(y.at);
                }
            }
            if out.n > 0 {
                break;
            }
        }
        out
    }

    /// SOCCER (SDE-SOCCER.2, .3): for each ball, how many sticks nearer the nearest
    /// opponent's goal than `seat`'s own it is, in tokens.
    fn balls_toward_goals(&self, seat: Seat, goals: &[Option<Point>; MAX_SEATS]) -> f64 {
        let Some(own) = goals.get(seat as usize).copied().flatten() else {
            return 0.0;
        };
        let mut v = 0.0;
        for b in self.ids() {
            let y = self.unit(b);
            if !y.is_ball() || !y.on_table() {
                continue;
            }
            let Some(g) = goal_to_shoot_at(goals, seat, y.at) else {
                continue;
            };
            let to_own = sticks(y.at, ticks_of(own));
            let to_theirs = sticks(y.at, ticks_of(g));
            v += BALL_PER_STICK * (to_own - to_theirs);
        }
        v
    }

    /// The middle of `seat`'s goal (none while its edge is still to be chosen).
    fn goal_middle(&self, seat: Seat) -> Option<Point> {
        let (a, b) = self.goal_of(seat)?;
        Some(Point::new((a.x + b.x) / 2, (a.y + b.y) / 2))
    }

    /// Is `p` within piece `piece`'s bounding box (a cheap test before asking whether a
    /// base stands on it)?
    fn near_box(&self, p: Point, piece: usize) -> bool {
        let (x0, y0, x1, y1) = self.fixed.piece_bounds[piece];
        (x0..=x1).contains(&p.x) && (y0..=y1).contains(&p.y)
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
        Looked {
            exposed: self.exposure(),
            goals: [None; MAX_SEATS],
        }
        .exposed(u)
    }

    /// Does a shot's knockback cost the mission something directly — a token to the shooter
    /// (SHOOTING GALLERY, SDE-GALLERY.2), the hill (KING OF THE HILL, SDE-KOTH.2), the ring
    /// (RING BATTLE, SDE-RING.2)? Only there does the evaluation look at who can shoot whom
    /// (elsewhere it would cost more time than it tells).
    fn shots_count(&self) -> bool {
        matches!(
            self.fixed.kind,
            MissionKind::ShootingGallery | MissionKind::KingOfTheHill | MissionKind::RingBattle
        )
    }

    /// [`SdEra::shootable`] for every unit at once, a bit a unit id: each pair of enemies is
    /// looked at once (range and sight are the same both ways; each side's dice differ), the
    /// pairs farther apart on either axis than the longer gun's reach without a square, and a
    /// sight line traced only for a pair where one can reach the other. The first
    /// [`MAX_LOOKED`] units on the table are looked at.
    fn exposure(&self) -> [u64; 4] {
        let mut out = [0u64; 4];
        // Each unit on the table once: its dice, ARTILLERY, the piece it stands on.
        let mut looked = [Shooter::default(); MAX_LOOKED];
        let mut n = 0;
        for u in self.ids() {
            let x = self.unit(u);
            if x.is_unit() && x.on_table() && n < MAX_LOOKED {
                looked[n] = Shooter {
                    u,
                    dice: self.attack_dice(u, false),
                    artillery: self.has(u, Special::A),
                    on: if self.fixed.any_holds {
                        self.standing_on(u).unwrap_or(usize::MAX)
                    } else {
                        usize::MAX
                    },
                };
                n += 1;
            }
        }
        let looked = &looked[..n];
        let bit = |out: &[u64; 4], u: UnitId| out[u as usize / 64] & (1 << (u % 64)) != 0;
        let table = &self.fixed.table;
        for (a, si) in looked.iter().enumerate() {
            for sj in &looked[a + 1..] {
                let (i, j) = (si.u, sj.u);
                if !self.enemies(i, j) {
                    continue;
                }
                let hit_j = !bit(&out, j) && self.may_shoot_at(i, j);
                let hit_i = !bit(&out, i) && self.may_shoot_at(j, i);
                if !hit_i && !hit_j {
                    continue;
                }
                let (x, y) = (self.unit(i), self.unit(j));
                // Past every stick either side's dice could reach (ARTILLERY ignores range).
                if !si.artillery && !sj.artillery {
                    let reach = i64::from(si.dice.max(sj.dice)) * STICK + x.radius() + y.radius();
                    if (x.at.x - y.at.x).abs() > reach || (x.at.y - y.at.y).abs() > reach {
                        continue;
                    }
                }
                let k = self.extra_range(x.at, x.radius(), j);
                let reaches = |s: &Shooter| s.dice > if s.artillery { 0 } else { k };
                let hit_j = hit_j && reaches(si);
                let hit_i = hit_i && reaches(sj);
                // SDE-SIGHT as `SdEra::sees`: the pieces either stands on do not block.
                if (hit_i || hit_j)
                    && table.sight_boxed(x.at, y.at, &[si.on, sj.on], &self.fixed.piece_bounds)
                {
                    if hit_j {
                        out[j as usize / 64] |= 1 << (j % 64);
                    }
                    if hit_i {
                        out[i as usize / 64] |= 1 << (i % 64);
                    }
                }
            }
        }
        out
    }

    /// May `e` shoot at `u`, range and sight aside: not stunned, `u` neither stunned nor
    /// hidden, and in RING BATTLE not from outside the ring at a unit in it.
    fn may_shoot_at(&self, e: UnitId, u: UnitId) -> bool {
        let (y, x) = (self.unit(e), self.unit(u));
        !y.stunned
            && !x.stunned
            && !x.hidden
            && (self.fixed.kind != MissionKind::RingBattle || !y.outside || x.outside)
    }
}

/// A unit as the cover pass sees it.
#[derive(Clone, Copy, Default)]
struct Shooter {
    u: UnitId,
    /// Attack dice before range (SDE-RANGE takes one a stick past the first).
    dice: u8,
    /// ARTILLERY: no range penalty (SDE-A).
    artillery: bool,
    /// The piece it stands on (`usize::MAX`: none).
    on: usize,
}

/// The most seats a game has.
const MAX_SEATS: usize = 8;
/// The most units on the table the cover pass looks at.
const MAX_LOOKED: usize = 64;

/// What one evaluation works out once for every seat: which units an enemy can shoot, and
/// SOCCER's goals (each seat's goal's middle).
struct Looked {
    exposed: [u64; 4],
    goals: [Option<Point>; MAX_SEATS],
}

impl Looked {
    fn exposed(&self, u: UnitId) -> bool {
        self.exposed[u as usize / 64] & (1 << (u % 64)) != 0
    }
}

/// Which bodies a unit heads for.
type Wanted = fn(&Unit) -> bool;

/// The places a unit may head for, the nearest counting (at most [`MAX_SPOTS`]).
struct Spots {
    at: [Point; MAX_SPOTS],
    n: usize,
}

/// The most places [`Spots`] keeps.
const MAX_SPOTS: usize = 32;

impl Default for Spots {
    fn default() -> Spots {
        Spots {
            at: [Point::new(0, 0); MAX_SPOTS],
            n: 0,
        }
    }
}

impl Spots {
    fn push(&mut self, p: Point) {
        if self.n < MAX_SPOTS {
            self.at[self.n] = p;
            self.n += 1;
        }
    }

    /// The distance in sticks from `p` to the nearest, if any.
    fn nearest(&self, p: Point) -> Option<f64> {
        self.at[..self.n]
            .iter()
            .map(|&q| sticks(p, ticks_of(q)))
            .min_by(f64::total_cmp)
    }
}

/// SOCCER: the opponent's goal nearest `ball` (the middle of it), for `seat`.
fn goal_to_shoot_at(goals: &[Option<Point>; MAX_SEATS], seat: Seat, ball: Point) -> Option<Point> {
    goals
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != seat as usize)
        .filter_map(|(_, g)| *g)
        .min_by_key(|&g| {
            let (dx, dy) = ((ball.x - g.x) as i128, (ball.y - g.y) as i128);
            dx * dx + dy * dy
        })
}

fn ticks_of(p: Point) -> (f64, f64) {
    (p.x as f64, p.y as f64)
}

/// The distance from `a` to a point (in ticks, as floats), in sticks: floating point, which
/// an evaluation may use (no state holds it), for a square root a tenth of the integer one's.
fn sticks(a: Point, b: (f64, f64)) -> f64 {
    let (dx, dy) = (a.x as f64 - b.0, a.y as f64 - b.1);
    (dx * dx + dy * dy).sqrt() / STICK as f64
}
