//! Wargame hex maps: large boards of flat-topped hexes named the way printed wargames name
//! them, four digits of column and row (`0712`: column 7, row 12), from `0101` at the top
//! left.
//!
//! A [`HexMap`] is `cols` × `rows` flat-topped hexes with odd columns shoved down half a hex
//! (hexx's "odd" offset mode for flat hexes), which is how a rectangular wargame map is
//! printed: the even columns' top hexes are the half hexes along the top edge, and they are
//! whole cells here. Cells are numbered `row * cols + col` ([`HexId`], a `u16`), so a map of
//! up to 99 × 99 hexes fits, and a game keeps per-hex tables as plain vectors. Distances and
//! neighbours are hexx's, on axial coordinates converted once when the map is made.
//!
//! Rejected: extending [`crate::Grid`] (cells named `c4`) to large maps. Its names stop at 26
//! columns, its odd-r rows are the pointy-topped convention, and its sight tables are sized
//! for skirmish mats; a hex-and-counter game needs neither sight nor letters, but does need
//! the numbers printed on its map.
/// A hex of a [`HexMap`]: `row * cols + col`, both from 0.
pub type HexId = u16;

/// A map of `cols` × `rows` flat-topped hexes, odd columns (counting from 1, as printed)
/// shoved down.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HexMap {
    pub cols: u8,
    pub rows: u8,
    axial: Vec<(i32, i32)>,
}

impl HexMap {
    /// A map of `cols` × `rows` hexes (1 to 99 each).
    pub fn new(cols: u8, rows: u8) -> Result<HexMap, String> {
        if !(1..=99).contains(&cols) || !(1..=99).contains(&rows) {
            return Err(format!(
                "a map of {cols} x {rows} hexes: 1 to 99 columns and rows"
            ));
        }
        let mut axial = Vec::with_capacity(cols as usize * rows as usize);
        for row in 0..rows as i32 {
            for col in 0..cols as i32 {
                // Printed column 1 is our column 0: printed odd columns are our even ones,
                // shoved down (hexx's Even mode over 0-based columns).
                let h = hexx::Hex::from_offset_coordinates(
                    [col, row],
                    hexx::OffsetHexMode::Even,
                    hexx::HexOrientation::Flat,
                );
                axial.push((h.x, h.y));
            }
        }
        Ok(HexMap { cols, rows, axial })
    }

    pub fn len(&self) -> usize {
        self.cols as usize * self.rows as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The hex at column `col` and row `row`, both from 1 as printed.
    pub fn at(&self, col: u8, row: u8) -> Option<HexId> {
        (col >= 1 && row >= 1 && col <= self.cols && row <= self.rows)
            .then(|| (row as u16 - 1) * self.cols as u16 + (col as u16 - 1))
    }

    /// Column and row, from 1 as printed.
    pub fn col_row(&self, h: HexId) -> (u8, u8) {
        let c = self.cols as u16;
        ((h % c) as u8 + 1, (h / c) as u8 + 1)
    }

    /// The printed number, `CCRR`.
    pub fn name(&self, h: HexId) -> String {
        let (c, r) = self.col_row(h);
        format!("{c:02}{r:02}")
    }

    /// A hex from its printed number (`0712`), checked to be on the map.
    pub fn parse(&self, s: &str) -> Result<HexId, String> {
        let (col, row) = parse_number(s)?;
        let s = s.trim();
        self.at(col, row).ok_or_else(|| {
            format!(
                "hex {s} is off the map (columns 01 to {:02}, rows 01 to {:02})",
                self.cols, self.rows
            )
        })
    }

    fn hex(&self, h: HexId) -> hexx::Hex {
        let (x, y) = self.axial[h as usize];
        hexx::Hex::new(x, y)
    }

    /// Hexes between the two, counting the last one (neighbours are 1 apart).
    pub fn distance(&self, a: HexId, b: HexId) -> u32 {
        self.hex(a).unsigned_distance_to(self.hex(b))
    }

    /// The neighbours on the map, in hexx's direction order.
    pub fn neighbours(&self, h: HexId) -> impl Iterator<Item = HexId> + '_ {
        let c = self.hex(h);
        c.all_neighbors().into_iter().filter_map(move |n| {
            let [col, row] =
                n.to_offset_coordinates(hexx::OffsetHexMode::Even, hexx::HexOrientation::Flat);
            (col >= 0 && row >= 0 && col < self.cols as i32 && row < self.rows as i32)
                .then(|| (row as u16) * self.cols as u16 + col as u16)
        })
    }

