//! D20-3 (the attack sequence a–d), D20-3D (the defences a–e, chosen by the defender's seat
//! after seeing the strike), D20-3H (when hit: the roll, the saves, the damage dice).
//!
//! Every die is a chance point and every choice a decision of the seat that owns it, taken
//! after the roll it answers: the strike is rolled, then the defender picks a defence
//! seeing its total; a hit then offers the roll with impact, then the saves are rolled, then
//! the damage, one die at a time.

use crate::data::{Kind, SectionFlag, WeaponType};
use crate::events::Event;
use crate::modifiers::{Range, target_type, terrain};
use crate::state::{Attack, Defence, MsD20, Phase, Stun, UnitId};

/// What an attack is aimed with and at (D20-3 a–c).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aim {
    pub target: UnitId,
    pub weapon: u8,
    /// A called shot's section.
    pub at: Option<u8>,
    pub insight: bool,
}

/// Palladium: a strike of 4 or less misses (rulings.md), and a natural 1 always does.
pub const MISS_AT_OR_BELOW: i16 = 4;

impl MsD20 {
    /// The strike's modifiers for `attacker` with weapon `w` at `target`, aimed at
    /// `section` (a called shot's penalty), with the Newtype power or not: D20-8, 9, 10 and
    /// the pilot's and weapon's bonuses. None when the target is out of range.
    pub fn strike_bonus(
        &self,
        attacker: UnitId,
        w: u8,
        target: UnitId,
        section: Option<u8>,
        insight: bool,
    ) -> Option<i16> {
        let a = self.data(attacker);
        let t = self.data(target);
        let weapon = a.weapons.get(w as usize)?;
        let cells = self
            .fixed
            .grid
            .distance(self.unit(attacker).at, self.unit(target).at);
        let range = Range::of(cells, weapon.range)?;
        let mut b = a.pilot.strike as i16 + weapon.strike as i16 + range.strike();
        b += target_type(a.kind, t.kind);
        b += terrain(self.unit(attacker).terrain, self.unit(target).terrain);
        if let Some(s) = section {
            b += t.sections.get(s as usize)?.penalty as i16;
        }
        if insight {
            b += a.pilot.newtype as i16;
        }
        Some(b)
    }

    /// D20-3 a)–c): declare the attack; it costs an APM; d) the strike die follows.
    pub fn declare(&mut self, attacker: UnitId, aim: Aim, moved: bool, ev: &mut Vec<Event>) {
        let Aim {
            target,
            weapon,
            at,
            insight,
        } = aim;
        let x = self.unit_mut(attacker);
        x.apm = x.apm.saturating_sub(1);
        let aimed = at.unwrap_or_else(|| self.main_section(target));
        ev.push(Event::Attacks {
            unit: attacker,
            target,
            weapon: self.data(attacker).weapons[weapon as usize].name.clone(),
            at: self.data(target).sections[aimed as usize].name.clone(),
        });
        // D20-6S: on its next turn, any attack but the stunning weapon at the combatant it
        // stunned ends the stun, before this strike (so that combatant may defend).
        let turns = self.unit(attacker).turns_total;
        self.end_stuns(
            attacker,
            |v, s| s.in_next_turn(turns) && (s.weapon != weapon || v != target),
            ev,
        );
        self.now.phase = Phase::Strike {
            attack: Attack {
                attacker,
                target,
                weapon,
                aimed,
                called: at.is_some(),
                insight,
                natural: 0,
                total: 0,
                onto: aimed,
                rolled: false,
                halved: false,
                critical: false,
                continued: false,
                passed: Vec::new(),
                moved,
            },
        };
    }

    /// D20-3 d): d20 + bonuses; a natural 1 or a total of 4 or less misses; a natural 20 is
    /// a critical (double damage) unless the defender also rolls a natural 20.
    pub fn roll_strike(&mut self, mut a: Attack, face: u8, ev: &mut Vec<Event>) {
        let called = a.called.then_some(a.aimed);
        let bonus = self
            .strike_bonus(a.attacker, a.weapon, a.target, called, a.insight)
            .unwrap_or(0);
        a.natural = face;
        a.total = face as i16 + bonus;
        let miss = strike_misses(face, a.total);
        ev.push(Event::Strike {
            unit: a.attacker,
            natural: face,
            total: a.total,
            miss,
        });
        if miss {
            self.missed(a, ev);
            return;
        }
        a.critical = face == 20;
        self.ask_defender(a, ev);
    }

