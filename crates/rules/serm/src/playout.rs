//! A search's playout in SERM ([`battlemat_core::Game::playout_action`]): the activation a
//! player would most likely make, not one drawn at random.
//!
//! A skirmish is a shoot-out: each activation is one Shoot or one Move, the initiative
//! passes after it, and most of what decides the game is which soldier shoots which first.
//! A random playout spends its decisions on Moves in every direction (most of a listing is
//! Moves), so eight random decisions from a leaf say little about who wins the exchange of
//! fire that follows, and the search learnt nothing greedy's one ply did not know: 49.3 %
//! of 1,800 decided games against greedy, at four or eight decisions a playout alike. A
//! playout that shoots the enemy its shot most likely removes, charges a soldier its Move
//! likely reaches and Reacts whenever it may plays that exchange out, and with it the
//! search won 54.3 % of the same games (docs/strength.md, "SERM: playouts that shoot").
//!
//! What each listed action is worth to the playout, in soldiers removed (a soldier counted
//! as the evaluation counts it, [`crate::ai::soldier_worth`]):
//! - a Shoot (SERM-SHOOT): the chance its pool totals more than the target's Endure, times
//!   the target's worth;
//! - a Move toward a soldier (SERM-MOVE: contact kills): the chance its roll covers the gap,
//!   times the chance the target's own React does not stop it (SERM-REACT), times the
//!   target's worth;
//! - a React: more than anything but a likely kill (a React costs nothing when it fails);
//! - anything else (a Move along a wind, a blast, a pass, where a Move stops): alike.
//!
//! One playout decision in five is drawn uniformly from the whole listing instead, so every
//! listed action can still be drawn (the conformance kit's rule for playouts) and a playout
//! does not always find the same line. Ties are drawn at random.
//!
//! Rejected: the evaluation's one-ply choice (the position after each action valued, its
//! dice rolled once), which SD ERA and SERM used until 2026-12-05 — it took whichever long
//! shot had come up in its one roll, a policy worse than random (docs/strength.md). These
//! are the pools' exact chances, worked out once, so a playout decision costs a listing and
//! a few table lookups.

use crate::ai::soldier_worth;
use crate::data::{BASE_RADIUS, INCH};
use crate::events::Action;
use crate::pools::{p_above, p_greater};
use crate::state::{Heading, Serm};
use battlemat_core::{Game, Roller};
use battlemat_geom::table::distance_floor;

/// One playout decision in this many is drawn uniformly from the whole listing.
pub const UNIFORM_ONE_IN: u32 = 5;

/// The largest pool whose chances against another are kept; bigger pools count as this.
const KEPT: usize = 8;

/// What a React is worth to the playout, in soldiers.
const REACT: f64 = 0.6;

/// What any other action is worth to the playout, in soldiers.
const ANY: f64 = 0.05;

/// P(a pool of `a` dice totals more than one of `b`), for pools of up to [`KEPT`] dice,
/// worked out once ([`p_greater`] works out both distributions at each call).
fn greater(a: u8, b: u8) -> f64 {
    static GREATER: std::sync::OnceLock<Vec<Vec<f64>>> = std::sync::OnceLock::new();
    let table = GREATER.get_or_init(|| {
        (0..=KEPT as u8)
            .map(|a| (0..=KEPT as u8).map(|b| p_greater(a, b)).collect())
            .collect()
    });
    table[kept(a)][kept(b)]
}

fn kept(dice: u8) -> usize {
    usize::from(dice).min(KEPT)
}

impl Serm {
    /// What `a` is worth to a playout (see the module's words).
    pub fn playout_worth(&self, a: &Action) -> f64 {
        match a {
            // SERM-SHOOT: "A higher Shoot total eliminates the target soldier."
            Action::Shoot { soldier, target } => {
                let t = self.card(*target);
                greater(self.card(*soldier).shoot, t.endure) * soldier_worth(t)
            }
            // SERM-MOVE: "If an enemy soldier is contacted during a Move, it is automatically
            // killed"; SERM-REACT: "if the Move targets a soldier, that soldier is the only
            // one that can React to the Move".
            Action::Move {
                soldier,
                toward: Some(Heading::Soldier(target)),
            } => {
                let (from, to) = (self.soldier(*soldier).at, self.soldier(*target).at);
                let gap = (distance_floor(from, to) - 2 * BASE_RADIUS).max(0);
                // The roll must total the gap in whole inches or more.
                let inches = ((gap + INCH - 1) / INCH) as u32;
                let m = self.card(*soldier).movement;
                let t = self.card(*target);
                let reaches = match inches {
                    0 => 1.0,
                    n => p_above(m, n - 1),
                };
                let stopped = greater(t.react, m);
                reaches * (1.0 - stopped) * soldier_worth(t)
            }
            Action::React { .. } => REACT,
            _ => ANY,
        }
    }

    /// A playout's action: see the module's words.
    pub fn playout_choice(&self, roller: &mut Roller, buf: &mut Vec<Action>) -> Option<Action> {
        self.legal_actions_into(buf);
        if buf.is_empty() {
            return None;
        }
        if roller.roll(UNIFORM_ONE_IN) == 1 {
            let i = roller.roll(buf.len() as u32) as usize - 1;
            return Some(buf[i]);
        }
        let (mut best, mut ties, mut pick) = (f64::MIN, 0u32, 0);
        for (i, a) in buf.iter().enumerate() {
            let v = self.playout_worth(a);
            if v > best + 1e-12 {
                (best, ties, pick) = (v, 1, i);
            } else if v >= best - 1e-12 {
                ties += 1;
                if roller.roll(ties) == 1 {
                    pick = i;
                }
            }
        }
        Some(buf[pick])
    }
}
