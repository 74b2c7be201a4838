//! D20-4 (armour), D20-5 (weapon types: beam, blade, explosive, melee, projectile), D20-6
//! (what a destroyed section means; the beam going on; knock-downs, D20-6O), D20-7 (hand
//! damage is worked out in `combat`), and movement on the grid.

use crate::data::{SectionFlag, WeaponType};
use crate::events::Event;
use crate::state::{Attack, MsD20, UnitId};
use battlemat_geom::Cell;

/// D20-6O: "If 80 damage or more is inflicted on the defender's mobile suit".
pub const KNOCKDOWN: u32 = 80;

/// A hit's damage before armour: `raw` as rolled, doubled by a critical and by melee
/// against a large vehicle or mobile armor (D20-5M), then halved by a roll with impact
/// (D20-3D e), rounding down. The referee's `deal` and the matchup odds both use it.
pub fn damage_dealt(raw: u32, critical: bool, melee_on_large: bool, halved: bool) -> u32 {
    let mut dmg = raw;
    if critical {
        dmg *= 2;
    }
    if melee_on_large {
        dmg *= 2;
    }
    if halved {
        dmg /= 2;
    }
    dmg
}

impl MsD20 {
    /// The damage of a hit, `raw` as rolled: doubled by a critical and by melee against a
    /// large vehicle or mobile armor (D20-5M), halved by a roll (D20-3D e), then each
    /// section's armour off it, never below 0 (D20-4; rulings.md: after halving); explosives
    /// put half on every other section of a smaller combatant (D20-5E).
    pub fn deal(&mut self, a: Attack, raw: u32, ev: &mut Vec<Event>) {
        let w = self.data(a.attacker).weapons[a.weapon as usize].clone();
        let large = self.data(a.target).kind.is_large();
        let dmg = damage_dealt(
            raw,
            a.critical,
            w.kind == WeaponType::Melee && large,
            a.halved,
        );
        let mut why = Vec::new();
        if a.critical {
            why.push("doubled for the critical");
        }
        if w.kind == WeaponType::Melee && large {
            why.push("doubled: melee on a large target (D20-5M)");
        }
        if a.halved {
            why.push("halved by the roll");
        }
        let why = why.join(", ");
        let hit = self.hurt(a.target, a.onto, dmg, &why, ev);
        if w.kind == WeaponType::Explosive && !large {
            let half = if why.is_empty() {
                "halved: explosive (D20-5E)".to_string()
            } else {
                format!("{why}, then halved: explosive (D20-5E)")
            };
            for s in 0..self.unit(a.target).sections.len() as u8 {
                if s != a.onto && self.section_ok(a.target, s) {
                    self.hurt(a.target, s, dmg / 2, &half, ev);
                }
            }
        }
        // D20-6O: other weapons (neither a beam nor a stun value) knock a mobile suit over.
        if w.beam.is_none()
            && w.stun.is_none()
            && hit >= KNOCKDOWN
            && self.data(a.target).kind == crate::data::Kind::MobileUnit
            && self.in_play(a.target)
        {
            self.unit_mut(a.target).knocked = true;
            ev.push(Event::KnockedOver { unit: a.target });
        }
        self.check_end(ev);
        self.back_to_attacker(&a, ev);
    }

    /// `dmg` on one section, less its armour; returns what it took.
    fn hurt(&mut self, u: UnitId, s: u8, dmg: u32, why: &str, ev: &mut Vec<Event>) -> u32 {
        let armour = self.data(u).sections[s as usize].armour.reduction();
        let took = dmg.saturating_sub(armour);
        let left = self.unit(u).sections[s as usize].saturating_sub(took);
        self.unit_mut(u).sections[s as usize] = left;
        ev.push(Event::Damage {
            unit: u,
            section: self.data(u).sections[s as usize].name.clone(),
            damage: took,
            left,
            dealt: dmg,
            armour,
            why: why.to_string(),
        });
        if left == 0 {
            self.destroy_section(u, s, ev);
        }
        took
    }

    pub fn destroy_section(&mut self, u: UnitId, s: u8, ev: &mut Vec<Event>) {
        self.unit_mut(u).sections[s as usize] = 0;
        ev.push(Event::SectionDestroyed {
            unit: u,
            section: self.data(u).sections[s as usize].name.clone(),
        });
        if self.data(u).sections[s as usize].has(SectionFlag::Main) && !self.unit(u).out {
            self.unit_mut(u).out = true;
            ev.push(Event::Destroyed { unit: u });
            // D20-6S: a destroyed attacker has no next turn; the stuns it caused end now.
            self.end_stuns(u, |_, _| true, ev);
        }
    }

    /// D20-6B "The beam then continues on its directed path" (our reading): on to the
    /// nearest other combatant beyond the target on the line from the attacker, within the
    /// weapon's long range, struck by the same strike.
    pub fn beam_goes_on(&mut self, mut a: Attack, ev: &mut Vec<Event>) {
        let from = self.unit(a.attacker).at;
        let through = self.unit(a.target).at;
        let long = self.data(a.attacker).weapons[a.weapon as usize].range[2] as u32;
        let grid = self.fixed.grid;
        let past = grid.distance(from, through);
        a.passed.push(a.target);
        let next = self
            .ids()
            .filter(|&v| {
                v != a.attacker && self.in_play(v) && !a.passed.contains(&v) && {
                    let d = grid.distance(from, self.unit(v).at);
                    d > past && d <= long && grid.between(from, self.unit(v).at).contains(&through)
                }
            })
            .min_by_key(|&v| (grid.distance(from, self.unit(v).at), v));
        match next {
            Some(v) => {
                ev.push(Event::BeamGoesOn { unit: v });
                a.target = v;
                a.aimed = self.main_section(v);
                a.onto = a.aimed;
                a.called = false;
                a.continued = true;
                a.rolled = false;
                a.halved = false;
                if self.unit(v).stunned.is_some() || self.defences(&a).len() <= 1 {
                    self.hit(a, ev);
                } else {
                    self.now.phase = crate::state::Phase::Defend { attack: a };
                }
            }
            None => self.back_to_attacker(&a, ev),
        }
    }

    /// May `u` move now: not stunned, with speed, and a working leg if it has legs.
    pub fn can_move(&self, u: UnitId) -> bool {
        let d = self.data(u);
        let legs: Vec<usize> = d
            .sections
            .iter()
            .enumerate()
            .filter(|(_, s)| s.has(SectionFlag::Leg))
            .map(|(i, _)| i)
            .collect();
        self.unit(u).stunned.is_none()
            && d.speed > 0
            && (legs.is_empty() || legs.iter().any(|&i| self.unit(u).sections[i] > 0))
    }

    /// The cells `u` may move to: within its speed, on the map, empty.
    pub fn move_cells(&self, u: UnitId) -> Vec<Cell> {
        let at = self.unit(u).at;
        let sp = self.data(u).speed as u32;
        self.fixed
            .grid
            .cells()
            .filter(|&c| {
                c != at && self.fixed.grid.distance(at, c) <= sp && self.occupied(c).is_none()
            })
            .collect()
    }
}
