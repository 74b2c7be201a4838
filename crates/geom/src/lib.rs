//! Board geometry: square and hex grids (and, from SD ERA on, the open table).
//!
//! A [`Grid`] is a rectangle of cells, `width` columns by `height` rows, either squares or
//! hexes. Cells are named as players name them on a mat: a column letter and a row number
//! (`c4`). Hexes use "odd-r" offset rows (every second row shifted half a hex right), which
//! is how a rectangular hex mat is printed; internally they are converted to axial
//! coordinates and handed to `hexx` for distances, neighbours and lines.
//!
//! Line of sight on squares is exact and integer-only: a cell blocks the line between two
//! cell centres when the segment passes through its *interior*; grazing a corner does not
//! block (so two diagonal neighbours always see each other). We rejected Bresenham lines
//! for this: Bresenham picks one cell where the segment runs exactly between two, so sight
//! would depend on the direction it is traced in. On hexes the line is sampled once per hex
//! step and rounded to hexes in cube coordinates, twice, nudged a hair to either side: where
//! the line runs exactly along a hexside the two traces take the hexes on its two sides, and
//! sight is blocked only when both are (the usual hex-wargame convention). The floats are
//! plain IEEE arithmetic, no trigonometry, and so the same on every platform.

pub mod hexmap;
pub mod table;
mod topology;

pub use topology::{CellSet, Topology};

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A cell: column and row, both from 0. Written `a1` for column 0, row 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Cell {
    pub col: u8,
    pub row: u8,
}

impl Cell {
    pub const fn new(col: u8, row: u8) -> Cell {
        Cell { col, row }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row as u32 + 1)
    }
}

impl FromStr for Cell {
    type Err = String;
    fn from_str(s: &str) -> Result<Cell, String> {
        let s = s.trim();
        let mut ch = s.chars();
        let c = ch.next().ok_or_else(|| "empty cell name".to_string())?;
        if !c.is_ascii_lowercase() {
            return Err(format!(
                "cell {s:?}: expected a column letter a-z then a row number"
            ));
        }
        let digits = ch.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "cell {s:?}: expected a row number after the column letter"
            ));
        }
        let row: u32 = digits
            .parse()
            .map_err(|_| format!("cell {s:?}: expected a row number after the column letter"))?;
        if row == 0 || row > 99 {
            return Err(format!("cell {s:?}: rows are numbered 1 to 99"));
        }
        Ok(Cell {
            col: c as u8 - b'a',
            row: (row - 1) as u8,
        })
    }
}

impl From<Cell> for String {
    fn from(c: Cell) -> String {
        c.to_string()
    }
}

