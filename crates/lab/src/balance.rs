//! The balance lab: self-play (the same player in every seat) to ask whether a scenario is
//! fair to its sides, and — where the game has points rules — whether each unit type is
//! worth its cost.
//!
//! - **Sides.** Each seat's win rate with a Wilson 95 % interval.
//! - **Unit types** (with random armies within the points, [`battlemat_core::Game::random_armies`]):
//!   each type's win rate in the games where a seat fielded it, and a logistic regression of
//!   seat 0's win on the difference in numbers of each type (seat 0's minus seat 1's, plus
//!   an intercept for the seat itself), fitted with a weak ridge prior so a type that always
//!   wins stays finite. A type's coefficient is its worth in log-odds. If costs were fair,
//!   worth would be proportional to cost, `β_t = λ · cost_t`; λ is fitted through the origin
//!   (least squares) and a type's **suggested cost** is `β_t / λ`: the cost at which it would
//!   be worth what it costs, so armies of equal points win half the time. Its interval is
//!   `β_t`'s 95 % interval over λ (λ's own error is left out, which is said in the output).

use crate::stats::{Z95, wilson};
use battlemat_ai::Played;
use battlemat_core::Armies;
use battlemat_dice::Roller;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub struct Spec {
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    /// Whether the runner set the game's safety limit (the texts have none): then a game it
    /// ended (`GameResult::by_limit`) is unfinished, neither a win nor a draw, and left out
    /// of the seats' rates and the unit types' fit.
    pub unfinished_by_limit: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatLine {
    pub seat: u8,
    pub wins: u64,
    pub win_rate: f64,
    pub ci95: [f64; 2],
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitLine {
    pub unit: String,
    pub cost: f64,
    /// Games where some seat fielded it, and how many of those that seat won.
    pub games: u64,
    pub wins: u64,
    pub win_rate: f64,
    pub ci95: [f64; 2],
    /// Its worth in log-odds of winning, per unit fielded (95 % interval).
    pub worth: f64,
    pub worth_ci95: [f64; 2],
    /// The cost that would make it worth its points (`null` when the fit found no link
    /// between cost and worth).
    pub suggested_cost: Option<f64>,
    pub suggested_ci95: Option<[f64; 2]>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub games: u64,
    pub seed: u64,
    pub seats: Vec<SeatLine>,
    pub draws: u64,
    /// Games the safety limit stopped (counted only when [`Spec::unfinished_by_limit`]).
    pub unfinished: u64,
    /// Empty when the armies were fixed.
    pub units: Vec<UnitLine>,
    /// Log-odds per point (λ), when unit types were fitted.
    pub logit_per_point: Option<f64>,
}

/// Run the games: `play` plays game `i` (drawing its armies first when it has them) and
/// says what each seat fielded.
/// Plays game `i` from its dice: the game and what each seat fielded.
pub type PlayOne<'a> =
    &'a (dyn Fn(u64, &mut Roller) -> Result<(Played, Option<Armies>), String> + Sync);

pub fn run(spec: &Spec, play: PlayOne<'_>, tick: &(dyn Fn() + Sync)) -> Result<Report, String> {
    if spec.games == 0 {
        return Err("at least one game".into());
    }
    let results = crate::run_games(spec.games, spec.seed, spec.threads, play, tick)?;
    let mut games = Vec::with_capacity(results.len());
    for (i, r) in results.into_iter().enumerate() {
        games.push(r.map_err(|e| format!("game {i}: {e}"))?);
    }
    let seats = games[0].0.result.ranks.len();
    // Unfinished games say nothing of who would have won: they are counted and set aside.
    let all = games.len() as u64;
    if spec.unfinished_by_limit {
        games.retain(|(p, _)| !p.result.by_limit);
    }
    let unfinished = all - games.len() as u64;
    let n = games.len() as u64;
    let mut wins = vec![0u64; seats];
    let mut draws = 0;
    let mut decided: Vec<(Vec<bool>, Option<&Armies>)> = Vec::new();
    for (p, armies) in &games {
        let Some(w) = crate::seat_wins(&p.result) else {
            draws += 1;
            continue;
        };
        for (s, x) in w.iter().enumerate() {
            wins[s] += u64::from(*x);
        }
        // Only games one seat won tell the seats' armies apart.
        if w.iter().any(|x| *x) && !w.iter().all(|x| *x) {
            decided.push((w, armies.as_ref()));
        }
    }
    let seat_lines = (0..seats)
        .map(|s| SeatLine {
            seat: s as u8,
            wins: wins[s],
            win_rate: if n > 0 {
                wins[s] as f64 / n as f64
            } else {
                0.0
            },
            ci95: wilson(wins[s] as f64, n as f64),
        })
        .collect();
    let (units, lambda) = unit_lines(&games, &decided);
    Ok(Report {
        games: all,
        seed: spec.seed,
        seats: seat_lines,
        draws,
        unfinished,
        units,
        logit_per_point: lambda,
    })
}

fn unit_lines(
    games: &[(Played, Option<Armies>)],
    decided: &[(Vec<bool>, Option<&Armies>)],
) -> (Vec<UnitLine>, Option<f64>) {
    // Every type and cost seen.
    let mut costs: BTreeMap<String, f64> = BTreeMap::new();
    for (_, a) in games {
        if let Some(a) = a {
            costs.extend(a.costs.iter().map(|(k, v)| (k.clone(), *v)));
        }
    }
    let fielded: Vec<&String> = costs
        .keys()
        .filter(|k| {
            games.iter().any(|(_, a)| {
                a.as_ref()
                    .is_some_and(|a| a.seats.iter().any(|s| s.contains(k)))
            })
        })
        .collect();
    if fielded.is_empty() {
        return (Vec::new(), None);
    }
    // Rows of the two-seat regression: seat 0's win against the differences in numbers.
    let rows: Vec<(Vec<f64>, f64)> = decided
        .iter()
        .filter_map(|(w, a)| {
            let a = (*a)?;
            if a.seats.len() != 2 {
                return None;
            }
            let mut x = vec![1.0];
            for t in &fielded {
                let count = |s: usize| a.seats[s].iter().filter(|u| u == t).count() as f64;
                x.push(count(0) - count(1));
            }
            Some((x, f64::from(u8::from(w[0]))))
        })
        .collect();
    let (beta, se) = logistic(&rows, fielded.len() + 1);
    // λ through the origin: worth against cost.
    let (num, den) = fielded
        .iter()
        .enumerate()
        .fold((0.0, 0.0), |(n, d), (i, t)| {
            (n + beta[i + 1] * costs[*t], d + costs[*t] * costs[*t])
        });
    let lambda = (den > 0.0 && num / den > 1e-9).then(|| num / den);
    let lines = fielded
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let (mut g, mut w) = (0u64, 0u64);
            for (p, a) in games {
                let Some(a) = a else { continue };
                let won = crate::seat_wins(&p.result).unwrap_or_default();
                for (s, units) in a.seats.iter().enumerate() {
                    if units.contains(t) {
                        g += 1;
                        w += u64::from(won.get(s).copied().unwrap_or(false));
                    }
                }
            }
            let b = beta[i + 1];
            let half = Z95 * se[i + 1];
            UnitLine {
                unit: (*t).clone(),
                cost: costs[*t],
                games: g,
                wins: w,
                win_rate: if g > 0 { w as f64 / g as f64 } else { 0.0 },
                ci95: wilson(w as f64, g as f64),
                worth: b,
                worth_ci95: [b - half, b + half],
                suggested_cost: lambda.map(|l| b / l),
                suggested_ci95: lambda.map(|l| [(b - half) / l, (b + half) / l]),
            }
        })
        .collect();
    (lines, lambda)
}

