//! The open table: games played with measuring sticks or tape (SD ERA, SERM) rather than on
//! a grid.
//!
//! Positions are integer *ticks* — a game chooses how many make its unit of length (SD ERA:
//! 2,400 a stick, so a base's radius of 1/8 stick and "next to" of 1/6 stick are whole
//! numbers; SERM: ticks per inch). A unit stands on a round base ([`Base`]); terrain pieces
//! ([`Piece`]) are convex polygons or circles with a height, whether they block sight, and
//! how many units fit on top; the table is a rectangle `width` × `depth`.
//!
//! Every query is exact and deterministic: integer arithmetic in `i128`, no floating point
//! and no trigonometry. Distances that are square roots are compared squared, or floored
//! with an integer square root; a sweep (how far a base moves before it first touches
//! something) is solved in rationals and then placed on the lattice, checked by the exact
//! overlap test. "Touching" is not "overlapping": bases may stand edge to edge, and a line
//! of sight that grazes a piece's edge or corner is not blocked.
//!
//! Coordinates must stay within ±2^24 ticks (checked by [`Table::check`]); products then fit
//! comfortably in `i128`.
//!
//! Rejected: `f64` geometry (what a physics library does). It is fast and simple, but a
//! result one ulp either side of "touching" decides whether a unit is stunned, and such a
//! decision must replay identically everywhere and be explainable to a player.

use serde::{Deserialize, Serialize};

/// A length or coordinate in ticks.
pub type Ticks = i64;

/// The largest coordinate magnitude a table may use.
pub const MAX_COORD: Ticks = 1 << 24;

/// A point on the table, in ticks; `x` across, `y` from the near edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Point {
    pub x: Ticks,
    pub y: Ticks,
}

impl Point {
    pub const fn new(x: Ticks, y: Ticks) -> Point {
        Point { x, y }
    }
    fn sub(self, o: Point) -> (i128, i128) {
        ((self.x - o.x) as i128, (self.y - o.y) as i128)
    }
}

fn dot(a: (i128, i128), b: (i128, i128)) -> i128 {
    a.0 * b.0 + a.1 * b.1
}

fn cross(a: (i128, i128), b: (i128, i128)) -> i128 {
    a.0 * b.1 - a.1 * b.0
}

/// The largest integer whose square is at most `n` (the standard library's exact integer
/// square root; in 64 bits when `n` fits, which is much faster).
pub fn isqrt(n: u128) -> u128 {
    match u64::try_from(n) {
        Ok(small) => u128::from(small.isqrt()),
        Err(_) => n.isqrt(),
    }
}

/// The smallest integer whose square is at least `n`.
fn isqrt_ceil(n: u128) -> u128 {
    let r = isqrt(n);
    if r * r == n { r } else { r + 1 }
}

/// The distance between two points, rounded down.
pub fn distance_floor(a: Point, b: Point) -> Ticks {
    let d = a.sub(b);
    isqrt(dot(d, d) as u128) as Ticks
}

/// The sixteen compass winds by name, north (the far edge, +y) first, clockwise: the
/// directions the open-table games (SD ERA, SERM) let a player name instead of a point.
pub const WINDS: [&str; 16] = [
    "n", "nne", "ne", "ene", "e", "ese", "se", "sse", "s", "ssw", "sw", "wsw", "w", "wnw", "nw",
    "nnw",
];

/// Each of the [`WINDS`] as a vector of length 10,000 (rounded): (east, north). Integers,
/// so a heading is the same on every machine.
pub const WIND_VECTORS: [(Ticks, Ticks); 16] = [
    (0, 10000),
    (3827, 9239),
    (7071, 7071),
    (9239, 3827),
    (10000, 0),
    (9239, -3827),
    (7071, -7071),
    (3827, -9239),
    (0, -10000),
    (-3827, -9239),
    (-7071, -7071),
    (-9239, -3827),
    (-10000, 0),
    (-9239, 3827),
    (-7071, 7071),
    (-3827, 9239),
];

