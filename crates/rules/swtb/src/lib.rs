//! Star Wars Table Top Battles: the rules of the home-made skirmish game (rule text `001`),
//! every optional rule as a named option, and our own scenarios.
//!
//! # Design
//!
//! The crate is a [`battlemat_core::Game`]: a state machine that never rolls a die itself.
//! An attack is declared by an action, after which the state waits at one chance point per
//! die — attack dice, thermal detonator dice, then defence dice — keeping only running
//! totals (so that states after equal totals are equal, which lets an AI weigh every
//! outcome exactly with a small memo table). A morale check is one chance point per
//! remaining unit, the same way.
//!
//! The crate is laid out by rule area — the template every rules crate follows
//! (`ARCHITECTURE.md`): each module opens with the rule ids it owns, so a rule is found by
//! its module, and `docs/rules/swtb.md` points every rule at one.
//!
//! | module | rules |
//! |---|---|
//! | [`data`], [`options`] | SWTB-U1 (the unit table), scenarios; every option, declared once |
//! | [`setup`] | checking a setup and a saved state; SWTB-P; choosing powers (SWTB-O1..O4) |
//! | [`state`] | the state: fixed part and progress; lookups |
//! | [`turn`] | SWTB-1 initiative, rounds and turns, the end, resigning, who decides |
//! | [`movement`] | SWTB-2 moving and contact, SWTB-U1 reach, occupancy |
//! | [`fliers`] | SWTB-F1..F5 |
//! | [`combat`] | SWTB-3..6 attacks and dice; SWTB-V2; SWTB-O1 (a throw's reach), O4..O7, O9 |
//! | [`powers`] | SWTB-O2, O3 force powers (O1 and O4 change attacks: [`combat`]) |
//! | [`artillery`] | SWTB-O8 fixed guns |
//! | [`droids`] | SWTB-U2 revival |
//! | [`morale`] | SWTB-O10, and the end of a side |
//! | [`legal`] | the one judge: `plan` (used by `check`, `legal` and `act`), refusals in words |
//! | [`events`], [`text`], [`scene`], [`odds`], [`ai`] | actions and events; words; the table as a scene; exact odds; evaluation |
//!
//! Units are data ([`data::UnitType`] in `data/units.toml`): a handful of primitives
//! (class, move, dice, weapon, which targets it may attack, crewing, toughness keys,
//! force-power susceptibility) that the rules read; no rule names a unit type. Scenarios are
//! TOML too, and a [`data::Setup`] carries the whole unit table and scenario so a record
//! replays without the files it was made from.
//!
//! # Rejected alternatives
//!
//! Rolling a whole attack as one chance point over the *sum* of the dice would make
//! games shorter in steps, but a player with real dice reads faces, not sums, and the
//! thermal detonator rule depends on individual sixes; one die per chance point keeps the
//! record faithful to the table.
//!
//! One `state.rs` holding types, setup, legality, effects and AI (as this crate began) reads
//! top to bottom, but a rule is then found by grepping its id, and legality written three
//! times (check, list, act) drifts: here it is written once ([`legal`]).
//!
//! # Public API
//!
//! The state `Swtb`, with `battlemat_core::Ruleset` and `Game` implemented on it (the judge
//! `Game::plan`, what a plan does, the scene, the odds), its `Setup`, `Options`, `Catalog`,
//! `Action`, `Event` and `Observation`; and the modules `data` (the unit catalog and scenarios, for the lab and tests), `odds` (matchups), `state` (the state's parts, which the rule tests read) and `text` (the words). Every other module is
//! private to the crate: the server, the browser and the AI see the game only through core's
//! traits.

mod ai;
mod artillery;
mod combat;
pub mod data;
mod droids;
mod events;
mod fliers;
mod legal;
mod morale;
mod movement;
pub mod odds;
mod options;
mod powers;
mod scene;
mod setup;
pub mod state;
pub mod text;
mod turn;

pub use data::{Catalog, Options, Setup};
pub use events::{Action, Dest, Event};
pub use state::Swtb;
pub use text::Observation;

use battlemat_core::{
    DataFile, Game, GameOptions, GameResult, Illegal, Next, Odds, Outcomes, RulesetInfo,
    ScenarioInfo, Seat, Seating, SetupError, Viewer,
};
use state::Phase;
use std::collections::BTreeMap;

pub const RULESET_ID: &str = "swtb";
/// Bumped whenever a rule change would make an old record replay differently. Version 2: a
/// flier on a fortified cell does not defend with the fortified die (SWTB-O7); it also
/// lists every landing cell and crew, allows Force Choke and Mind Trick after moving into
/// contact by default (`contact_powers`), and adds the `initiative` option and shared sides
/// (`seats`). Version 2 is first released with battlemat 0.2.0.
pub const RULESET_VERSION: &str = "2";