/// Logistic regression by Newton's method with a ridge prior of precision 1 on every
/// coefficient but the intercept: the coefficients and their standard errors.
pub fn logistic(rows: &[(Vec<f64>, f64)], k: usize) -> (Vec<f64>, Vec<f64>) {
    let mut beta = vec![0.0; k];
    let ridge = |i: usize| if i == 0 { 1e-6 } else { 1.0 };
    let mut info = vec![vec![0.0; k]; k];
    for _ in 0..50 {
        let mut grad: Vec<f64> = (0..k).map(|i| -ridge(i) * beta[i]).collect();
        for (i, row) in info.iter_mut().enumerate() {
            row.iter_mut().for_each(|x| *x = 0.0);
            row[i] = ridge(i);
        }
        for (x, y) in rows {
            let z: f64 = x.iter().zip(&beta).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            for i in 0..k {
                grad[i] += (y - p) * x[i];
                for j in 0..k {
                    info[i][j] += p * (1.0 - p) * x[i] * x[j];
                }
            }
        }
        let Some(step) = crate::stats::solve(&info, &grad) else {
            break;
        };
        let mut moved = 0.0f64;
        for i in 0..k {
            beta[i] += step[i];
            moved = moved.max(step[i].abs());
        }
        if moved < 1e-10 {
            break;
        }
    }
    let cov = crate::stats::invert(&info).unwrap_or_else(|| vec![vec![0.0; k]; k]);
    let se = (0..k).map(|i| cov[i][i].max(0.0).sqrt()).collect();
    (beta, se)
}

