//! A grid's neighbours and lines of sight, worked out once per grid shape and shared.
//!
//! Legal-action generation asks "who are this cell's neighbours?" for every step of every
//! unit's move and "is the line from here to there clear?" for every pair of units, at every
//! decision of every simulated game. Both depend only on the grid's shape, so a
//! [`Topology`] answers them from tables: neighbours as cell indices, and for each pair of
//! cells the set of cells strictly between them as a bitset ([`CellSet`]), so that a line
//! is clear when that set and the set of blocking cells do not meet — a few word ANDs
//! instead of a trace. Tables are built on first use of a grid shape in a process and
//! shared (`Arc`) by every game on it.
//!
//! Sight tables are kept for grids of up to [`Topology::MAX_TABLE_CELLS`] cells (a larger
//! table would cost more memory and building time than it saves), and for at most
//! [`Topology::MAX_SHAPES`] grid shapes at once; on larger grids [`Topology::clear`] traces
//! the line ([`Grid::clear_line`]) and moves are searched cell by cell. Either way the answer is the trace's answer: the
//! tables are made by tracing, and a test checks them pair by pair.
//!
//! Rejected: caching traced lines per game as they are asked (a memo keyed by the pair).
//! It works for any grid size, but every new game starts cold and every lookup hashes.

use crate::{Cell, Grid, GridKind};
use std::sync::{Arc, Mutex};

/// A set of cells of a grid of at most [`Topology::MAX_TABLE_CELLS`] cells, by index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet([u64; 2]);

impl CellSet {
    pub const fn empty() -> CellSet {
        CellSet([0; 2])
    }
    pub fn insert(&mut self, i: usize) {
        if let Some(w) = self.0.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }
    pub fn contains(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    pub fn meets(&self, other: &CellSet) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 2]
    }
    pub fn and(&self, o: &CellSet) -> CellSet {
        CellSet(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }
    pub fn or(&self, o: &CellSet) -> CellSet {
        CellSet(std::array::from_fn(|k| self.0[k] | o.0[k]))
    }
    pub fn without(&self, o: &CellSet) -> CellSet {
        CellSet(std::array::from_fn(|k| self.0[k] & !o.0[k]))
    }
    /// Every index moved up by `k` (< 64) (bits past the end are lost).
    fn up(&self, k: u32) -> CellSet {
        if k == 0 {
            return *self;
        }
        let w = &self.0;
        CellSet([w[0] << k, (w[1] << k) | (w[0] >> (64 - k))])
    }
    /// Every index moved down by `k` (< 64).
    fn down(&self, k: u32) -> CellSet {
        if k == 0 {
            return *self;
        }
        let w = &self.0;
        CellSet([(w[0] >> k) | (w[1] << (64 - k)), w[1] >> k])
    }
    /// The indices in the set, in increasing order (board order).
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &word)| {
            let mut w = word;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(k * 64 + b)
            })
        })
    }
}

/// Neighbours and sight lines of one grid shape.
#[derive(Debug)]
pub struct Topology {
    pub grid: Grid,
    /// Each cell by index.
    cells: Vec<Cell>,
    /// Each cell's neighbours, as indices, in [`Grid::neighbours`] order.
    neighbours: Vec<([u16; 8], u8)>,
    /// For each pair (a, b), `a * cells + b`: the cells strictly between them, once per
    /// trace (one on squares, two nudged traces on hexes). Empty above the size limit.
    between: Vec<CellSet>,
    traces: usize,
    /// Masks for moving sets a column or a row (grids with tables only).
    masks: Masks,
}

#[derive(Debug, Default)]
struct Masks {
    board: CellSet,
    /// Every cell but the first column, and but the last.
    not_first_col: CellSet,
    not_last_col: CellSet,
    /// Rows 0, 2, 4… (hex rows not shifted) and 1, 3, 5….
    even_rows: CellSet,
    odd_rows: CellSet,
}

/// A topology is a function of its grid: equal grids, equal topologies.
impl PartialEq for Topology {
    fn eq(&self, other: &Topology) -> bool {
        self.grid == other.grid
    }
}
impl Eq for Topology {}

static CACHE: Mutex<Vec<Arc<Topology>>> = Mutex::new(Vec::new());

impl Topology {
    /// Grids of at most this many cells keep sight tables (up to 11 × 11, 16 × 8…): two
    /// words a set, so that the tables stay in cache; building one takes a few milliseconds
    /// and at most half a megabyte on hexes.
    pub const MAX_TABLE_CELLS: usize = 128;

