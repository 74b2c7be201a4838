//! Exact odds (SERM-POOL, SHOOT, REACT): a pool of S exploding dice against one of E, from
//! the pools' exact distributions (`pools::distribution`, cut only below 1e-12).

use crate::events::Action;
use crate::pools::p_greater;
use crate::state::{Phase, Serm};
use battlemat_core::Odds;
use std::collections::BTreeMap;

pub fn matchup(params: &BTreeMap<String, String>) -> Result<Odds, String> {
    for k in params.keys() {
        if !matches!(k.as_str(), "shoot" | "endure" | "react" | "move" | "json") {
            return Err(format!(
                "--{k} is not an option of serm odds: --shoot S --endure E, or --react R --move M"
            ));
        }
    }
    let n = |k: &str| -> Result<Option<u8>, String> {
        params
            .get(k)
            .map(|v| {
                v.trim()
                    .parse::<u8>()
                    .ok()
                    .filter(|&x| x <= 20)
                    .ok_or(format!("--{k}: {v:?} is a number of dice, 0 to 20"))
            })
            .transpose()
    };
    let mut outcomes = BTreeMap::new();
    let mut details = BTreeMap::new();
    match (n("shoot")?, n("endure")?, n("react")?, n("move")?) {
        (Some(s), Some(e), None, None) => {
            let p = p_greater(s, e);
            outcomes.insert("eliminated".to_string(), p);
            outcomes.insert("survives".to_string(), 1.0 - p);
            details.insert("shoot_dice".into(), s.into());
            details.insert("endure_dice".into(), e.into());
        }
        (None, None, Some(r), Some(m)) => {
            let p = p_greater(r, m);
            outcomes.insert("stopped".to_string(), p);
            outcomes.insert("moves on".to_string(), 1.0 - p);
            details.insert("react_dice".into(), r.into());
            details.insert("move_dice".into(), m.into());
        }
        _ => return Err("give --shoot S --endure E, or --react R --move M".into()),
    }
    details.insert("ties".into(), "fail (the text: higher, greater)".into());
    Ok(Odds { outcomes, details })
}

impl Serm {
    /// Odds before a shot, and before a React (against the move roll already made).
    pub fn action_odds(&self, a: &Action) -> Option<Odds> {
        self.plan(a).ok()?;
        let mut outcomes = BTreeMap::new();
        match (a, &self.now.phase) {
            (Action::Shoot { soldier, target }, _) => {
                let p = p_greater(self.card(*soldier).shoot, self.card(*target).endure);
                outcomes.insert("eliminated".to_string(), p);
                outcomes.insert("survives".to_string(), 1.0 - p);
            }
            (Action::React { soldier }, Phase::ReactChoice { moving }) => {
                // P(react pool > the move total already rolled).
                let d = crate::pools::distribution(self.card(*soldier).react);
                let p: f64 = d
                    .iter()
                    .enumerate()
                    .filter(|(t, _)| *t as u32 > moving.total)
                    .map(|(_, p)| p)
                    .sum();
                outcomes.insert("stopped".to_string(), p);
                outcomes.insert("moves on".to_string(), 1.0 - p);
            }
            _ => return None,
        }
        Some(Odds {
            outcomes,
            details: BTreeMap::new(),
        })
    }
}