/// The point `dist` ticks from `from` toward `through` (or beyond it; away from it for a
/// negative `dist`): "one stick in the line of fire", "exactly that far in a straight line".
/// On the lattice it is the farthest point no farther than `dist` among the two nearest on
/// each axis, and of those the nearest the line. `from` itself when the two are the same
/// point.
pub fn toward(from: Point, through: Point, dist: Ticks) -> Point {
    let d = through.sub(from);
    let len2 = dot(d, d);
    if len2 == 0 {
        return from;
    }
    debug_assert!(
        dist.abs() <= 2 * MAX_COORD,
        "a distance past the table's range"
    );
    // Each axis is d * dist / |d|, whose square d^2 dist^2 / len2 is rational: floor its root
    // and try it and the next integer on each axis; keep the farthest point no farther than
    // `dist`, and of those the nearest the line.
    let dist2 = (dist as i128) * (dist as i128);
    let floor = |c: i128| {
        let num = (c * c * dist2) as u128;
        // In 64 bits when it fits (a 128-bit division is several times slower).
        let q = match (u64::try_from(num), u64::try_from(len2)) {
            (Ok(n), Ok(l)) => u128::from(n / l),
            _ => num / len2 as u128,
        };
        isqrt(q) as i128
    };
    let (fx, fy) = (floor(d.0), floor(d.1));
    let sign = (dist as i128).signum();
    let mut best = (fx * d.0.signum() * sign, fy * d.1.signum() * sign);
    let mut best_key = (-1i128, 0i128);
    for mx in [fx, fx + 1] {
        for my in [fy, fy + 1] {
            let v = (mx * d.0.signum() * sign, my * d.1.signum() * sign);
            let len = dot(v, v);
            if len > dist2 {
                continue;
            }
            let key = (len, -cross(d, v).abs());
            if key > best_key {
                best_key = key;
                best = v;
            }
        }
    }
    Point::new(from.x + best.0 as Ticks, from.y + best.1 as Ticks)
}

/// Is `target` within the 180° arc in front of a unit at `at` facing `facing` (a point it
/// faces toward)? The arc's edge counts as in it.
pub fn in_front(at: Point, facing: Point, target: Point) -> bool {
    dot(facing.sub(at), target.sub(at)) >= 0
}

/// A unit's round base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Base {
    pub centre: Point,
    pub radius: Ticks,
}

impl Base {
    pub const fn new(centre: Point, radius: Ticks) -> Base {
        Base { centre, radius }
    }

    /// Are the two bases at most `gap` apart, edge to edge ("next to" is a small gap)?
    pub fn within(&self, other: &Base, gap: Ticks) -> bool {
        let r = self.radius + other.radius + gap;
        // Farther apart than that on either axis: not within (no multiply).
        if (self.centre.x - other.centre.x).abs() > r || (self.centre.y - other.centre.y).abs() > r
        {
            return false;
        }
        let reach = r as i128;
        let d = self.centre.sub(other.centre);
        reach >= 0 && dot(d, d) <= reach * reach
    }

    /// Do the bases overlap (more than touch)?
    pub fn overlaps(&self, other: &Base) -> bool {
        let reach64 = self.radius + other.radius;
        // Far apart on either axis: no overlap (the common case, without a multiply).
        if (self.centre.x - other.centre.x).abs() >= reach64
            || (self.centre.y - other.centre.y).abs() >= reach64
        {
            return false;
        }
        // Both offsets are below the reach (at most 2^26 ticks), so the squares fit in i64.
        let (dx, dy) = (
            self.centre.x - other.centre.x,
            self.centre.y - other.centre.y,
        );
        dx * dx + dy * dy < reach64 * reach64
    }

    /// The gap between the bases' edges, rounded down (negative when they overlap).
    pub fn gap_floor(&self, other: &Base) -> Ticks {
        distance_floor(self.centre, other.centre) - self.radius - other.radius
    }
}

/// A terrain piece's footprint: a circle, or a convex polygon (corners in either order).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outline {
    Circle { centre: Point, radius: Ticks },
    Polygon { corners: Vec<Point> },
}

/// A terrain piece.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    pub outline: Outline,
    /// How tall it is, in ticks.
    pub height: Ticks,
    pub blocks_sight: bool,
    /// How many units fit on top (0: none may stand on it).
    pub holds: u8,
}

/// Squared distance from `p` to the segment `a`-`b`, as a fraction (numerator,
/// denominator > 0).
fn segment_distance2(p: Point, a: Point, b: Point) -> (i128, i128) {
    let e = b.sub(a);
    let w = p.sub(a);
    let len2 = dot(e, e);
    if len2 == 0 {
        return (dot(w, w), 1);
    }
    let t = dot(w, e);
    if t <= 0 {
        (dot(w, w), 1)
    } else if t >= len2 {
        let v = p.sub(b);
        (dot(v, v), 1)
    } else {
        let c = cross(e, w);
        (c * c, len2)
    }
}

