//! The open table's exact queries, by example and against an independent floating-point
//! oracle on seeded random tables.

use super::*;

/// A small seeded generator (xorshift), so the tests need no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

const STICK: Ticks = 2400;

fn p(x: Ticks, y: Ticks) -> Point {
    Point::new(x, y)
}

fn square(x0: Ticks, y0: Ticks, side: Ticks) -> Outline {
    Outline::Polygon {
        corners: vec![
            p(x0, y0),
            p(x0 + side, y0),
            p(x0 + side, y0 + side),
            p(x0, y0 + side),
        ],
    }
}

fn piece(outline: Outline) -> Piece {
    Piece {
        outline,
        height: STICK / 2,
        blocks_sight: true,
        holds: 1,
    }
}

#[test]
fn integer_square_roots_are_exact() {
    for n in 0..10_000u128 {
        let r = isqrt(n);
        assert!(r * r <= n && (r + 1) * (r + 1) > n, "{n}");
    }
    let mut rng = Rng(7);
    for _ in 0..10_000 {
        let n = ((rng.next() as u128) << 40) | rng.next() as u128;
        let r = isqrt(n);
        assert!(r * r <= n && (r + 1) * (r + 1) > n, "{n}");
        let c = isqrt_ceil(n);
        assert!(c * c >= n && (c == 0 || (c - 1) * (c - 1) < n), "{n}");
    }
}

#[test]
fn bases_touch_without_overlapping_and_next_to_is_a_gap() {
    let r = STICK / 8;
    let a = Base::new(p(0, 0), r);
    let touching = Base::new(p(2 * r, 0), r);
    assert!(!a.overlaps(&touching) && a.within(&touching, 0));
    let sixth = STICK / 6;
    let near = Base::new(p(2 * r + sixth, 0), r);
    assert!(a.within(&near, sixth) && !a.within(&near, sixth - 1));
    // 3-4-5: centres 5 apart in ticks scaled by 600.
    let diag = Base::new(p(1800, 2400), r);
    assert_eq!(distance_floor(a.centre, diag.centre), 3000);
    assert_eq!(a.gap_floor(&diag), 3000 - 2 * r);
}

#[test]
fn pieces_hold_contain_and_overlap_exactly() {
    let sq = square(1000, 1000, 1000);
    sq.check().unwrap();
    assert!(sq.contains(p(1000, 1500)), "the edge counts as inside");
    assert!(!sq.contains(p(999, 1500)));
    assert!(
        !sq.overlaps(&Base::new(p(900, 1500), 100)),
        "touching the edge"
    );
    assert!(sq.overlaps(&Base::new(p(901, 1500), 100)));
    // A corner: the base centre 100 away diagonally from (1000, 1000) along (-60, -80).
    assert!(!sq.overlaps(&Base::new(p(940, 920), 100)));
    assert!(sq.overlaps(&Base::new(p(941, 921), 100)));
    assert!(sq.holds(&Base::new(p(1100, 1100), 100)));
    assert!(!sq.holds(&Base::new(p(1099, 1100), 100)));
    let cw = Outline::Polygon {
        corners: vec![p(0, 0), p(0, 10), p(10, 10), p(10, 0)],
    };
    cw.check().unwrap();
    assert!(
        cw.contains(p(5, 5)),
        "clockwise corners are read counter-clockwise"
    );
    let concave = Outline::Polygon {
        corners: vec![p(0, 0), p(10, 0), p(5, 2), p(10, 10), p(0, 10)],
    };
    assert!(concave.check().is_err());
    let flat = Outline::Polygon {
        corners: vec![p(0, 0), p(5, 0), p(10, 0)],
    };
    assert!(flat.check().is_err());
}

