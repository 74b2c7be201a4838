//! Battle for A-Bao-A-Qu (Tsukuda Hobby, 1982): the hex-and-counter wargame of the last
//! battle of the One Year War (rule text `002`), its seven scenarios, and our readings of
//! what the text leaves out (`docs/rules/abaoaqu.md`).
//!
//! # Design
//!
//! The crate is a [`battlemat_core::Game`] on the rules-crate template: a state machine
//! that never rolls a die itself. Every die is a chance point (the S6 lead-off, each
//! recovery, each attack, each BD missile, the S7 reinforcements), and every decision is an
//! action judged by one function ([`legal`]'s `plan`). Counters, tables and scenarios are
//! data (`data/*.toml`), ours where the boxed game's were not found, and a [`data::Setup`]
//! carries them all so that a record replays without the files.
//!
//! Scale drives the shape of the decisions. Scenario 3 has over two hundred counters, each
//! of which can reach a hundred hexes; listing every move of every counter at once would be
//! tens of thousands of actions. Instead the seat is asked about one counter at a time, in
//! roster order (the stacking limit is only checked when the side has finished moving, ABQ-
//! 5-5, so the order changes nothing), and an attack is declared step by step (from a hex,
//! with these units, at that hex, at this unit or group, fire). Every list is short, every
//! listing is linear in the counters, and the list is still complete: every action the
//! referee accepts is listed.
//!
//! | module | rules |
//! |---|---|
//! | [`data`], [`options`] | ABQ-2-A/B/C and ABQ-UNITS (counters), the tables, ABQ-S1..S7 as data; the house-rule options (`turns`, and the disputable readings of 3-3, 8-4, 11-2, 17-2, 17-4 and the scenarios' "3 turns") |
//! | [`map`] | ABQ-1: boards, layouts, the fortress, hex numbers |
//! | [`setup`] | checking a setup, dealing counters to seats, set-up areas |
//! | [`state`] | the fixed part and the progress; lookups (the counter's showing side) |
//! | [`turn`] | ABQ-3-1..3-3: the ten phases, entrances, reinforcements, victory, turn limit |
//! | [`movement`] | ABQ-4-1..4-6, ABQ-5-1..5-6 |
//! | [`combat`] | ABQ-6-1..9-7: shooting, groups, close combat, ratios, the tables |
//! | [`ranks`] | ABQ-11-1..14-3: pilot ranks |
//! | [`morale`] | ABQ-10-1..10-4, and what results do |
//! | [`missiles`] | ABQ-15 (large missiles), ABQ-16 (satellite missiles), ABQ-18 (BD screens); ABQ-17's Bigzam is flags in the data read by [`combat`] |
//! | [`legal`] | the one judge and the complete listing |
//! | [`events`], [`text`], [`scene`], [`odds`], [`ai`] | actions and events; the text map; the table as a scene; exact odds; evaluation |
//!
//! # Rejected alternatives
//!
//! Rolling the lead-off side's attacks when declared, and holding back only their effect,
//! would show each side its results a phase early; the text says the damage is "determined"
//! in the damage check, so the dice wait for it.
//!
//! `geom::Grid` (the skirmish games' cells, `c4`) would have needed letters past `z`; the
//! map here is `geom::hexmap`, numbered as printed wargame maps are (`0712`).
//!
//! # Public API
//!
//! The state `AbaoAqu`, with `battlemat_core::Ruleset` and `Game` implemented on it (the judge
//! `Game::plan`, what a plan does, the scene, the odds), its `Setup`, `Options`, `Catalog`,
//! `Action`, `Event` and `Observation`; and the modules `combat` (the odds-ratio tables), `data` (the counters and scenarios), `map` (the hex map), `ranks` (pilot ranks) and `state` (the state's parts, which the rule tests read). Every other module is
//! private to the crate: the server, the browser and the AI see the game only through core's
//! traits.

mod ai;
pub mod combat;
pub mod data;
mod events;
mod legal;
pub mod map;
mod missiles;
mod morale;
mod movement;
mod odds;
mod options;
pub mod ranks;
mod scene;
mod setup;
pub mod state;
mod text;
mod turn;

/// The weights of the hold under way in the AIs' evaluation (its tests read them).
pub use ai::{HOLD_NEAR, HOLD_TURN};
pub use data::{Catalog, Options, Setup};
pub use events::{Action, Event, Group, HexNo};
pub use state::AbaoAqu;
pub use text::Observation;

use battlemat_core::TwoSided;
use battlemat_core::data::{DataFolder, choose_scenario};
use battlemat_core::{
    DataFile, Game, GameOptions, GameResult, Next, Odds, Outcomes, RulesetInfo, ScenarioInfo, Seat,
    Seating, SetupError, Viewer,
};
use state::{Declaring, Phase};
use std::collections::BTreeMap;

