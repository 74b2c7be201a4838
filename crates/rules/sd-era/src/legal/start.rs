//! Judging what comes before the first turn: the draft, the choice of edge and the
//! placing of units (`start = edge`, each mission's `.1`; RING BATTLE, SDE-RING.1).

use super::*;
use crate::data::{BASE_RADIUS, MissionKind, STICK, Special};
use crate::state::{SdEra, UnitId};
pub use battlemat_core::Why;

impl SdEra {
    /// SDE-T2's draft: a pick under the points cap and the unit limit.
    pub(crate) fn judge_pick(&self, seat: battlemat_core::Seat, kind: &str) -> Result<Plan, Why> {
        let k = self
            .fixed
            .chart
            .iter()
            .position(|(key, _)| key == kind)
            .ok_or(Why::new("SDE-T2", "that unit is not on the chart"))? as u16;
        let mut army = self.army(seat);
        army.push(k);
        self.draft_ok(&army)?;
        Ok(Plan::Pick(k))
    }

    /// SDE-T2's draft: done, once the army has its units.
    pub(crate) fn judge_draft_done(&self, seat: battlemat_core::Seat) -> Result<Plan, Why> {
        let army = self.army(seat);
        let m = &self.fixed.setup.mission;
        let counted = army
            .iter()
            .filter(|k| !self.fixed.chart[**k as usize].1.is(Special::T))
            .count();
        if army.is_empty() || counted < m.least_units as usize {
            return Err(Why::new("SDE-T2", "pick more units first"));
        }
        Ok(Plan::Done)
    }

    /// `start = edge` (each mission's `.1`, "Players start on any board edge"): a seat
    /// chooses its edge once, before placing its units, and no two seats share one.
    pub(crate) fn judge_edge(&self, seat: battlemat_core::Seat, edge: u8) -> Result<Plan, Why> {
        let kind = self.fixed.kind;
        if !self.edge_to_choose(seat) {
            return Err(start_refusal(
                kind,
                if self.now.edges.is_empty() {
                    "the players' table edges are the mission's: place your units"
                } else {
                    "you have chosen your table edge: place your units"
                },
            ));
        }
        if edge as usize >= crate::setup::EDGE_NAMES.len() {
            return Err(start_refusal(
                kind,
                "a table edge is near, left, far or right",
            ));
        }
        if self.now.edges.contains(&edge) {
            return Err(start_refusal(
                kind,
                "another player starts on that edge: each player has an edge of their own",
            ));
        }
        Ok(Plan::Edge(edge))
    }

    /// Placing a unit before play: RING BATTLE's in the ring or outside it near the player's
    /// edge (SDE-RING.1); `start = edge`'s within a stick of the player's edge. The base
    /// must land clear of terrain and other bases.
    pub(crate) fn judge_deploy(
        &self,
        seat: battlemat_core::Seat,
        unit: UnitId,
        p: Point,
    ) -> Result<Plan, Why> {
        let kind = self.fixed.kind;
        self.exists(unit)?;
        let x = self.unit(unit);
        if x.owner != Some(seat) || !x.waiting {
            return Err(start_refusal(
                kind,
                "place one of your units not yet placed",
            ));
        }
        if self.edge_to_choose(seat) {
            return Err(start_refusal(
                kind,
                "choose your table edge first (edge near, left, far or right)",
            ));
        }
        let ring = kind == MissionKind::RingBattle;
        let inside = ring && self.in_ring_zone(p);
        if !inside && self.from_own_edge(seat, p) > STICK {
            return Err(start_refusal(
                kind,
                if ring {
                    "units start in the ring, or outside it near your table edge"
                } else {
                    "units start within a stick of your table edge"
                },
            ));
        }
        let others = self.bases_except(&[unit]);
        let base = battlemat_geom::table::Base::new(p, BASE_RADIUS);
        if !matches!(
            self.fixed.table.landing(&base, &others),
            battlemat_geom::table::Landing::Ground
        ) {
            return Err(start_refusal(kind, "there is no room there"));
        }
        Ok(Plan::Deploy(unit, p, ring && !inside))
    }
}