impl battlemat_core::Ruleset for Swtb {
    type State = Swtb;
    type Setup = Setup;

    fn info() -> RulesetInfo {
        let cat = Catalog::builtin();
        RulesetInfo {
            id: RULESET_ID.into(),
            name: "Star Wars Table Top Battles".into(),
            version: RULESET_VERSION.into(),
            min_seats: cat.scenarios.iter().map(|s| s.min_seats).min().unwrap_or(2),
            max_seats: cat.scenarios.iter().map(|s| s.max_seats).max().unwrap_or(2),
            legal_actions: Self::LEGAL_ACTIONS,
            options: Options::infos(),
            scenarios: cat
                .scenarios
                .iter()
                .map(|s| ScenarioInfo {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    min_seats: s.min_seats,
                    max_seats: s.max_seats,
                    summary: s.summary.clone(),
                    ours: s.ours,
                })
                .collect(),
            odds: format!(
                "--attacker UNIT --defender UNIT [--fortified] [--thermal-detonators], and any rule option (--ties reroll); units: {}",
                cat.unit_types
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            safety_limit: None,
        }
    }

    fn setup(scenario: &str, options: &BTreeMap<String, String>) -> Result<Setup, SetupError> {
        let o = Options::from_pairs(options)?;
        let mut setup = Catalog::builtin().setup(scenario, o)?;
        setup.seating = seating_option(options)?;
        setup::check_setup(&setup)?;
        Ok(setup)
    }

    /// Data files shaped like this crate's `data/`: a `units.toml` (else the built-in unit
    /// table) and any number of scenario files (`data/scenarios/*.toml`'s shape).
    fn setup_from_data(
        scenario: Option<&str>,
        files: &[DataFile],
        options: &BTreeMap<String, String>,
    ) -> Result<Setup, SetupError> {
        let o = Options::from_pairs(options)?;
        // The unit table is the folder's own `units.toml`; every other file is a scenario.
        let is_units = |f: &&DataFile| {
            let path = std::path::Path::new(&f.name);
            path.file_name().is_some_and(|n| n == "units.toml")
                && path
                    .parent()
                    .and_then(|p| p.file_name())
                    .is_none_or(|p| p != "scenarios")
        };
        let (units_name, units_text) = match files.iter().find(is_units) {
            Some(f) => (f.name.as_str(), f.text.as_str()),
            None => ("units.toml (built in)", data::UNITS_TOML),
        };
        let scenario_files: Vec<(&str, &str)> = files
            .iter()
            .filter(|f| !is_units(f))
            .map(|f| (f.name.as_str(), f.text.as_str()))
            .collect();
        let cat = Catalog::from_named_sources(units_name, units_text, &scenario_files)?;
        let builtin = &Catalog::builtin().scenarios;
        // The file a scenario from the data came from (scenarios parse in file order).
        let file_of = |s: &data::Scenario| {
            let i = cat.scenarios.iter().position(|c| std::ptr::eq(c, s))?;
            scenario_files.get(i).copied()
        };
        let chosen = match scenario {
            Some(id) => cat
                .scenarios
                .iter()
                .chain(builtin)
                .find(|s| s.id == id)
                .ok_or_else(|| {
                    let ids: Vec<&str> = cat
                        .scenarios
                        .iter()
                        .chain(builtin)
                        .map(|s| s.id.as_str())
                        .collect();
                    SetupError::new(
                        format!("scenario {id}"),
                        format!("no such scenario; scenarios are {}", ids.join(", ")),
                    )
                })?,
            None => match cat.scenarios.as_slice() {
                [one] => one,
                [] => {
                    return Err(SetupError::new(
                        files.first().map_or("data", |f| f.name.as_str()),
                        "no scenario in the data: add scenario files, or name a built-in \
                         scenario with --scenario",
                    ));
                }
                _ => {
                    return Err(SetupError::new(
                        "scenario",
                        "the data holds several scenarios: name one with --scenario",
                    ));
                }
            },
        };
        let setup = Setup {
            unit_types: cat.unit_types.clone(),
            scenario: chosen.clone(),
            options: o,
            seating: seating_option(options)?,
        };
        setup::check_setup(&setup).map_err(|e| match file_of(chosen) {
            Some(file) => data::place_error(e, (units_name, units_text), file),
            None => e,
        })?;
        Ok(setup)
    }

    fn new_game(setup: &Setup) -> Result<Swtb, SetupError> {
        Swtb::new(setup)
    }

    /// Each side's army costed by SWTB-P, with one seat per side (the balance lab compares
    /// two armies).
    fn armies(setup: &Setup) -> Option<battlemat_core::Armies> {
        let seating = setup
            .seating
            .clone()
            .unwrap_or_else(|| Seating::one_per_side(2));
        if setup.scenario.points == 0 || seating.seats() != 2 {
            return None;
        }
        let side_units = |side: u8| -> Vec<String> {
            setup.scenario.sides[side as usize]
                .units
                .iter()
                .map(|u| u.kind.clone())
                .collect()
        };
        Some(battlemat_core::Armies {
            seats: (0..2)
                .map(|seat| side_units(seating.side_of(seat)))
                .collect(),
            costs: setup
                .unit_types
                .iter()
                .map(|(k, t)| (k.clone(), f64::from(t.cost)))
                .collect(),
        })
    }

    /// SWTB-P's points, at random (ours, docs/rules/swtb.md "Points"): each side draws a
    /// budget from half the scenario's points to all of them, then unit types, each one that
    /// still fits equally likely — fixed guns (which need crews) and Force Users (whose
    /// powers depend on the side) are kept as the scenario has them, not drawn. Ground units
    /// take the side's starting cells in order, ships the line, until the budget or the
    /// cells run out.
    fn random_armies(
        setup: &Setup,
        roller: &mut battlemat_dice::Roller,
    ) -> Option<Result<Setup, SetupError>> {
        Self::armies(setup)?;
        let points = setup.scenario.points;
        let least = points.div_ceil(2);
        let mut s = setup.clone();
        let drawable: Vec<&String> = setup
            .unit_types
            .iter()
            .filter(|(_, t)| !t.crewed && !t.force_user)
            .map(|(k, _)| k)
            .collect();
        for side in s.scenario.sides.iter_mut() {
            let (kept, drawn): (Vec<_>, Vec<_>) = side.units.drain(..).partition(|u| {
                let t = &setup.unit_types[&u.kind];
                t.crewed || t.force_user
            });
            let kept_cost: u32 = kept.iter().map(|u| setup.unit_types[&u.kind].cost).sum();
            let mut cells: std::collections::VecDeque<_> =
                drawn.iter().filter_map(|u| u.at).collect();
            let mut left = (least + roller.roll(points - least + 1) - 1).saturating_sub(kept_cost);
            side.units = kept;
            let mut n = 0;
            loop {
                let fits: Vec<&&String> = drawable
                    .iter()
                    .filter(|k| {
                        let t = &setup.unit_types[**k];
                        t.cost <= left && (t.flies() || !cells.is_empty())
                    })
                    .collect();
                if fits.is_empty() || n >= 40 {
                    break;
                }
                let k = fits[roller.roll(fits.len() as u32) as usize - 1];
                let t = &setup.unit_types[*k];
                left -= t.cost;
                n += 1;
                side.units.push(data::UnitSpec {
                    kind: (*k).clone(),
                    name: format!("{} {n}", t.name),
                    at: if t.flies() { None } else { cells.pop_front() },
                    power: None,
                });
            }
        }
        Some(Swtb::new(&s).map(|_| s))
    }

    /// Version 1 differs from 2, for what a version 1 record's steps do, only when a flier
    /// can stand on a fortified cell with the `fortified` option on (SWTB-O7): the scenario
    /// has fortified cells and a flying unit. The other changes since add choices (every
    /// landing cell and crew listed, powers after moving into contact, new options whose
    /// defaults are version 1's readings), which change no step a version 1 record holds.
    fn replays_older(version: &str, setup: &Setup) -> Result<(), String> {
        let s = &setup.scenario;
        let fliers = s.sides.iter().flat_map(|side| &side.units).any(|u| {
            setup
                .unit_types
                .get(&u.kind)
                .is_some_and(data::UnitType::flies)
        });
        let could_differ = setup.options.fortified && !s.fortified.is_empty() && fliers;
        match version {
            "1" if !could_differ => Ok(()),
            "1" => Err(format!(
                "made with swtb version 1, this is version {RULESET_VERSION}: with the \
                 fortified option, a flier on a fortified cell no longer defends with the \
                 extra die (SWTB-O7), and this scenario has both; replay it with battlemat \
                 0.1.0 (git commit 91138a0), the last release with swtb version 1"
            )),
            v => Err(format!(
                "made with swtb version {v}; this is version {RULESET_VERSION}, which replays \
                 its own records and those of version 1 that its rules replay unchanged"
            )),
        }
    }

    battlemat_core::matchups_by!(odds::matchup, odds::sample);
}

impl Game for Swtb {
    type Action = Action;
    type Event = Event;
    type Observation = Observation;