#[test]
fn sight_is_blocked_by_crossing_not_by_grazing() {
    let t = Table {
        width: 6 * STICK,
        depth: 6 * STICK,
        pieces: vec![
            piece(square(2000, 2000, 2000)),
            piece(Outline::Circle {
                centre: p(10_000, 10_000),
                radius: 1000,
            }),
        ],
    };
    t.check().unwrap();
    assert!(!t.sight(p(1000, 3000), p(5000, 3000), &[]));
    assert!(
        t.sight(p(1000, 2000), p(5000, 2000), &[]),
        "along an edge: grazing"
    );
    assert!(t.sight(p(1000, 1000), p(3000, 3000 - 2000 * 2), &[]));
    assert!(
        t.sight(p(1000, 3000), p(5000, 3000), &[0]),
        "standing on it"
    );
    // The diagonal from (1000, 1000) to (3000, 3000) enters the square at its corner and
    // runs through it.
    assert!(!t.sight(p(1000, 1000), p(3000, 3000), &[]));
    assert!(
        t.sight(p(0, 4000), p(4000, 0), &[]),
        "through the corner exactly"
    );
    assert!(!t.sight(p(9000, 9000), p(11_000, 11_000), &[]));
    assert!(
        t.sight(p(9000, 11_000), p(11_000, 11_000), &[]),
        "tangent to the circle"
    );
    let mut see_through = t.clone();
    see_through.pieces[0].blocks_sight = false;
    assert!(see_through.sight(p(1000, 3000), p(5000, 3000), &[]));
}

#[test]
fn sweeps_stop_at_the_first_contact() {
    let r = 300;
    let t = Table {
        width: 6 * STICK,
        depth: 6 * STICK,
        pieces: vec![piece(square(6000, 0, 1000))],
    };
    // Into the square's left side at x = 6000: the centre stops at 5700.
    let s = t.sweep(Base::new(p(1000, 500), r), p(9000, 500), &[], &[]);
    assert_eq!(
        s,
        Sweep {
            stop: p(5700, 500),
            hit: Some(Hit::Piece(0))
        }
    );
    // Into a base at (4000, 2000): stops 600 short.
    let other = Base::new(p(4000, 2000), r);
    let s = t.sweep(Base::new(p(1000, 2000), r), p(9000, 2000), &[other], &[]);
    assert_eq!(
        s,
        Sweep {
            stop: p(3400, 2000),
            hit: Some(Hit::Base(0))
        }
    );
    // Into the far edge.
    let s = t.sweep(Base::new(p(1000, 5000), r), p(99_000, 5000), &[], &[]);
    assert_eq!(
        s,
        Sweep {
            stop: p(6 * STICK - r, 5000),
            hit: Some(Hit::Edge)
        }
    );
    // Short of everything: the whole way.
    let s = t.sweep(Base::new(p(1000, 5000), r), p(2000, 5000), &[], &[]);
    assert_eq!(
        s,
        Sweep {
            stop: p(2000, 5000),
            hit: None
        }
    );
    // Touching and moving away: not stopped; touching and moving in: stopped at once.
    let touching = Base::new(p(1600, 5000), r);
    let s = t.sweep(Base::new(p(1000, 5000), r), p(r, 5000), &[touching], &[]);
    assert_eq!(s.hit, Some(Hit::Edge));
    let s = t.sweep(Base::new(p(1000, 5000), r), p(3000, 5000), &[touching], &[]);
    assert_eq!(
        s,
        Sweep {
            stop: p(1000, 5000),
            hit: Some(Hit::Base(0))
        }
    );
    // A piece it is ignoring (standing on it) does not stop it.
    let s = t.sweep(Base::new(p(1000, 500), r), p(20_000, 500), &[], &[0]);
    assert_eq!(
        s,
        Sweep {
            stop: p(6 * STICK - r, 500),
            hit: Some(Hit::Edge)
        }
    );
    // Diagonally into a corner.
    let s = t.sweep(Base::new(p(5000, 2000), r), p(7000, 0), &[], &[]);
    assert!(s.hit == Some(Hit::Piece(0)));
    assert!(t.clear(&Base::new(s.stop, r), &[], &[]));
}

