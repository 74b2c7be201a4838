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
//! Units are data ([`data::UnitType`] in `data/units.toml`): a handful of primitives
//! (class, move, dice, weapon, which targets it may attack, crewing, toughness keys,
//! force-power susceptibility) that the rules read; no rule names a unit type. Scenarios are
//! TOML too, and a [`data::Setup`] carries the whole unit table and scenario so a record
//! replays without the files it was made from.
//!
//! Rulings for the text's gaps (ties, initiative without Force Users, what "contact"
//! means on a grid, where a flier ends up) are in `docs/rules/swtb.md`, each with the
//! option that changes it where players could disagree.
//!
//! # Rejected alternative
//!
//! Rolling a whole attack as one chance point over the *sum* of the dice would make
//! games shorter in steps, but a player with real dice reads faces, not sums, and the
//! thermal detonator rule depends on individual sixes; one die per chance point keeps the
//! record faithful to the table.

pub mod data;
pub mod odds;
pub mod state;
pub mod text;

pub use data::{Catalog, Options, Setup};
pub use state::{Action, Dest, Event, Swtb};
pub use text::Observation;

use battlemat_core::{
    DataFile, Game, Illegal, Odds, OptionInfo, RulesetInfo, ScenarioInfo, Seat, SetupError, ToAct,
    Viewer,
};
use state::Phase;
use std::collections::BTreeMap;

pub const RULESET_ID: &str = "swtb";
/// Bumped whenever a rule change would make an old record replay differently.
pub const RULESET_VERSION: &str = "1";

impl Game for Swtb {
    type Setup = Setup;
    type Action = Action;
    type Event = Event;
    type Observation = Observation;

    fn info() -> RulesetInfo {
        let cat = Catalog::builtin();
        RulesetInfo {
            id: RULESET_ID.into(),
            name: "Star Wars Table Top Battles".into(),
            version: RULESET_VERSION.into(),
            min_seats: 2,
            max_seats: 2,
            options: data::OPTION_TABLE
                .iter()
                .map(|r| OptionInfo {
                    key: r.key.into(),
                    rule: r.rule.into(),
                    values: r.values.iter().map(|v| (*v).into()).collect(),
                    default: r.default.into(),
                    help: r.help.into(),
                    house_rule: r.house_rule,
                })
                .collect(),
            scenarios: cat
                .scenarios
                .iter()
                .map(|s| ScenarioInfo {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    seats: 2,
                    summary: s.summary.clone(),
                    ours: s.ours,
                })
                .collect(),
        }
    }

    fn setup(scenario: &str, options: &BTreeMap<String, String>) -> Result<Setup, SetupError> {
        let o = Options::from_pairs(options)?;
        let setup = Catalog::builtin().setup(scenario, o)?;
        Swtb::check_setup(&setup)?;
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
        };
        Swtb::check_setup(&setup).map_err(|e| match file_of(chosen) {
            Some(file) => data::place_error(e, (units_name, units_text), file),
            None => e,
        })?;
        Ok(setup)
    }

    fn new_game(setup: &Setup) -> Result<Swtb, SetupError> {
        Swtb::new(setup)
    }

    fn seats(&self) -> u8 {
        2
    }

    fn to_act(&self) -> ToAct {
        match &self.phase {
            Phase::ChoosePower { unit } => ToAct::Decide {
                seat: self.units[*unit as usize].side,
                prompt: format!(
                    "{}: choose {}'s force power (SWTB-O1..O4)",
                    self.side_name(self.units[*unit as usize].side),
                    self.name(*unit)
                ),
            },
            Phase::ChooseFirst { winner } => ToAct::Decide {
                seat: *winner,
                prompt: format!(
                    "{}: choose who acts first (SWTB-1)",
                    self.side_name(*winner)
                ),
            },
            Phase::Turn => ToAct::Decide {
                seat: self.active,
                prompt: format!(
                    "{}: move or attack with a unit, or end the turn",
                    self.side_name(self.active)
                ),
            },
            Phase::Over { .. } => ToAct::Over(self.result().unwrap_or_else(|| unreachable!())),
            _ => match self.chance() {
                Some(c) => ToAct::Chance(c),
                None => unreachable!("every other phase rolls a die"),
            },
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        self.legal()
    }

    fn check(&self, action: &Action) -> Result<(), Illegal> {
        self.check_action(action)
    }

    fn apply_action(&mut self, action: &Action, events: &mut Vec<Event>) {
        self.act(action, events)
    }

    fn apply_chance(&mut self, value: u32, events: &mut Vec<Event>) {
        self.roll(value, events)
    }

    fn observe(&self, _viewer: Viewer) -> Observation {
        self.observation()
    }

    fn evaluate(&self, seat: Seat) -> f64 {
        match self.result() {
            Some(r) => battlemat_core::result_value(&r, seat),
            None => self.heuristic(seat),
        }
    }

    fn describe(&self, action: &Action) -> String {
        self.describe_action(action)
    }

    fn odds(&self, action: &Action) -> Option<Odds> {
        self.action_odds(action)
    }

    fn matchup_odds(params: &BTreeMap<String, String>) -> Result<Odds, String> {
        odds::matchup(params)
    }
}