    type Plan = legal::Plan;
    type Refusal = legal::Why;

    fn plan(&self, action: &Action) -> Result<legal::Plan, legal::Why> {
        Swtb::plan(self, action)
    }

    fn explain(&self, why: legal::Why) -> Illegal {
        Swtb::explain(self, why)
    }

    fn carry_out(&mut self, plan: legal::Plan, events: &mut Vec<Event>) {
        Swtb::carry_out(self, plan, events)
    }

    /// Trusted steps (an AI's listed action) skip the second judging: the plan is read off
    /// the action ([`Swtb::plan_trusted`]).
    fn listed_plan(&self, action: &Action) -> Result<legal::Plan, legal::Why> {
        let plan = self.plan_trusted(action);
        debug_assert_eq!(
            Swtb::plan(self, action),
            Ok(plan),
            "a trusted action that is not legal: {action}"
        );
        Ok(plan)
    }

    fn seats(&self) -> u8 {
        self.fixed.seating.seats()
    }

    fn next(&self) -> Next {
        match &self.now.phase {
            Phase::Over { .. } => Next::Over,
            Phase::ChoosePower { .. } | Phase::ChooseFirst { .. } | Phase::Turn => {
                Next::Decide(self.deciding_seat().unwrap_or(0))
            }
            // Every other phase rolls one d6.
            _ => Next::Chance(Outcomes::Die(6)),
        }
    }