impl Outline {
    /// The corners counter-clockwise (a polygon given clockwise is reversed).
    /// The corners counter-clockwise, a corner repeated next to itself (a ring closed by
    /// repeating its first corner) counted once.
    fn ccw(corners: &[Point]) -> std::borrow::Cow<'_, [Point]> {
        // Already counter-clockwise with no corner repeated (how pieces are usually given):
        // borrowed, no allocation.
        let n = corners.len();
        let repeats = (0..n).any(|i| corners[i] == corners[(i + 1) % n]);
        if !repeats && n > 0 {
            let mut area = 0i128;
            for i in 0..n {
                let (a, b) = (corners[i], corners[(i + 1) % n]);
                area += a.x as i128 * b.y as i128 - b.x as i128 * a.y as i128;
            }
            if area >= 0 {
                return std::borrow::Cow::Borrowed(corners);
            }
        }
        let mut c = corners.to_vec();
        c.dedup();
        while c.len() > 1 && c.first() == c.last() {
            c.pop();
        }
        let mut area = 0i128;
        for i in 0..c.len() {
            let (a, b) = (c[i], c[(i + 1) % c.len()]);
            area += a.x as i128 * b.y as i128 - b.x as i128 * a.y as i128;
        }
        if area < 0 {
            c.reverse();
        }
        std::borrow::Cow::Owned(c)
    }

    /// The bounding box (min x, min y, max x, max y), for quick rejections.
    pub fn bounds(&self) -> (Ticks, Ticks, Ticks, Ticks) {
        match self {
            Outline::Circle { centre, radius } => (
                centre.x - radius,
                centre.y - radius,
                centre.x + radius,
                centre.y + radius,
            ),
            Outline::Polygon { corners } => corners.iter().fold(
                (Ticks::MAX, Ticks::MAX, Ticks::MIN, Ticks::MIN),
                |(a, b, c, d), p| (a.min(p.x), b.min(p.y), c.max(p.x), d.max(p.y)),
            ),
        }
    }

    /// Is the box around `b` (grown by `margin`) clear of the bounding box, so `b` cannot
    /// overlap, stand on, or contain anything of the piece?
    fn far_from(&self, b: &Base, margin: Ticks) -> bool {
        let (x0, y0, x1, y1) = self.bounds();
        let r = b.radius + margin;
        b.centre.x + r <= x0 || b.centre.x - r >= x1 || b.centre.y + r <= y0 || b.centre.y - r >= y1
    }

    /// The outward direction at the point of the outline nearest `p` (a point outside it):
    /// from the centre for a circle, the edge's outward normal, or from the corner when a
    /// corner is nearest. What a ball bouncing off the piece reflects about.
    pub fn normal_toward(&self, p: Point) -> (i128, i128) {
        match self {
            Outline::Circle { centre, .. } => p.sub(*centre),
            Outline::Polygon { corners } => {
                let c = Outline::ccw(corners);
                let mut best: Option<((i128, i128), (i128, i128))> = None;
                for i in 0..c.len() {
                    let (a, b) = (c[i], c[(i + 1) % c.len()]);
                    let d = segment_distance2(p, a, b);
                    let e = b.sub(a);
                    let t = dot(p.sub(a), e);
                    let n = if t <= 0 {
                        p.sub(a)
                    } else if t >= dot(e, e) {
                        p.sub(b)
                    } else {
                        (e.1, -e.0)
                    };
                    if best.is_none_or(|(bd, _)| d.0 * bd.1 < bd.0 * d.1) {
                        best = Some((d, n));
                    }
                }
                best.map_or((0, 0), |(_, n)| n)
            }
        }
    }

    /// Is it a usable shape: a positive radius, or at least three corners making a convex
    /// polygon with an area?
    pub fn check(&self) -> Result<(), String> {
        match self {
            Outline::Circle { radius, .. } if *radius <= 0 => {
                Err("a circle needs a positive radius".into())
            }
            Outline::Circle { .. } => Ok(()),
            Outline::Polygon { corners } if Self::ccw(corners).len() < 3 => {
                Err("a polygon needs at least three different corners".into())
            }
            Outline::Polygon { corners } => {
                let c = Self::ccw(corners);
                let n = c.len();
                // Convex and simple: every corner on or left of every edge (a star turns left
                // at every corner too, but fails this).
                for i in 0..n {
                    let e = c[(i + 1) % n].sub(c[i]);
                    if c.iter().any(|q| cross(e, q.sub(c[i])) < 0) {
                        return Err("a polygon must be convex (and not cross itself)".into());
                    }
                }
                let mut turned = false;
                for i in 0..n {
                    let turn = cross(c[(i + 1) % n].sub(c[i]), c[(i + 2) % n].sub(c[(i + 1) % n]));
                    if turn < 0 {
                        return Err("a polygon must be convex".into());
                    }
                    turned |= turn > 0;
                }
                if !turned {
                    return Err("a polygon needs an area (its corners are on one line)".into());
                }
                Ok(())
            }
        }
    }

    /// Is `p` inside or on the edge?
    pub fn contains(&self, p: Point) -> bool {
        match self {
            Outline::Circle { centre, radius } => {
                let d = p.sub(*centre);
                dot(d, d) <= (*radius as i128) * (*radius as i128)
            }
            Outline::Polygon { corners } => {
                let c = Self::ccw(corners);
                (0..c.len()).all(|i| cross(c[(i + 1) % c.len()].sub(c[i]), p.sub(c[i])) >= 0)
            }
        }
    }

    /// Does the base overlap the piece (more than touch its edge)?
    pub fn overlaps(&self, b: &Base) -> bool {
        let r = b.radius as i128;
        if self.far_from(b, 0) {
            return false;
        }
        match self {
            Outline::Circle { centre, radius } => b.overlaps(&Base::new(*centre, *radius)),
            Outline::Polygon { corners } => {
                let c = Self::ccw(corners);
                let n = c.len();
                let strictly_inside =
                    (0..n).all(|i| cross(c[(i + 1) % n].sub(c[i]), b.centre.sub(c[i])) > 0);
                strictly_inside
                    || (0..n).any(|i| {
                        let (num, den) = segment_distance2(b.centre, c[i], c[(i + 1) % n]);
                        num < r * r * den
                    })
            }
        }
    }

    /// Does the whole base fit on the piece (standing on top)?
    pub fn holds(&self, b: &Base) -> bool {
        let r = b.radius as i128;
        if self.far_from(b, 0) {
            return false;
        }
        match self {
            Outline::Circle { centre, radius } => {
                let room = (*radius - b.radius) as i128;
                let d = b.centre.sub(*centre);
                room >= 0 && dot(d, d) <= room * room
            }
            Outline::Polygon { corners } => {
                let c = Self::ccw(corners);
                let n = c.len();
                (0..n).all(|i| {
                    let e = c[(i + 1) % n].sub(c[i]);
                    let s = cross(e, b.centre.sub(c[i]));
                    s >= 0 && s * s >= r * r * dot(e, e)
                })
            }
        }
    }

    /// Does the segment from `a` to `b` pass through the piece's interior (more than graze
    /// its edge or a corner)?
    pub fn crossed_by(&self, a: Point, b: Point) -> bool {
        let (x0, y0, x1, y1) = self.bounds();
        if a.x.max(b.x) <= x0 || a.x.min(b.x) >= x1 || a.y.max(b.y) <= y0 || a.y.min(b.y) >= y1 {
            return false;
        }
        match self {
            Outline::Circle { centre, radius } => {
                let (num, den) = segment_distance2(*centre, a, b);
                let r = *radius as i128;
                num < r * r * den
            }
            Outline::Polygon { corners: c } => {
                // The open half-planes inside each edge cut the segment a + t(b - a) to an
                // interval of t; it crosses the interior if some t in (0, 1) is left.
                // Bounds are fractions num/den with den > 0. The corners are read as given:
                // a clockwise polygon's signs are turned (its area's sign), and a repeated
                // corner's empty edge is passed over, so nothing is copied (this is most of
                // line of sight's time).
                let n = c.len();
                let mut area = 0i128;
                for i in 0..n {
                    area += cross(
                        (c[i].x as i128, c[i].y as i128),
                        (c[(i + 1) % n].x as i128, c[(i + 1) % n].y as i128),
                    );
                }
                let sign = if area < 0 { -1 } else { 1 };
                let d = b.sub(a);
                let (mut lo, mut hi) = ((0i128, 1i128), (1i128, 1i128));
                for i in 0..n {
                    let e = c[(i + 1) % n].sub(c[i]);
                    if e == (0, 0) {
                        continue;
                    }
                    // inside: c0 + t*c1 > 0
                    let c0 = sign * cross(e, a.sub(c[i]));
                    let c1 = sign * cross(e, d);
                    if c1 == 0 {
                        if c0 <= 0 {
                            return false;
                        }
                    } else if c1 > 0 {
                        // t > -c0 / c1
                        let f = (-c0, c1);
                        if f.0 * lo.1 > lo.0 * f.1 {
                            lo = f;
                        }
                    } else {
                        // t < c0 / -c1
                        let f = (c0, -c1);
                        if f.0 * hi.1 < hi.0 * f.1 {
                            hi = f;
                        }
                    }
                }
                lo.0 * hi.1 < hi.0 * lo.1
            }
        }
    }
}

