//! Game records: the ruleset, its version, the setup and every step, dice included.

use crate::{Game, Illegal, Step};
use serde::{Deserialize, Serialize};

/// A whole game as data. Replaying it gives the same state, bit for bit, because the rules
/// hold no randomness of their own: every die result is one of the steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = ""))]
pub struct Record<G: Game> {
    pub ruleset: String,
    pub version: String,
    pub setup: G::Setup,
    pub steps: Vec<Step<G::Action>>,
}

/// A replayed game: the final state and the events of each step.
pub type Replayed<G> = (G, Vec<Vec<<G as Game>::Event>>);

/// A record that does not replay: which step failed and why. Typed all the way to the
/// front ends (the erased layer passes it through unchanged).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
pub enum ReplayError {
    #[error("the record is for ruleset {found}, not {expected}")]
    WrongRuleset { expected: String, found: String },
    /// Made with another version of the rules, which this one cannot replay.
    #[error("{why}")]
    Version {
        ruleset: String,
        found: String,
        current: String,
        why: String,
    },
    #[error("setup: {0}")]
    Setup(#[from] crate::SetupError),
    /// A step that is not even a step of this game (bad JSON).
    #[error("step {index}: malformed: {message}")]
    Malformed { index: usize, message: String },
    #[error("step {index} ({step}): {error}")]
    Step {
        index: usize,
        step: String,
        error: Illegal,
    },
}

impl<G: Game> Record<G> {
    pub fn new(setup: G::Setup) -> Record<G> {
        let info = G::info();
        Record {
            ruleset: info.id,
            version: info.version,
            setup,
            steps: Vec::new(),
        }
    }

    /// Can this build replay the record? The ruleset must match, and its version be this
    /// one or an older one the rules say they still replay for this setup.
    pub fn check_version(&self) -> Result<(), ReplayError> {
        let info = G::info();
        if self.ruleset != info.id {
            return Err(ReplayError::WrongRuleset {
                expected: info.id,
                found: self.ruleset.clone(),
            });
        }
        if self.version != info.version {
            G::replays_older(&self.version, &self.setup).map_err(|why| ReplayError::Version {
                ruleset: info.id.clone(),
                found: self.version.clone(),
                current: info.version.clone(),
                why,
            })?;
        }
        Ok(())
    }

    /// Replay every step from the setup. Returns the final state and each step's events.
    pub fn replay(&self) -> Result<Replayed<G>, ReplayError> {
        self.check_version()?;
        let mut state = G::new_game(&self.setup)?;
        let mut all = Vec::with_capacity(self.steps.len());
        for (index, step) in self.steps.iter().enumerate() {
            match state.apply(step) {
                Ok(ev) => all.push(ev),
                Err(error) => {
                    let step = match step {
                        Step::Act { seat, action } => format!("seat {seat}: {action}"),
                        Step::Roll { value } => format!("roll {value}"),
                        Step::Resign { seat } => format!("seat {seat} resigns"),
                    };
                    return Err(ReplayError::Step { index, step, error });
                }
            }
        }
        Ok((state, all))
    }
}
