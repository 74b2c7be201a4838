//! Mobile-suit d20 combat: the Palladium-style melee round of the fan "Gundam RPG Nexus"
//! (rule text `003`), filled from the source's other pages and Palladium's standard rules
//! (rulings.md), played on the square grid of `geom`.
//!
//! # Design
//!
//! A [`battlemat_core::Game`] on the rules-crate template. The text is one combat round:
//! initiative (with the Newtype Initiative save), fight or flight, then turns in which each
//! combatant moves and attacks, spending its attacks per melee (APM). Its interest is in
//! the exchange of one attack, and that is where the state machine is fine-grained: the
//! strike is a d20 chance point; the defender's seat then chooses a defence *seeing the
//! strike total* (an off-turn decision, through the Game API's deciding seat); its die is
//! another chance point; a hit offers a roll with impact; the beam and stun saves are dice;
//! the damage is rolled one die at a time. Every number the referee uses comes from data:
//! combatants with sections (durability, armour), weapons (damage, type, save values,
//! ranges) and a pilot's bonuses — ours, as the text gives none.
//!
//! | module | rules |
//! |---|---|
//! | [`data`], [`options`] | the combatants and scenarios; D20-4's armour and D20-5's weapon types as data; options |
//! | [`setup`] | checking a setup and a saved state |
//! | [`state`] | the fixed part and the progress |
//! | [`turn`] | D20-1 initiative and the Newtype Initiative save, D20-2 fight or flight, the melee round, stuns wearing off, the end |
//! | [`combat`] | D20-3 the attack sequence, D20-3D the defences, D20-3H when hit, D20-6B/6S the saves, D20-7 hand damage |
//! | [`damage`] | D20-4 armour, D20-5 weapon types, D20-6O knock-downs, the beam going on, moving |
//! | [`modifiers`] | D20-8 distance, D20-9 target type (all four tables), D20-10 terrain |
//! | [`legal`] | the one judge and the complete listing |
//! | [`events`], [`text`], [`scene`], [`odds`], [`ai`] | actions and events; words; the table as a scene; exact odds; evaluation |
//!
//! # Rejected alternative
//!
//! Rolling the whole exchange (strike, defence, damage) as one chance point over its
//! outcomes would make games shorter in steps, but the defender's choice depends on the
//! strike it has seen, and a player at a real table reads each die: one die, one chance
//! point, and every choice between them a decision.
//!
//! # Public API
//!
//! The state `MsD20`, with `battlemat_core::Ruleset` and `Game` implemented on it (the judge
//! `Game::plan`, what a plan does, the scene, the odds), its `Setup`, `Options`, `Catalog`,
//! `Action`, `Event` and `Observation`; and the modules `data` (the mobile suits and scenarios), `modifiers` (the combat modifiers' table), `odds` (matchups) and `state` (the state's parts, which the rule tests read). Every other module is
//! private to the crate: the server, the browser and the AI see the game only through core's
//! traits.

mod ai;
mod combat;
mod damage;
pub mod data;
mod events;
mod legal;
pub mod modifiers;
pub mod odds;
mod options;
mod scene;
mod setup;
pub mod state;
mod text;
mod turn;

pub use data::{Catalog, Options, Setup};
pub use events::{Action, Event};
pub use state::MsD20;
pub use text::Observation;

use battlemat_core::TwoSided;
use battlemat_core::data::{DataFolder, choose_scenario};
use battlemat_core::{
    DataFile, Game, GameOptions, GameResult, Next, Odds, Outcomes, RulesetInfo, ScenarioInfo, Seat,
    Seating, SetupError, Viewer,
};
use state::Phase;
use std::collections::BTreeMap;

pub const RULESET_ID: &str = "ms-d20";
/// Version 2: a stun ends when its attacker attacks otherwise on its next turn, misses, or is
/// destroyed (D20-6S); initiative ties are broken only among the tied (D20-1).
pub const RULESET_VERSION: &str = "2";

impl battlemat_core::Ruleset for MsD20 {
    type State = MsD20;
    type Setup = Setup;

    fn info() -> RulesetInfo {
        let cat = Catalog::builtin();
        RulesetInfo {
            id: RULESET_ID.into(),
            name: "Mobile-suit d20 combat".into(),
            version: RULESET_VERSION.into(),
            min_seats: 2,
            max_seats: cat.scenarios.iter().map(|s| s.seats.1).max().unwrap_or(2),
            legal_actions: Self::LEGAL_ACTIONS,
            options: Options::infos(),
            scenarios: cat
                .scenarios
                .iter()
                .map(|s| ScenarioInfo {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    min_seats: s.seats.0,
                    max_seats: s.seats.1,
                    summary: s.summary.clone(),
                    ours: s.ours,
                })
                .collect(),
            odds: "--strike-bonus B [--range short|mid|long] [--attacker-kind K] [--target-kind K] [--terrain ATTACKER-TARGET] [--defence none|dodge|parry|roll] [--defence-bonus B] [--damage NdSxM+K|N] [--weapon-type beam|blade|explosive|melee|projectile] [--armour steel|titanium|composite|luna_titanium]; kinds: person, vehicle, mobile_unit, large_vehicle, mobile_armor".into(),
            safety_limit: Some(("melees".into(), "10".into())),
        }
    }

