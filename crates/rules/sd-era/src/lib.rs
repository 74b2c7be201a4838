//! SD ERA: Sean Patten's fast and silly tabletop game of SD Gundam battles (rule text
//! `000`), on an open table measured with sticks, with its five competitive missions.
//!
//! # Design
//!
//! The crate follows the rules-crate template (`ARCHITECTURE.md`): laid out by rule area,
//! each module opening with the rule ids it owns, and `docs/rules/sd-era.md` pointing
//! every rule at one module.
//!
//! | module | rules |
//! |---|---|
//! | [`options`] | our house rules, declared once (`game_options!`) |
//! | [`data`] | SDE-T2 and the letters: the unit chart, the missions as data (`Setup`, `Catalog`, BATTLE ZONES' cards) |
//! | [`state`] | the state: fixed part and progress; lookups |
//! | [`setup`] | each mission's .1: reading and checking the data and a setup once; the posts and the `start` option's edges; the balls |
//! | [`army`] | SDE-T2's points and unit limits, the draft |
//! | [`saved`] | a saved state checked as strictly as a setup |
//! | [`turn`] | SDE-T1 turn order, turns, SDE-F's free move, the end, resigning, who decides |
//! | [`movement`] | SDE-MOVE, SDE-CHARGE, SDE-T: judging and making a move; `movement/candidates.rs` the candidate moves (contact, cover, transports) |
//! | [`combat`] | SDE-SHOOT, SDE-RANGE, SDE-SIGHT, SDE-MELEE; SDE-A, B, C, H, M, S, V in the dice |
//! | [`knockback`] | SDE-KB1..KB3; balls and bombs moving (SDE-SOCCER.2); everything pending |
//! | [`missions`] | SDE-KOTH.2, SDE-KICKBOMB.2, SDE-RING.2, SDE-SAFARI.2 (the animals and their turn) |
//! | [`enemies`] | units no player owns: pick a target, close in, attack (EGG HUNT's boss, CONVOY's and BATTLE ZONES' enemies) |
//! | [`eggs`] | SDE-EGG: the eggs, what comes out of them, the credits |
//! | [`convoy`] | SDE-CONVOY: the ship, the pool, the roll-offs |
//! | [`zones`] | SDE-ZONES: zones, cards, blips |
//! | [`legal`] | the one judge: `plan` (used by `check`, the candidates and `act`), by phase and rule area; `legal/fights.rs` a fight's steps, the choices and shots (SDE-MELEE, SDE-SHOOT), `legal/start.rs` the draft, edges and placing (each mission's `.1`, SDE-RING.1) |
//! | [`carry`] | what an accepted plan does, handed to the rule module that owns it |
//! | [`candidates`] | the candidate list (`legal_actions`), each candidate judged by `plan` |
//! | [`events`], [`action_text`] | actions and events as data, and the actions' short text (`move u2 3.25,1.5`) |
//! | [`measure`], [`shares`], [`cargo`] | an action's parts: sticks, points and winds; a shot's shares; a transport's load |
//! | [`text`], [`scene`] | words (the observation, prompts, events); the table as a scene with each action's anchors |
//! | [`odds`], [`ai`] | exact odds; evaluation |
//!
//! How they depend on each other: [`options`] and [`data`] depend on no other module of the
//! crate (the data is plain: unit types, missions, cards); [`state`] on [`data`]; [`setup`]
//! on both, and it is where the data is checked (`Catalog::from_sources` checks each mission
//! as a setup), so the data never reaches back into the set-up or the state. The rule areas
//! ([`turn`], [`movement`], [`combat`], [`knockback`], the missions' modules) add methods to
//! the state; [`legal`] judges with them, [`carry`] carries out what it accepted, and
//! [`candidates`], [`text`], [`scene`], [`odds`] and [`ai`] read the state and the judge.
//!
//! Positions are integer ticks (2,400 a stick) and every query on the table is exact
//! (`battlemat_geom::table`): a knockback stops at the first contact with terrain, an edge
//! or another base, the same on every machine. Each die is a chance point; an opposed roll
//! keeps face counts, so an AI can weigh outcomes exactly.
//!
//! Moves take free parameters — any point within a stick — so `check` accepts any legal
//! point while `legal_actions` lists a finite set of useful candidates
//! ([`battlemat_core::ActionList::Candidates`]).
//!
//! # Rejected alternatives
//!
//! A grid under the table (moves to cell centres) would make the action list complete and
//! small, but the game is played with sticks on an open table: a charge that ends a hair
//! short of "next to", or a knockback that grazes a rock, is the game, so positions are
//! points and the candidate list is only a menu.
//!
//! Rolling an opposed roll as one chance point over all outcomes would cut steps, but a
//! VETERAN re-rolls *one* die the player picks after seeing them, and a player with real
//! dice reads faces, not a distribution; one die per chance point keeps the record faithful.
//!
//! # Public API
//!
//! The state `SdEra`, with `battlemat_core::Ruleset` and `Game` implemented on it (the judge
//! `Game::plan`, what a plan does, the scene, the odds), its `Setup`, `Options`, `Catalog`,
//! `Action`, `Event` and `Observation`; and the modules `data` (the unit table and missions), `eggs` (the egg hunt's tables), `events` (actions and their parts: targets, points) and `state` (the state's parts, which the rule tests read). Every other module is
//! private to the crate: the server, the browser and the AI see the game only through core's
//! traits.