impl Report {
    pub fn text(&self, title: &str) -> String {
        let mut s = format!(
            "{title}: {} games of self-play, seed {}\n\n",
            self.games, self.seed
        );
        for x in &self.seats {
            s += &format!(
                "  seat {} wins {:>6}  {:>6.2}%  95% [{:.2}%, {:.2}%]\n",
                x.seat,
                x.wins,
                100.0 * x.win_rate,
                100.0 * x.ci95[0],
                100.0 * x.ci95[1]
            );
        }
        s += &format!("  draws {}\n", self.draws);
        if self.unfinished > 0 {
            s += &format!(
                "  unfinished {} (stopped by the safety limit: neither a win nor a draw; the rates are of the {} finished games)\n",
                self.unfinished,
                self.games - self.unfinished
            );
        }
        if self.units.is_empty() {
            s += "\n  (the same armies every game — --fixed, or no points rules in this game or scenario —\n  so only the seats are compared)\n";
            return s;
        }
        let w = self
            .units
            .iter()
            .map(|u| u.unit.len())
            .max()
            .unwrap_or(4)
            .max(4);
        s += &format!(
            "\n  {:<w$}  {:>5}  {:>6}  {:>7}  {:>17}  {:>8}  {:>19}\n",
            "unit", "cost", "games", "win %", "95% interval", "worth", "suggested cost"
        );
        for u in &self.units {
            let sugg = match (u.suggested_cost, u.suggested_ci95) {
                (Some(c), Some([lo, hi])) => format!("{c:.1} [{lo:.1}, {hi:.1}]"),
                _ => "-".into(),
            };
            s += &format!(
                "  {:<w$}  {:>5.1}  {:>6}  {:>6.1}%  [{:>5.1}%, {:>5.1}%]  {:>+8.3}  {:>19}\n",
                u.unit,
                u.cost,
                u.games,
                100.0 * u.win_rate,
                100.0 * u.ci95[0],
                100.0 * u.ci95[1],
                u.worth,
                sugg
            );
        }
        s += "\n  worth: log-odds of winning per unit fielded (seat 0's minus seat 1's numbers);\n  suggested cost: the cost at which worth matches cost (its interval leaves out the\n  error in the log-odds per point).\n";
        s
    }