    /// A miss: on the attacker's next turn a miss at the combatant it stunned (with the
    /// stunning weapon: any other attack ended the stun as it was declared) ends the stun
    /// (D20-6S: "or the attacker misses"); back to the attacker's turn.
    fn missed(&mut self, a: Attack, ev: &mut Vec<Event>) {
        let turns = self.unit(a.attacker).turns_total;
        self.end_stuns(
            a.attacker,
            |v, s| v == a.target && s.in_next_turn(turns),
            ev,
        );
        self.back_to_attacker(&a, ev);
    }

    /// D20-6S: the stuns `by` caused that `over` (the stunned combatant, its stun) says are
    /// over wear off, each with its event.
    pub fn end_stuns(
        &mut self,
        by: UnitId,
        over: impl Fn(UnitId, &Stun) -> bool,
        ev: &mut Vec<Event>,
    ) {
        for v in self.ids() {
            if let Some(s) = self.unit(v).stunned
                && s.by == by
                && over(v, &s)
            {
                self.unit_mut(v).stunned = None;
                ev.push(Event::StunEnds { unit: v });
            }
        }
    }

    /// The defender decides, unless it is stunned ("cannot ... defend") or out.
    fn ask_defender(&mut self, a: Attack, ev: &mut Vec<Event>) {
        if self.unit(a.target).stunned.is_some() || self.defences(&a).len() <= 1 {
            self.hit(a, ev);
        } else {
            self.now.phase = Phase::Defend { attack: a };
        }
    }

    /// What a roll with impact costs (rulings.md: 1 APM for ships), and a dodge (2 for
    /// ships; 1 otherwise).
    pub fn dodge_cost(&self, u: UnitId) -> u8 {
        if self.data(u).kind == Kind::LargeVehicle {
            2
        } else {
            1
        }
    }
    pub fn roll_cost(&self, u: UnitId) -> u8 {
        if self.data(u).kind == Kind::LargeVehicle {
            1
        } else {
            0
        }
    }

    /// May the defender roll with this attack (D20-3D e): not against beam or blade; once)?
    pub fn may_roll(&self, a: &Attack) -> bool {
        let w = &self.data(a.attacker).weapons[a.weapon as usize];
        !a.rolled
            && ruled_out_by_weapon(Defence::Roll, w.kind).is_none()
            && self.unit(a.target).apm >= self.roll_cost(a.target)
    }

    /// D20-3D: the defences open to the target now, `Take` first.
    pub fn defences(&self, a: &Attack) -> Vec<Defence> {
        let t = a.target;
        let x = self.unit(t);
        let d = self.data(t);
        let mut out = vec![Defence::Take];
        if x.stunned.is_some() {
            return out;
        }
        if x.apm >= self.dodge_cost(t) {
            out.push(Defence::Dodge);
        }
        if d.can_leap() && x.apm >= 1 {
            out.push(Defence::Leap);
        }
        // Parry: against hand-to-hand (melee and blade) attacks, with a working arm that has
        // not parried since this combatant's last turn.
        let w = &self.data(a.attacker).weapons[a.weapon as usize];
        if ruled_out_by_weapon(Defence::Parry(0), w.kind).is_none() {
            for (i, s) in d.sections.iter().enumerate() {
                if s.has(SectionFlag::Arm) && x.sections[i] > 0 && x.parried & (1 << i) == 0 {
                    out.push(Defence::Parry(i as u8));
                }
            }
        }
        if self.may_roll(a) {
            out.push(Defence::Roll);
        }
        out
    }

    /// The defender's choice: the APM it costs, then its die (or, letting it hit, the hit).
    pub fn choose_defence(&mut self, mut a: Attack, d: Defence, ev: &mut Vec<Event>) {
        let t = a.target;
        let cost = match d {
            Defence::Take => {
                // "let it hit you": no defence, and (by default) no roll with it either;
                // `roll_after=any_hit`: D20-3H a) still offers the roll.
                if self.roll_after_any_hit() {
                    self.hit(a, ev);
                } else {
                    ev.push(Event::Hit {
                        unit: a.target,
                        critical: a.critical,
                    });
                    self.after_hit(a, ev);
                }
                return;
            }
            Defence::Dodge => self.dodge_cost(t),
            Defence::Leap => 1,
            Defence::Parry(_) => 0,
            Defence::Roll => {
                a.rolled = true;
                self.roll_cost(t)
            }
        };
        let x = self.unit_mut(t);
        x.apm = x.apm.saturating_sub(cost);
        self.now.phase = Phase::DefenceDie {
            attack: a,
            defence: d,
        };
    }