/// Where a base may end a move that jumps over terrain (SD ERA: "may not move through
/// terrain, but mobile suits may jump over terrain, and may land on top of terrain").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Landing {
    /// On open ground.
    Ground,
    /// On top of the piece with this index, which holds it and has room.
    OnTop(usize),
    /// Not here: it would overlap this (or stand off the table).
    Blocked(Hit),
}

/// What a sweep ran into first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hit {
    /// A table edge.
    Edge,
    /// The piece with this index.
    Piece(usize),
    /// The base with this index in the list given.
    Base(usize),
}

/// Where a sweep stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sweep {
    /// The last point of the path the base reached without overlapping anything.
    pub stop: Point,
    /// What it touched, if it did not reach the end of its path.
    pub hit: Option<Hit>,
}

/// The table: a rectangle and its terrain.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Table {
    pub width: Ticks,
    pub depth: Ticks,
    pub pieces: Vec<Piece>,
}

/// A contact parameter along a path, as the fraction `num / den` of it (den > 0).
#[derive(Clone, Copy, Debug)]
struct Fraction {
    num: i128,
    den: i128,
}

impl Fraction {
    fn less(self, o: Fraction) -> bool {
        self.num * o.den < o.num * self.den
    }
}

/// The most corners a terrain polygon may have (a table is checked once, but every query
/// walks the corners).
pub const MAX_CORNERS: usize = 64;

