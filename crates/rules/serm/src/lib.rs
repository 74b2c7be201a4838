//! SERM, "Simplistic Wargame with four stats" (rule text `004`, the Dvorak wiki, 2011): a
//! handful of soldiers a side, each with Shoot, Endure, React and Move as pools of exploding
//! d6, on an open table (`geom::table`, inches).
//!
//! # Design
//!
//! A [`battlemat_core::Game`] on the rules-crate template. Every die of a pool is a chance
//! point, and a six gives the same die another one (no depth limit: the roller keeps rolling
//! while it rolls sixes), so a record shows every face thrown. A Move is declared, rolled and
//! swept along its line to the first contact *before* it is carried out, so the other side
//! decides whether to React knowing the roll and the path, and a successful React stops it
//! wherever the reactor's side chooses on that path. The cards are data: stats and a few
//! special-rule primitives.
//!
//! | module | rules |
//! |---|---|
//! | [`data`], [`options`] | the five cards, scenarios (36 × 36 in, terrain), points line-ups; the `activations` limit and the options naming disputable readings (the Demolitions Expert's 1 and aim, turning, the Assault Commando's turn) |
//! | [`setup`] | checking a setup and a saved state |
//! | [`state`] | the fixed part and the progress |
//! | [`turn`] | the initiative, activations, the end |
//! | [`pools`] | SERM-POOL: rolling, and exact distributions |
//! | [`shoot`] | SERM-SHOOT, SERM-ENDURE, the Demolitions Expert's blast, sight and arcs |
//! | [`movement`] | SERM-MOVE, SERM-REACT, SERM-REACT-H |
//! | [`legal`] | the one judge and the candidate list |
//! | [`events`], [`text`], [`scene`], [`odds`], [`ai`] | actions and events; words; the table as a scene; exact odds; evaluation |
//!
//! # Rejected alternative
//!
//! Rolling a whole pool as one chance point over its totals would make games shorter, but
//! an exploding pool has no largest total, so its outcomes could not be listed without a
//! cut-off; die by die, every outcome is one of six faces.
//!
//! # Public API
//!
//! The state `Serm`, with `battlemat_core::Ruleset` and `Game` implemented on it (the judge
//! `Game::plan`, what a plan does, the scene, the odds), its `Setup`, `Options`, `Catalog`,
//! `Action`, `Event` and `Observation`; and the modules `data` (the cards and scenarios), `pools` (exploding pools' exact distributions) and `state` (the state's parts, which the rule tests read). Every other module is
//! private to the crate: the server, the browser and the AI see the game only through core's
//! traits.

mod ai;
pub mod data;
mod events;
mod legal;
mod movement;
mod odds;
mod options;
mod playout;
pub mod pools;
mod scene;
mod setup;
mod shoot;
pub mod state;
mod text;
mod turn;

pub use data::{Catalog, Options, Setup};
pub use events::{Action, Event};
pub use state::Serm;
pub use text::Observation;

use battlemat_core::TwoSided;
use battlemat_core::data::{DataFolder, choose_scenario};
use battlemat_core::{
    ActionList, DataFile, Game, GameOptions, GameResult, Next, Odds, Outcomes, RulesetInfo,
    ScenarioInfo, Seat, Seating, SetupError, Viewer,
};
use state::Phase;
use std::collections::BTreeMap;

pub const RULESET_ID: &str = "serm";
pub const RULESET_VERSION: &str = "1";

impl battlemat_core::Ruleset for Serm {
    type State = Serm;
    type Setup = Setup;

    fn info() -> RulesetInfo {
        let cat = Catalog::builtin();
        RulesetInfo {
            id: RULESET_ID.into(),
            name: "SERM".into(),
            version: RULESET_VERSION.into(),
            min_seats: 2,
            max_seats: 2,
            legal_actions: Self::LEGAL_ACTIONS,
            options: Options::infos(),
            scenarios: cat
                .scenarios
                .iter()
                .map(|s| ScenarioInfo {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    min_seats: 2,
                    max_seats: 2,
                    summary: s.summary.clone(),
                    ours: s.ours,
                })
                .collect(),
            odds: "--shoot S --endure E, or --react R --move M (numbers of dice)".into(),
            safety_limit: Some(("activations".into(), "200".into())),
        }
    }

    fn setup(scenario: &str, options: &BTreeMap<String, String>) -> Result<Setup, SetupError> {
        let o = Options::from_pairs(options)?;
        let mut s = Catalog::builtin().setup(scenario, o)?;
        // SERM is for 2 players: the seats option may only say so (or swap them).
        s.seating = Seating::from_options(options, 2, 2)?;
        setup::check_setup(&s)?;
        Ok(s)
    }

    fn setup_from_data(
        scenario: Option<&str>,
        files: &[DataFile],
        options: &BTreeMap<String, String>,
    ) -> Result<Setup, SetupError> {
        let o = Options::from_pairs(options)?;
        let folder = DataFolder::new(files, &["cards.toml"]);
        let c = folder.named("cards.toml", data::CARDS_TOML);
        let scenarios = folder.scenarios();
        let mut cat = Catalog::from_sources((&c.0, c.1), &scenarios)?;
        if cat.scenarios.is_empty() {
            cat.scenarios = Catalog::builtin().scenarios.clone();
        }
        let ids: Vec<&str> = cat.scenarios.iter().map(|s| s.id.as_str()).collect();
        let id = choose_scenario(scenario, &ids)?;
        let mut s = cat.setup(&id, o)?;
        s.seating = Seating::from_options(options, 2, 2)?;
        setup::check_setup(&s).map_err(|e| {
            let part = battlemat_core::data::Part {
                setup: "cards.",
                file: "cards.",
                name: &c.0,
                text: c.1,
            };
            battlemat_core::data::place_in_data(e, &id, &scenarios, "scenario.", &[part])
        })?;
        Ok(s)
    }

