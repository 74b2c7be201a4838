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

/// A record that does not replay: which step failed and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    #[error("the record is for ruleset {found} {found_version}, not {expected} {expected_version}")]
    WrongRuleset {
        expected: String,
        expected_version: String,
        found: String,
        found_version: String,
    },
    #[error("setup: {0}")]
    Setup(#[from] crate::SetupError),
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

    /// Replay every step from the setup. Returns the final state and each step's events.
    pub fn replay(&self) -> Result<Replayed<G>, ReplayError> {
        let info = G::info();
        if self.ruleset != info.id || self.version != info.version {
            return Err(ReplayError::WrongRuleset {
                expected: info.id,
                expected_version: info.version,
                found: self.ruleset.clone(),
                found_version: self.version.clone(),
            });
        }
        let mut state = G::new_game(&self.setup)?;
        let mut all = Vec::with_capacity(self.steps.len());
        for (index, step) in self.steps.iter().enumerate() {
            match state.apply(step) {
                Ok(ev) => all.push(ev),
                Err(error) => {
                    let step = match step {
                        Step::Act { seat, action } => format!("seat {seat}: {action}"),
                        Step::Roll { value } => format!("roll {value}"),
                    };
                    return Err(ReplayError::Step { index, step, error });
                }
            }
        }
        Ok((state, all))
    }
}