/// Which of a game's size bounds a table goes past ([`Table::check_bounds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverBound {
    /// A side longer than the game allows.
    Side,
    /// More pieces than the game allows.
    Pieces,
    /// This piece has more than [`MAX_CORNERS`] corners.
    Corners(usize),
}

/// Of a [`Table::check`] message, the piece it is about and the rest of it
/// (`"pieces[2]: outside the table"` → `(2, "outside the table")`), for a game to name the
/// piece as its data file does.
pub fn piece_of(message: &str) -> Option<(usize, &str)> {
    let (i, rest) = message.strip_prefix("pieces[")?.split_once("]: ")?;
    Some((i.parse().ok()?, rest))
}

impl Table {
    /// Is the table within a game's bounds: each side at most `max_side` ticks, at most
    /// `max_pieces` pieces, each of at most [`MAX_CORNERS`] corners? The bounds keep every
    /// picture of the table (text or SVG) and every search of its pieces small. Each game
    /// says them, and names the one passed over, in its own units.
    pub fn check_bounds(&self, max_side: Ticks, max_pieces: usize) -> Result<(), OverBound> {
        if self.width > max_side || self.depth > max_side {
            return Err(OverBound::Side);
        }
        if self.pieces.len() > max_pieces {
            return Err(OverBound::Pieces);
        }
        match self.pieces.iter().position(
            |p| matches!(&p.outline, Outline::Polygon { corners } if corners.len() > MAX_CORNERS),
        ) {
            Some(i) => Err(OverBound::Corners(i)),
            None => Ok(()),
        }
    }

