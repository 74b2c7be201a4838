//! The moves a unit may make, for the AI's and the players' menus (SDE-MOVE, SDE-T2):
//! points in contact with each enemy (a melee's reach; a hill's holder from its foot),
//! behind cover, a transport's cargo and drops; each candidate is judged by the one judge
//! before it is listed.

use crate::data::{BASE_RADIUS, MissionKind, NEXT_TO, STICK, Special};
use crate::events::{Drop, Target, WIND_VECTORS};
use crate::options::{Jump, PastEnemies};
use crate::state::{Body, SdEra, UnitId};
use battlemat_geom::table::{Base, Landing, Outline, Point, Ticks, toward};

impl SdEra {
    /// The candidate points from the table around `u` (SDE-MOVE, SDE-CHARGE): the winds, and
    /// beside each enemy, ball, animal or mission body within reach (behind a ball, to kick
    /// it the other way); with the bodies and pieces a base within a stick could touch kept
    /// in `scratch` for the landing checks. The nearest enemy, for cover.
    pub(crate) fn contact_points(
        &self,
        u: UnitId,
        x: &crate::state::Unit,
        scratch: &mut Scratch,
    ) -> Option<(i128, Point)> {
        let Scratch {
            bodies,
            points,
            others,
            near,
            full_ring,
            half_ring,
            lists: _,
        } = scratch;
        let bounds = &self.fixed.piece_bounds;
        points.clear();
        for (dx, dy) in wind_offsets() {
            points.push(Point::new(x.at.x + dx, x.at.y + dy));
        }
        // Only what a base within a stick of here could touch (and whoever stands on a
        // piece it could land on, who take its room).
        // (A candidate base is within a stick of here: it can overlap only a body within a
        // stick, its own radius and the body's.)
        let reach = STICK + BASE_RADIUS + 1;
        near.clear();
        near.extend(
            bounds
                .iter()
                .enumerate()
                .filter(|&(_, &(x0, y0, x1, y1))| {
                    x.at.x + reach > x0
                        && x.at.x - reach < x1
                        && x.at.y + reach > y0
                        && x.at.y - reach < y1
                })
                .map(|(i, b)| (i, *b)),
        );
        // One pass over the bodies: those a base within a stick of here could touch (and
        // whoever stands on a piece it could land on, who take its room) are `others`; enemies,
        // balls and the missions' things within reach give contact points.
        others.clear();
        // Of those, the ones that could overlap a base on a wind point: a full stick's
        // (`full_ring`) or half a stick's (`half_ring`) point lies that far from here (to 2
        // ticks), so only a body in the band around that circle can overlap it.
        full_ring.clear();
        half_ring.clear();
        let band = |d2: i128, at: Ticks, r: Ticks| {
            let lo = (at - r - 4).max(0) as i128;
            let hi = (at + r) as i128;
            lo * lo <= d2 && d2 <= hi * hi
        };
        // The winds' points are distinct; the rest are kept only if new.
        let mut nearest: Option<(i128, Point)> = None;
        for &(t, b) in bodies.iter() {
            if t == u {
                continue;
            }
            let y = self.unit(t);
            let d2 = crate::combat::len2(b.centre.x - x.at.x, b.centre.y - x.at.y);
            if !y.is_marker() {
                let r = (reach + b.radius) as i128;
                if d2 < r * r
                    || (self.fixed.any_holds
                        && near.iter().any(|&(i, _)| {
                            self.fixed.table.pieces[i].holds > 0
                                && self.fixed.table.pieces[i].outline.holds(&b)
                        }))
                {
                    others.push(b);
                    let r = BASE_RADIUS + b.radius;
                    if band(d2, STICK, r) {
                        full_ring.push(b);
                    }
                    if band(d2, STICK / 2, r) {
                        half_ring.push(b);
                    }
                }
            }
            // Beside enemies, balls, animals, and the missions' things to touch or attack.
            let enemy = match y.body {
                Body::Unit { .. } => {
                    if !self.enemies(u, t) {
                        continue;
                    }
                    true
                }
                Body::Ship | Body::Rock => continue,
                _ => false,
            };
            if enemy && nearest.is_none_or(|(n, _)| d2 < n) {
                nearest = Some((d2, b.centre));
            }
            // SDE-KOTH.2, SDE-CHARGE: an enemy on top of a piece that holds one unit is
            // next to every base at the piece's foot (`SdEra::holder_next_to`), so the
            // places to charge it from are at the foot, not beside its base (which is on
            // the top, where there is no room).
            if enemy && !y.stunned && self.fixed.any_holds {
                self.foot_points(t, x, points);
            }
            let gap = x.radius() + b.radius + NEXT_TO / 2;
            let contact = (STICK + 2 * gap) as i128;
            // Contact with a stunned unit leads nowhere (it cannot be attacked); with a
            // stunned animal it does (to pick it up).
            if d2 > contact * contact || (enemy && y.stunned) {
                continue;
            }
            // Beside it; and behind a ball, to kick it the other way.
            let beside = roughly_toward(b.centre, x.at, gap);
            if is_new(points, x.at, beside) {
                points.push(beside);
            }
            if y.is_ball() {
                let behind = roughly_toward(b.centre, x.at, -gap);
                if is_new(points, x.at, behind) {
                    points.push(behind);
                }
            }
        }
        nearest
    }