    fn setup(scenario: &str, options: &BTreeMap<String, String>) -> Result<Setup, SetupError> {
        let o = Options::from_pairs(options)?;
        let mut s = Catalog::builtin().setup(scenario, o)?;
        s.seating = Seating::from_options(options, 2, s.scenario.seats.1)?;
        setup::check_setup(&s)?;
        Ok(s)
    }

    /// Data files: a `combatants.toml` (else the built-in one) and scenario files.
    fn setup_from_data(
        scenario: Option<&str>,
        files: &[DataFile],
        options: &BTreeMap<String, String>,
    ) -> Result<Setup, SetupError> {
        let o = Options::from_pairs(options)?;
        let folder = DataFolder::new(files, &["combatants.toml"]);
        let c = folder.named("combatants.toml", data::COMBATANTS_TOML);
        let scenarios = folder.scenarios();
        let mut cat = Catalog::from_sources((&c.0, c.1), &scenarios)?;
        if cat.scenarios.is_empty() {
            cat.scenarios = Catalog::builtin().scenarios.clone();
        }
        let ids: Vec<&str> = cat.scenarios.iter().map(|s| s.id.as_str()).collect();
        let id = choose_scenario(scenario, &ids)?;
        let mut s = cat.setup(&id, o)?;
        s.seating = Seating::from_options(options, 2, s.scenario.seats.1)?;
        setup::check_setup(&s).map_err(|e| {
            let part = battlemat_core::data::Part {
                setup: "combatants.",
                file: "combatants.",
                name: &c.0,
                text: c.1,
            };
            battlemat_core::data::place_in_data(e, &id, &scenarios, "scenario.", &[part])
        })?;
        Ok(s)
    }

    fn new_game(setup: &Setup) -> Result<MsD20, SetupError> {
        MsD20::new(setup)
    }

    /// A version 1 record may hold a stun or an initiative tie that now ends otherwise.
    fn replays_older(version: &str, _setup: &Setup) -> Result<(), String> {
        Err(battlemat_core::older_version_refused(
            RULESET_ID,
            version,
            RULESET_VERSION,
            "a stun now ends when its attacker attacks otherwise on its next turn, misses or \
             is destroyed (D20-6S), and initiative ties are broken only among the tied (D20-1)",
            "ebbe482",
        ))
    }

    battlemat_core::matchups_by!(odds::matchup, odds::sample);
}

// The two-sided finish, written once in core (`battlemat_core::TwoSided`).
battlemat_core::two_sided!(MsD20, resigns: "withdraws", seating: fixed.seating, outcome: now.outcome,
game_over: Event::GameOver, side_name: |g, side| g.side_name(side).to_string(),
end_play: |g| {
    g.now.phase = Phase::Over;
});

impl Game for MsD20 {
    type Action = Action;
    type Event = Event;
    type Observation = Observation;

    battlemat_core::judged_by_plan!(legal::Plan);

    fn seats(&self) -> u8 {
        self.fixed.seating.seats()
    }

    fn next(&self) -> Next {
        match &self.now.phase {
            Phase::Over => Next::Over,
            Phase::FightOrFlight { .. }
            | Phase::Turn { .. }
            | Phase::Defend { .. }
            | Phase::MayRoll { .. } => Next::Decide(self.deciding_seat().unwrap_or(0)),
            Phase::Damage { attack, .. } => Next::Chance(Outcomes::Die(self.damage_die(attack))),
            _ => Next::Chance(Outcomes::Die(20)),
        }
    }

    fn prompt(&self) -> String {
        self.prompt_text()
    }

    fn result(&self) -> Option<GameResult> {
        self.two_sided_result()
    }

    fn legal_actions(&self) -> Vec<Action> {
        self.legal()
    }

    fn apply_chance(&mut self, value: u32, ev: &mut Vec<Event>) {
        let f = value as u8;
        match std::mem::replace(&mut self.now.phase, Phase::Over) {
            Phase::NewtypeSave { unit } => self.roll_newtype_save(unit, f, ev),
            Phase::Initiative { left } => self.roll_initiative(left, f, ev),
            Phase::Strike { attack } => self.roll_strike(attack, f, ev),
            Phase::DefenceDie { attack, defence } => self.roll_defence(attack, defence, f, ev),
            Phase::BeamSave { attack } => self.roll_beam_save(attack, f, ev),
            Phase::StunSave { attack } => self.roll_stun_save(attack, f, ev),
            Phase::Damage {
                attack,
                left,
                sum,
                faces,
            } => self.roll_damage_die(attack, left, sum, faces, f, ev),
            other => self.now.phase = other,
        }
    }

    fn resign(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.resign_side(seat, events)
    }

    fn observe(&self, viewer: Viewer) -> Observation {
        self.observation(viewer)
    }

    fn scene(&self, _viewer: Viewer) -> battlemat_core::Scene {
        self.scene_of()
    }

    fn anchors(&self, action: &Action) -> battlemat_core::Anchors {
        self.anchors_of(action)
    }

    fn evaluate(&self, seat: Seat) -> f64 {
        self.evaluation(seat)
    }

    fn describe(&self, action: &Action) -> String {
        self.describe_action(action)
    }

    fn odds(&self, action: &Action) -> Option<Odds> {
        self.action_odds(action)
    }
}

// A saved state is its setup and its progress, checked as strictly as a new game.
battlemat_core::saved_state!(
    MsD20,
    Setup,
    state::Progress,
    |setup: &Setup, now: &state::Progress| {
        let (fixed, units) = setup::check_setup(setup)?;
        setup::check_progress(&fixed, &units, now).map(|_| fixed)
    }
);