pub const RULESET_ID: &str = "abaoaqu";
/// Bumped whenever a rule change would make an old record replay differently.
/// Version 2: a starting ratio worse than 1:3 has no effect and a shift stops at 1:3
/// (ABQ-7-5, rulings). Version 3: an attack (or a satellite missile) that cannot have any
/// effect is neither listed nor accepted (ABQ-7-5).
pub const RULESET_VERSION: &str = "3";

impl battlemat_core::Ruleset for AbaoAqu {
    type State = AbaoAqu;
    type Setup = Setup;

    fn info() -> RulesetInfo {
        let cat = Catalog::builtin();
        RulesetInfo {
            id: RULESET_ID.into(),
            name: "Battle for A-Bao-A-Qu".into(),
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
                    name: format!("{}. {}", s.number, s.name),
                    min_seats: s.seats.0,
                    max_seats: s.seats.1,
                    summary: s.summary.clone(),
                    ours: s.ours,
                })
                .collect(),
            odds: "--attack A[+A…] --defence D[+D…] [--range R|none] [--same-hex] [--close [--attacker-kind ms|ball] [--defender-kind ms|ball|fighter|turret|ship|doros|bigzam]] [--attacker-pilot N1|N2|N3|E|S[+…]] [--defender-pilot … (N2d: defence only)] [--defender-state C|D]".into(),
            safety_limit: Some(("turns".into(), "15".into())),
        }
    }

    fn setup(scenario: &str, options: &BTreeMap<String, String>) -> Result<Setup, SetupError> {
        let o = Options::from_pairs(options)?;
        let cat = Catalog::builtin();
        let mut setup = cat.setup(scenario, o)?;
        setup.seating = Seating::from_options(options, 2, setup.scenario.seats.1)?;
        setup::check_setup(&setup)?;
        Ok(setup)
    }

    /// Data files shaped like this crate's `data/`: `units.toml`, `tables.toml` (else the
    /// built-in ones) and scenario files.
    fn setup_from_data(
        scenario: Option<&str>,
        files: &[DataFile],
        options: &BTreeMap<String, String>,
    ) -> Result<Setup, SetupError> {
        let o = Options::from_pairs(options)?;
        let folder = DataFolder::new(files, &["units.toml", "tables.toml"]);
        let units = folder.named("units.toml", data::UNITS_TOML);
        let tables = folder.named("tables.toml", data::TABLES_TOML);
        let scenarios = folder.scenarios();
        let mut cat =
            Catalog::from_sources((&units.0, units.1), (&tables.0, tables.1), &scenarios)?;
        if cat.scenarios.is_empty() {
            cat.scenarios = Catalog::builtin().scenarios.clone();
        }
        let ids: Vec<&str> = cat.scenarios.iter().map(|s| s.id.as_str()).collect();
        let id = choose_scenario(scenario, &ids)?;
        let mut setup = cat.setup(&id, o)?;
        setup.seating = Seating::from_options(options, 2, setup.scenario.seats.1)?;
        setup::check_setup(&setup).map_err(|e| {
            use battlemat_core::data::Part;
            let parts = [
                Part {
                    setup: "units.",
                    file: "units.",
                    name: &units.0,
                    text: units.1,
                },
                Part {
                    setup: "tables.",
                    file: "",
                    name: &tables.0,
                    text: tables.1,
                },
            ];
            battlemat_core::data::place_in_data(e, &id, &scenarios, "scenario.", &parts)
        })?;
        Ok(setup)
    }

    fn new_game(setup: &Setup) -> Result<AbaoAqu, SetupError> {
        AbaoAqu::new(setup)
    }

    /// A version 1 record may hold an attack whose column the 1:3 end changed (ABQ-7-5); a
    /// version 2 record may hold an attack fired to no effect, now refused (ABQ-7-5).
    fn replays_older(version: &str, _setup: &Setup) -> Result<(), String> {
        let (why, commit) = if version == "1" {
            (
                "a ratio worse than 1:3 before the pilot ranks now has no effect and a shift \
                 stops at 1:3 (ABQ-7-5)",
                "ebbe482",
            )
        } else {
            (
                "an attack that cannot have any effect (every ratio worse than 1:3) is now \
                 refused instead of fired (ABQ-7-5)",
                "f0790a0",
            )
        };
        Err(battlemat_core::older_version_refused(
            RULESET_ID,
            version,
            RULESET_VERSION,
            why,
            commit,
        ))
    }

    battlemat_core::matchups_by!(odds::matchup, odds::sample);
}

