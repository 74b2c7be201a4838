//! Dice for Battlemat: seeded rolling and exact odds.
mod roll;
pub use roll::{Roller, RollerPosition};