#[test]
fn points_along_a_line_arcs_and_landings() {
    // 3-4-5 again: one stick toward (3, 4) is (1440, 1920).
    assert_eq!(toward(p(0, 0), p(3, 4), STICK), p(1440, 1920));
    assert_eq!(
        toward(p(100, 100), p(100, 0), STICK),
        p(100, 100 - STICK),
        "beyond the point"
    );
    assert_eq!(toward(p(5, 5), p(5, 5), STICK), p(5, 5));
    // A diagonal: 2400 / sqrt(2) = 1697.06 on each axis.
    assert_eq!(toward(p(0, 0), p(1, 1), STICK), p(1697, 1697));
    assert!(in_front(p(0, 0), p(0, 10), p(5, 0)), "the arc's edge");
    assert!(in_front(p(0, 0), p(0, 10), p(-5, 3)));
    assert!(!in_front(p(0, 0), p(0, 10), p(0, -1)));
    let t = Table {
        width: 6 * STICK,
        depth: 6 * STICK,
        pieces: vec![
            piece(square(2000, 2000, 1000)),
            piece(square(5000, 5000, 300)),
        ],
    };
    let r = 300;
    assert_eq!(
        t.landing(&Base::new(p(1000, 1000), r), &[]),
        Landing::Ground
    );
    assert_eq!(
        t.landing(&Base::new(p(2500, 2500), r), &[]),
        Landing::OnTop(0)
    );
    let on_top = Base::new(p(2300, 2300), r);
    assert_eq!(
        t.landing(&Base::new(p(2750, 2750), r - 100), &[]),
        Landing::OnTop(0),
        "room on the hill"
    );
    assert_eq!(
        t.landing(&Base::new(p(2750, 2750), r - 100), &[on_top]),
        Landing::Blocked(Hit::Piece(0)),
        "the hill holds one unit"
    );
    assert_eq!(
        t.landing(&Base::new(p(2000, 2500), r), &[]),
        Landing::Blocked(Hit::Piece(0)),
        "half on, half off"
    );
    assert_eq!(
        t.landing(&Base::new(p(5150, 5150), r), &[]),
        Landing::Blocked(Hit::Piece(1)),
        "too small to stand on"
    );
    assert_eq!(
        t.landing(&Base::new(p(100, 100), r), &[]),
        Landing::Blocked(Hit::Edge)
    );
    assert_eq!(
        t.landing(&Base::new(p(1000, 1000), r), &[Base::new(p(1500, 1000), r)]),
        Landing::Blocked(Hit::Base(0))
    );
}

/// Cases found in review, each an exact integer example.
#[test]
fn review_cases_sliding_grazing_and_closing_rings() {
    let t = |pieces: Vec<Piece>| Table {
        width: 14_400,
        depth: 14_400,
        pieces,
    };
    // Sliding along a sloped wall 300.0005 ticks from it: the lattice points on the wall's
    // side of the path overlap it, the others do not; the sweep stops at the base it meets,
    // not back at its start.
    let wall = piece(Outline::Polygon {
        corners: vec![p(1000, 1000), p(9191, 1000), p(9191, 9183)],
    });
    let table = t(vec![wall]);
    table.check().unwrap();
    let mover = Base::new(p(1059, 1483), 300);
    let other = Base::new(p(4299, 5119), 300);
    let s = table.sweep(mover, p(9250, 9666), &[other], &[]);
    assert_eq!(s.hit, Some(Hit::Base(0)));
    assert!(distance_floor(s.stop, p(4124, 4545)) <= 2, "{s:?}");
    let free = table.sweep(mover, p(9250, 9666), &[], &[]);
    assert_eq!(
        free,
        Sweep {
            stop: p(9250, 9666),
            hit: None
        }
    );
    // A ring closed by repeating its first corner is the same square.
    let closed = Outline::Polygon {
        corners: vec![p(0, 0), p(1000, 0), p(1000, 1000), p(0, 1000), p(0, 0)],
    };
    closed.check().unwrap();
    assert!(closed.overlaps(&Base::new(p(500, 500), 100)));
    assert!(closed.crossed_by(p(-100, 500), p(1100, 500)));
    // A star turns left at every corner but crosses itself: refused.
    let star = Outline::Polygon {
        corners: vec![
            p(0, 1000),
            p(588, -809),
            p(-951, 309),
            p(951, 309),
            p(-588, -809),
        ],
    };
    assert!(star.check().is_err());
    // Sliding past a corner at exactly the base's radius: a graze, not a contact.
    let table = t(vec![piece(square(6000, 0, 1000))]);
    let s = table.sweep(Base::new(p(5700, 200), 300), p(5700, 2000), &[], &[]);
    assert_eq!(
        s,
        Sweep {
            stop: p(5700, 2000),
            hit: None
        }
    );
    let past = Base::new(p(6300, 5000), 300);
    let s = table.sweep(Base::new(p(5700, 4000), 300), p(5700, 6000), &[past], &[]);
    assert_eq!(s.hit, None, "passing a base at exactly two radii");
    // A contact that would come just after the end of the path is no contact.
    let s = table.sweep(
        Base::new(p(6994, 6395), 300),
        p(6994, 6400),
        &[Base::new(p(7000, 7000), 300)],
        &[],
    );
    assert_eq!(
        s,
        Sweep {
            stop: p(6994, 6400),
            hit: None
        }
    );
    // `toward` never goes farther than asked.
    let q = toward(p(0, 0), p(1, 2), 2400);
    assert!(q.x * q.x + q.y * q.y <= 2400 * 2400, "{q:?}");
    assert_eq!(toward(p(0, 0), p(1, 2), -2400).x, -q.x);
}