    /// At most this many grid shapes are kept; the oldest is dropped for a new one (games
    /// on it keep their `Arc`).
    pub const MAX_SHAPES: usize = 32;

    /// The shared topology of `grid`'s shape.
    pub fn of(grid: Grid) -> Arc<Topology> {
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = cache.iter().find(|t| t.grid == grid) {
            return t.clone();
        }
        let t = Arc::new(Topology::build(grid));
        if cache.len() >= Self::MAX_SHAPES {
            cache.remove(0);
        }
        cache.push(t.clone());
        t
    }

    fn build(grid: Grid) -> Topology {
        let n = grid.width as usize * grid.height as usize;
        let neighbours = grid
            .cells()
            .map(|c| {
                let mut buf = [0u16; 8];
                let mut len = 0;
                for m in grid.neighbours(c) {
                    buf[len] = grid.index(m) as u16;
                    len += 1;
                }
                (buf, len as u8)
            })
            .collect();
        let traces = match grid.kind {
            GridKind::Square => 1,
            GridKind::Hex => 2,
        };
        let mut between = Vec::new();
        if n <= Self::MAX_TABLE_CELLS {
            between = vec![CellSet::default(); n * n * traces];
            let cells: Vec<Cell> = grid.cells().collect();
            for (ia, &a) in cells.iter().enumerate() {
                for (ib, &b) in cells.iter().enumerate() {
                    for (k, side) in [1.0, -1.0].into_iter().take(traces).enumerate() {
                        let set = &mut between[(ia * n + ib) * traces + k];
                        for c in grid.traced(a, b, side) {
                            set.insert(grid.index(c));
                        }
                    }
                }
            }
        }
        let mut masks = Masks::default();
        if n <= Self::MAX_TABLE_CELLS {
            for c in grid.cells() {
                let i = grid.index(c);
                masks.board.insert(i);
                if c.col > 0 {
                    masks.not_first_col.insert(i);
                }
                if c.col + 1 < grid.width {
                    masks.not_last_col.insert(i);
                }
                if c.row % 2 == 0 {
                    masks.even_rows.insert(i);
                } else {
                    masks.odd_rows.insert(i);
                }
            }
        }
        Topology {
            grid,
            cells: grid.cells().collect(),
            neighbours,
            between,
            traces,
            masks,
        }
    }

    /// The set and every neighbour of its cells (grids with tables only).
    fn dilate(&self, f: &CellSet) -> CellSet {
        let m = &self.masks;
        let w = self.grid.width as u32;
        // Along the row: east is index + 1, west index - 1, not across a row's end.
        let east = f.and(&m.not_last_col).up(1);
        let west = f.and(&m.not_first_col).down(1);
        let row = f.or(&east).or(&west);
        // The cells above and below come from `vertical`, moved a row up and down.
        let vertical = match self.grid.kind {
            GridKind::Square => row,
            // Odd-r hexes: from an even row, the hexes above and below are the same column
            // and the one west; from an odd row, the same column and the one east.
            GridKind::Hex => {
                let even = f.and(&m.even_rows);
                let odd = f.and(&m.odd_rows);
                let even = even.or(&even.and(&m.not_first_col).down(1));
                let odd = odd.or(&odd.and(&m.not_last_col).up(1));
                even.or(&odd)
            }
        };
        row.or(&vertical.up(w)).or(&vertical.down(w)).and(&m.board)
    }

    /// Every cell within `steps` steps of `start` through `passable` cells (the start
    /// itself included whatever it holds), as a breadth-first search would find them.
    /// `None` when the grid has no tables (use [`Topology::neighbours`]).
    pub fn within(&self, start: usize, steps: u32, passable: &CellSet) -> Option<CellSet> {
        if !self.has_sight_table() || self.grid.width as u32 >= 64 {
            return None;
        }
        let mut reached = CellSet::default();
        reached.insert(start);
        let mut frontier = reached;
        for _ in 0..steps {
            let next = self.dilate(&frontier).and(passable).without(&reached);
            if next.is_empty() {
                break;
            }
            reached = reached.or(&next);
            frontier = next;
        }
        Some(reached)
    }

    /// The cell with index `i`.
    pub fn cell(&self, i: usize) -> Cell {
        self.cells[i]
    }

    /// The neighbours of the cell with index `i`, as indices.
    pub fn neighbours(&self, i: usize) -> &[u16] {
        let (buf, len) = &self.neighbours[i];
        &buf[..*len as usize]
    }

    /// Does this grid keep sight tables (so that [`Topology::clear_in`] may be used)?
    pub fn has_sight_table(&self) -> bool {
        !self.between.is_empty()
    }

