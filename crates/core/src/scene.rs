//! The table as one viewer sees it, in one shape for every game: [`Scene`].
//!
//! # Design
//!
//! A scene is *drawable data*, not a drawing. Each game says what is on its table in its own
//! words — the grid or the open table, terrain, pieces with the stats printed on their
//! counters, the markers its missions use, the last turn's traces — and where each thing
//! is, in *world coordinates*: x to the right and y up, measured in the table's unit (a
//! cell of a grid, a stick, an inch), so a point a player types (`3.25,1.5`) is the point
//! in the scene. Everything downstream — the SVG renderer, the browser, a bot — reads the
//! same value and needs no rule of any game: the seat to act also gets each legal action's
//! *anchors* ([`SceneAction`]): the piece it is for, its target (a piece, a cell or a point)
//! and, for a free parameter, the region a click may fall in and the text to fill in, in
//! the manner of chessground being handed its legal destinations.
//!
//! Looks are a small vocabulary of generic words ([`PieceShape`], [`MarkerLook`], the
//! terrain's own properties), never a game's name, so one renderer draws every game and a
//! new game adds no drawing code.
//!
//! Positions are `f64` here, and only here among the game-facing types: a scene is output,
//! made from the integer state by one fixed computation (the same state always gives the
//! same bytes), and never read back into a game.
//!
//! # Rejected alternative
//!
//! Each game drawing its own SVG (what Battlemat did first) is quicker for one game but
//! gives five pictures with five escapings, no element ids and no declared mapping from a
//! pixel to the table, so nothing can be clicked, and a browser would have to learn each
//! game's JSON to draw it. A scene costs each game one function that lists what it has.

use serde::{Deserialize, Serialize};

/// A point in world coordinates (x right, y up, in the table's unit).
pub type Xy = [f64; 2];

/// Round a world coordinate to 1/10,000 of the unit: short, stable JSON.
pub fn round(v: f64) -> f64 {
    (v * 10_000.0).round() / 10_000.0
}

/// Everything on the table for one viewer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    /// The scenario or mission's name.
    pub title: String,
    /// The round, phase, score and whose turn it is, in words, a line each.
    pub status: Vec<String>,
    pub table: Table,
    /// The sides (index = side number), with the seats that play them.
    pub sides: Vec<SceneSide>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<TerrainPiece>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<Marker>,
    pub pieces: Vec<Piece>,
    /// What the last turn did: moves, shots, knockbacks, blasts, with their dice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traces: Vec<Trace>,
    /// For the seat to act, when it is this viewer: each legal action with its anchors, in
    /// the order `legal` lists them. Empty for everyone else.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<SceneAction>,
    /// Notes for the key that the generic looks do not say ("bar: main body left").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key: Vec<String>,
}

/// The table: a grid of named cells or an open table, and its extent in world units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub kind: TableKind,
    /// The unit a world coordinate is measured in: `"cell"`, `"hex"`, `"stick"`, `"inch"`.
    pub unit: String,
    /// The playing area, from `[0, 0]` to `[width, height]`.
    pub width: f64,
    pub height: f64,
    /// What is drawn, which may be more than the playing area (a strip beside it for the
    /// units waiting off the table): `[min_x, min_y, max_x, max_y]`.
    pub bounds: [f64; 4],
    /// The surface's look: `"mat"` (a tabletop), `"space"`.
    pub surface: String,
    /// Grids: every cell, named as the game prints it, with its centre.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<SceneCell>,
    /// Grids: the cell's size — a square's side, a hex's centre-to-corner radius.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell_size: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableKind {
    /// Squares, axis-aligned.
    Square,
    /// Hexes with a corner up (rows of hexes, odd rows shifted).
    HexPointy,
    /// Hexes with a flat side up (columns of hexes, as wargame maps are numbered).
    HexFlat,
    /// An open table measured with sticks or a tape.
    Open,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneCell {
    pub name: String,
    pub x: f64,
    pub y: f64,
}

/// A pointy-top hex's centre-to-corner radius when rows are a unit apart side to side.
pub const HEX_ROW_RADIUS: f64 = 0.577_350_269_189_625_8;