/// `toward`'s point is never farther than asked and short of it by under two ticks, in any
/// direction and at any distance: what lets SD ERA bracket the foot of a round hill to the
/// two radii and two ticks past them (`foot_points`).
#[test]
fn toward_lands_within_two_ticks_short_of_the_distance() {
    let mut rng = Rng(0x5eed_f007);
    for _ in 0..20_000 {
        let from = p(rng.range(0, 20_000), rng.range(0, 20_000));
        let through = p(rng.range(0, 20_000), rng.range(0, 20_000));
        if from == through {
            continue;
        }
        let dist = rng.range(1, 30_000);
        let q = toward(from, through, dist).sub(from);
        let len2 = dot(q, q);
        assert!(
            len2 <= (dist as i128).pow(2),
            "{from:?} {through:?} {dist}: {q:?}"
        );
        assert!(
            dist < 2 || len2 > (dist as i128 - 2).pow(2),
            "{from:?} {through:?} {dist}: {q:?}"
        );
    }
}

// ----- against a floating-point oracle ------------------------------------------------------

fn f(p: Point) -> (f64, f64) {
    (p.x as f64, p.y as f64)
}

fn seg_dist(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (ex, ey) = (b.0 - a.0, b.1 - a.1);
    let len2 = ex * ex + ey * ey;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * ex + (p.1 - a.1) * ey) / len2).clamp(0.0, 1.0)
    };
    let (qx, qy) = (a.0 + t * ex - p.0, a.1 + t * ey - p.1);
    (qx * qx + qy * qy).sqrt()
}

/// Signed distance from a point to an outline (negative inside), in floating point.
fn signed_distance(o: &Outline, q: (f64, f64)) -> f64 {
    match o {
        Outline::Circle { centre, radius } => {
            let c = f(*centre);
            ((q.0 - c.0).powi(2) + (q.1 - c.1).powi(2)).sqrt() - *radius as f64
        }
        Outline::Polygon { corners } => {
            let n = corners.len();
            let d = (0..n)
                .map(|i| seg_dist(q, f(corners[i]), f(corners[(i + 1) % n])))
                .fold(f64::INFINITY, f64::min);
            // Inside when on the same side of every edge (in floating point, independently of
            // the code under test).
            let side = |i: usize| {
                let (a, b) = (f(corners[i]), f(corners[(i + 1) % n]));
                (b.0 - a.0) * (q.1 - a.1) - (b.1 - a.1) * (q.0 - a.0)
            };
            let sides: Vec<f64> = (0..n).map(side).filter(|v| *v != 0.0).collect();
            let inside =
                (sides.iter().all(|v| *v > 0.0) || sides.iter().all(|v| *v < 0.0)) && d > 1.0;
            if inside { -d } else { d }
        }
    }
}

