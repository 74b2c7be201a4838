//! The erased view of a game: everything as JSON values and text, no generics.
//!
//! The command line, the server and the lab hold "a game" whose type they do not know.
//! [`DynState`] is implemented once, for every [`Game`], by [`Erased`]; nothing here is
//! game-specific. Typed code that needs the concrete state (an AI's search) gets it back
//! with [`DynState::as_any`].

use crate::{
    DataFile, Game, GameResult, Illegal, Odds, Record, ReplayError, RulesetInfo, Seat, SetupError,
    Step, ToAct, Viewer,
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
    fn matchup_odds(&self, params: &BTreeMap<String, String>) -> Result<Odds, String>;
    /// [`Game::matchup_sample`].
    fn matchup_sample(
        &self,
        params: &BTreeMap<String, String>,
        roller: &mut battlemat_dice::Roller,
    ) -> Result<crate::MatchupRoll, String>;
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
    fn parse_action(&self, input: &str) -> Result<Value, String>;
    fn action_text(&self, action: &Value) -> Result<String, String>;
    /// The action in the game's words (falls back to its text).
    fn describe(&self, action: &Value) -> String;
    fn check(&self, action: &Value) -> Result<(), Illegal>;
    /// Apply a step (an action, a die's face, or a resignation); every event, as the
    /// referee sees them.
    fn apply(&mut self, step: &Step<Value>) -> Result<Vec<DynEvent>, Illegal>;
    /// Of a step's events, what `viewer` is told ([`Game::event_for`]).
    fn events_for(&self, events: &[DynEvent], viewer: Viewer) -> Vec<DynEvent>;
    fn observe(&self, viewer: Viewer) -> (Value, String);
    /// An SVG picture of the table for `viewer`, if the game draws one.
    fn picture(&self, viewer: Viewer) -> Option<String>;
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

fn events_out<G: Game>(events: Vec<G::Event>) -> Vec<DynEvent> {
    events
        .into_iter()
        .map(|e| DynEvent {
            text: e.to_string(),
            json: serde_json::to_value(&e).unwrap_or(Value::Null),
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
        let s: G::Setup = serde_json::from_value(setup.clone())
            .map_err(|e| SetupError::new("setup", format!("malformed setup: {e}")))?;
        Ok(Box::new(Erased(G::new_game(&s)?)))
    }
    fn matchup_odds(&self, params: &BTreeMap<String, String>) -> Result<Odds, String> {
        G::matchup_odds(params)
    }
    fn matchup_sample(
        &self,
        params: &BTreeMap<String, String>,
        roller: &mut battlemat_dice::Roller,
    ) -> Result<crate::MatchupRoll, String> {
        G::matchup_sample(params, roller)
    }
    fn replay(
        &self,
        record: &DynRecord,
    ) -> Result<(Box<dyn DynState>, Vec<DynEvent>), ReplayError> {
        let setup: G::Setup = serde_json::from_value(record.setup.clone()).map_err(|e| {
            ReplayError::Setup(SetupError::new("setup", format!("malformed setup: {e}")))
        })?;
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
        Ok((
            Box::new(Erased(state)),
            events.into_iter().flat_map(events_out::<G>).collect(),
        ))
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
            .map(|a| DynAction {
                text: a.to_string(),
                json: serde_json::to_value(&a).unwrap_or(Value::Null),
                label: self.0.describe(&a),
            })
            .collect()
    }
    fn parse_action(&self, input: &str) -> Result<Value, String> {
        let t = input.trim();
        let action: G::Action = if t.starts_with('{') || t.starts_with('"') {
            serde_json::from_str(t).map_err(|e| format!("malformed action JSON: {e}"))?
        } else {
            t.parse()?
        };
        serde_json::to_value(&action).map_err(|e| e.to_string())
    }
    fn action_text(&self, action: &Value) -> Result<String, String> {
        Ok(action_from_json::<G>(action)
            .map_err(|e| e.to_string())?
            .to_string())
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
    fn apply(&mut self, step: &Step<Value>) -> Result<Vec<DynEvent>, Illegal> {
        let step = match step {
            Step::Act { seat, action } => Step::Act {
                seat: *seat,
                action: action_from_json::<G>(action)?,
            },
            Step::Roll { value } => Step::Roll { value: *value },
            Step::Resign { seat } => Step::Resign { seat: *seat },
        };
        Ok(events_out::<G>(self.0.apply(&step)?))
    }
    fn events_for(&self, events: &[DynEvent], viewer: Viewer) -> Vec<DynEvent> {
        let typed: Vec<G::Event> = events
            .iter()
            .filter_map(|e| serde_json::from_value(e.json.clone()).ok())
            .collect();
        events_out::<G>(self.0.events_for(&typed, viewer))
    }
    fn observe(&self, viewer: Viewer) -> (Value, String) {
        let o = self.0.observe(viewer);
        (
            serde_json::to_value(&o).unwrap_or(Value::Null),
            o.to_string(),
        )
    }
    fn odds(&self, action: &Value) -> Option<Odds> {
        self.0.odds(&action_from_json::<G>(action).ok()?)
    }
    fn picture(&self, viewer: Viewer) -> Option<String> {
        self.0.picture(viewer)
    }
    fn evaluate(&self, seat: Seat) -> f64 {
        self.0.evaluate(seat)
    }
    fn result(&self) -> Option<GameResult> {
        self.0.result()
    }
    fn state_json(&self) -> Value {
        serde_json::to_value(&self.0).unwrap_or(Value::Null)
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
