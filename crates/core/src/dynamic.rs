//! The erased view of a game: everything as JSON values and text, no generics.
//!
//! The command line, the server and the lab hold "a game" whose type they do not know.
//! [`DynState`] is implemented once, for every [`Game`], by [`Erased`]; nothing here is
//! game-specific. Typed code that needs the concrete state (an AI's search) gets it back
//! with [`DynState::as_any`].

use crate::{
    Armies, DataFile, Game, GameResult, Illegal, MatchupError, Odds, Record, ReplayError,
    RulesetInfo, Scene, Seat, SetupError, Step, ToAct, Viewer,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::any::Any;
use std::collections::BTreeMap;
use std::marker::PhantomData;

/// An action offered to a seat: its short text (what `legal` prints and `act` accepts) and
/// its stable JSON form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DynAction {
    pub text: String,
    pub json: Value,
    /// In the game's words, for menus.
    pub label: String,
}

/// An event: its sentence and its JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DynEvent {
    pub text: String,
    pub json: Value,
}

/// The events of one step: everything (the referee's view) and what each viewer is told,
/// worked out by the game when the step was applied ([`Game::events_for`]), so no caller
/// filters events by hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepEvents {
    pub all: Vec<DynEvent>,
    /// The spectators' events first, then each seat's in seat order.
    pub seen: Vec<(Viewer, Vec<DynEvent>)>,
}

impl StepEvents {
    /// What `viewer` is told.
    pub fn for_viewer(&self, viewer: Viewer) -> &[DynEvent] {
        self.seen
            .iter()
            .find(|(v, _)| *v == viewer)
            .map_or(&[], |(_, e)| e.as_slice())
    }
}

/// A game record with the setup and actions as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DynRecord {
    pub ruleset: String,
    pub version: String,
    pub setup: Value,
    pub steps: Vec<Step<Value>>,
}

/// A rule set, erased.
pub trait DynRuleset: Send + Sync {
    fn info(&self) -> RulesetInfo;
    fn setup(
        &self,
        scenario: &str,
        options: &BTreeMap<String, String>,
    ) -> Result<Value, SetupError>;
    fn setup_from_data(
        &self,
        scenario: Option<&str>,
        files: &[DataFile],
        options: &BTreeMap<String, String>,
    ) -> Result<Value, SetupError>;
    fn new_game(&self, setup: &Value) -> Result<Box<dyn DynState>, SetupError>;
    fn matchup_odds(&self, params: &BTreeMap<String, String>) -> Result<Odds, MatchupError>;
    /// [`Ruleset::matchup_sample`].
    fn matchup_sample(
        &self,
        params: &BTreeMap<String, String>,
        roller: &mut battlemat_dice::Roller,
    ) -> Result<crate::MatchupRoll, MatchupError>;
    /// What each seat of a setup fields under the game's points rules
    /// ([`Ruleset::armies`]); `None` without them.
    fn armies(&self, setup: &Value) -> Result<Option<Armies>, SetupError>;
    /// The setup with armies drawn at random within its points rules
    /// ([`Ruleset::random_armies`]); `None` without them.
    fn random_armies(
        &self,
        setup: &Value,
        roller: &mut battlemat_dice::Roller,
    ) -> Result<Option<Value>, SetupError>;
    /// Replay a record; the error names the failing step (typed: a front end can tell a
    /// record of another version from a bad step).
    fn replay(&self, record: &DynRecord)
    -> Result<(Box<dyn DynState>, Vec<DynEvent>), ReplayError>;
}

