//! `battlemat odds GAME --key value ...`: a game's exact odds of one matchup, its parameters
//! passed through untouched; `--plot` draws them, `--check-sims` checks them against the
//! game's own simulated rolls (`Ruleset::matchup_sample`).

use crate::print_json;
use anyhow::{Result, bail};
use battlemat_core::Odds;
use battlemat_dice::Roller;
use std::collections::BTreeMap;

/// `--key value` and `--flag` pairs, game-agnostic.
fn parse_params(params: &[String]) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < params.len() {
        let Some(key) = params[i].strip_prefix("--") else {
            bail!(
                "unexpected {:?}: parameters are --key value, --key=value or --flag",
                params[i]
            );
        };
        // `--key=value`, `--key value`, `--flag`; a rule option as `--option key=value`.
        let (key, value, used) = if let Some((k, v)) = key.split_once('=') {
            (k.to_string(), v.to_string(), 1)
        } else {
            match params.get(i + 1) {
                Some(v) if !v.starts_with("--") => (key.to_string(), v.clone(), 2),
                _ => (key.to_string(), "true".to_string(), 1),
            }
        };
        let (key, value) = if key == "option" {
            match value.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => bail!(
                    "--option {value:?}: a rule option is key=value (e.g. --option ties=reroll)"
                ),
            }
        } else {
            (key, value)
        };
        if out.insert(key.clone(), value).is_some() {
            bail!("--{key} is given twice");
        }
        i += used;
    }
    Ok(out)
}