fn random_piece(rng: &mut Rng) -> Piece {
    let (cx, cy) = (rng.range(2000, 12_000), rng.range(2000, 12_000));
    let outline = if rng.next().is_multiple_of(2) {
        Outline::Circle {
            centre: p(cx, cy),
            radius: rng.range(200, 1500),
        }
    } else {
        // A convex polygon: corners on a circle at increasing angles (from a fixed table of
        // integer directions, so no trigonometry here either).
        const DIRS: [(i64, i64); 8] = [
            (1000, 0),
            (707, 707),
            (0, 1000),
            (-707, 707),
            (-1000, 0),
            (-707, -707),
            (0, -1000),
            (707, -707),
        ];
        let size = rng.range(300, 1500);
        let mut corners: Vec<Point> = DIRS
            .iter()
            .filter(|_| !rng.next().is_multiple_of(3))
            .map(|(dx, dy)| p(cx + dx * size / 1000, cy + dy * size / 1000))
            .collect();
        if corners.len() < 3 {
            corners = vec![p(cx, cy), p(cx + size, cy), p(cx, cy + size)];
        }
        Outline::Polygon { corners }
    };
    Piece {
        outline,
        height: 100,
        blocks_sight: true,
        holds: 1,
    }
}

fn random_table(rng: &mut Rng) -> Table {
    let t = Table {
        width: 6 * STICK,
        depth: 6 * STICK,
        pieces: (0..rng.range(1, 5)).map(|_| random_piece(rng)).collect(),
    };
    t.check().unwrap();
    t
}

/// Overlap and holding agree with the oracle wherever the oracle is not within a tick of
/// the boundary.
#[test]
fn overlap_agrees_with_floating_point() {
    let mut rng = Rng(99);
    let mut decided = 0;
    for _ in 0..300 {
        let t = random_table(&mut rng);
        for _ in 0..50 {
            let b = Base::new(
                p(rng.range(0, 14_400), rng.range(0, 14_400)),
                rng.range(50, 600),
            );
            for piece in &t.pieces {
                let d = signed_distance(&piece.outline, f(b.centre));
                if (d - b.radius as f64).abs() < 1.0 || d.abs() < 1.0 {
                    continue;
                }
                decided += 1;
                assert_eq!(
                    piece.outline.overlaps(&b),
                    d < b.radius as f64,
                    "{piece:?} {b:?} d={d}"
                );
            }
        }
    }
    assert!(decided > 10_000);
}

/// Sight agrees with sampling the segment finely in floating point, away from grazes.
#[test]
fn sight_agrees_with_floating_point() {
    let mut rng = Rng(5);
    let mut decided = 0;
    for _ in 0..400 {
        let t = random_table(&mut rng);
        let (a, b) = (
            p(rng.range(0, 14_400), rng.range(0, 14_400)),
            p(rng.range(0, 14_400), rng.range(0, 14_400)),
        );
        // The oracle: the smallest signed distance along the segment, sampled every tick.
        let n = distance_floor(a, b).max(1);
        let mut deepest = f64::INFINITY;
        for piece in &t.pieces {
            for k in 0..=n {
                let s = k as f64 / n as f64;
                let q = (
                    a.x as f64 + s * (b.x - a.x) as f64,
                    a.y as f64 + s * (b.y - a.y) as f64,
                );
                deepest = deepest.min(signed_distance(&piece.outline, q));
            }
        }
        if deepest.abs() < 2.0 {
            continue;
        }
        decided += 1;
        assert_eq!(t.sight(a, b, &[]), deepest > 0.0, "{a:?} {b:?} {t:?}");
    }
    assert!(decided > 300);
}

/// With the pieces' boxes kept, sight is the same, ignored pieces too.
#[test]
fn sight_boxed_is_sight() {
    let mut rng = Rng(11);
    let mut blocked = 0;
    for _ in 0..2000 {
        let t = random_table(&mut rng);
        let boxes: Vec<_> = t.pieces.iter().map(|p| p.outline.bounds()).collect();
        let (a, b) = (
            p(rng.range(0, 14_400), rng.range(0, 14_400)),
            p(rng.range(0, 14_400), rng.range(0, 14_400)),
        );
        let ignore = [rng.range(0, t.pieces.len() as i64 + 1) as usize];
        for ignore in [&[][..], &ignore[..]] {
            let seen = t.sight(a, b, ignore);
            assert_eq!(t.sight_boxed(a, b, ignore, &boxes), seen, "{a:?} {b:?}");
            blocked += usize::from(!seen);
        }
    }
    assert!(
        blocked > 100,
        "the lines must sometimes be blocked: {blocked}"
    );
}