/// A game state, erased.
pub trait DynState: Send + Sync {
    fn info(&self) -> RulesetInfo;
    fn seats(&self) -> u8;
    fn to_act(&self) -> ToAct;
    fn legal_actions(&self) -> Vec<DynAction>;
    /// Read an action typed by a player: JSON (`{"move": ...}`) or the short text form.
    /// An input that is no action of the game is refused (no rule: it is not a move at all).
    fn parse_action(&self, input: &str) -> Result<Value, Illegal>;
    fn action_text(&self, action: &Value) -> Result<String, Illegal>;
    /// The action in the game's words (falls back to its text).
    fn describe(&self, action: &Value) -> String;
    fn check(&self, action: &Value) -> Result<(), Illegal>;
    /// Apply a step (an action, a die's face, or a resignation); every event, as the
    /// referee sees them.
    fn apply(&mut self, step: &Step<Value>) -> Result<Vec<DynEvent>, Illegal> {
        Ok(self.apply_seen(step)?.all)
    }
    /// Apply a step; its events as the referee and as each viewer is told them.
    fn apply_seen(&mut self, step: &Step<Value>) -> Result<StepEvents, Illegal>;
    fn observe(&self, viewer: Viewer) -> (Value, String);
    /// The table as `viewer` sees it, with the legal actions' anchors when `viewer` is the
    /// seat to act ([`Game::scene_for`]).
    fn scene(&self, viewer: Viewer) -> Scene;
    fn odds(&self, action: &Value) -> Option<Odds>;
    fn evaluate(&self, seat: Seat) -> f64;
    fn result(&self) -> Option<GameResult>;
    fn state_json(&self) -> Value;
    fn clone_box(&self) -> Box<dyn DynState>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl Clone for Box<dyn DynState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A setup of `G` read from its JSON, or an error saying what in it does not read.
pub fn setup_from_json<G: Game>(setup: &Value) -> Result<G::Setup, SetupError> {
    G::Setup::deserialize(setup)
        .map_err(|e| SetupError::new("setup", format!("malformed setup: {e}")))
}

/// Typed work done for a game whose type is known only to the registry: the registry calls
/// [`GameVisitor::visit`] with the game's type, so a front end (the AI's erased players, the
/// command line) instantiates its generic code for that game without naming it and without
/// the registry depending on the front end.
///
/// Rejected: a struct of function pointers per game, filled in by the registry. It spoke
/// JSON and `String` errors, and tied the registry to every crate whose machinery it held
/// (the AI's players).
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

/// The visitor that erases a game's rule set ([`RulesetOf`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct EraseRuleset;

impl GameVisitor for EraseRuleset {
    type Output = Box<dyn DynRuleset>;
    fn visit<G: Game>(self) -> Box<dyn DynRuleset> {
        Box::new(RulesetOf::<G>::default())
    }
}

/// A game id the registry does not know, with the ids it does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnknownGame {
    pub id: String,
    pub known: Vec<String>,
}

impl std::fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no game {:?}; games are {}",
            self.id,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

/// `G` as a [`DynRuleset`].
pub struct RulesetOf<G>(PhantomData<fn() -> G>);

impl<G> Default for RulesetOf<G> {
    fn default() -> Self {
        RulesetOf(PhantomData)
    }
}

/// `G` as a [`DynState`].
#[derive(Clone, Debug)]
pub struct Erased<G>(pub G);

fn action_from_json<G: Game>(v: &Value) -> Result<G::Action, Illegal> {
    serde_json::from_value(v.clone()).map_err(|e| Illegal::new(format!("malformed action: {e}")))
}

/// A value of ours as JSON. Serialising the games' derived types cannot fail unless a type
/// is written wrongly (a map with keys that are not strings): that is reported, typed, as
/// an internal error naming what failed, never turned into `null`.
fn to_json<T: Serialize>(v: &T, what: &str) -> Result<Value, Illegal> {
    serde_json::to_value(v).map_err(|e| Illegal::by("internal", format!("{what} is not JSON: {e}")))
}

fn events_out<G: Game>(events: &[G::Event]) -> Result<Vec<DynEvent>, Illegal> {
    events
        .iter()
        .map(|e| {
            Ok(DynEvent {
                text: e.to_string(),
                json: to_json(e, "an event")?,
            })
        })
        .collect()
}

impl<G: Game> DynRuleset for RulesetOf<G> {
    fn info(&self) -> RulesetInfo {
        G::info()
    }
    fn setup(
        &self,
        scenario: &str,
        options: &BTreeMap<String, String>,
    ) -> Result<Value, SetupError> {
        let s = G::setup(scenario, options)?;
        serde_json::to_value(&s).map_err(|e| SetupError::new("setup", e.to_string()))
    }
    fn setup_from_data(
        &self,
        scenario: Option<&str>,
        files: &[DataFile],
        options: &BTreeMap<String, String>,
    ) -> Result<Value, SetupError> {
        let s = G::setup_from_data(scenario, files, options)?;
        serde_json::to_value(&s).map_err(|e| SetupError::new("setup", e.to_string()))
    }
    fn new_game(&self, setup: &Value) -> Result<Box<dyn DynState>, SetupError> {
        let s = setup_from_json::<G>(setup)?;
        Ok(Box::new(Erased(G::new_game(&s)?)))
    }
    fn matchup_odds(&self, params: &BTreeMap<String, String>) -> Result<Odds, MatchupError> {
        G::matchup_odds(params)
    }
    fn matchup_sample(
        &self,
        params: &BTreeMap<String, String>,
        roller: &mut battlemat_dice::Roller,
    ) -> Result<crate::MatchupRoll, MatchupError> {
        G::matchup_sample(params, roller)
    }
    fn armies(&self, setup: &Value) -> Result<Option<Armies>, SetupError> {
        Ok(G::armies(&setup_from_json::<G>(setup)?))
    }
    fn random_armies(
        &self,
        setup: &Value,
        roller: &mut battlemat_dice::Roller,
    ) -> Result<Option<Value>, SetupError> {
        match G::random_armies(&setup_from_json::<G>(setup)?, roller) {
            None => Ok(None),
            Some(drawn) => serde_json::to_value(drawn?)
                .map(Some)
                .map_err(|e| SetupError::new("setup", format!("the drawn setup is not JSON: {e}"))),
        }
    }
    fn replay(
        &self,
        record: &DynRecord,
    ) -> Result<(Box<dyn DynState>, Vec<DynEvent>), ReplayError> {
        let setup = setup_from_json::<G>(&record.setup).map_err(ReplayError::Setup)?;
        let mut steps = Vec::with_capacity(record.steps.len());
        for (index, s) in record.steps.iter().enumerate() {
            steps.push(match s {
                Step::Act { seat, action } => Step::Act {
                    seat: *seat,
                    action: action_from_json::<G>(action).map_err(|e| ReplayError::Malformed {
                        index,
                        message: e.reason,
                    })?,
                },
                Step::Roll { value } => Step::Roll { value: *value },
                Step::Resign { seat } => Step::Resign { seat: *seat },
            });
        }
        let rec = Record::<G> {
            ruleset: record.ruleset.clone(),
            version: record.version.clone(),
            setup,
            steps,
        };
        let (state, events) = rec.replay()?;
        let mut out = Vec::new();
        for (index, e) in events.iter().enumerate() {
            out.extend(events_out::<G>(e).map_err(|e| ReplayError::Malformed {
                index,
                message: e.reason,
            })?);
        }
        Ok((Box::new(Erased(state)), out))
    }
}