    fn armies(setup: &Setup) -> Option<battlemat_core::Armies> {
        setup.scenario.points?;
        Some(battlemat_core::Armies {
            seats: setup
                .scenario
                .sides
                .iter()
                .map(|(_, soldiers)| soldiers.iter().map(|(c, _)| c.clone()).collect())
                .collect(),
            costs: setup
                .cards
                .iter()
                .map(|(k, c)| (k.clone(), f64::from(c.cost())))
                .collect(),
        })
    }

    /// A line-up by points (the `points` scenario; ours, docs/rules/serm.md "line-ups"):
    /// each side draws a budget from half its points to all of them (a line-up may spend
    /// less than the limit; varying it lets the lab tell what a point is worth), then cards
    /// at random, each one that still fits (every card equally likely), for the scenario's
    /// places in order, until none fits or the places run out.
    fn random_armies(
        setup: &Setup,
        roller: &mut battlemat_dice::Roller,
    ) -> Option<Result<Setup, SetupError>> {
        let points = setup.scenario.points?;
        let mut s = setup.clone();
        for (_, soldiers) in s.scenario.sides.iter_mut() {
            let places: Vec<_> = soldiers.iter().map(|(_, at)| *at).collect();
            soldiers.clear();
            let least = points.div_ceil(2);
            let mut left = least + roller.roll(points - least + 1) - 1;
            for at in places {
                let fits: Vec<&String> = setup
                    .cards
                    .iter()
                    .filter(|(_, c)| c.cost() <= left)
                    .map(|(k, _)| k)
                    .collect();
                if fits.is_empty() {
                    break;
                }
                let k = fits[roller.roll(fits.len() as u32) as usize - 1];
                left -= setup.cards[k].cost();
                soldiers.push((k.clone(), at));
            }
        }
        Some(setup::check_setup(&s).map(|_| s))
    }

    fn new_game(setup: &Setup) -> Result<Serm, SetupError> {
        Serm::new(setup)
    }

    battlemat_core::matchups_by!(odds::matchup, odds::sample);
}

// The two-sided finish, written once in core (`battlemat_core::TwoSided`).
battlemat_core::two_sided!(Serm, resigns: "concedes", seating: fixed.seating, outcome: now.outcome,
game_over: Event::GameOver, side_name: |g, side| g.fixed.side_names[side as usize].clone(),
end_play: |g| {
    g.now.phase = Phase::Over;
});

impl Game for Serm {
    type Action = Action;
    type Event = Event;
    type Observation = Observation;
    const LEGAL_ACTIONS: ActionList = ActionList::Candidates;

    /// Playouts of eight decisions: a playout that plays the exchange of fire as a player
    /// would (`src/playout.rs`) shows more the longer it runs. Against greedy in the
    /// skirmish, 1,800 games: 54.3 % of the decided at eight decisions, where random
    /// playouts won 49.3 % at four or eight (docs/strength.md, "SERM: playouts that shoot").
    ///
    /// No tree: the one-ply look's six best actions played out round after round on the same
    /// dice, a candidate clearly behind dropped, at four times the general work
    /// (docs/strength.md, "SERM: a race among the rollouts"). The tree levelled off near even
    /// with greedy at any work (52.1 % of 1,200 games on three seeds); the race won 61.9 % of
    /// 1,194 on the same seeds at four to five times the work, within the 50 ms goal (16.7 ms a decision at the bench's
    /// median, 39.8 ms at its slowest).
    const SEARCH: battlemat_core::SearchDefaults = battlemat_core::SearchDefaults {
        playout_decisions: 8,
        rollout_candidates: 6,
        effort: 4,
        ..battlemat_core::SearchDefaults::GENERAL
    };

    battlemat_core::judged_by_plan!(legal::Plan);

    fn seats(&self) -> u8 {
        self.fixed.seating.seats()
    }

    fn next(&self) -> Next {
        match &self.now.phase {
            Phase::Over => Next::Over,
            Phase::Activate { .. }
            | Phase::Aim { .. }
            | Phase::ReactChoice { .. }
            | Phase::StopWhere { .. } => Next::Decide(self.deciding_seat().unwrap_or(0)),
            _ => Next::Chance(Outcomes::Die(6)),
        }
    }

    fn prompt(&self) -> String {
        self.prompt_text()
    }

    /// The activation a player would most likely make, one decision in five at random
    /// (`src/playout.rs`).
    fn playout_action(
        &self,
        roller: &mut battlemat_core::Roller,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        self.playout_choice(roller, buf)
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
            Phase::FirstDie => self.roll_first(f, ev),
            Phase::Shooting {
                shooter,
                target,
                pool,
                shot,
            } => self.roll_shooting(shooter, target, pool, shot, f, ev),
            Phase::Blast { soldier, wind, at } => self.roll_blast(soldier, wind, at, f, ev),
            Phase::MoveRoll {
                mover,
                heading,
                pool,
            } => self.roll_move(mover, heading, pool, f, ev),
            Phase::Reacting {
                moving,
                reactor,
                pool,
            } => self.roll_react(moving, reactor, pool, f, ev),
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

    fn odds(&self, action: &Action) -> Option<Odds> {
        self.action_odds(action)
    }
}

// A saved state is its setup and its progress, checked as strictly as a new game.
battlemat_core::saved_state!(
    Serm,
    Setup,
    state::Progress,
    |setup: &Setup, now: &state::Progress| {
        let (fixed, soldiers) = setup::check_setup(setup)?;
        setup::check_progress(&fixed, &soldiers, now).map(|_| fixed)
    }
);