impl Table {
    /// A grid of `width` × `height` squares, a unit each; column 0 on the left, row 0 at
    /// the bottom, each named by `name(col, row)`.
    pub fn squares(width: u32, height: u32, name: impl Fn(u32, u32) -> String) -> Table {
        Table::grid(TableKind::Square, width, height, name)
    }

    /// Rows of pointy-top hexes, odd rows shifted half a hex right (row 0 at the bottom).
    pub fn hex_rows(width: u32, height: u32, name: impl Fn(u32, u32) -> String) -> Table {
        Table::grid(TableKind::HexPointy, width, height, name)
    }

    fn grid(kind: TableKind, width: u32, height: u32, name: impl Fn(u32, u32) -> String) -> Table {
        let mut cells = Vec::with_capacity((width * height) as usize);
        for row in 0..height {
            for col in 0..width {
                let [x, y] = Table::centre_of(kind, col, row);
                cells.push(SceneCell {
                    name: name(col, row),
                    x,
                    y,
                });
            }
        }
        let (w, h, size) = match kind {
            TableKind::HexPointy => (
                f64::from(width) + 0.5,
                2.0 * HEX_ROW_RADIUS + f64::from(height.max(1) - 1) * 0.866_025_403_784_438_6,
                HEX_ROW_RADIUS,
            ),
            _ => (f64::from(width), f64::from(height), 1.0),
        };
        Table {
            kind,
            unit: "cell".into(),
            width: round(w),
            height: round(h),
            bounds: [0.0, 0.0, round(w), round(h)],
            surface: "mat".into(),
            cells,
            cell_size: Some(round(size)),
        }
    }

    /// The centre of cell (`col`, `row`) of a grid made by [`Table::squares`] or
    /// [`Table::hex_rows`].
    pub fn centre_of(kind: TableKind, col: u32, row: u32) -> Xy {
        match kind {
            TableKind::HexPointy => {
                let shift = if row % 2 == 1 { 0.5 } else { 0.0 };
                [
                    round(f64::from(col) + 0.5 + shift),
                    round(HEX_ROW_RADIUS + f64::from(row) * 0.866_025_403_784_438_6),
                ]
            }
            _ => [f64::from(col) + 0.5, f64::from(row) + 0.5],
        }
    }

    /// Widen what is drawn to take in `[x0, y0, x1, y1]` (a strip beside the table).
    pub fn include(&mut self, b: [f64; 4]) {
        self.bounds = [
            self.bounds[0].min(round(b[0])),
            self.bounds[1].min(round(b[1])),
            self.bounds[2].max(round(b[2])),
            self.bounds[3].max(round(b[3])),
        ];
    }

    /// An open table of `width` × `height` units.
    pub fn open(unit: &str, width: f64, height: f64, surface: &str) -> Table {
        Table {
            kind: TableKind::Open,
            unit: unit.to_string(),
            width: round(width),
            height: round(height),
            bounds: [0.0, 0.0, round(width), round(height)],
            surface: surface.to_string(),
            cells: Vec::new(),
            cell_size: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneSide {
    pub name: String,
    pub seats: Vec<u8>,
    /// A line about the side in the game's words ("16 points left", "3 tokens").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// Is one of its seats the one to act?
    #[serde(default)]
    pub to_act: bool,
}

/// Where a thing lies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Shape {
    /// Cells of the grid, by name.
    Cells {
        cells: Vec<String>,
    },
    Circle {
        x: f64,
        y: f64,
        r: f64,
    },
    /// A closed polygon, corners in order.
    Polygon {
        points: Vec<Xy>,
    },
    /// An open line (a goal line, a zone boundary).
    Line {
        points: Vec<Xy>,
    },
}

/// A piece of terrain, in the game's words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TerrainPiece {
    pub id: String,
    /// What it is in the game's words: `"wall"`, `"hill"`, `"fortified"`, `"building"`.
    pub kind: String,
    /// Its name in the scenario (`"the ruined tower"`), or the kind again.
    pub name: String,
    #[serde(flatten)]
    pub shape: Shape,
    /// Height in the table's unit, where the game has heights.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    pub blocks_sight: bool,
    /// Can units stand on it (a hill), and how many (0 when the game sets no number)?
    pub stand_on: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holds: Option<u32>,
    /// Does it give cover (fortified cells)?
    #[serde(default)]
    pub cover: bool,
}

/// A mission's or scenario's marker: goals, zones, the ring, blast radii, screens, the
/// fortress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Marker {
    pub id: String,
    /// What it is in the game's words (`"goal"`, `"zone 2"`, `"beam-disruption screen"`).
    pub kind: String,
    pub name: String,
    pub look: MarkerLook,
    #[serde(flatten)]
    pub shape: Shape,
    /// The side it belongs to, if any (a player's goal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<u8>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label: String,
}