impl<G: Game> DynState for Erased<G> {
    fn info(&self) -> RulesetInfo {
        G::info()
    }
    fn seats(&self) -> u8 {
        self.0.seats()
    }
    fn to_act(&self) -> ToAct {
        self.0.to_act()
    }
    fn legal_actions(&self) -> Vec<DynAction> {
        self.0
            .legal_actions()
            .into_iter()
            .filter_map(|a| {
                // An action that is not JSON is a bug in its type; it is left out of the
                // list (and so can never be chosen) rather than listed as `null`.
                let json = to_json(&a, "an action").ok()?;
                Some(DynAction {
                    text: a.to_string(),
                    json,
                    label: self.0.describe(&a),
                })
            })
            .collect()
    }
    fn parse_action(&self, input: &str) -> Result<Value, Illegal> {
        let t = input.trim();
        let action: G::Action = if t.starts_with('{') || t.starts_with('"') {
            serde_json::from_str(t)
                .map_err(|e| Illegal::new(format!("malformed action JSON: {e}")))?
        } else {
            t.parse().map_err(Illegal::new)?
        };
        to_json(&action, "an action")
    }
    fn action_text(&self, action: &Value) -> Result<String, Illegal> {
        Ok(action_from_json::<G>(action)?.to_string())
    }
    fn describe(&self, action: &Value) -> String {
        match action_from_json::<G>(action) {
            Ok(a) => self.0.describe(&a),
            Err(_) => action.to_string(),
        }
    }
    fn check(&self, action: &Value) -> Result<(), Illegal> {
        self.0.check(&action_from_json::<G>(action)?)
    }
    fn apply_seen(&mut self, step: &Step<Value>) -> Result<StepEvents, Illegal> {
        let step = match step {
            Step::Act { seat, action } => Step::Act {
                seat: *seat,
                action: action_from_json::<G>(action)?,
            },
            Step::Roll { value } => Step::Roll { value: *value },
            Step::Resign { seat } => Step::Resign { seat: *seat },
        };
        let events = self.0.apply(&step)?;
        let viewers =
            std::iter::once(Viewer::Spectator).chain((0..self.0.seats()).map(Viewer::Seat));
        let mut seen = Vec::new();
        for v in viewers {
            seen.push((v, events_out::<G>(&self.0.events_for(&events, v))?));
        }
        Ok(StepEvents {
            all: events_out::<G>(&events)?,
            seen,
        })
    }
    fn observe(&self, viewer: Viewer) -> (Value, String) {
        let o = self.0.observe(viewer);
        let json = to_json(&o, "the observation")
            .unwrap_or_else(|e| serde_json::json!({ "error": e.reason }));
        (json, o.to_string())
    }
    fn odds(&self, action: &Value) -> Option<Odds> {
        self.0.odds(&action_from_json::<G>(action).ok()?)
    }
    fn scene(&self, viewer: Viewer) -> Scene {
        self.0.scene_for(viewer)
    }
    fn evaluate(&self, seat: Seat) -> f64 {
        self.0.evaluate(seat)
    }
    fn result(&self) -> Option<GameResult> {
        self.0.result()
    }
    fn state_json(&self) -> Value {
        to_json(&self.0, "the state").unwrap_or_else(|e| serde_json::json!({ "error": e.reason }))
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