    /// Every hex within `range` of `h` (itself included), in map order, by scanning only
    /// the rows and columns that can hold one.
    pub fn within(&self, h: HexId, range: u32, out: &mut Vec<HexId>) {
        let (c, r) = self.col_row(h);
        let r0 = (r as i32 - range as i32).max(1);
        let r1 = (r as i32 + range as i32).min(self.rows as i32);
        let c0 = (c as i32 - range as i32).max(1);
        let c1 = (c as i32 + range as i32).min(self.cols as i32);
        let centre = self.hex(h);
        for row in r0..=r1 {
            for col in c0..=c1 {
                let id = (row as u16 - 1) * self.cols as u16 + (col as u16 - 1);
                if self.hex(id).unsigned_distance_to(centre) <= range {
                    out.push(id);
                }
            }
        }
    }

    /// The centre of a hex in a drawing where hexes are `size` across corner to corner
    /// (flat-topped): for pictures.
    pub fn centre(&self, h: HexId, size: f64) -> (f64, f64) {
        let (c, r) = self.col_row(h);
        let w = size * 0.75;
        let ht = size * 0.866_025_403_784_438_6;
        let x = size / 2.0 + (c as f64 - 1.0) * w;
        let shove = if c % 2 == 1 { ht / 2.0 } else { 0.0 };
        let y = ht / 2.0 + (r as f64 - 1.0) * ht + shove;
        (x, y)
    }
}

/// A printed hex number, `CCRR` (four digits, column then row, each from 01), as (column,
/// row); on no map in particular.
pub fn parse_number(s: &str) -> Result<(u8, u8), String> {
    let s = s.trim();
    if s.len() != 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{s:?} is not a hex number: four digits, column then row (0712)"
        ));
    }
    let col: u8 = s[..2].parse().map_err(|_| format!("{s:?}: bad column"))?;
    let row: u8 = s[2..].parse().map_err(|_| format!("{s:?}: bad row"))?;
    if col == 0 || row == 0 {
        return Err(format!("{s:?}: columns and rows count from 01"));
    }
    Ok((col, row))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_stay_on_the_map() {
        let m = HexMap::new(68, 21).unwrap();
        let h = m.parse("0712").unwrap();
        assert_eq!(m.col_row(h), (7, 12));
        assert_eq!(m.name(h), "0712");
        assert!(m.parse("6921").is_err());
        assert!(m.parse("0022").is_err());
        assert!(m.parse("712").is_err());
    }

    #[test]
    fn distances_follow_the_printed_stagger() {
        let m = HexMap::new(34, 42).unwrap();
        let d = |a: &str, b: &str| m.distance(m.parse(a).unwrap(), m.parse(b).unwrap());
        // Column 1 is shoved down: 0101's neighbours in column 2 are 0201 and 0202.
        assert_eq!(d("0101", "0201"), 1);
        assert_eq!(d("0101", "0202"), 1);
        assert_eq!(d("0101", "0203"), 2);
        // Column 2 is not: 0202's neighbours in column 3 are 0301 and 0302.
        assert_eq!(d("0202", "0301"), 1);
        assert_eq!(d("0202", "0302"), 1);
        assert_eq!(d("0202", "0303"), 2);
        assert_eq!(d("0101", "0110"), 9);
        assert_eq!(d("0505", "0905"), 4);
        for h in 0..m.len() as u16 {
            assert!(m.neighbours(h).all(|n| m.distance(h, n) == 1));
            let mut near = Vec::new();
            m.within(h, 3, &mut near);
            let brute = (0..m.len() as u16)
                .filter(|&o| m.distance(h, o) <= 3)
                .count();
            assert_eq!(near.len(), brute);
        }
        assert_eq!(m.neighbours(m.parse("1010").unwrap()).count(), 6);
        assert_eq!(m.neighbours(m.parse("0101").unwrap()).count(), 3);
    }
}