/// How a marker is drawn: generic words, no game's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkerLook {
    /// An outlined objective (cells to reach or hold, a hill to take).
    Objective,
    /// A goal line or area in its side's colour.
    Goal,
    /// A region of the table (a zone), faintly shaded when `label` says it is done.
    Zone,
    /// A boundary drawn as a thick ring (a ring to stay in).
    Ring,
    /// A danger radius (a bomb's or a mine's blast).
    Danger,
    /// An area that changes the rules inside it (a screen, a fortress).
    Area,
    /// A board's outline and number.
    Board,
}

/// A piece on (or waiting beside) the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Piece {
    /// The id actions name it by (`u3`).
    pub id: String,
    /// The side that owns it; none for the rules' own (animals, enemies, the ball).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<u8>,
    /// The seat that moves it, if a seat does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    pub name: String,
    /// What it is in the game's words (`"force user"`, `"mobile suit"`, `"egg"`).
    pub kind: String,
    pub shape: PieceShape,
    /// Its cell's name, on a grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<String>,
    /// Its centre in world units (a cell's centre on a grid).
    pub x: f64,
    pub y: f64,
    /// Its footprint's radius in world units (a base; about half a cell on a grid).
    pub radius: f64,
    /// The way it faces, in degrees anticlockwise from +x, where the game has facings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<f64>,
    /// Its fire arc, where the game has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arc: Option<FireArc>,
    /// The short text printed on it (`4V`, `GD N3`).
    pub label: String,
    /// The stats a player reads off the counter, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stats: Vec<Stat>,
    /// Quantities with a maximum (a section's durability), drawn as bars.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bars: Vec<Bar>,
    /// Its states in the game's words (`stunned`, `hidden`, `confused`, `acted`, `fallen`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<String>,
    /// Off the table: where it waits (`"the line"`, `"to enter"`, `"destroyed"`); its x, y
    /// are then in the strip beside the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub off_table: Option<String>,
    /// In a stack: the stack's cell, this counter's place in it (0 on top) and its size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<StackPlace>,
    /// The piece carrying it (a transport's load).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<String>,
    /// Drawn faded: it has acted, or it is hidden from the others.
    #[serde(default)]
    pub dim: bool,
    /// Drawn crossed out: fallen, destroyed, out of the fight (its states say which).
    #[serde(default)]
    pub out: bool,
    /// A colour for a token no side owns (a CSS colour), where its look alone would not
    /// tell it from the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tint: Option<String>,
}

impl Piece {
    /// A piece with the required parts; the rest empty, to be filled in.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        kind: impl Into<String>,
        shape: PieceShape,
        at: Xy,
        radius: f64,
    ) -> Piece {
        Piece {
            id: id.into(),
            side: None,
            seat: None,
            name: name.into(),
            kind: kind.into(),
            shape,
            cell: None,
            x: round(at[0]),
            y: round(at[1]),
            radius: round(radius),
            facing: None,
            arc: None,
            label: String::new(),
            stats: Vec::new(),
            bars: Vec::new(),
            states: Vec::new(),
            off_table: None,
            stack: None,
            aboard: None,
            dim: false,
            out: false,
            tint: None,
        }
    }
    /// Add a stat read off the counter.
    pub fn stat(mut self, name: &str, value: impl ToString) -> Piece {
        self.stats.push(Stat {
            name: name.to_string(),
            value: value.to_string(),
        });
        self
    }
}