impl TryFrom<String> for Cell {
    type Error = String;
    fn try_from(s: String) -> Result<Cell, String> {
        s.parse()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum GridKind {
    /// Squares; the eight cells around one are adjacent and a diagonal step costs 1.
    #[default]
    Square,
    /// Hexes in odd-r offset rows; six neighbours.
    Hex,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Grid {
    pub kind: GridKind,
    pub width: u8,
    pub height: u8,
}

impl Grid {
    pub const MAX_SIDE: u8 = 26;

    pub fn contains(&self, c: Cell) -> bool {
        c.col < self.width && c.row < self.height
    }

    /// Every cell, row by row (a fixed order).
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height).flat_map(move |r| (0..self.width).map(move |c| Cell::new(c, r)))
    }

    pub fn index(&self, c: Cell) -> usize {
        c.row as usize * self.width as usize + c.col as usize
    }

    fn axial(c: Cell) -> hexx::Hex {
        let (col, row) = (c.col as i32, c.row as i32);
        hexx::Hex::new(col - (row - (row & 1)) / 2, row)
    }

    fn cell_of_axial(&self, h: hexx::Hex) -> Option<Cell> {
        let row = h.y;
        let col = h.x + (row - (row & 1)) / 2;
        if row < 0 || col < 0 || row >= self.height as i32 || col >= self.width as i32 {
            return None;
        }
        Some(Cell::new(col as u8, row as u8))
    }

    /// Steps between two cells (king moves on squares, hex steps on hexes).
    pub fn distance(&self, a: Cell, b: Cell) -> u32 {
        match self.kind {
            GridKind::Square => {
                let dx = (a.col as i32 - b.col as i32).unsigned_abs();
                let dy = (a.row as i32 - b.row as i32).unsigned_abs();
                dx.max(dy)
            }
            GridKind::Hex => Self::axial(a).unsigned_distance_to(Self::axial(b)),
        }
    }

    /// Adjacent = in contact.
    pub fn adjacent(&self, a: Cell, b: Cell) -> bool {
        self.distance(a, b) == 1
    }

    /// The cells next to `c` on the board, in a fixed order. No allocation.
    pub fn neighbours(&self, c: Cell) -> Neighbours {
        let mut out = Neighbours {
            buf: [Cell::new(0, 0); 8],
            len: 0,
        };
        let mut push = |x: i32, y: i32| {
            if x >= 0 && y >= 0 && x < self.width as i32 && y < self.height as i32 {
                out.buf[out.len as usize] = Cell::new(x as u8, y as u8);
                out.len += 1;
            }
        };
        match self.kind {
            GridKind::Square => {
                for dy in -1i32..=1 {
                    for dx in -1i32..=1 {
                        if dx != 0 || dy != 0 {
                            push(c.col as i32 + dx, c.row as i32 + dy);
                        }
                    }
                }
            }
            GridKind::Hex => {
                for h in Self::axial(c).all_neighbors() {
                    let row = h.y;
                    push(h.x + (row - (row & 1)) / 2, row);
                }
            }
        }
        out
    }

    /// The cells strictly between `a` and `b` that the line between their centres crosses.
    pub fn between(&self, a: Cell, b: Cell) -> Vec<Cell> {
        match self.kind {
            GridKind::Square => square_between(a, b),
            GridKind::Hex => self.hex_between(a, b, 1.0),
        }
    }

    /// The hexes strictly between the centres of `a` and `b`, the line nudged a hair to one
    /// side (`side` = 1.0) or the other (-1.0), so that where it runs exactly along a hexside
    /// it takes the hex on that side (the "epsilon nudge" of hex line drawing). Cube
    /// coordinates, plain IEEE arithmetic (no trigonometry): the same on every platform.
    fn hex_between(&self, a: Cell, b: Cell, side: f64) -> Vec<Cell> {
        let (ha, hb) = (Self::axial(a), Self::axial(b));
        let n = ha.unsigned_distance_to(hb);
        let nudge = |h: hexx::Hex| (h.x as f64 + 1e-6 * side, h.y as f64 + 2e-6 * side);
        let ((ax, az), (bx, bz)) = (nudge(ha), nudge(hb));
        (1..n)
            .filter_map(|i| {
                let t = i as f64 / n as f64;
                let (x, z) = (ax + (bx - ax) * t, az + (bz - az) * t);
                self.cell_of_axial(cube_round(x, -x - z, z))
            })
            .collect()
    }

    /// The cells strictly between `a` and `b` as one trace crosses them: on squares the one
    /// exact trace, on hexes the trace nudged to one side (`side` = 1.0) or the other.
    pub(crate) fn traced(&self, a: Cell, b: Cell, side: f64) -> Vec<Cell> {
        match self.kind {
            GridKind::Square => square_between(a, b),
            GridKind::Hex => self.hex_between(a, b, side),
        }
    }

    /// Is the line from `a` to `b` clear, given which cells block? Stops at the first
    /// blocking cell; no allocation on squares. Symmetric: `a` sees `b` exactly when `b`
    /// sees `a`.
    ///
    /// On hexes a line between centres can run exactly along hexsides, and a rasterised
    /// line then has to pick the hex on one side; traced the other way it picks the other.
    /// We take the usual hex-wargame convention: a line along a hexside is blocked only when
    /// it is blocked on both sides, i.e. the line is clear if it is clear traced either way.
    pub fn clear_line(&self, a: Cell, b: Cell, blocks: impl Fn(Cell) -> bool) -> bool {
        match self.kind {
            GridKind::Square => square_crossed(a, b, |c| !blocks(c)),
            GridKind::Hex => {
                self.hex_between(a, b, 1.0).into_iter().all(|c| !blocks(c))
                    || self.hex_between(a, b, -1.0).into_iter().all(|c| !blocks(c))
            }
        }
    }
}

/// The hex whose centre is nearest a fractional cube position.
fn cube_round(x: f64, y: f64, z: f64) -> hexx::Hex {
    let (mut rx, ry, mut rz) = (x.round(), y.round(), z.round());
    let (dx, dy, dz) = ((rx - x).abs(), (ry - y).abs(), (rz - z).abs());
    // The coordinate rounded furthest is the one to derive from the other two (y is never
    // returned, so it needs no fixing).
    if dx > dy && dx > dz {
        rx = -ry - rz;
    } else if dy <= dz {
        rz = -rx - ry;
    }
    hexx::Hex::new(rx as i32, rz as i32)
}

/// Up to eight neighbouring cells, on the stack.
#[derive(Clone, Copy, Debug)]
pub struct Neighbours {
    buf: [Cell; 8],
    len: u8,
}

impl IntoIterator for Neighbours {
    type Item = Cell;
    type IntoIter = std::iter::Take<std::array::IntoIter<Cell, 8>>;
    fn into_iter(self) -> Self::IntoIter {
        self.buf.into_iter().take(self.len as usize)
    }
}

impl Neighbours {
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn contains(&self, c: &Cell) -> bool {
        self.buf[..self.len as usize].contains(c)
    }
}

/// Squares whose interior the segment between the centres of `a` and `b` passes through.
fn square_between(a: Cell, b: Cell) -> Vec<Cell> {
    let mut out = Vec::new();
    square_crossed(a, b, |c| {
        out.push(c);
        true
    });
    out
}

/// Calls `visit` on each square strictly between `a` and `b` whose interior the segment
/// between their centres crosses, row by row, until `visit` returns false; returns whether
/// every visit returned true. Doubled integer coordinates: the centre of column x is 2x+1,
/// its edges 2x and 2x+2; a square is crossed when its corners lie strictly on both sides
/// of the line (a corner exactly on the line is a graze, not a crossing).
fn square_crossed(a: Cell, b: Cell, mut visit: impl FnMut(Cell) -> bool) -> bool {
    let (px, py) = (2 * a.col as i64 + 1, 2 * a.row as i64 + 1);
    let (qx, qy) = (2 * b.col as i64 + 1, 2 * b.row as i64 + 1);
    let (dx, dy) = (qx - px, qy - py);
    let (col_lo, col_hi) = (a.col.min(b.col) as i64, a.col.max(b.col) as i64);
    for y in a.row.min(b.row)..=a.row.max(b.row) {
        // Only the columns the line can touch within this row's band need the exact test:
        // x at the band's edges (doubled coordinates), widened by one cell for rounding.
        let (lo, hi) = if dy == 0 {
            (col_lo, col_hi)
        } else {
            // Floor division with a positive denominator, integers only.
            let (n, d) = if dy > 0 { (dx, dy) } else { (-dx, -dy) };
            let x_at = |yy: i64| px + (n * (yy - py)).div_euclid(d);
            let (x0, x1) = (x_at(2 * y as i64), x_at(2 * y as i64 + 2));
            let lo = x0.min(x1).div_euclid(2) - 1;
            let hi = x0.max(x1).div_euclid(2) + 1;
            (lo.max(col_lo), hi.min(col_hi))
        };
        for x in lo..=hi {
            let c = Cell::new(x as u8, y);
            if c == a || c == b {
                continue;
            }
            let (x0, y0) = (2 * x, 2 * y as i64);
            let mut pos = false;
            let mut neg = false;
            for (cx, cy) in [(x0, y0), (x0 + 2, y0), (x0, y0 + 2), (x0 + 2, y0 + 2)] {
                let s = dx * (cy - py) - dy * (cx - px);
                pos |= s > 0;
                neg |= s < 0;
            }
            if pos && neg && !visit(c) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Cell {
        s.parse().unwrap()
    }

    #[test]
    fn cell_names_round_trip() {
        assert_eq!(c("a1"), Cell::new(0, 0));
        assert_eq!(c("c4").to_string(), "c4");
        assert!("4c".parse::<Cell>().is_err());
        assert!("a0".parse::<Cell>().is_err());
        assert!("".parse::<Cell>().is_err());
        assert!("a+2".parse::<Cell>().is_err());
        assert!("b".parse::<Cell>().is_err());
    }

    #[test]
    fn square_distance_and_neighbours() {
        let g = Grid {
            kind: GridKind::Square,
            width: 5,
            height: 5,
        };
        assert_eq!(g.distance(c("a1"), c("c2")), 2);
        assert_eq!(g.neighbours(c("a1")).len(), 3);
        assert_eq!(g.neighbours(c("c3")).len(), 8);
        assert!(g.adjacent(c("b2"), c("c3")));
    }

    #[test]
    fn square_line_of_sight() {
        // Straight line: the cells in between.
        assert_eq!(square_between(c("a1"), c("d1")), vec![c("b1"), c("c1")]);
        // Exact diagonal grazes corners only: passes through b2 and c3 interiors.
        assert_eq!(square_between(c("a1"), c("d4")), vec![c("b2"), c("c3")]);
        // Diagonal neighbours always see each other.
        assert!(square_between(c("a1"), c("b2")).is_empty());
        // Symmetric.
        let mut ab = square_between(c("a1"), c("e3"));
        let mut ba = square_between(c("e3"), c("a1"));
        ab.sort();
        ba.sort();
        assert_eq!(ab, ba);
        assert_eq!(ab, vec![c("b1"), c("b2"), c("c2"), c("d2"), c("d3")]);
    }

    /// The banded search finds exactly the cells the plain test of every cell in the box finds.
    #[test]
    fn square_line_matches_brute_force_everywhere() {
        let brute = |a: Cell, b: Cell| {
            let (px, py) = (2 * a.col as i64 + 1, 2 * a.row as i64 + 1);
            let (dx, dy) = (2 * b.col as i64 + 1 - px, 2 * b.row as i64 + 1 - py);
            let mut v = Vec::new();
            for y in a.row.min(b.row)..=a.row.max(b.row) {
                for x in a.col.min(b.col)..=a.col.max(b.col) {
                    let c = Cell::new(x, y);
                    let (x0, y0) = (2 * x as i64, 2 * y as i64);
                    let s: Vec<i64> = [(x0, y0), (x0 + 2, y0), (x0, y0 + 2), (x0 + 2, y0 + 2)]
                        .iter()
                        .map(|(cx, cy)| dx * (cy - py) - dy * (cx - px))
                        .collect();
                    if c != a && c != b && s.iter().any(|&v| v > 0) && s.iter().any(|&v| v < 0) {
                        v.push(c);
                    }
                }
            }
            v
        };
        for a in (0..12).flat_map(|x| (0..9).map(move |y| Cell::new(x, y))) {
            for b in (0..12).flat_map(|x| (0..9).map(move |y| Cell::new(x, y))) {
                assert_eq!(square_between(a, b), brute(a, b), "{a} to {b}");
            }
        }
    }

    /// Sight is symmetric on both grids, whatever blocks (here: a scatter of cells).
    #[test]
    fn line_of_sight_is_symmetric() {
        for kind in [GridKind::Square, GridKind::Hex] {
            let g = Grid {
                kind,
                width: 10,
                height: 7,
            };
            let blocked = |c: Cell| (c.col as u32 * 7 + c.row as u32 * 3).is_multiple_of(5);
            for a in g.cells() {
                for b in g.cells() {
                    assert_eq!(
                        g.clear_line(a, b, blocked),
                        g.clear_line(b, a, blocked),
                        "{kind:?} {a} {b}"
                    );
                }
            }
        }
        // Along a hexside: a1 to b2 runs between a2 and b1. One wall on either side does
        // not block; walls on both sides do.
        let g4 = Grid {
            kind: GridKind::Hex,
            width: 4,
            height: 4,
        };
        let (a1, b2) = (Cell::new(0, 0), Cell::new(1, 1));
        let (a2, b1) = (Cell::new(0, 1), Cell::new(1, 0));
        assert!(g4.clear_line(a1, b2, |c| c == a2));
        assert!(g4.clear_line(a1, b2, |c| c == b1));
        assert!(!g4.clear_line(a1, b2, |c| c == a2 || c == b1));
        // The first review's case: along hexsides from a1 to j7 past a wall at a2.
        let g = Grid {
            kind: GridKind::Hex,
            width: 10,
            height: 7,
        };
        let wall = |c: Cell| c == Cell::new(0, 1);
        assert_eq!(
            g.clear_line(Cell::new(0, 0), Cell::new(9, 6), wall),
            g.clear_line(Cell::new(9, 6), Cell::new(0, 0), wall)
        );
    }

    #[test]
    fn hex_geometry() {
        let g = Grid {
            kind: GridKind::Hex,
            width: 6,
            height: 6,
        };
        assert_eq!(g.neighbours(c("c3")).len(), 6);
        for n in g.neighbours(c("c3")) {
            assert_eq!(g.distance(c("c3"), n), 1);
        }
        // Odd-r: row 2 (index 1) is shifted right, so b2's neighbours include b1 and c1.
        let n = g.neighbours(c("b2"));
        assert!(n.contains(&c("b1")) && n.contains(&c("c1")));
        assert_eq!(g.distance(c("a1"), c("a5")), 4);
        assert_eq!(g.between(c("a1"), c("d1")), vec![c("b1"), c("c1")]);
    }
}
