//! SDE-T2: an army's points and units (at most the points, at most three units besides
//! transports, the mission's least), and the draft (`armies = draft`): each seat in turn picks
//! a unit from the chart under the same limits, or is done; then play begins.

use crate::data::{Armies, Special, UnitType};
use crate::legal::Why;
use crate::state::{Phase, SdEra};
use battlemat_core::{Seat, SetupError};

impl SdEra {
    /// The army's points and units (SDE-T2): at most the points, at most `most_units` units
    /// besides transports, at least `least_units`.
    pub fn check_army(&self, _seat: Seat, kinds: &[u16], at: &str) -> Result<(), SetupError> {
        let m = &self.fixed.setup.mission;
        let types: Vec<&UnitType> = kinds
            .iter()
            .map(|k| &self.fixed.chart[*k as usize].1)
            .collect();
        let cost: u32 = types.iter().map(|t| u32::from(t.cost())).sum();
        let counted = types.iter().filter(|t| !t.is(Special::T)).count();
        if kinds.is_empty() {
            return Err(SetupError::new(at, "an army needs at least one unit"));
        }
        if m.most_units > 0 && counted > m.most_units as usize {
            return Err(SetupError::new(
                at,
                format!(
                    "{counted} units: at most {} a player, transports not counted (SDE-T2)",
                    m.most_units
                ),
            ));
        }
        if counted < m.least_units as usize {
            return Err(SetupError::new(
                at,
                format!(
                    "{counted} units: {} needs at least {}",
                    m.name, m.least_units
                ),
            ));
        }
        let points = self.points_cap();
        if cost > u32::from(points) {
            return Err(SetupError::new(
                at,
                format!("{cost} points: at most {points} a player (SDE-T2)"),
            ));
        }
        Ok(())
    }

    /// The points a player may spend: the mission's, or the `points` option in a draft.
    pub fn points_cap(&self) -> u8 {
        if self.fixed.options.armies == Armies::Draft {
            self.fixed.options.points
        } else {
            self.fixed.setup.mission.points
        }
    }
}

/// The draft (`armies = draft`, SDE-T2): each seat in turn picks a unit from the chart under
/// the points and the unit limit, or is done; then play begins.
impl SdEra {
    /// The units `seat` has drafted so far.
    pub fn army(&self, seat: u8) -> Vec<u16> {
        self.now
            .units
            .iter()
            .filter(|u| u.owner == Some(seat))
            .filter_map(|u| u.kind())
            .collect()
    }

    /// A draft pick keeps the army within the points and the unit limit (SDE-T2).
    pub(crate) fn draft_ok(&self, army: &[u16]) -> Result<(), Why> {
        let m = &self.fixed.setup.mission;
        let types: Vec<_> = army
            .iter()
            .map(|k| &self.fixed.chart[*k as usize].1)
            .collect();
        let cost: u32 = types.iter().map(|t| u32::from(t.cost())).sum();
        let counted = types.iter().filter(|t| !t.is(Special::T)).count();
        if cost > u32::from(self.points_cap()) {
            return Err(Why::new("SDE-T2", "that would spend more than the points"));
        }
        // Leave enough points for the fewest units the mission needs (the cheapest kind).
        let cheapest = self
            .fixed
            .chart
            .iter()
            .filter(|(_, t)| !t.is(Special::T))
            .map(|(_, t)| u32::from(t.cost()))
            .min()
            .unwrap_or(1);
        let short = (m.least_units as usize).saturating_sub(counted) as u32;
        if cost + short * cheapest > u32::from(self.points_cap()) {
            return Err(Why::new(
                "SDE-GALLERY.1",
                "that would leave too few points for the units the mission needs",
            ));
        }
        if m.most_units > 0 && counted > m.most_units as usize {
            return Err(Why::new(
                "SDE-T2",
                "at most three units a player, transports not counted",
            ));
        }
        if army.len() > 12 {
            return Err(Why::new("SDE-T2", "that is enough units"));
        }
        Ok(())
    }

    /// The draft passes to the next seat still picking; when all are done, play begins.
    pub(crate) fn next_drafter(&mut self, seat: u8) {
        let n = self.fixed.players;
        for k in 1..=n {
            let s = (seat + k) % n;
            if self.now.drafted & (1 << s) == 0 {
                self.now.phase = Phase::Draft { seat: s };
                return;
            }
        }
        self.start_play();
    }
}
