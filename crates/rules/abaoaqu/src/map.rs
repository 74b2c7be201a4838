//! ABQ-1: the map boards. Each board is 17 columns by 21 rows of flat-topped hexes with the
//! fortress along its bottom two rows (rulings.md: the boards were not found, so this is
//! ours); the half hexes on the top edge are whole hexes (`geom::hexmap`). The layouts:
//! "1234", the four boards side by side (68 × 21, the fortress the bottom two rows), and
//! "41/32", boards 4 and 1 above 3 and 2, turned so that the fortress edges meet in the
//! middle (34 × 42, the fortress rows 20 to 23). Hexes are named `CCRR` across the whole
//! layout.

use crate::data::Edge;
use battlemat_core::SetupError;
use battlemat_geom::hexmap::{HexId, HexMap};

pub const BOARD_COLS: u8 = 17;
pub const BOARD_ROWS: u8 = 21;

/// A layout of boards: the hex map, the fortress rows, and where each board lies.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub map: HexMap,
    /// The fortress rows, from and to (1-based, inclusive).
    pub fortress: (u8, u8),
    /// Each board's number and its top-left hex's column and row (for the picture).
    pub boards: Vec<(u8, u8, u8)>,
}

impl Layout {
    pub fn named(name: &str) -> Result<Layout, SetupError> {
        let (cols, rows, fortress, boards) = match name {
            "1234" => (
                4 * BOARD_COLS,
                BOARD_ROWS,
                (BOARD_ROWS - 1, BOARD_ROWS),
                vec![
                    (1, 1, 1),
                    (2, 1 + BOARD_COLS, 1),
                    (3, 1 + 2 * BOARD_COLS, 1),
                    (4, 1 + 3 * BOARD_COLS, 1),
                ],
            ),
            "41/32" => (
                2 * BOARD_COLS,
                2 * BOARD_ROWS,
                (BOARD_ROWS - 1, BOARD_ROWS + 2),
                vec![
                    (4, 1, 1),
                    (1, 1 + BOARD_COLS, 1),
                    (3, 1, 1 + BOARD_ROWS),
                    (2, 1 + BOARD_COLS, 1 + BOARD_ROWS),
                ],
            ),
            other => {
                return Err(SetupError::new(
                    "scenario.layout",
                    format!("{other:?}: the layouts are \"1234\" and \"41/32\""),
                ));
            }
        };
        let map = HexMap::new(cols, rows).map_err(|e| SetupError::new("scenario.layout", e))?;
        Ok(Layout {
            map,
            fortress,
            boards,
        })
    }

    pub fn row(&self, h: HexId) -> u8 {
        self.map.col_row(h).1
    }

    /// Is the hex part of the fortress (A-Bao-A-Qu, Solomon, Luna Two, the Side 4 colony)?
    pub fn on_fortress(&self, h: HexId) -> bool {
        let r = self.row(h);
        r >= self.fortress.0 && r <= self.fortress.1
    }

    /// Rows from the fortress (0 on it).
    pub fn rows_from_fortress(&self, h: HexId) -> u8 {
        let r = self.row(h);
        if r < self.fortress.0 {
            self.fortress.0 - r
        } else {
            r.saturating_sub(self.fortress.1)
        }
    }

    /// How many hexes in from an edge (1 on the edge's own row or column).
    pub fn depth_from(&self, edge: &Edge, h: HexId) -> u8 {
        let (c, r) = self.map.col_row(h);
        match edge {
            Edge::Top => r,
            Edge::Bottom => self.map.rows - r + 1,
            Edge::Left => c,
            Edge::Right => self.map.cols - c + 1,
        }
    }
}