mod action_text;
mod ai;
mod army;
mod candidates;
mod cargo;
mod carry;
mod combat;
mod convoy;
pub mod data;
pub mod eggs;
mod enemies;
pub mod events;
mod knockback;
mod legal;
mod measure;
mod missions;
mod movement;
mod odds;
mod options;
mod saved;
mod scene;
mod setup;
mod shares;
pub mod state;
mod text;
mod turn;
mod zones;

pub use data::{Catalog, Options, Setup};
pub use events::{Action, Event};
pub use state::SdEra;
pub use text::Observation;

use battlemat_core::{
    ActionList, DataFile, Game, GameOptions, GameResult, Next, Odds, RulesetInfo, ScenarioInfo,
    Seat, SetupError, Viewer,
};
use state::Phase;
use std::collections::BTreeMap;
use std::sync::Arc;

pub const RULESET_ID: &str = "sd-era";
/// Bumped whenever a rule change would make an old record replay differently.
/// Version 2: the ball that beats a unit never comes to rest on it (SDE-SOCCER.2); a hill's
/// holder is next to the units at its foot (SDE-KOTH.2).
pub const RULESET_VERSION: &str = "3";

impl SdEra {
    pub fn new(setup: &Setup) -> Result<SdEra, SetupError> {
        let (fixed, now) = setup::check_setup(setup)?;
        Ok(SdEra {
            fixed: Arc::new(fixed),
            now,
        })
    }
}

/// The number of players from the `seats` option (2 by default).
fn players_option(options: &BTreeMap<String, String>) -> Result<u8, SetupError> {
    match options.get(battlemat_core::SEATS_OPTION) {
        None => Ok(2),
        Some(v) => v
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|n| (2..=setup::MAX_PLAYERS).contains(n))
            .ok_or_else(|| {
                SetupError::new(
                    "option seats",
                    format!("{v:?}: SD ERA is for 2 to 6 players, one a seat"),
                )
            }),
    }
}

impl battlemat_core::Ruleset for SdEra {
    type State = SdEra;
    type Setup = Setup;

    fn info() -> RulesetInfo {
        let cat = Catalog::builtin();
        RulesetInfo {
            id: RULESET_ID.into(),
            name: "SD ERA".into(),
            version: RULESET_VERSION.into(),
            min_seats: 2,
            max_seats: setup::MAX_PLAYERS,
            legal_actions: Self::LEGAL_ACTIONS,
            options: Options::infos(),
            scenarios: cat
                .missions
                .iter()
                .map(|m| ScenarioInfo {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    min_seats: m.min_seats,
                    max_seats: m.max_seats,
                    summary: m.summary.clone(),
                    ours: false,
                })
                .collect(),
            odds: "--attacker VALUE[LETTER] --defender VALUE[LETTER] [--range STICKS] [--melee] [--contest sum] [--artillery extra_die] [--hidden]; e.g. --attacker 4V --defender 3C".into(),
            safety_limit: Some(("rounds".into(), "30".into())),
        }
    }

    fn setup(scenario: &str, options: &BTreeMap<String, String>) -> Result<Setup, SetupError> {
        let o = Options::from_pairs(options)?;
        let players = players_option(options)?;
        let setup = Catalog::builtin().setup(scenario, players, o)?;
        setup::check_setup(&setup)?;
        Ok(setup)
    }