    fn prompt(&self) -> String {
        match &self.now.phase {
            Phase::ChoosePower { unit } => format!(
                "{}: choose {}'s force power (SWTB-O1..O4)",
                self.side_name(self.now.units[*unit as usize].side),
                self.name(*unit)
            ),
            Phase::ChooseFirst { winner } => {
                format!(
                    "{}: choose who acts first (SWTB-1)",
                    self.side_name(*winner)
                )
            }
            Phase::Turn if self.fixed.seating.seats() > 2 => format!(
                "{} (seat {}): move or attack with one of your units, or end your part of the turn",
                self.side_name(self.now.active),
                self.now.seat
            ),
            Phase::Turn => format!(
                "{}: move or attack with a unit, or end the turn",
                self.side_name(self.now.active)
            ),
            Phase::Initiative { left, .. } => {
                let s = Swtb::initiative_side(*left) as u8;
                format!("{}: initiative die", self.side_name(s))
            }
            Phase::Combat(c) => self.combat_die_prompt(c),
            Phase::PowerDie {
                user, power, need, ..
            } => format!("{}: {:?} die (needs {need}+)", self.name(*user), power),
            Phase::ReviveDie { droid, .. } => {
                format!("{}: revival die (needs 5+)", self.name(*droid))
            }
            Phase::Morale { side, left, .. } => {
                format!("{}: morale die ({left} to roll)", self.side_name(*side))
            }
            Phase::Over { .. } => String::new(),
        }
    }

    fn result(&self) -> Option<GameResult> {
        self.outcome()
    }

    fn legal_actions(&self) -> Vec<Action> {
        self.legal()
    }

    fn apply_chance(&mut self, value: u32, ev: &mut Vec<Event>) {
        let f = value as u8;
        match self.now.phase.clone() {
            Phase::Initiative { left, best } => self.roll_initiative(left, best, f, ev),
            Phase::Combat(c) => self.roll_combat(c, f, ev),
            Phase::PowerDie {
                user,
                target,
                power,
                need,
            } => self.roll_power(user, target, power, need, f, ev),
            Phase::ReviveDie { droid, fallen } => self.roll_revive(droid, fallen, f, ev),
            Phase::Morale {
                side,
                left,
                ones,
                sixes,
            } => self.roll_morale(side, left, ones, sixes, f, ev),
            _ => {}
        }
    }

    fn resign(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.resign_seat(seat, events)
    }

    fn observe(&self, _viewer: Viewer) -> Observation {
        self.observation()
    }

    fn scene(&self, _viewer: Viewer) -> battlemat_core::Scene {
        self.scene_of()
    }

    fn anchors(&self, action: &Action) -> battlemat_core::Anchors {
        self.anchors_of(action)
    }

    fn evaluate(&self, seat: Seat) -> f64 {
        match self.outcome() {
            Some(r) => battlemat_core::result_value(&r, seat),
            None => self.heuristic(self.fixed.seating.side_of(seat)),
        }
    }

    fn describe(&self, action: &Action) -> String {
        self.describe_action(action)
    }

    fn odds(&self, action: &Action) -> Option<Odds> {
        self.action_odds(action)
    }
}

/// The `seats` option: several players per side (`4`: two a side, dealt in turn; or each
/// seat's side, `0,0,1`). Absent: one seat per side.
fn seating_option(options: &BTreeMap<String, String>) -> Result<Option<Seating>, SetupError> {
    options
        .get(battlemat_core::SEATS_OPTION)
        .map(|v| Seating::from_option(v, 2, setup::MAX_SEATS))
        .transpose()
}