/// A sweep stops clear of everything, and no more than two ticks short of where the oracle
/// finds the first contact (or at the end, when there is none).
#[test]
fn sweeps_agree_with_floating_point() {
    let mut rng = Rng(31);
    let mut hits = 0;
    for case in 0..300 {
        let t = random_table(&mut rng);
        let r = rng.range(100, 400);
        let others: Vec<Base> = (0..3)
            .map(|_| Base::new(p(rng.range(1000, 13_000), rng.range(1000, 13_000)), r))
            .collect();
        let start = p(rng.range(r, 14_400 - r), rng.range(r, 14_400 - r));
        let mover = Base::new(start, r);
        if !t.clear(&mover, &others, &[]) {
            continue;
        }
        let to = p(rng.range(-5000, 20_000), rng.range(-5000, 20_000));
        let s = t.sweep(mover, to, &others, &[]);
        assert!(
            t.clear(&Base::new(s.stop, r), &others, &[]),
            "case {case}: stop not clear"
        );
        // The oracle: walk the path in steps of a tenth of a tick until something is within
        // r (pieces, bases) or the base leaves the table.
        let len = distance_floor(start, to).max(1) as f64;
        let steps = (len * 10.0) as i64;
        let mut contact = None;
        for k in 0..=steps {
            let s = k as f64 / steps as f64;
            let q = (
                start.x as f64 + s * (to.x - start.x) as f64,
                start.y as f64 + s * (to.y - start.y) as f64,
            );
            let rr = r as f64;
            let blocked = q.0 < rr
                || q.1 < rr
                || q.0 > t.width as f64 - rr
                || q.1 > t.depth as f64 - rr
                || t.pieces
                    .iter()
                    .any(|pc| signed_distance(&pc.outline, q) < rr)
                || others.iter().any(|o| {
                    let c = f(o.centre);
                    ((q.0 - c.0).powi(2) + (q.1 - c.1).powi(2)).sqrt() < 2.0 * rr
                });
            if blocked {
                contact = Some(s * len);
                break;
            }
        }
        let travelled = ((s.stop.x - start.x) as f64).hypot((s.stop.y - start.y) as f64);
        match contact {
            None => assert_eq!((s.stop, s.hit), (to, None), "case {case}"),
            Some(c) => {
                hits += 1;
                assert!(s.hit.is_some(), "case {case}: the oracle hits at {c}");
                // The stop is a lattice point within a tick of the path, so measured along
                // the path it may be up to about a tick and a half past the contact (and clear).
                assert!(
                    travelled <= c + 1.5,
                    "case {case}: went {travelled}, contact at {c}"
                );
                assert!(
                    travelled >= c - 3.0,
                    "case {case}: stopped at {travelled}, contact at {c}"
                );
            }
        }
    }
    assert!(hits > 100, "{hits} sweeps hit something");
}

#[test]
fn a_table_past_a_games_bounds_says_which() {
    let mut t = Table {
        width: 100,
        depth: 80,
        pieces: vec![piece(square(0, 0, 10)); 3],
    };
    assert_eq!(t.check_bounds(100, 3), Ok(()));
    assert_eq!(t.check_bounds(99, 3), Err(OverBound::Side));
    assert_eq!(t.check_bounds(100, 2), Err(OverBound::Pieces));
    let many: Vec<Point> = (0..=MAX_CORNERS as i64)
        .map(|i| {
            let a = i as f64 / (MAX_CORNERS + 1) as f64 * std::f64::consts::TAU;
            p(
                50 + (30.0 * a.cos()) as Ticks,
                40 + (30.0 * a.sin()) as Ticks,
            )
        })
        .collect();
    t.pieces.push(piece(Outline::Polygon { corners: many }));
    assert_eq!(t.check_bounds(100, 4), Err(OverBound::Corners(3)));
    t.pieces[0] = piece(square(95, 0, 10));
    let e = t.check().unwrap_err();
    assert_eq!(piece_of(&e), Some((0, "outside the table")));
    assert_eq!(piece_of("the table must be"), None);
}