pub fn run(game: &str, params: &[String], json: bool) -> Result<()> {
    let entry = crate::games::get(game).map_err(anyhow::Error::msg)?;
    let mut params = params.to_vec();
    let json = json || params.iter().any(|p| p == "--json");
    params.retain(|p| p != "--json");
    let mut map = parse_params(&params)?;
    // The CLI's own parameters, not the game's: `--plot FILE.svg` and `--check-sims N` (N
    // simulated rolls against the exact answer, dice from seed 0). A flag without its value
    // reads as "true".
    let plot = match map.remove("plot") {
        Some(f) if f == "true" => bail!("--plot needs a file name: --plot odds.svg"),
        other => other,
    };
    let sims = match map.remove("check-sims") {
        None => None,
        Some(n) => Some(
            n.parse::<u64>()
                .ok()
                .filter(|n| (1..=100_000_000).contains(n))
                .ok_or_else(|| {
                    anyhow::anyhow!("--check-sims {n:?}: a number of rolls, 1 to 100000000")
                })?,
        ),
    };
    let info = entry.ruleset.info();
    let odds = entry
        .ruleset
        .matchup_odds(&map)
        .map_err(|e| anyhow::anyhow!("{e}\n{} odds take: {}", info.id, info.odds))?;
    if let Some(file) = &plot {
        // The outcomes as bars, in the game's order; then each distribution on its axis.
        let bars: Vec<battlemat_lab::plot::Bar> = odds
            .outcomes
            .iter()
            .map(|(k, p)| battlemat_lab::plot::Bar {
                label: k.clone(),
                value: 100.0 * p,
                interval: None,
            })
            .collect();
        // The title: the game and its own parameters (not --plot or --check-sims).
        let title = map
            .iter()
            .fold(info.name.clone(), |t, (k, v)| match v.as_str() {
                "true" => format!("{t} --{k}"),
                v => format!("{t} --{k} {v}"),
            });
        let mut panels = vec![battlemat_lab::plot::Panel::Bars {
            title,
            y_label: "chance (%)".into(),
            bars,
            reference: 0.0,
        }];
        for (name, dist) in &odds.distributions {
            panels.push(battlemat_lab::plot::Panel::Histogram {
                title: format!("{name} (mean {:.1})", Odds::mean(dist)),
                x_label: name.clone(),
                points: dist.iter().map(|(v, p)| (*v, *p)).collect(),
            });
        }
        let svg = battlemat_lab::plot::panels(&panels).map_err(anyhow::Error::msg)?;
        std::fs::write(file, svg).map_err(|e| anyhow::anyhow!("--plot {file}: {e}"))?;
    }
    // The check: counts per outcome (and per value of each distribution), in the exact
    // odds' order, and Pearson's test of each.
    let check = match sims {
        None => None,
        Some(n) => {
            let mut counts: BTreeMap<&String, u64> = odds.outcomes.keys().map(|k| (k, 0)).collect();
            let mut values: BTreeMap<&String, BTreeMap<i64, u64>> = odds
                .distributions
                .iter()
                .map(|(k, d)| (k, d.keys().map(|v| (*v, 0)).collect()))
                .collect();
            let mut roller = Roller::new(0, 0);
            for _ in 0..n {
                let o = entry
                    .ruleset
                    .matchup_sample(&map, &mut roller)
                    .map_err(anyhow::Error::msg)?;
                *counts.get_mut(&o.outcome).ok_or_else(|| {
                    anyhow::anyhow!(
                        "a simulated roll gave {:?}, which the exact odds do not list",
                        o.outcome
                    )
                })? += 1;
                for (name, seen) in &mut values {
                    let v = o
                        .values
                        .get(*name)
                        .ok_or_else(|| anyhow::anyhow!("a simulated roll gave no {name}"))?;
                    *seen.get_mut(v).ok_or_else(|| {
                        anyhow::anyhow!(
                            "a simulated roll gave {name} {v}, which the exact odds give no chance"
                        )
                    })? += 1;
                }
            }
            let expected: Vec<f64> = odds.outcomes.values().copied().collect();
            let counts = counts.into_iter().map(|(k, c)| (k.clone(), c)).collect();
            let mut check = test(n, counts, &expected);
            // Each distribution's own test, its values in numeric order.
            let mut per = serde_json::Map::new();
            for (name, seen) in values {
                let expected: Vec<f64> = odds.distributions[name].values().copied().collect();
                let counts = seen.into_iter().map(|(v, c)| (v.to_string(), c)).collect();
                per.insert(name.clone(), test(n, counts, &expected));
            }
            if !per.is_empty() {
                check["distributions"] = per.into();
            }
            Some(check)
        }
    };
    if json {
        let mut v = serde_json::to_value(&odds)?;
        if let (Some(c), Some(obj)) = (check, v.as_object_mut()) {
            obj.insert("check".into(), c);
        }
        return print_json(&v);
    }
    // For people: the chances first, as percentages; then each distribution; then what the
    // game says about the matchup (its details), named in words with sensible decimals.
    let outcomes: Vec<(String, f64)> = odds.outcomes.iter().map(|(k, p)| (k.clone(), *p)).collect();
    print_table(&outcomes, check.as_ref());
    for (name, dist) in &odds.distributions {
        println!();
        println!("{}: mean {:.2}", words(name), Odds::mean(dist));
        let rows: Vec<(String, f64)> = dist.iter().map(|(v, p)| (v.to_string(), *p)).collect();
        print_table(
            &rows,
            check.as_ref().map(|c| &c["distributions"][name.as_str()]),
        );
    }
    if !odds.details.is_empty() {
        println!();
        for (k, v) in &odds.details {
            println!("{}: {}", words(k), detail_words(k, v));
        }
    }
    Ok(())
}

/// Pearson's test of simulated `counts` (name, count) against `expected` chances, as the
/// JSON `check` shows it.
fn test(n: u64, counts: Vec<(String, u64)>, expected: &[f64]) -> serde_json::Value {
    let observed: Vec<u64> = counts.iter().map(|c| c.1).collect();
    let (chi2, df, p) = battlemat_lab::stats::chi_square(&observed, expected);
    serde_json::json!({
        "rolls": n,
        "seed": 0,
        "counts": counts.into_iter().collect::<BTreeMap<String, u64>>(),
        "chi_square": chi2,
        "degrees_of_freedom": df,
        "p_value": p,
    })
}