    /// SVG charts: the seats' win rates, and (with armies) each unit type's suggested
    /// cost against its cost.
    pub fn svg(&self, title: &str) -> Result<Vec<(String, String)>, String> {
        let seats: Vec<crate::plot::Bar> = self
            .seats
            .iter()
            .map(|x| crate::plot::Bar {
                label: format!("seat {}", x.seat),
                value: 100.0 * x.win_rate,
                interval: Some([100.0 * x.ci95[0], 100.0 * x.ci95[1]]),
            })
            .collect();
        let mut out = vec![(
            "seats".to_string(),
            crate::plot::bars(
                &format!("{title}: wins by seat"),
                "win % (95% interval)",
                &seats,
                100.0 / self.seats.len().max(1) as f64,
            )?,
        )];
        if !self.units.is_empty() {
            let units: Vec<crate::plot::Bar> = self
                .units
                .iter()
                .map(|u| crate::plot::Bar {
                    label: u.unit.clone(),
                    value: 100.0 * u.win_rate,
                    interval: Some([100.0 * u.ci95[0], 100.0 * u.ci95[1]]),
                })
                .collect();
            out.push((
                "units".to_string(),
                crate::plot::bars(
                    &format!("{title}: wins when fielded"),
                    "win % (95% interval)",
                    &units,
                    50.0,
                )?,
            ));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use battlemat_core::GameResult;

    /// Data made from a known model: seat 0 wins with probability σ(0.8·Δa − 0.4·Δb).
    #[test]
    fn logistic_regression_recovers_known_coefficients() {
        let mut r = Roller::new(9, 0);
        let mut rows = Vec::new();
        for _ in 0..20_000 {
            let da = r.roll(5) as f64 - 3.0;
            let db = r.roll(5) as f64 - 3.0;
            let p = 1.0 / (1.0 + (-(0.8 * da - 0.4 * db)).exp());
            let y = f64::from(u8::from((r.roll(1_000_000) as f64) / 1e6 < p));
            rows.push((vec![1.0, da, db], y));
        }
        let (b, se) = logistic(&rows, 3);
        assert!((b[1] - 0.8).abs() < 4.0 * se[1], "{b:?} {se:?}");
        assert!((b[2] + 0.4).abs() < 4.0 * se[2], "{b:?} {se:?}");
        assert!(b[0].abs() < 4.0 * se[0]);
    }

    /// A fake game where army "strong" always beats "weak": the strong type's suggested
    /// cost comes out above the weak one's, and its win rate is high.
    #[test]
    fn a_stronger_unit_type_is_suggested_a_higher_cost() {
        let spec = Spec {
            games: 400,
            seed: 1,
            threads: 2,
            unfinished_by_limit: true,
        };
        let play = |_: u64, r: &mut Roller| -> Result<(Played, Option<Armies>), String> {
            let pick = |r: &mut Roller| -> Vec<String> {
                let n = r.roll(3);
                (0..n)
                    .map(|_| if r.roll(2) == 1 { "strong" } else { "weak" }.to_string())
                    .collect()
            };
            let (a, b) = (pick(r), pick(r));
            let strength = |v: &Vec<String>| v.iter().filter(|u| *u == "strong").count() as i64;
            // A strong unit counts 3, a weak one 1: the stronger side wins; level: a die.
            let power = |v: &Vec<String>| 2 * strength(v) + v.len() as i64;
            let d = power(&a) - power(&b);
            let first = if d != 0 { d > 0 } else { r.roll(2) == 1 };
            let ranks = if first { vec![1, 2] } else { vec![2, 1] };
            let scores = ranks.iter().map(|&x: &u8| -(x as i64)).collect();
            Ok((
                Played {
                    result: GameResult::from_scores(scores, "test"),
                    steps: 1,
                    decisions: 1,
                },
                Some(Armies {
                    seats: vec![a, b],
                    costs: [("strong".to_string(), 5.0), ("weak".to_string(), 5.0)].into(),
                }),
            ))
        };
        let rep = run(&spec, &play, &|| {}).unwrap();
        let strong = rep.units.iter().find(|u| u.unit == "strong").unwrap();
        let weak = rep.units.iter().find(|u| u.unit == "weak").unwrap();
        assert!(strong.win_rate > 0.5 && weak.win_rate < 0.5);
        assert!(strong.worth > weak.worth);
        let (s, w) = (strong.suggested_cost.unwrap(), weak.suggested_cost.unwrap());
        assert!(s > 5.0 && w < 5.0, "{s} {w}");
        assert!(rep.text("T").contains("suggested cost"));
        assert_eq!(rep.svg("T").unwrap().len(), 2);
    }

    /// Games the safety limit stopped are unfinished: counted, and left out of the seats'
    /// rates (issue 20, "report games it stopped as unfinished").
    #[test]
    fn games_stopped_by_the_safety_limit_are_unfinished() {
        let mut spec = Spec {
            games: 60,
            seed: 2,
            threads: 2,
            unfinished_by_limit: true,
        };
        // Seat 0 wins every finished game; a third of the games are stopped by the limit
        // with seat 1 ahead on the house rule's score.
        let play = |i: u64, _: &mut Roller| -> Result<(Played, Option<Armies>), String> {
            let result = if i.is_multiple_of(3) {
                GameResult::from_scores(vec![0, 1], "limit").at_limit()
            } else {
                GameResult::from_scores(vec![1, 0], "test")
            };
            Ok((
                Played {
                    result,
                    steps: 1,
                    decisions: 1,
                },
                None,
            ))
        };
        let rep = run(&spec, &play, &|| {}).unwrap();
        assert_eq!((rep.games, rep.unfinished, rep.draws), (60, 20, 0));
        assert_eq!((rep.seats[0].wins, rep.seats[1].wins), (40, 0));
        assert_eq!(rep.seats[0].win_rate, 1.0);
        let text = rep.text("T");
        assert!(
            text.contains("unfinished 20 (stopped by the safety limit"),
            "{text}"
        );
        spec.unfinished_by_limit = false;
        let rep = run(&spec, &play, &|| {}).unwrap();
        assert_eq!((rep.unfinished, rep.seats[1].wins), (0, 20));
        assert!(!rep.text("T").contains("unfinished"));
    }
}