    /// Is the table usable: positive size within [`MAX_COORD`], every piece a proper shape
    /// inside it?
    pub fn check(&self) -> Result<(), String> {
        if self.width <= 0 || self.depth <= 0 || self.width > MAX_COORD || self.depth > MAX_COORD {
            return Err(format!("the table must be 1 to {MAX_COORD} ticks a side"));
        }
        for (i, p) in self.pieces.iter().enumerate() {
            p.outline.check().map_err(|e| format!("pieces[{i}]: {e}"))?;
            let inside =
                |q: &Point| (0..=self.width).contains(&q.x) && (0..=self.depth).contains(&q.y);
            let ok = match &p.outline {
                Outline::Circle { centre, radius } => inside(centre) && *radius <= MAX_COORD,
                Outline::Polygon { corners } => corners.iter().all(inside),
            };
            if !ok {
                return Err(format!("pieces[{i}]: outside the table"));
            }
            if p.height < 0 {
                return Err(format!("pieces[{i}]: a negative height"));
            }
        }
        Ok(())
    }

    /// Is the whole base on the table?
    pub fn on_table(&self, b: &Base) -> bool {
        let c = b.centre;
        c.x - b.radius >= 0
            && c.x + b.radius <= self.width
            && c.y - b.radius >= 0
            && c.y + b.radius <= self.depth
    }

    /// Can `a` see `b`? No piece that blocks sight, except those in `ignore` (the pieces
    /// the two stand on), has the segment between them pass through its interior.
    pub fn sight(&self, a: Point, b: Point, ignore: &[usize]) -> bool {
        self.pieces
            .iter()
            .enumerate()
            .all(|(i, p)| !p.blocks_sight || ignore.contains(&i) || !p.outline.crossed_by(a, b))
    }

    /// [`Table::sight`] for a caller that keeps each piece's [`Outline::bounds`] (`boxes`,
    /// in the pieces' order): a piece whose box the segment's box misses is passed over
    /// without computing its bounds again (most pieces, for most lines).
    pub fn sight_boxed(
        &self,
        a: Point,
        b: Point,
        ignore: &[usize],
        boxes: &[(Ticks, Ticks, Ticks, Ticks)],
    ) -> bool {
        debug_assert_eq!(boxes.len(), self.pieces.len());
        let (lx, ly, hx, hy) = (a.x.min(b.x), a.y.min(b.y), a.x.max(b.x), a.y.max(b.y));
        self.pieces
            .iter()
            .zip(boxes)
            .enumerate()
            .all(|(i, (p, &(x0, y0, x1, y1)))| {
                !p.blocks_sight
                    || hx <= x0
                    || lx >= x1
                    || hy <= y0
                    || ly >= y1
                    || ignore.contains(&i)
                    || !p.outline.crossed_by(a, b)
            })
    }

    /// The piece whose top holds the whole base, if any (where a unit stands on terrain).
    pub fn piece_holding(&self, b: &Base) -> Option<usize> {
        self.pieces
            .iter()
            .position(|p| p.holds > 0 && p.outline.holds(b))
    }

    /// May `b` end a move here, given the bases `others` already on the table? On open
    /// ground clear of every piece and base; or wholly on top of a piece that holds units and
    /// has room (fewer of `others` wholly on it than it holds), clear of the other pieces
    /// and bases.
    pub fn landing(&self, b: &Base, others: &[Base]) -> Landing {
        self.landing_among(b, others, 0..self.pieces.len())
    }

    /// [`Table::landing`] considering only the pieces `near` (a caller that knows the rest
    /// are too far away to touch `b`, checking many points around one unit).
    pub fn landing_among(
        &self,
        b: &Base,
        others: &[Base],
        near: impl Iterator<Item = usize> + Clone,
    ) -> Landing {
        if !self.on_table(b) {
            return Landing::Blocked(Hit::Edge);
        }
        if let Some(j) = others.iter().position(|o| o.overlaps(b)) {
            return Landing::Blocked(Hit::Base(j));
        }
        let top = near
            .clone()
            .find(|&i| self.pieces[i].holds > 0 && self.pieces[i].outline.holds(b));
        if let Some(i) = near
            .clone()
            .find(|&i| Some(i) != top && self.pieces[i].outline.overlaps(b))
        {
            return Landing::Blocked(Hit::Piece(i));
        }
        match top {
            None => Landing::Ground,
            Some(i) => {
                let on = others
                    .iter()
                    .filter(|o| self.pieces[i].outline.holds(o))
                    .count();
                if on < self.pieces[i].holds as usize {
                    Landing::OnTop(i)
                } else {
                    Landing::Blocked(Hit::Piece(i))
                }
            }
        }
    }