    /// SDE-KOTH.2, SDE-CHARGE: where `x` can stand to charge `holder` when `holder` is on
    /// top of a piece that holds one unit: at the piece's foot (half of [`NEXT_TO`] clear
    /// of its side), on the line from the piece's middle toward `x` and an eighth of a turn
    /// either side of it (another body may stand on the line). Points more than a stick
    /// away are dropped by the move's judge. Before these, a unit met a hill's holder only
    /// by a wind point that happened to end at the foot, and the search seldom saw the
    /// charge that knocks the holder off and takes its place.
    fn foot_points(&self, holder: UnitId, x: &crate::state::Unit, points: &mut Vec<Point>) {
        let Some(p) = self.top_of_one(holder) else {
            return;
        };
        let piece = &self.fixed.table.pieces[p];
        let c = self.fixed.piece_centres[p];
        let (dx, dy) = (x.at.x - c.x, x.at.y - c.y);
        if dx == 0 && dy == 0 {
            return;
        }
        // Far enough for a first look: within a stick of the foot on the near side.
        let (x0, y0, x1, y1) = self.fixed.piece_bounds[p];
        let extent = (x1 - x0).max(y1 - y0);
        let r = x.radius();
        let far = (extent + STICK + r + NEXT_TO) as i128;
        if crate::combat::len2(dx, dy) > far * far {
            return;
        }
        for (ux, uy) in [(dx, dy), (dx - dy, dy + dx), (dx + dy, dy - dx)] {
            let through = Point::new(c.x + ux, c.y + uy);
            // The nearest distance from the middle at which the base is clear of the piece
            // (the piece is convex, so clear stays clear farther out). On a round piece (the
            // usual hill) it lies within two ticks past the two radii: nearer than them the
            // base overlaps, and two ticks past them `toward`'s point (never farther than
            // asked, short of it by under two ticks) is clear. So only those are searched,
            // in two looks instead of a dozen (the dozen were a sixth of a King of the Hill
            // search where an enemy held the hill; the moves chosen are the same).
            let (mut lo, mut hi) = match piece.outline {
                Outline::Circle { centre, radius } if centre == c => (radius + r, radius + r + 2),
                _ => (0, extent + 2 * r + 1),
            };
            while lo < hi {
                let mid = (lo + hi) / 2;
                if piece
                    .outline
                    .overlaps(&Base::new(toward(c, through, mid), r))
                {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            let foot = toward(c, through, lo + NEXT_TO / 2);
            if is_new(points, x.at, foot) {
                points.push(foot);
            }
        }
    }

    /// Onto each piece that holds units; behind each piece that blocks sight, out of the
    /// nearest enemy's line (SDE-SIGHT's cover).
    pub(crate) fn cover_points(
        &self,
        at: Point,
        nearest: Option<(i128, Point)>,
        points: &mut Vec<Point>,
    ) {
        let x_at = at;
        // Onto each piece that holds units; behind each piece that blocks sight, out of the
        // nearest enemy's line.
        let t = &self.fixed.table;
        let (bounds, centres) = (&self.fixed.piece_bounds, &self.fixed.piece_centres);
        for ((p, &(x0, y0, x1, y1)), &c) in t.pieces.iter().zip(bounds.iter()).zip(centres.iter()) {
            if p.holds > 0 && is_new(points, x_at, c) {
                points.push(c);
            }
            let within = |v: i64, lo: i64, hi: i64| v + STICK > lo && v - STICK < hi;
            if p.blocks_sight
                && within(x_at.x, x0, x1)
                && within(x_at.y, y0, y1)
                && let Some((_, e)) = nearest
            {
                // Past the piece's far side from the enemy, the offset scaled by its larger
                // axis (a candidate need not be at an exact distance, so no square root).
                let (dx, dy) = (c.x - e.x, c.y - e.y);
                let big = dx.abs().max(dy.abs());
                if big > 0 {
                    let reach = ((x1 - x0).max(y1 - y0) + 1) / 2 + BASE_RADIUS + NEXT_TO / 2;
                    let behind = Point::new(c.x + dx * reach / big, c.y + dy * reach / big);
                    if is_new(points, x_at, behind) {
                        points.push(behind);
                    }
                }
            }
        }
    }

    /// SDE-T: a transport's passengers, and what it may pick up — friendly units, not
    /// transports, next to it and on its side of a ring, as many as it has room for.
    pub(crate) fn transport_cargo(
        &self,
        u: UnitId,
        x: &crate::state::Unit,
        transport: bool,
    ) -> (Vec<UnitId>, Vec<UnitId>) {
        let passengers: Vec<UnitId> = if transport {
            self.ids()
                .filter(|&l| self.unit(l).aboard == Some(u))
                .collect()
        } else {
            Vec::new()
        };
        // What it may pick up (SDE-T): friendly units, not transports, next to it and on its
        // side of a ring, as many as it has room for. Loading them only takes bodies out of
        // the way, so wherever the plain move lands, the move with them lands too: the judge
        // would pass it (checked in debug builds).
        let load: Vec<UnitId> = if transport {
            self.ids()
                .filter(|&l| {
                    let y = self.unit(l);
                    l != u
                        && y.owner == x.owner
                        && y.is_unit()
                        && y.on_table()
                        && y.outside == x.outside
                        && !self.has(l, Special::T)
                        && self.next_to(u, l)
                })
                .take((self.value(u) as usize).saturating_sub(passengers.len()))
                .collect()
        } else {
            Vec::new()
        };
        (passengers, load)
    }

    /// SDE-T: a transport's candidate move to `to` (the `k`th point), and along the eight
    /// main winds the same move loading the units next to it, and dropping its passengers
    /// behind it side by side.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn transport_moves(
        &self,
        u: UnitId,
        from: Point,
        to: Point,
        k: usize,
        load: &[UnitId],
        passengers: &[UnitId],
        all_but_it: &mut Vec<Base>,
        out: &mut Vec<crate::events::Action>,
    ) {
        out.push(crate::events::Action::Move {
            unit: u,
            to: Target::Point(to),
            cargo: None,
        });
        // A transport loads or drops along the eight main winds only (a short menu).
        let main_wind = k < 16 && k.is_multiple_of(2);
        if main_wind && !load.is_empty() {
            debug_assert!(self.judge_move(u, Target::Point(to), load, &[]).is_ok());
            out.push(crate::events::Action::Move {
                unit: u,
                to: Target::Point(to),
                cargo: crate::events::Cargo::new(load.to_vec(), Vec::new()),
            });
        }
        if main_wind && !passengers.is_empty() {
            // Drop them behind the transport, side by side.
            let mut drop = Vec::new();
            for (k, &l) in passengers.iter().enumerate() {
                let back = toward(to, from, 2 * BASE_RADIUS + NEXT_TO / 2);
                let across = Point::new(back.x - (to.y - from.y), back.y + (to.x - from.x));
                let side = [0i64, 1, -1][k.min(2)] * (2 * BASE_RADIUS + 20);
                let at = if side == 0 {
                    back
                } else {
                    toward(back, across, side)
                };
                drop.push(Drop { unit: l, at });
            }
            // The move itself lands (it fits); what is left of the judge is the drops.
            let dropped = self.judge_drops(u, Base::new(to, BASE_RADIUS), &[], &drop, all_but_it);
            debug_assert_eq!(
                dropped.is_ok(),
                self.judge_move(u, Target::Point(to), &[], &drop).is_ok()
            );
            if dropped.is_ok() {
                out.push(crate::events::Action::Move {
                    unit: u,
                    to: Target::Point(to),
                    cargo: crate::events::Cargo::new(Vec::new(), drop),
                });
            }
        }
    }

    /// Candidate moves for menus and AIs: the sixteen winds at full length and the eight main
    /// ones at half length, into contact with each enemy and ball, onto each piece that
    /// holds units, behind cover from the nearest enemy; a transport also loads the units
    /// next to it, and drops its passengers. Each one passes the judge.
    pub fn move_candidates(&self, u: UnitId, out: &mut Vec<crate::events::Action>) {
        let mut scratch = Scratch::of(self);
        self.move_candidates_with(u, out, &mut scratch);
        scratch.recycle();
    }

    /// [`SdEra::move_candidates`] with the table's bodies and pieces read once for every
    /// unit of a turn (`scratch`).
    pub fn move_candidates_with(
        &self,
        u: UnitId,
        out: &mut Vec<crate::events::Action>,
        scratch: &mut Scratch,
    ) {
        let x = *self.unit(u);
        let nearest = self.contact_points(u, &x, scratch);
        self.cover_points(x.at, nearest, &mut scratch.points);
        let Scratch {
            bodies,
            points,
            others,
            near,
            full_ring,
            half_ring,
            lists: _,
        } = scratch;
        let t = &self.fixed.table;
        let ring = self.fixed.kind == MissionKind::RingBattle;
        // BATTLE ZONES: not past the first zone still to clear (the judge's rule).
        let zone_limit = (self.fixed.kind == MissionKind::BattleZones).then(|| self.open_zone());
        // ... nor through a blip: those a move of a stick from here could pass through.
        let blips: Vec<battlemat_geom::table::Outline> = if zone_limit.is_some() {
            bodies
                .iter()
                .filter(|(t, b)| {
                    let r = (STICK + b.radius + BASE_RADIUS) as i128;
                    self.unit(*t).is_blip()
                        && crate::combat::len2(b.centre.x - x.at.x, b.centre.y - x.at.y) < r * r
                })
                .map(|(_, b)| crate::zones::blip_reach(b))
                .collect()
        } else {
            Vec::new()
        };
        let stick2 = (STICK as i128) * (STICK as i128);
        // Every wind point is on the table when the unit is a stick and a base from each
        // edge (the commonest case: their edge checks are skipped).
        let winds_on_table = {
            let m = STICK + BASE_RADIUS;
            x.at.x - m >= 0 && x.at.x + m <= t.width && x.at.y - m >= 0 && x.at.y + m <= t.depth
        };
        // The `jump` and `past_enemies` options judge the line, not only the landing.
        let strict = self.fixed.options.jump != Jump::All
            || self.fixed.options.past_enemies != PastEnemies::Jump;
        let fits = |k: usize, to: Point| {
            to != x.at
                && (!strict || self.line_ok(u, to))
                // The winds' points (the first) are within a stick by construction.
                && (k < WINDS || crate::combat::len2(to.x - x.at.x, to.y - x.at.y) <= stick2)
                && (!ring || self.in_ring_zone(to) != x.outside)
                && zone_limit.is_none_or(|z| {
                    self.zone_of(to) <= z && !blips.iter().any(|o| o.crossed_by(x.at, to))
                })
                && {
                    let me = Base::new(to, BASE_RADIUS);
                    // Only the pieces whose box the base's box meets.
                    let touching = near
                        .iter()
                        .filter(|(_, (x0, y0, x1, y1))| {
                            to.x + BASE_RADIUS > *x0
                                && to.x - BASE_RADIUS < *x1
                                && to.y + BASE_RADIUS > *y0
                                && to.y - BASE_RADIUS < *y1
                        })
                        .map(|(i, _)| *i);
                    if self.fixed.any_holds {
                        matches!(
                            t.landing_among(&me, others, touching),
                            Landing::Ground | Landing::OnTop(_)
                        )
                    } else {
                        // No piece to stand on: clear ground only (what `landing_among`
                        // decides, without looking for a top), among the bodies that could
                        // be in the way of this point.
                        let in_the_way: &[Base] = match k {
                            0..16 => full_ring,
                            16..WINDS => half_ring,
                            _ => others,
                        };
                        ((k < WINDS && winds_on_table) || t.on_table(&me))
                            && !in_the_way.iter().any(|o| o.overlaps(&me))
                            && !touching.into_iter().any(|i| t.pieces[i].outline.overlaps(&me))
                    }
                }
        };
        let transport = self.has(u, Special::T);
        let (passengers, load) = self.transport_cargo(u, &x, transport);
        // Where its passengers may be dropped is judged against every base on the table but
        // its own, read once for the eight winds.
        let mut all_but_it: Vec<Base> = if passengers.is_empty() {
            Vec::new()
        } else {
            self.bases_except(&[u])
        };
        // The winds at a full stick that fit: a main wind's half stick is listed only where
        // its full stick is blocked (a unit hemmed in still edges forward; in the open, the
        // short step adds little a player cannot type).
        let mut full = 0u32;
        // Without a transport's extras, the points that fit are kept at the front of
        // `points` and listed in one go (pushing a move at a time cost a tenth of the
        // listing in store-forwarding stalls).
        let mut kept = 0;
        for k in 0..points.len() {
            let to = points[k];
            if (16..WINDS).contains(&k) && full & (1 << (2 * (k - 16))) != 0 {
                continue;
            }
            if !fits(k, to) {
                continue;
            }
            if k < 16 {
                full |= 1 << k;
            }
            if !transport {
                points[kept] = to;
                kept += 1;
                continue;
            }
            self.transport_moves(u, x.at, to, k, &load, &passengers, &mut all_but_it, out);
        }
        out.extend(
            points[..kept]
                .iter()
                .map(|&to| crate::events::Action::Move {
                    unit: u,
                    to: Target::Point(to),
                    cargo: None,
                }),
        );
    }
}

/// What candidate moves read of the table, once per turn's listing: the bodies on it with
/// their bases, and buffers reused from unit to unit — and, through a spare kept per thread,
/// from listing to listing (a listing is the commonest step of a random or searched game, and
/// its allocations were a tenth of it). The pieces' boxes and centres are the setup's
/// (`Fixed::piece_bounds`, `Fixed::piece_centres`).
#[derive(Default)]
pub struct Scratch {
    bodies: Vec<(UnitId, Base)>,
    points: Vec<Point>,
    others: Vec<Base>,
    near: Vec<(usize, (i64, i64, i64, i64))>,
    full_ring: Vec<Base>,
    half_ring: Vec<Base>,
    /// Lists of ids the turn's listing keeps (the bodies on the table, what may be attacked,
    /// the credits lying about), lent out with [`Scratch::lend`].
    lists: [Vec<UnitId>; 3],
}

thread_local! {
    static SPARE: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

impl Scratch {
    pub fn of(g: &SdEra) -> Scratch {
        let mut s = SPARE.with(|c| c.take()).unwrap_or_default();
        s.bodies.clear();
        s.bodies.extend(
            g.ids()
                .filter(|&i| g.unit(i).on_table())
                .map(|i| (i, g.unit(i).base())),
        );
        s
    }

    /// The bodies on the table, in id order (what a listing looks through instead of every
    /// id: broken eggs, taken credits and captured units stay in the list of units).
    pub fn on_table(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.bodies.iter().map(|(u, _)| *u)
    }

    /// Three empty id lists to fill, given back with [`Scratch::give_back`].
    pub fn lend(&mut self) -> [Vec<UnitId>; 3] {
        let mut lists = std::mem::take(&mut self.lists);
        for l in &mut lists {
            l.clear();
        }
        lists
    }

    pub fn give_back(&mut self, lists: [Vec<UnitId>; 3]) {
        self.lists = lists;
    }

    /// Hand the buffers back for the next listing on this thread.
    pub fn recycle(self) {
        SPARE.with(|c| c.set(Some(self)));
    }
}

/// Is `p` not yet among `points` (the wind points first, then the extras)? A wind point lies
/// a stick or half a stick (to the tick) from the unit, so only a point at such a distance
/// is looked for among them; the few extras are always searched.
pub(crate) fn is_new(points: &[Point], at: Point, p: Point) -> bool {
    let d2 = crate::combat::len2(p.x - at.x, p.y - at.y);
    let ring = |r: i64| {
        let (lo, hi) = ((r - 2) as i128, r as i128);
        (lo * lo..=hi * hi).contains(&d2)
    };
    let from = if ring(STICK) || ring(STICK / 2) {
        0
    } else {
        WINDS
    };
    !points[from.min(points.len())..].contains(&p)
}

/// A point about `dist` from `from` toward `through`: the length measured by the octagonal
/// norm (the larger offset plus 3/8 of the smaller), within 7 % of the true one, so no
/// square root. Contact candidates aim at half the "next to" gap, and 7 % of a base-to-base
/// distance keeps them next to and clear of the unit they are beside (they are judged
/// anyway).
pub(crate) fn roughly_toward(
    from: Point,
    through: Point,
    dist: battlemat_geom::table::Ticks,
) -> Point {
    let (dx, dy) = (through.x - from.x, through.y - from.y);
    let (a, b) = (dx.abs().max(dy.abs()), dx.abs().min(dy.abs()));
    let len = a + b * 3 / 8;
    if len == 0 {
        return from;
    }
    Point::new(from.x + dx * dist / len, from.y + dy * dist / len)
}

/// How many wind points [`wind_offsets`] gives.
const WINDS: usize = 24;

/// The sixteen winds at a full stick and the eight main ones at half a stick, as offsets (a
/// point `toward` another is the same offset wherever it starts), computed once.
pub(crate) fn wind_offsets() -> &'static [(i64, i64); 24] {
    static OFFSETS: std::sync::OnceLock<[(i64, i64); 24]> = std::sync::OnceLock::new();
    OFFSETS.get_or_init(|| {
        let mut out = [(0, 0); 24];
        for (i, (dx, dy)) in WIND_VECTORS.iter().enumerate() {
            let p = toward(Point::new(0, 0), Point::new(*dx, *dy), STICK);
            out[i] = (p.x, p.y);
            if i % 2 == 0 {
                let p = toward(Point::new(0, 0), Point::new(*dx, *dy), STICK / 2);
                out[16 + i / 2] = (p.x, p.y);
            }
        }
        out
    })
}