/// How a piece is drawn: generic shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceShape {
    /// A round base or figure.
    Disc,
    /// A disc with a gold ring (a leader, a Force User).
    Ringed,
    /// A square (a gun emplacement).
    Square,
    /// A diamond (a flier).
    Diamond,
    /// A wargame counter: a box with its values inside.
    Counter,
    /// A token the rules move (a ball, an egg, a credit, an animal, a blip, a target).
    Token,
    /// A ship's hull with its bow.
    Hull,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FireArc {
    /// The arc's width in degrees, centred on the facing (360 for all round).
    pub degrees: f64,
    /// How far it is drawn, in world units.
    pub reach: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    pub name: String,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    pub name: String,
    pub value: i64,
    pub max: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StackPlace {
    pub cell: String,
    pub index: u32,
    pub of: u32,
}

/// Something the last turn did, as a path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub kind: TraceKind,
    pub points: Vec<Xy>,
    /// Its dice and result in words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceKind {
    Move,
    Shot,
    Knockback,
    /// A blast: `points` is its centre and a point on its edge.
    Blast,
    /// A move declared and not yet carried out (waiting on a react).
    Declared,
}

/// What a listed action points at, for a client to highlight and click.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Anchors {
    /// The piece the action is for (the one that moves, shoots or decides).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    /// Its target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    /// For a free parameter: the region any point of which the game may accept, and the
    /// action's text with `{x}` and `{y}` where the point's coordinates go (world units;
    /// a parameter along one axis has only one of them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free: Option<FreePoint>,
    /// The action is a shot (a ranged attack) from the piece at its target piece, so a
    /// client may draw the line of fire between them. Only a drawing hint: the game has
    /// already judged the shot legal (its range, its line, its arc).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shot: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    Piece { id: String },
    Cell { name: String },
    Point { x: f64, y: f64 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FreePoint {
    pub region: Region,
    /// `move u3 {x},{y}`: the action text once a point is chosen.
    pub template: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Region {
    /// Any point within `r` of the centre (a move's reach).
    Circle { x: f64, y: f64, r: f64 },
    /// Any point on the path (a move to stop on).
    Path { points: Vec<Xy> },
}

impl Region {
    /// Is `p` in the region (to 1/1,000 of a unit)?
    pub fn contains(&self, p: Xy) -> bool {
        const EPS: f64 = 1e-3;
        match self {
            Region::Circle { x, y, r } => (p[0] - x).hypot(p[1] - y) <= r + EPS,
            Region::Path { points } => {
                if points.len() == 1 {
                    return (p[0] - points[0][0]).hypot(p[1] - points[0][1]) <= EPS;
                }
                points
                    .windows(2)
                    .any(|w| distance_to_segment(p, w[0], w[1]) <= EPS)
            }
        }
    }
}

fn distance_to_segment(p: Xy, a: Xy, b: Xy) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    };
    (p[0] - a[0] - t * dx).hypot(p[1] - a[1] - t * dy)
}

/// A legal action with its anchors (for the seat to act).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneAction {
    /// Its place in the legal list.
    pub index: usize,
    /// The short text `act` accepts.
    pub text: String,
    /// In the game's words.
    pub label: String,
    #[serde(flatten)]
    pub anchors: Anchors,
}

/// The sides of a game played by sides (`names[side]`), each with the seats that play it,
/// marked when the seat `deciding` is one of theirs.
pub fn sides(
    names: &[&str],
    seating: &crate::Seating,
    deciding: Option<crate::Seat>,
) -> Vec<SceneSide> {
    let to_act = deciding.map(|s| seating.side_of(s));
    names
        .iter()
        .enumerate()
        .map(|(s, name)| SceneSide {
            name: name.to_string(),
            seats: seating.seats_of(s as u8).collect(),
            note: String::new(),
            to_act: to_act == Some(s as u8),
        })
        .collect()
}