    /// Is the base clear of every piece but those in `ignore`, of every base in `others`,
    /// and on the table?
    pub fn clear(&self, b: &Base, others: &[Base], ignore: &[usize]) -> bool {
        self.on_table(b)
            && self
                .pieces
                .iter()
                .enumerate()
                .all(|(i, p)| ignore.contains(&i) || !p.outline.overlaps(b))
            && others.iter().all(|o| !o.overlaps(b))
    }

    /// Move `mover` in a straight line toward `to` and stop at the first contact: with a
    /// table edge, a piece not in `ignore`, or one of `others`. Things it already overlaps,
    /// or touches and moves away from, do not stop it. The stop is the farthest point of the
    /// path, as drawn on the tick lattice, where the base is clear; `hit` says what stopped
    /// it (none when it reached `to`).
    pub fn sweep(&self, mover: Base, to: Point, others: &[Base], ignore: &[usize]) -> Sweep {
        let s = mover.centre;
        let d = to.sub(s);
        if d == (0, 0) {
            return Sweep { stop: s, hit: None };
        }
        let r = mover.radius as i128;
        let mut best: Option<(Fraction, Hit)> = None;
        let mut consider = |f: Option<Fraction>, hit: Hit| {
            if let Some(f) = f
                && f.num <= f.den
                && best.is_none_or(|(b, _)| f.less(b))
            {
                best = Some((f, hit));
            }
        };
        // Table edges: the base's edge reaches x = 0, x = width, y = 0 or y = depth. A base
        // already over an edge is not stopped by it.
        let edge = |from: i128, low: i128, high: i128, speed: i128| -> Option<Fraction> {
            let gap = match speed.signum() {
                -1 => from - low,
                1 => high - from,
                _ => return None,
            };
            (gap >= 0).then_some(Fraction {
                num: gap,
                den: speed.abs(),
            })
        };
        let (w, h) = (self.width as i128, self.depth as i128);
        consider(edge(s.x as i128, r, w - r, d.0), Hit::Edge);
        consider(edge(s.y as i128, r, h - r, d.1), Hit::Edge);
        for (i, o) in others.iter().enumerate() {
            consider(
                sweep_point(s, d, o.centre, r + o.radius as i128),
                Hit::Base(i),
            );
        }
        // The box the moving base sweeps: a piece outside it cannot stop the move (most
        // terrain is nowhere near a short move; this skips its exact contact).
        let (bx0, bx1) = (s.x.min(to.x) - mover.radius, s.x.max(to.x) + mover.radius);
        let (by0, by1) = (s.y.min(to.y) - mover.radius, s.y.max(to.y) + mover.radius);
        for (i, p) in self.pieces.iter().enumerate() {
            if ignore.contains(&i) {
                continue;
            }
            let (x0, y0, x1, y1) = p.outline.bounds();
            if x1 < bx0 || x0 > bx1 || y1 < by0 || y0 > by1 {
                continue;
            }
            let f = match &p.outline {
                Outline::Circle { centre, radius } => {
                    sweep_point(s, d, *centre, r + *radius as i128)
                }
                Outline::Polygon { corners } => sweep_polygon(s, d, r, &Outline::ccw(corners)),
            };
            consider(f, Hit::Piece(i));
        }
        // Draw the path on the lattice: K steps along the longer axis; step k is at
        // s + d * k / K, the shorter axis rounded either way (the two lattice points nearest
        // the path), the one farther along first.
        let k_max = d.0.abs().max(d.1.abs());
        let at = |k: i128, other: bool| {
            let axis = |c: i128| {
                let q = c * k / k_max;
                let exact = q * k_max == c * k;
                q + if other && !exact { c.signum() } else { 0 }
            };
            Point::new(s.x + axis(d.0) as Ticks, s.y + axis(d.1) as Ticks)
        };
        let (mut k, hit) = match best {
            None => (k_max, None),
            Some((f, hit)) => ((f.num * k_max / f.den).min(k_max), Some(hit)),
        };
        // The rational contact is exact; rounding onto the lattice may leave the last step a
        // hair into the obstacle, so step back until the base is clear (or at the start).
        let clear =
            |p: Point| self.clear_of_new(&Base::new(p, mover.radius), &mover, others, ignore);
        loop {
            if k == 0 {
                return Sweep { stop: s, hit };
            }
            for other in [true, false] {
                if clear(at(k, other)) {
                    return Sweep {
                        stop: at(k, other),
                        hit,
                    };
                }
            }
            k -= 1;
        }
    }