/// The end of a detail's name that says it is a chance from 0 to 1 (`win_chance`).
const CHANCE: &str = "_chance";

/// A JSON key in words: `expected_knockback` is "expected knockback".
fn words(key: &str) -> String {
    key.replace('_', " ")
}

/// A detail's value for people: a chance (a detail named `…_chance`, docs/json.md) as a
/// percentage, text as it is, yes or no, whole numbers whole, and other numbers to three
/// significant figures at most (`0.9773876886145418` is 0.977); lists and objects as compact
/// JSON.
fn detail_words(key: &str, v: &serde_json::Value) -> String {
    if key.ends_with(CHANCE)
        && let Some(p) = v.as_f64()
    {
        return percent(p);
    }
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Bool(b) => (if *b { "yes" } else { "no" }).to_string(),
        serde_json::Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => decimal(f),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// `f` to three significant figures, without trailing zeros: 0.977, 12.3, 150, 0.00123.
fn decimal(f: f64) -> String {
    if !f.is_finite() || f == 0.0 {
        return f.to_string();
    }
    let digits = (2 - f.abs().log10().floor() as i32).max(0) as usize;
    let s = format!("{f:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A chance as a percentage for people: two decimals (`41.67%`), more only for a chance
/// that would otherwise print as 0.00% or 100.00% without being it.
fn percent(p: f64) -> String {
    let x = 100.0 * p;
    if (x > 0.0 && x < 0.005) || (x < 100.0 && x > 99.995) {
        format!("{x:.6}%")
    } else {
        format!("{x:.2}%")
    }
}

/// Rows of a name and its chance, with the simulated share beside it when checked.
fn print_table(rows: &[(String, f64)], check: Option<&serde_json::Value>) {
    match check {
        None => {
            for (k, p) in rows {
                println!("{:<24} {:>10}", words(k), percent(*p));
            }
        }
        Some(c) => {
            let n = c["rolls"].as_u64().unwrap_or(1) as f64;
            println!("{:<24} {:>10} {:>10}", "", "exact", "simulated");
            for (k, p) in rows {
                let sim = c["counts"][k].as_u64().unwrap_or(0) as f64 / n;
                println!("{:<24} {:>10} {:>10}", words(k), percent(*p), percent(sim));
            }
            println!(
                "{} simulated rolls: chi-square {:.2} on {} degrees of freedom, p = {:.3}{}",
                c["rolls"],
                c["chi_square"].as_f64().unwrap_or(0.0),
                c["degrees_of_freedom"],
                c["p_value"].as_f64().unwrap_or(0.0),
                if c["p_value"].as_f64().unwrap_or(0.0) < 0.001 {
                    " — the exact odds and the simulation disagree"
                } else {
                    ""
                }
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_and_chances_in_words() {
        assert_eq!(decimal(0.9773876886145418), "0.977");
        assert_eq!(decimal(12.345), "12.3");
        assert_eq!(decimal(150.0), "150");
        assert_eq!(decimal(0.5), "0.5");
        assert_eq!(decimal(0.001234), "0.00123");
        assert_eq!(detail_words("melee", &serde_json::json!(true)), "yes");
        assert_eq!(detail_words("dice", &serde_json::json!(3)), "3");
        assert_eq!(detail_words("ratio", &serde_json::json!("7:1")), "7:1");
        // A chance reads as a percentage; a number that is not one does not.
        assert_eq!(
            detail_words("win_chance", &serde_json::json!(0.4375)),
            "43.75%"
        );
        assert_eq!(detail_words("stun_chance", &serde_json::json!(0)), "0.00%");
        assert_eq!(detail_words("win", &serde_json::json!(0.4375)), "0.438");
        assert_eq!(percent(0.416666), "41.67%");
        assert_eq!(percent(1.0), "100.00%");
        assert_eq!(percent(0.0), "0.00%");
        assert_eq!(percent(1e-5), "0.001000%");
        assert_eq!(words("expected_knockback"), "expected knockback");
    }
}
