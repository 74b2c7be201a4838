//! A heuristic value for AIs that stop before the end: the share of each side's durability
//! left, combatants out counting double — less what the attack under way is expected to
//! take off its target.
//!
//! The attack under way matters because an attack's damage comes several steps after the
//! decision to make it (D20-3: the strike die, then the defender's choice, D20-3D, then its
//! die, the saves and the damage dice, D20-3H). A player that looks one decision ahead stops
//! at the defender's choice, where nothing has been hurt yet; valued there by the durability
//! alone, every attack would be worth no more than standing still. So while an attack is
//! under way its target is valued at what it is expected to keep: its section's damage
//! distribution (the referee's own arithmetic, through `odds::Wound`), weighed by the
//! chance of each defence open to it, the defender taking its best. The rejected
//! alternative, rolling the attack out in the AI, would clone states for every die of every
//! candidate — the cost issue 25 measured.

use crate::data::SectionFlag;
use crate::state::{Attack, Defence, MsD20, Phase, UnitId};
use battlemat_core::{Game, Seat, result_value};

impl MsD20 {
    pub fn evaluation(&self, seat: Seat) -> f64 {
        if let Some(r) = self.result() {
            return result_value(&r, seat);
        }
        let mine = self.fixed.seating.side_of(seat);
        let mut share = [0.0f64; 2];
        for u in self.ids() {
            let x = self.unit(u);
            share[x.side as usize] += self.share(u);
        }
        if let Some((u, loss)) = self.pending_loss() {
            share[self.unit(u).side as usize] -= loss;
        }
        let (a, b) = (share[mine as usize], share[1 - mine as usize]);
        ((a - b) / (a + b).max(1.0)).clamp(-0.95, 0.95)
    }

    /// A combatant's worth: the share of its durability left, plus one while it is in play.
    fn share(&self, u: UnitId) -> f64 {
        let x = self.unit(u);
        if x.out {
            return 0.0;
        }
        let left: u32 = x.sections.iter().sum();
        left as f64 / self.durability(u) + 1.0
    }

    /// A combatant's whole durability, every section's (at least 1).
    fn durability(&self, u: UnitId) -> f64 {
        let full: u32 = self.data(u).sections.iter().map(|s| s.durability).sum();
        full.max(1) as f64
    }

    /// The attack under way (after its strike die) and the share its target is expected to
    /// lose to it: the defender's best defence where it still chooses (D20-3D, D20-3H a),
    /// the one it chose while its die is to roll, and the damage dice still to roll.
    pub fn pending_loss(&self) -> Option<(UnitId, f64)> {
        let (a, loss) = match &self.now.phase {
            Phase::Defend { attack } => (
                attack,
                self.defences(attack)
                    .into_iter()
                    .map(|d| self.loss_under(attack, d))
                    .fold(f64::INFINITY, f64::min),
            ),
            Phase::DefenceDie { attack, defence } => (attack, self.loss_under(attack, *defence)),
            Phase::MayRoll { attack } => (
                attack,
                self.loss_under(attack, Defence::Take)
                    .min(self.loss_under(attack, Defence::Roll)),
            ),
            Phase::BeamSave { attack } => (
                attack,
                self.loss_from(attack, attack.onto, attack.halved, Stage::Saves),
            ),
            Phase::StunSave { attack } => (
                attack,
                self.loss_from(attack, attack.onto, attack.halved, Stage::Dice(None)),
            ),
            Phase::Damage {
                attack, left, sum, ..
            } => (
                attack,
                self.loss_from(
                    attack,
                    attack.onto,
                    attack.halved,
                    Stage::Dice(Some((*left, *sum))),
                ),
            ),
            _ => return None,
        };
        Some((a.target, loss))
    }

    /// The share `a`'s target is expected to lose if it answers with `d`: a dodge or leap
    /// avoids it, a parry moves it onto the arm, a roll halves it (D20-3D), each with the
    /// chance of its die.
    fn loss_under(&self, a: &Attack, d: Defence) -> f64 {
        let hit = self.loss_from(a, a.onto, a.halved, Stage::Saves);
        let p = self.defence_chance(a, d);
        let defended = match d {
            Defence::Take | Defence::Dodge | Defence::Leap => 0.0,
            Defence::Parry(arm) => self.loss_from(a, arm, a.halved, Stage::Saves),
            Defence::Roll => self.loss_from(a, a.onto, true, Stage::Saves),
        };
        p * defended + (1.0 - p) * hit
    }

    /// The share the target is expected to lose from a hit on `section` from `stage` on:
    /// a failed beam save destroys the section outright (D20-6B), else the damage dice
    /// (D20-3H c) take the section's durability — or the whole combatant if its main
    /// section falls (D20-6).
    fn loss_from(&self, a: &Attack, section: u8, halved: bool, stage: Stage) -> f64 {
        let t = a.target;
        let full = self.durability(t);
        let rem = self.unit(t).sections[section as usize];
        let main = self.data(t).sections[section as usize].has(SectionFlag::Main);
        let lost = |took: u32| {
            if took >= rem && main {
                self.share(t)
            } else {
                took.min(rem) as f64 / full
            }
        };
        let wound = self.wound(a.attacker, a.weapon, t, section);
        let raw = match stage {
            Stage::Saves | Stage::Dice(None) => wound.raw(),
            Stage::Dice(Some((left, sum))) => wound.raw_after(left, sum),
        };
        let dice: f64 = raw
            .into_iter()
            .map(|(r, p)| p * lost(wound.taken(r, a.critical, halved)))
            .sum();
        let fails = match stage {
            Stage::Saves => self.beam_save_fails(a, section),
            Stage::Dice(_) => 0.0,
        };
        fails * lost(rem) + (1.0 - fails) * dice
    }

    /// The chance the target fails the beam save a hit on `section` calls for (D20-6B:
    /// beams against anything but a large combatant's sturdy sections), 0 if none.
    fn beam_save_fails(&self, a: &Attack, section: u8) -> f64 {
        let w = &self.data(a.attacker).weapons[a.weapon as usize];
        let d = self.data(a.target);
        let Some(need) = w.beam else { return 0.0 };
        if d.kind.is_large() && !d.sections[section as usize].has(SectionFlag::BeamVulnerable) {
            return 0.0;
        }
        let fail = (1..=20i16)
            .filter(|face| face + (d.pilot.save as i16) < need as i16)
            .count();
        fail as f64 / 20.0
    }
}

/// How far an attack has gone after the hit (D20-3H b, c).
#[derive(Clone, Copy)]
enum Stage {
    /// The saves are still to roll, then the damage dice.
    Saves,
    /// The damage dice: none rolled yet, or so many left after a sum.
    Dice(Option<(u8, u32)>),
}