    /// Is `b` (the mover at a new point) clear of everything it was not already overlapping
    /// at its start?
    fn clear_of_new(&self, b: &Base, start: &Base, others: &[Base], ignore: &[usize]) -> bool {
        let edge_ok = self.on_table(b) || !self.on_table(start);
        edge_ok
            && self.pieces.iter().enumerate().all(|(i, p)| {
                ignore.contains(&i) || !p.outline.overlaps(b) || p.outline.overlaps(start)
            })
            && others.iter().all(|o| !o.overlaps(b) || o.overlaps(start))
    }
}

/// The first t in [0, 1] at which a point moving from `s` by `d` comes within `reach` of
/// `c`, rounded down; none if it never does, or starts within reach (already touching or
/// overlapping: it is not stopped by what it is leaving, and what it overlaps it passes).
fn sweep_point(s: Point, d: (i128, i128), c: Point, reach: i128) -> Option<Fraction> {
    let f = s.sub(c);
    let a = dot(d, d);
    let b = 2 * dot(f, d);
    let cc = dot(f, f) - reach * reach;
    if cc < 0 {
        return None; // overlapping at the start
    }
    if cc == 0 {
        // touching: stopped only if moving into it
        return (b < 0).then_some(Fraction { num: 0, den: 1 });
    }
    if b >= 0 {
        return None; // moving away
    }
    let disc = b * b - 4 * a * cc;
    if disc <= 0 {
        return None; // missed, or a tangent graze: touching is not overlapping
    }
    // The contact t = (-b - sqrt(disc)) / 2a is at most 1 exactly when -b - 2a <= sqrt(disc).
    let past = -b - 2 * a;
    if past > 0 && past * past > disc {
        return None;
    }
    // The ceiling of the root makes it a hair early, never late.
    let num = (-b - isqrt_ceil(disc as u128) as i128).max(0);
    Some(Fraction { num, den: 2 * a })
}

/// The first t at which a base of radius `r` moving from `s` by `d` touches the convex
/// polygon `c` (counter-clockwise): its edges as lines at distance r, and its corners.
fn sweep_polygon(s: Point, d: (i128, i128), r: i128, c: &[Point]) -> Option<Fraction> {
    let start = Base::new(s, r as Ticks);
    let poly = Outline::Polygon {
        corners: c.to_vec(),
    };
    if poly.overlaps(&start) {
        return None; // already overlapping: it passes
    }
    let n = c.len();
    let mut best: Option<Fraction> = None;
    let mut consider = |f: Option<Fraction>| {
        if let Some(f) = f
            && best.is_none_or(|b| f.less(b))
        {
            best = Some(f);
        }
    };
    for i in 0..n {
        let (a, b) = (c[i], c[(i + 1) % n]);
        let e = b.sub(a);
        let len2 = dot(e, e);
        // The centre's signed distance to the edge's line, times |e|: c0 + t*c1; outside is
        // negative. Contact when it reaches -r|e| moving inward (c1 > 0).
        let c0 = cross(e, s.sub(a));
        let c1 = cross(e, d);
        // The contact t = (-r|e| - c0) / c1 is at most 1 exactly when -c0 - c1 <= r|e|.
        let past = -c0 - c1;
        if c1 > 0 && c0 < 0 && (past <= 0 || past * past <= r * r * len2) {
            let r_len = isqrt_ceil((r * r * len2) as u128) as i128;
            let num = (-r_len - c0).max(0);
            let f = Fraction { num, den: c1 };
            // Only where the contact point lies along the edge (corners handle the rest):
            // the centre at t projects within the edge.
            let px = s.x as i128 * c1 + d.0 * num;
            let py = s.y as i128 * c1 + d.1 * num;
            let proj = (px - a.x as i128 * c1) * e.0 + (py - a.y as i128 * c1) * e.1;
            if proj >= 0 && proj <= len2 * c1 {
                consider(Some(f));
            }
        }
        consider(sweep_point(s, d, a, r));
    }
    best
}

#[cfg(test)]
mod tests;