// The two-sided finish, written once in core (`battlemat_core::TwoSided`).
battlemat_core::two_sided!(AbaoAqu, resigns: "surrenders", seating: fixed.seating, outcome: now.outcome,
game_over: Event::GameOver, side_name: |g, side| g.side_name(side).to_string(),
end_play: |g| {
    g.now.phase = Phase::Over;
    g.now.pending.clear();
});

/// How many times a playout draws again a move into a hex with no room for the counter
/// ([`Game::playout_action`]).
pub const OVERSTACKED_REDRAWS: u32 = 3;

impl Game for AbaoAqu {
    type Action = Action;
    type Event = Event;
    type Observation = Observation;

    /// A search weighs at the root only the action a one-ply look ranks best, one of its
    /// ties at random in each of the search's trees, and the move is the one the trees'
    /// searches favour. This game's evaluation values most moves alike (away from the
    /// fortress a counter's hex counts for nothing), and a search weighing every tied move
    /// at a few visits each chose among them by noise: against greedy on S Field it won
    /// 17.6 % of 200 decided games with every action weighed, 76.2 % with one a tree
    /// (docs/strength.md, "A-Bao-A-Qu: one candidate a tree").
    const SEARCH: battlemat_core::SearchDefaults = battlemat_core::SearchDefaults {
        root_candidates: 1,
        keep_trees: false,
        ..battlemat_core::SearchDefaults::GENERAL
    };

    battlemat_core::judged_by_plan!(legal::Plan);

    fn seats(&self) -> u8 {
        self.fixed.seating.seats()
    }

    fn next(&self) -> Next {
        match &self.now.phase {
            Phase::Over => Next::Over,
            Phase::Deploy { .. }
            | Phase::Move { .. }
            | Phase::Remove { .. }
            | Phase::Combat { .. } => Next::Decide(self.deciding_seat().unwrap_or(0)),
            Phase::LeadOffDie
            | Phase::Recovery { .. }
            | Phase::Resolve { .. }
            | Phase::DamageCheck
            | Phase::Screen { .. }
            | Phase::ReinforcementDie => Next::Chance(Outcomes::Die(6)),
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
            Phase::LeadOffDie => self.roll_lead_off(f, ev),
            Phase::Recovery { unit } => self.roll_recovery(unit, f, ev),
            Phase::Resolve { attacks, seat } => self.roll_resolve(attacks, seat, f, ev),
            Phase::DamageCheck => self.roll_damage(f, ev),
            Phase::Screen { hex, seat, .. } => self.roll_screen(hex, seat, f, ev),
            Phase::ReinforcementDie => self.roll_reinforcements(f, ev),
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

    /// A playout's draw: uniform over the listing, except that a move into a hex with no
    /// room for the counter (ABQ-5-2: it would be removed when the movement ends, ABQ-5-6)
    /// is drawn again, up to [`OVERSTACKED_REDRAWS`] times. Every listed action can still
    /// be drawn; a search's random playouts no longer spend most of a movement phase
    /// throwing counters away, which made whichever side was moving look lost to the
    /// search (the evaluation counts counters over the limit as gone while a side moves).
    fn playout_action(
        &self,
        roller: &mut battlemat_core::Roller,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        self.legal_actions_into(buf);
        if buf.is_empty() {
            return None;
        }
        let mut draw = || buf[roller.roll(buf.len() as u32) as usize - 1];
        let mut a = draw();
        for _ in 0..OVERSTACKED_REDRAWS {
            match self.plan(&a) {
                Ok(legal::Plan::Move(u, h)) if !self.room_for(u, h) => a = draw(),
                _ => break,
            }
        }
        Some(a)
    }

    /// ABQ-8-1, 8-2: an attack is declared in steps (the hex attacked from, the attackers,
    /// the target hex, the aim, fire or cancel), as a BD Public's launch is (the unit, then
    /// its target hex, ABQ-18-3); every step after the first continues the declaration.
    fn continues_move(&self) -> bool {
        matches!(
            &self.now.phase,
            Phase::Combat { declaring, .. } if *declaring != Declaring::Idle
        )
    }

    fn describe(&self, action: &Action) -> String {
        self.describe_action(action)
    }

    fn odds(&self, action: &Action) -> Option<Odds> {
        self.action_odds(action)
    }
}

// A saved state is its setup and its progress; reading one checks both as strictly as a
// new game (`setup::check_progress`).
battlemat_core::saved_state!(
    AbaoAqu,
    Setup,
    state::Progress,
    |setup: &Setup, now: &state::Progress| {
        let (fixed, units) = setup::check_setup(setup)?;
        setup::check_progress(&fixed, &units, now).map(|_| fixed)
    }
);