/// The seat to decide, if a seat is.
pub fn deciding<G: crate::Game>(g: &G) -> Option<crate::Seat> {
    match g.next() {
        crate::Next::Decide(s) => Some(s),
        _ => None,
    }
}

impl Scene {
    /// The piece with this id.
    pub fn piece(&self, id: &str) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.id == id)
    }
    /// The cell with this name.
    pub fn cell(&self, name: &str) -> Option<&SceneCell> {
        self.table.cells.iter().find(|c| c.name == name)
    }

    /// Every way this scene breaks its own promises: ids unique, cells named, anchors
    /// naming pieces, cells and points that are in it, a free point's region on the table.
    /// The conformance kit runs it on every scene of every game.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut ids = std::collections::BTreeSet::new();
        for p in &self.pieces {
            if !ids.insert(p.id.as_str()) {
                out.push(format!("piece id {} twice", p.id));
            }
            if !(p.x.is_finite() && p.y.is_finite() && p.radius.is_finite()) {
                out.push(format!(
                    "piece {} has a position that is not a number",
                    p.id
                ));
            }
            if let Some(c) = &p.cell
                && self.cell(c).is_none()
            {
                out.push(format!(
                    "piece {} on cell {c}, which is not in the table",
                    p.id
                ));
            }
            if p.off_table.is_none() && !self.on_table([p.x, p.y]) {
                out.push(format!(
                    "piece {} at {},{} is off the table but not marked so",
                    p.id, p.x, p.y
                ));
            }
        }
        let cells_ok = |shape: &Shape, what: &str, out: &mut Vec<String>| {
            if let Shape::Cells { cells } = shape {
                for c in cells {
                    if self.cell(c).is_none() {
                        out.push(format!("{what} names cell {c}, which is not in the table"));
                    }
                }
            }
        };
        for t in &self.terrain {
            cells_ok(&t.shape, &format!("terrain {}", t.id), &mut out);
        }
        for m in &self.markers {
            cells_ok(&m.shape, &format!("marker {}", m.id), &mut out);
        }
        for a in &self.actions {
            if let Some(p) = &a.anchors.piece
                && self.piece(p).is_none()
            {
                out.push(format!(
                    "action {:?} is for piece {p}, not in the scene",
                    a.text
                ));
            }
            match &a.anchors.target {
                Some(Target::Piece { id }) if self.piece(id).is_none() => out.push(format!(
                    "action {:?} targets piece {id}, not in the scene",
                    a.text
                )),
                Some(Target::Cell { name }) if self.cell(name).is_none() => out.push(format!(
                    "action {:?} targets cell {name}, not in the table",
                    a.text
                )),
                Some(Target::Point { x, y }) => {
                    if !self.on_table([*x, *y]) {
                        out.push(format!(
                            "action {:?} targets {x},{y}, off the table",
                            a.text
                        ));
                    }
                    if let Some(f) = &a.anchors.free
                        && !f.region.contains([*x, *y])
                    {
                        out.push(format!(
                            "action {:?}: its point {x},{y} is outside its region",
                            a.text
                        ));
                    }
                }
                _ => {}
            }
            if a.anchors.shot
                && (a.anchors.piece.is_none()
                    || !matches!(a.anchors.target, Some(Target::Piece { .. })))
            {
                out.push(format!(
                    "action {:?} is a shot but not from a piece at a piece",
                    a.text
                ));
            }
            if let Some(f) = &a.anchors.free
                && !(f.template.contains("{x}") || f.template.contains("{y}"))
            {
                out.push(format!(
                    "action {:?}: template {:?} has no {{x}} or {{y}}",
                    a.text, f.template
                ));
            }
        }
        out
    }

    fn on_table(&self, p: Xy) -> bool {
        const EPS: f64 = 1e-3;
        let t = &self.table;
        let pad = t.cell_size.unwrap_or(0.0);
        p[0] >= -pad - EPS
            && p[1] >= -pad - EPS
            && p[0] <= t.width + pad + EPS
            && p[1] <= t.height + pad + EPS
    }
}
