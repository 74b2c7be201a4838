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
    Ok(Odds {
        outcomes,
        details,
        ..Default::default()
    })
}

/// One roll of the matchup, die by die as the game rolls them ([`crate::state::Pool::add`]:
/// a six is added and rolled again), ties failing (SERM-POOL, SERM-SHOOT, SERM-REACT).
pub fn sample(
    params: &BTreeMap<String, String>,
    roller: &mut battlemat_dice::Roller,
) -> Result<String, String> {
    let odds = matchup(params)?;
    let dice = |k: &str| -> u8 { odds.details.get(k).and_then(|v| v.as_u64()).unwrap_or(0) as u8 };
    let total = |n: u8, roller: &mut battlemat_dice::Roller| -> u32 {
        let mut pool = crate::state::Pool::of(n);
        if n == 0 {
            return 0;
        }
        loop {
            if let Some(t) = pool.add(roller.roll(6) as u8) {
                return t;
            }
        }
    };
    let (a, b, names) = if odds.details.contains_key("shoot_dice") {
        (
            dice("shoot_dice"),
            dice("endure_dice"),
            ["eliminated", "survives"],
        )
    } else {
        (
            dice("react_dice"),
            dice("move_dice"),
            ["stopped", "moves on"],
        )
    };
    let (x, y) = (total(a, roller), total(b, roller));
    Ok(names[usize::from(x <= y)].to_string())
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
                let p = crate::pools::p_react_stops(self.card(*soldier).react, moving.total);
                outcomes.insert("stopped".to_string(), p);
                outcomes.insert("moves on".to_string(), 1.0 - p);
            }
            _ => return None,
        }
        Some(Odds {
            outcomes,
            details: BTreeMap::new(),
            ..Default::default()
        })
    }
}