    /// The defence die: dodge, leap dodge and parry meet or beat the strike (ties to the
    /// defender); a roll must beat it; against a natural 20 only a natural 20 defends.
    pub fn roll_defence(&mut self, mut a: Attack, d: Defence, face: u8, ev: &mut Vec<Event>) {
        let total = face as i16 + self.defence_bonus(a.target, d);
        let ok = defence_succeeds(a.critical, d == Defence::Roll, face, total, a.total);
        if a.critical && face == 20 {
            a.critical = false;
        }
        ev.push(Event::Defence {
            unit: a.target,
            defence: d,
            natural: face,
            total,
            success: ok,
        });
        match (d, ok) {
            (Defence::Dodge | Defence::Leap, true) => self.back_to_attacker(&a, ev),
            (Defence::Parry(s), true) => {
                // "Parry (taking damage to that section)".
                a.onto = s;
                self.unit_mut(a.target).parried |= 1 << s;
                if self.roll_after_any_hit() {
                    self.offer_roll(a, ev);
                } else {
                    self.after_hit(a, ev);
                }
            }
            (Defence::Roll, true) => {
                a.halved = true;
                self.after_hit(a, ev);
            }
            _ => self.hit(a, ev),
        }
    }

    /// D20-3D: the pilot's bonus to the defence die (none to let it hit).
    pub fn defence_bonus(&self, u: UnitId, d: Defence) -> i16 {
        let p = &self.data(u).pilot;
        (match d {
            Defence::Dodge => p.dodge,
            Defence::Leap => p.leap_dodge,
            Defence::Parry(_) => p.parry,
            Defence::Roll => p.roll,
            Defence::Take => 0,
        }) as i16
    }

    /// Our `roll_after` option (D20-3H a): is a roll offered after any hit?
    pub fn roll_after_any_hit(&self) -> bool {
        self.fixed.setup.options.roll_after == crate::options::RollAfter::AnyHit
    }

    /// D20-3H a): hit (a defence failed, or none was open) — the defender may still roll
    /// with it, if it may and has not tried.
    pub fn hit(&mut self, a: Attack, ev: &mut Vec<Event>) {
        ev.push(Event::Hit {
            unit: a.target,
            critical: a.critical,
        });
        self.offer_roll(a, ev);
    }

    /// D20-3H a): the roll, if the defender may and has not tried; else on to the saves.
    pub fn offer_roll(&mut self, a: Attack, ev: &mut Vec<Event>) {
        if self.unit(a.target).stunned.is_none() && self.may_roll(&a) {
            self.now.phase = Phase::MayRoll { attack: a };
        } else {
            self.after_hit(a, ev);
        }
    }

    /// D20-3H b): the saves the weapon calls for, then c) the damage.
    pub fn after_hit(&mut self, a: Attack, ev: &mut Vec<Event>) {
        let w = &self.data(a.attacker).weapons[a.weapon as usize];
        let large = self.data(a.target).kind.is_large();
        let vulnerable =
            self.data(a.target).sections[a.onto as usize].has(SectionFlag::BeamVulnerable);
        if w.beam.is_some() && (!large || vulnerable) {
            self.now.phase = Phase::BeamSave { attack: a };
        } else if w.stun.is_some() {
            self.now.phase = Phase::StunSave { attack: a };
        } else {
            self.start_damage(a, ev);
        }
    }

    /// D20-6B: "if failed the beam destroys the section hit regardless of remaining
    /// durability. The beam then continues on its directed path."
    pub fn roll_beam_save(&mut self, a: Attack, face: u8, ev: &mut Vec<Event>) {
        let w = &self.data(a.attacker).weapons[a.weapon as usize];
        let need = w.beam.unwrap_or(0) as i16;
        let total = face as i16 + self.data(a.target).pilot.save as i16;
        let saved = total >= need;
        ev.push(Event::Save {
            unit: a.target,
            save: "beam".into(),
            natural: face,
            total,
            need,
            saved,
        });
        if saved {
            if w.stun.is_some() {
                self.now.phase = Phase::StunSave { attack: a };
            } else {
                self.start_damage(a, ev);
            }
            return;
        }
        self.destroy_section(a.target, a.onto, ev);
        self.check_end(ev);
        if self.now.outcome.is_some() {
            return;
        }
        self.beam_goes_on(a, ev);
    }

    /// D20-6S: a failed stun save stops the defender until the end of the attacker's next
    /// turn.
    pub fn roll_stun_save(&mut self, a: Attack, face: u8, ev: &mut Vec<Event>) {
        let w = &self.data(a.attacker).weapons[a.weapon as usize];
        let need = w.stun.unwrap_or(0) as i16;
        let total = face as i16 + self.data(a.target).pilot.save as i16;
        let saved = total >= need;
        ev.push(Event::Save {
            unit: a.target,
            save: "stun".into(),
            natural: face,
            total,
            need,
            saved,
        });
        if saved {
            if self
                .unit(a.target)
                .stunned
                .is_some_and(|s| s.by == a.attacker)
            {
                self.unit_mut(a.target).stunned = None;
                ev.push(Event::StunEnds { unit: a.target });
            }
        } else {
            let until = self.unit(a.attacker).turns_total + 2;
            self.unit_mut(a.target).stunned = Some(Stun {
                by: a.attacker,
                weapon: a.weapon,
                until,
            });
            ev.push(Event::Stunned { unit: a.target });
        }
        self.start_damage(a, ev);
    }

