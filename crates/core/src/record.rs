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

/// A hash chain over a record, so two people holding copies of one game can compare a short
/// digest after each move instead of the whole file.
///
/// The chain starts from a header (whatever the holder of the record says fixes the game
/// before its first step: the ruleset, the setup, how dice are rolled) and takes in each
/// step in order: `d0 = SHA-256("battlemat chain 1\n" ‖ header)`, `d(i+1) = SHA-256(d(i) ‖
/// step i)`, each value written as compact JSON with its object keys in sorted order
/// (serde_json's map), so the same record always gives the same digests. A step deleted,
/// added, moved or changed, or a changed header, changes every digest from there on.
///
/// Rejected: a digest of the whole file. It changes with the formatting and with fields that
/// follow from the steps (the dice position), and it cannot say *where* two copies part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chain([u8; 32]);

impl Chain {
    /// The chain's start, from the header.
    pub fn start(header: &serde_json::Value) -> Chain {
        Chain::hash(b"battlemat chain 1\n", header)
    }

    /// The chain after one more step (as JSON).
    pub fn then(self, step: &serde_json::Value) -> Chain {
        Chain::hash(&self.0, step)
    }

    fn hash(prefix: &[u8], value: &serde_json::Value) -> Chain {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(prefix);
        // A `Value` always serialises (its keys are strings).
        h.update(serde_json::to_vec(value).unwrap_or_default());
        Chain(h.finalize().into())
    }

    /// The whole digest, 64 hex digits.
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The short form two correspondents read to each other: the first 16 hex digits (64
    /// bits), in four groups.
    pub fn short(&self) -> String {
        let h = self.hex();
        [&h[0..4], &h[4..8], &h[8..12], &h[12..16]].join("-")
    }
}

#[cfg(test)]
mod chain_tests {
    use super::Chain;
    use serde_json::json;

    #[test]
    fn every_change_to_the_record_changes_the_digest() {
        let header = json!({"ruleset": "swtb", "dice": {"seeded": {"seed": 1}}});
        let steps = [json!({"roll": {"value": 3}}), json!({"roll": {"value": 5}})];
        let digest = |h: &serde_json::Value, s: &[serde_json::Value]| {
            s.iter().fold(Chain::start(h), |c, s| c.then(s))
        };
        let base = digest(&header, &steps);
        assert_eq!(
            base,
            digest(&header, &steps),
            "the same record, the same digest"
        );
        let swapped = [steps[1].clone(), steps[0].clone()];
        assert_ne!(base, digest(&header, &swapped));
        assert_ne!(base, digest(&header, &steps[..1]));
        assert_ne!(
            base,
            digest(&json!({"ruleset": "swtb", "dice": "table"}), &steps)
        );
        // Key order does not matter: the JSON is written with sorted keys.
        let reordered: serde_json::Value =
            serde_json::from_str(r#"{"dice": {"seeded": {"seed": 1}}, "ruleset": "swtb"}"#)
                .unwrap();
        assert_eq!(base, digest(&reordered, &steps));
        assert_eq!(base.hex().len(), 64);
        assert_eq!(base.short().len(), 19);
        assert!(base.hex().starts_with(&base.short().replace('-', "")));
        // SHA-256 itself (checked with another implementation): the start of a `null`
        // header is fixed for all time, so old digests stay comparable.
        assert_eq!(
            Chain::start(&json!(null)).hex(),
            "6afbb377eca36c5584ac659f6459413869031360f0dbf7614686b135315ca40c"
        );
    }
}