    /// Is the line from `a` to `b` clear of the cells in `blocking`? Requires a sight table.
    pub fn clear_in(&self, a: Cell, b: Cell, blocking: &CellSet) -> bool {
        let n = self.neighbours.len();
        let base = (self.grid.index(a) * n + self.grid.index(b)) * self.traces;
        self.between[base..base + self.traces]
            .iter()
            .any(|between| !between.meets(blocking))
    }

    /// Is the line from `a` to `b` clear? From the table when there is one (`blocking`
    /// holds the blocking cells), else traced with `blocks`.
    pub fn clear(
        &self,
        a: Cell,
        b: Cell,
        blocking: &CellSet,
        blocks: impl Fn(Cell) -> bool,
    ) -> bool {
        if self.has_sight_table() {
            self.clear_in(a, b, blocking)
        } else {
            self.grid.clear_line(a, b, blocks)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `within` finds what a breadth-first search finds, on squares and hexes, through
    /// scattered obstacles, for every start and several move lengths.
    #[test]
    fn within_is_a_breadth_first_search() {
        for kind in [GridKind::Square, GridKind::Hex] {
            for (w, h) in [(10, 8), (9, 9), (11, 11), (16, 8), (5, 13)] {
                let grid = Grid {
                    kind,
                    width: w,
                    height: h,
                };
                let t = Topology::of(grid);
                for pattern in 0..3usize {
                    let open = |i: usize| !(i * 7 + pattern * 3).is_multiple_of(4);
                    let mut passable = CellSet::default();
                    (0..grid.width as usize * grid.height as usize)
                        .filter(|&i| open(i))
                        .for_each(|i| passable.insert(i));
                    for start in 0..grid.width as usize * grid.height as usize {
                        for steps in [0, 1, 2, 5] {
                            let mut dist = vec![u32::MAX; w as usize * h as usize];
                            dist[start] = 0;
                            let mut queue = std::collections::VecDeque::from([start]);
                            while let Some(i) = queue.pop_front() {
                                if dist[i] >= steps {
                                    continue;
                                }
                                for &m in t.neighbours(i) {
                                    let m = m as usize;
                                    if dist[m] == u32::MAX && open(m) {
                                        dist[m] = dist[i] + 1;
                                        queue.push_back(m);
                                    }
                                }
                            }
                            let bfs: Vec<usize> =
                                (0..dist.len()).filter(|&i| dist[i] != u32::MAX).collect();
                            let got: Vec<usize> =
                                t.within(start, steps, &passable).unwrap().iter().collect();
                            assert_eq!(got, bfs, "{kind:?} {w}x{h} from {start}, {steps} steps");
                        }
                    }
                }
            }
        }
    }

    /// The tables give the traced answer for every pair of cells, on squares and hexes,
    /// with blocking cells scattered by a fixed pattern.
    #[test]
    fn tables_agree_with_traced_lines() {
        for kind in [GridKind::Square, GridKind::Hex] {
            for (w, h) in [(10, 8), (7, 9), (11, 11), (16, 8)] {
                let grid = Grid {
                    kind,
                    width: w,
                    height: h,
                };
                let t = Topology::of(grid);
                assert!(t.has_sight_table());
                for pattern in 0..4u64 {
                    let blocked = |c: Cell| {
                        (c.col as u64 * 7 + c.row as u64 * 13 + pattern * 5).is_multiple_of(5)
                    };
                    let mut set = CellSet::default();
                    for c in grid.cells().filter(|c| blocked(*c)) {
                        set.insert(grid.index(c));
                    }
                    for a in grid.cells() {
                        for b in grid.cells() {
                            assert_eq!(
                                t.clear_in(a, b, &set),
                                grid.clear_line(a, b, blocked),
                                "{kind:?} {w}x{h} {a}-{b} pattern {pattern}"
                            );
                        }
                    }
                }
                for c in grid.cells() {
                    let listed: Vec<usize> = grid
                        .neighbours(c)
                        .into_iter()
                        .map(|m| grid.index(m))
                        .collect();
                    let table: Vec<usize> = t
                        .neighbours(grid.index(c))
                        .iter()
                        .map(|&m| m as usize)
                        .collect();
                    assert_eq!(listed, table);
                }
            }
        }
        let big = Grid {
            kind: GridKind::Square,
            width: 26,
            height: 20,
        };
        assert!(
            !Topology::of(big).has_sight_table(),
            "no table past the limit"
        );
        assert!(
            Arc::ptr_eq(&Topology::of(big), &Topology::of(big)),
            "shared"
        );
    }
}