    /// Data files: a `units.toml` (the unit chart; else the built-in one) and any number of
    /// mission files (`data/scenarios/*.toml`'s shape).
    fn setup_from_data(
        scenario: Option<&str>,
        files: &[DataFile],
        options: &BTreeMap<String, String>,
    ) -> Result<Setup, SetupError> {
        let o = Options::from_pairs(options)?;
        let players = players_option(options)?;
        let is_chart = |f: &&DataFile| {
            std::path::Path::new(&f.name)
                .file_name()
                .is_some_and(|n| n == "units.toml")
        };
        let (chart_name, chart_text) = match files.iter().find(is_chart) {
            Some(f) => (f.name.as_str(), f.text.as_str()),
            None => ("units.toml (built in)", data::UNITS_TOML),
        };
        let missions: Vec<(&str, &str)> = files
            .iter()
            .filter(|f| !is_chart(f))
            .map(|f| (f.name.as_str(), f.text.as_str()))
            .collect();
        let mut sources: Vec<(&str, &str)> = missions.clone();
        if missions.is_empty() || scenario.is_some() {
            sources.extend(data::MISSIONS.iter().copied());
        }
        let cat = Catalog::from_sources(chart_name, chart_text, &sources)?;
        let id = match scenario {
            Some(id) => id.to_string(),
            None => match missions.as_slice() {
                [_] => cat.missions[0].id.clone(),
                [] => {
                    return Err(SetupError::new(
                        "scenario",
                        "no mission in the data: name one with --scenario",
                    ));
                }
                _ => {
                    return Err(SetupError::new(
                        "scenario",
                        "the data holds several missions: name one with --scenario",
                    ));
                }
            },
        };
        let setup = cat.setup(&id, players, o)?;
        setup::check_setup(&setup).map_err(|e| {
            let chart = battlemat_core::data::Part {
                setup: "chart.",
                file: "",
                name: chart_name,
                text: chart_text,
            };
            // The armies are the mission file's, placed there too.
            let e = match battlemat_core::data::file_with_id(&missions, &id) {
                Some((name, text)) => {
                    let armies = battlemat_core::data::Part {
                        setup: "armies",
                        file: "armies",
                        name,
                        text,
                    };
                    battlemat_core::data::place_parts(e, &[armies])
                }
                None => e,
            };
            battlemat_core::data::place_in_data(e, &id, &missions, "mission.", &[chart])
        })?;
        Ok(setup)
    }

    fn new_game(setup: &Setup) -> Result<SdEra, SetupError> {
        SdEra::new(setup)
    }

    /// The armies a mission sets up (not a draft's, chosen in play), costed by SDE-T2.
    fn armies(setup: &Setup) -> Option<battlemat_core::Armies> {
        if setup.options.armies == data::Armies::Draft || setup.mission.points == 0 {
            return None;
        }
        Some(battlemat_core::Armies {
            seats: setup
                .armies
                .iter()
                .take(setup.players as usize)
                .cloned()
                .collect(),
            costs: setup
                .chart
                .iter()
                .map(|(k, t)| (k.clone(), f64::from(t.cost())))
                .collect(),
        })
    }

    /// SDE-T2's limits, at random: each seat draws a budget from half the mission's points
    /// to all of them (spending less is allowed; varying it lets the lab tell what a point
    /// is worth), then units from the chart, each one that still fits the points and the
    /// unit limit equally likely, until none fits (at most twelve units).
    fn random_armies(
        setup: &Setup,
        roller: &mut battlemat_dice::Roller,
    ) -> Option<Result<Setup, SetupError>> {
        Self::armies(setup)?;
        let m = &setup.mission;
        let points = u32::from(m.points);
        let least = points.div_ceil(2);
        let mut s = setup.clone();
        for seat in 0..(setup.players as usize).min(s.armies.len()) {
            let mut army = Vec::new();
            // A draw that cannot reach the mission's least units is drawn again.
            for _ in 0..100 {
                army.clear();
                let mut left = least + roller.roll(points - least + 1) - 1;
                let mut counted = 0u8;
                while army.len() < 12 {
                    let fits: Vec<&String> = setup
                        .chart
                        .iter()
                        .filter(|(_, t)| {
                            u32::from(t.cost()) <= left
                                && (t.is(data::Special::T)
                                    || m.most_units == 0
                                    || counted < m.most_units)
                        })
                        .map(|(k, _)| k)
                        .collect();
                    if fits.is_empty() {
                        break;
                    }
                    let k = fits[roller.roll(fits.len() as u32) as usize - 1];
                    let t = &setup.chart[k];
                    left -= u32::from(t.cost());
                    counted += u8::from(!t.is(data::Special::T));
                    army.push(k.clone());
                }
                if counted >= m.least_units && !army.is_empty() {
                    break;
                }
            }
            s.armies[seat] = army;
        }
        Some(SdEra::new(&s).map(|_| s))
    }

    /// A version 1 record may hold a ball's move or a melee at a hill that now goes otherwise.
    fn replays_older(version: &str, _setup: &Setup) -> Result<(), String> {
        // Version 3: a VETERAN is no longer asked when no re-roll can help (SDE-V), so a
        // version 2 file's `keep` steps there would not replay.
        let (changed, commit) = match version {
            "2" => (
                "a VETERAN is no longer asked to re-roll when no re-roll can change the result for the better (SDE-V)",
                "f0790a0",
            ),
            _ => (
                "a ball that beats a unit now goes on until clear of it (SDE-SOCCER.2), a \
                 hill's holder is next to the units at its foot (SDE-KOTH.2), and a VETERAN is \
                 no longer asked to re-roll when no re-roll can help (SDE-V)",
                "ebbe482",
            ),
        };
        Err(battlemat_core::older_version_refused(
            RULESET_ID,
            version,
            RULESET_VERSION,
            changed,
            commit,
        ))
    }