    /// D20-3H c): the damage dice, one die a chance point; a hand attack has none (D20-7).
    pub fn start_damage(&mut self, a: Attack, ev: &mut Vec<Event>) {
        match self.fixed.rolls[self.unit(a.attacker).kind as usize][a.weapon as usize] {
            Some(r) => {
                self.now.phase = Phase::Damage {
                    attack: a,
                    left: r.dice,
                    sum: 0,
                    faces: Vec::new(),
                }
            }
            None => {
                // D20-7: "Mobile Unit's Hand Damage - equal to the mobile unit's strength -20."
                let strength = self.data(a.attacker).strength;
                let raw = strength.saturating_sub(20);
                ev.push(Event::DamageRolled {
                    unit: a.target,
                    roll: format!("hand damage: strength {strength} - 20"),
                    faces: Vec::new(),
                    raw,
                });
                self.deal(a, raw, ev);
            }
        }
    }

    pub fn roll_damage_die(
        &mut self,
        a: Attack,
        left: u8,
        sum: u32,
        mut faces: Vec<u8>,
        face: u8,
        ev: &mut Vec<Event>,
    ) {
        let sum = sum + face as u32;
        faces.push(face);
        if left > 1 {
            self.now.phase = Phase::Damage {
                attack: a,
                left: left - 1,
                sum,
                faces,
            };
            return;
        }
        let r = self.fixed.rolls[self.unit(a.attacker).kind as usize][a.weapon as usize]
            .expect("a rolled weapon");
        let raw = r.damage(sum);
        ev.push(Event::DamageRolled {
            unit: a.target,
            roll: r.notation(),
            faces,
            raw,
        });
        self.deal(a, raw, ev);
    }

    /// The dice of the damage roll now: the weapon's sides.
    pub fn damage_die(&self, a: &Attack) -> u32 {
        self.fixed.rolls[self.unit(a.attacker).kind as usize][a.weapon as usize]
            .map_or(6, |r| r.sides as u32)
    }

    /// After the attack: back to the attacker's turn (it may still move), or the turn ends.
    pub fn back_to_attacker(&mut self, a: &Attack, ev: &mut Vec<Event>) {
        if self.now.outcome.is_some() {
            return;
        }
        if a.moved || !self.in_play(a.attacker) || !self.can_move(a.attacker) {
            self.end_turn(a.attacker, ev);
        } else {
            self.now.phase = Phase::Turn {
                unit: a.attacker,
                moved: false,
                acted: true,
            };
        }
    }
}

/// D20-3 d): a strike misses on a natural 1 or a total of 4 or less (rulings.md).
pub fn strike_misses(face: u8, total: i16) -> bool {
    face == 1 || total <= MISS_AT_OR_BELOW
}

/// D20-3D d, e and D20-5: a defence the attack's weapon type rules out, whoever defends —
/// "Roll (taking ½ damage)(can not be attempted if the attack is a beam attack or a blade
/// attack)" (D20-5B, D20-5L: "damage cannot be reduced by a successful roll"), and a parry
/// only against a hand-to-hand (melee or blade) attack. The referee's refusal and the odds
/// command's are this one.
pub fn ruled_out_by_weapon(d: Defence, w: WeaponType) -> Option<battlemat_core::Why> {
    use battlemat_core::Why;
    match (d, w) {
        (Defence::Roll, WeaponType::Beam) => Some(Why::new(
            "D20-5B",
            "no roll with impact against a beam: its damage cannot be reduced by a roll",
        )),
        (Defence::Roll, WeaponType::Blade) => Some(Why::new(
            "D20-5L",
            "no roll with impact against a blade: its damage cannot be reduced by a roll",
        )),
        (Defence::Parry(_), w) if !matches!(w, WeaponType::Melee | WeaponType::Blade) => {
            Some(Why::new(
                "D20-3D",
                "a parry is only against a hand-to-hand (melee or blade) attack",
            ))
        }
        _ => None,
    }
}

/// D20-3D: does a defence die succeed? Against a natural 20 only a natural 20; a roll with
/// impact must beat the strike, a dodge, leap dodge or parry meet it (ties to the defender).
pub fn defence_succeeds(critical: bool, roll: bool, face: u8, total: i16, strike: i16) -> bool {
    if critical {
        face == 20
    } else if roll {
        total > strike
    } else {
        total >= strike
    }
}