    battlemat_core::matchups_by!(odds::matchup, odds::sample);
}

impl Game for SdEra {
    type Action = Action;
    type Event = Event;
    type Observation = Observation;

    const LEGAL_ACTIONS: ActionList = ActionList::Candidates;

    /// Four times the general work a decision. A default search here spends most of its
    /// budget on greedy's exact prior and then runs about 75 iterations, which change its
    /// choice mostly by noise: against greedy in King of the Hill it won 43.5 % of 200
    /// games, 55.5 % with four times the work (the tuning example, `seed=5`; 52 and 62 % on
    /// `seed=3`), at a median of 24–34 ms a decision on one core (the bench on two
    /// machines; docs/strength.md, "The search's effort a game").
    const SEARCH: battlemat_core::SearchDefaults = battlemat_core::SearchDefaults {
        effort: 4,
        ..battlemat_core::SearchDefaults::GENERAL
    };

    battlemat_core::judged_by_plan!(legal::Plan);

    /// A listed move's or shot's plan is read off the action ([`SdEra::listed_plan_of`]).
    fn listed_plan(&self, action: &Action) -> Result<legal::Plan, battlemat_core::Why> {
        self.listed_plan_of(action)
    }

    fn seats(&self) -> u8 {
        self.fixed.players
    }

    fn next(&self) -> Next {
        self.next_step()
    }

    fn prompt(&self) -> String {
        self.prompt_text()
    }

    fn result(&self) -> Option<GameResult> {
        self.now.result.clone()
    }

    fn legal_actions(&self) -> Vec<Action> {
        self.legal()
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.legal_into(out)
    }

    fn playout_action(
        &self,
        roller: &mut battlemat_core::Roller,
        out: &mut Vec<Action>,
    ) -> Option<Action> {
        SdEra::playout_action(self, roller, out)
    }

    fn apply_chance(&mut self, value: u32, ev: &mut Vec<Event>) {
        let face = value.clamp(1, 6) as u8;
        match self.now.phase.clone() {
            Phase::EggOpens { egg, by } => self.open_egg(egg, by, value, ev),
            Phase::EnemyDraw { seat, left } => self.draw_enemy(seat, left, value, ev),
            Phase::ZoneCard { zone } => self.draw_zone_card(zone, value, ev),
            Phase::BlipReveal { blip, unit } => self.reveal_drawn(blip, unit, value, ev),
            Phase::MineRoll { mine, unit } => self.roll_mine(mine, unit, face, ev),
            Phase::OrderRoll { seat, left, scores } => {
                self.roll_order(seat, left, scores, face, ev)
            }
            Phase::CaptureRoll { seat, left, scores } => {
                self.roll_capture(seat, left, scores, face, ev)
            }
            Phase::EggBomb {
                bomb,
                left,
                turn_start,
            } => self.roll_egg_bomb(bomb, left, turn_start, face, ev),
            Phase::TurnOrder {
                seat,
                left,
                scores,
                rolling,
            } => self.roll_turn_order(seat, left, scores, rolling, face, ev),
            Phase::Fight(f) => self.roll_fight(f, face, ev),
            Phase::BreakIn {
                unit,
                left,
                first,
                same,
            } => self.roll_break_in(unit, left, first, same, face, ev),
            Phase::BombRoll { bomb, left, done } => self.roll_bomb(bomb, left, done, face, ev),
            Phase::AnimalRecover { animal, left } => {
                self.roll_animal_recover(animal, left, face, ev)
            }
            Phase::AnimalCharge { animal, left } => self.roll_animal_charge(animal, left, face, ev),
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
        match &self.now.result {
            Some(r) => battlemat_core::result_value(r, seat),
            None => self.heuristic(seat),
        }
    }

    fn describe(&self, action: &Action) -> String {
        self.describe_action(action)
    }

    fn odds(&self, action: &Action) -> Option<Odds> {
        self.action_odds(action)
    }
}

// A saved state is checked as strictly as a setup (`saved::check_progress`).
battlemat_core::saved_state!(
    SdEra,
    Setup,
    state::Progress,
    |setup: &Setup, now: &state::Progress| {
        let (fixed, _) = setup::check_setup(setup)?;
        saved::check_progress(&fixed, now).map(|_| fixed)
    }
);
