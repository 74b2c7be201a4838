//! The balance lab: self-play (the same player in every seat) to ask whether a scenario is
//! fair to its sides, and — where the game has points rules — whether each unit type is
//! worth its cost.
//!
//! - **Sides.** Each seat's win rate with a Wilson 95 % interval.
//! - **Unit types** (with random armies within the points, [`battlemat_core::Ruleset::random_armies`]):
//!   each type's win rate in the games where a seat fielded it, and a logistic regression of
//!   seat 0's win on the difference in numbers of each type (seat 0's minus seat 1's, plus
//!   an intercept for the seat itself), fitted with a weak ridge prior so a type that always
//!   wins stays finite. A type's coefficient is its worth in log-odds. If costs were fair,
//!   worth would be proportional to cost, `β_t = λ · cost_t`; λ is fitted through the origin
//!   (least squares) and a type's **suggested cost** is `β_t / λ`: the cost at which it would
//!   be worth what it costs, so armies of equal points win half the time. Its interval is
//!   `β_t`'s 95 % interval over λ (λ's own error is left out, which is said in the output).

use crate::LabError;
use crate::stats::{Z95, wilson};
use battlemat_ai::{PlayError, Played};
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
    /// The sample: the finished games (draws among them).
    pub games: u64,
    pub win_rate: f64,
    pub ci95: [f64; 2],
}

/// What the fit says of a unit type's cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Verdict {
    /// A cost: its 95 % interval is above zero and within [`COST_PRECISION`] of the cost.
    Cost { cost: f64, ci95: [f64; 2] },
    /// The interval is too wide to mean anything (`ci95` is the suggested cost's, when the
    /// log-odds per point were found above zero; `null` when they were not).
    NotEnoughGames { ci95: Option<[f64; 2]> },
    /// Wholly at or below zero, or narrow enough but reaching zero: worth no measurable
    /// points (never printed as a cost).
    NoWorth { ci95: [f64; 2] },
    /// Nothing in the games tells its worth (the reason in words).
    CannotBeEstimated { reason: String },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitLine {
    pub unit: String,
    pub cost: f64,
    /// The sample: seats (one a game per seat) that fielded it, and how many of those won.
    pub games: u64,
    pub wins: u64,
    pub win_rate: f64,
    pub ci95: [f64; 2],
    /// Its worth in log-odds of winning, per unit fielded (95 % interval).
    pub worth: f64,
    pub worth_ci95: [f64; 2],
    pub verdict: Verdict,
}

/// A suggested cost is given only when its 95 % interval's half-width is at most this
/// share of the unit's cost (and the interval lies above zero): ±25 %.
pub const COST_PRECISION: f64 = 0.25;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub games: u64,
    pub seed: u64,
    pub seats: Vec<SeatLine>,
    pub draws: u64,
    /// Games the safety limit stopped (counted only when [`Spec::unfinished_by_limit`]).
    pub unfinished: u64,
    /// Whether the games drew their armies (random armies within the points).
    pub armies_drawn: bool,
    /// Empty when the armies were fixed (or no game with drawn armies finished).
    pub units: Vec<UnitLine>,
    /// The games the unit types' fit used: finished, won by one seat, armies known.
    pub fitted_games: u64,
    /// Log-odds per point (λ) and its 95 % interval, when unit types were fitted.
    pub logit_per_point: Option<f64>,
    pub logit_per_point_ci95: Option<[f64; 2]>,
    /// [`COST_PRECISION`].
    pub cost_precision: f64,
    /// Unit types the games cannot speak for, and why.
    pub warnings: Vec<String>,
}

/// Plays game `i` from its dice: the game and what each seat fielded.
pub type PlayOne<'a> =
    &'a (dyn Fn(u64, &mut Roller) -> Result<(Played, Option<Armies>), PlayError> + Sync);

/// A game's result and what each seat fielded.
pub type Game = (Played, Option<Armies>);

/// Run the games: `play` plays game `i` (drawing its armies first when it has them) and
/// says what each seat fielded.
pub fn run(spec: &Spec, play: PlayOne<'_>, tick: &(dyn Fn() + Sync)) -> Result<Report, LabError> {
    let whole = crate::shard::Shard { index: 0, count: 1 };
    let games = play_games(spec, whole, play, tick)?;
    report(spec, games.into_iter().map(|(_, g)| g).collect())
}

/// Play one shard's games (all of them with shard `0/1`): each with its index, in order.
pub fn play_games(
    spec: &Spec,
    shard: crate::shard::Shard,
    play: PlayOne<'_>,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<(u64, Game)>, LabError> {
    if spec.games == 0 {
        return Err("at least one game".into());
    }
    if spec.games > crate::MAX_GAMES {
        return Err(crate::too_many_games(1, spec.games).into());
    }
    let indices = shard.games(spec.games);
    let results = crate::run_indices(&indices, spec.seed, spec.threads, play, tick)?;
    crate::indexed(indices, results)
}

/// The report from every game's result, in game order (one run's, or its shards' merged).
pub fn report(spec: &Spec, mut games: Vec<Game>) -> Result<Report, LabError> {
    if games.len() as u64 != spec.games || games.is_empty() {
        return Err(LabError::Refused(format!(
            "{} results for a run of {} games",
            games.len(),
            spec.games
        )));
    }
    let seats = games[0].0.result.ranks.len();
    // Unfinished games say nothing of who would have won: they are counted and set aside.
    let all = games.len() as u64;
    let armies_drawn = games.iter().any(|(_, a)| a.is_some());
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
            games: n,
            win_rate: if n > 0 {
                wins[s] as f64 / n as f64
            } else {
                0.0
            },
            ci95: wilson(wins[s] as f64, n as f64),
        })
        .collect();
    let fit = unit_lines(&games, &decided);
    Ok(Report {
        games: all,
        seed: spec.seed,
        seats: seat_lines,
        draws,
        unfinished,
        armies_drawn,
        units: fit.lines,
        fitted_games: fit.rows,
        logit_per_point: fit.lambda.map(|l| l.0),
        logit_per_point_ci95: fit.lambda.map(|l| l.1),
        cost_precision: COST_PRECISION,
        warnings: fit.warnings,
    })
}

/// The unit types' fit.
struct Fit {
    lines: Vec<UnitLine>,
    rows: u64,
    /// λ and its interval.
    lambda: Option<(f64, [f64; 2])>,
    warnings: Vec<String>,
}

/// Every type and its cost, and the types some seat fielded.
fn types_seen(games: &[Game]) -> (BTreeMap<String, f64>, Vec<String>) {
    let mut costs: BTreeMap<String, f64> = BTreeMap::new();
    for a in games.iter().filter_map(|(_, a)| a.as_ref()) {
        costs.extend(a.costs.iter().map(|(k, v)| (k.clone(), *v)));
    }
    let fielded = costs
        .keys()
        .filter(|k| {
            games.iter().any(|(_, a)| {
                a.as_ref()
                    .is_some_and(|a| a.seats.iter().any(|s| s.contains(k)))
            })
        })
        .cloned()
        .collect();
    (costs, fielded)
}

/// Why a type's worth cannot be estimated from these rows (column `col`), if it cannot:
/// the difference in its numbers is the same in every game.
fn not_estimable(rows: &[(Vec<f64>, f64)], col: usize) -> Option<String> {
    let first = rows.first()?.0[col];
    rows.iter().all(|(x, _)| x[col] == first).then(|| {
        if first == 0.0 {
            "both sides field as many in every decided game".to_string()
        } else {
            format!("seat 0 fields {first:+} of it against seat 1 in every decided game")
        }
    })
}

/// How often a type was fielded, by seats, and won: (seat-games, wins, every game by both).
fn fielded_record(games: &[Game], t: &str) -> (u64, u64, bool) {
    let (mut g, mut w, mut both) = (0u64, 0u64, true);
    for (p, a) in games {
        let Some(a) = a else { continue };
        let won = crate::seat_wins(&p.result).unwrap_or_default();
        let mut by = 0;
        for (s, units) in a.seats.iter().enumerate() {
            if units.iter().any(|u| u == t) {
                g += 1;
                by += 1;
                w += u64::from(won.get(s).copied().unwrap_or(false));
            }
        }
        both &= by == a.seats.len() && by > 1;
    }
    (g, w, both)
}

fn unit_lines(games: &[Game], decided: &[(Vec<bool>, Option<&Armies>)]) -> Fit {
    let (costs, fielded) = types_seen(games);
    let mut warnings: Vec<String> = costs
        .keys()
        .filter(|k| !fielded.contains(k))
        .map(|k| format!("{k}: never fielded, so it cannot be estimated"))
        .collect();
    if fielded.is_empty() {
        return Fit {
            lines: Vec::new(),
            rows: 0,
            lambda: None,
            warnings,
        };
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
                let count = |s: usize| a.seats[s].iter().filter(|u| *u == t).count() as f64;
                x.push(count(0) - count(1));
            }
            Some((x, f64::from(u8::from(w[0]))))
        })
        .collect();
    let (beta, cov) = logistic(&rows, fielded.len() + 1);
    let blind: Vec<Option<String>> = (0..fielded.len())
        .map(|i| {
            if rows.is_empty() {
                Some("no game was won by one seat with its armies known".into())
            } else {
                not_estimable(&rows, i + 1)
            }
        })
        .collect();
    let lambda = fit_lambda(&fielded, &costs, &beta, &cov, &blind);
    let mut lines = Vec::with_capacity(fielded.len());
    for (i, t) in fielded.iter().enumerate() {
        let (g, w, both) = fielded_record(games, t);
        if both {
            warnings.push(format!(
                "{t}: fielded by both sides in every game, so its win rate when fielded is every game's and tells nothing"
            ));
        }
        let b = beta[i + 1];
        let half = Z95 * cov[i + 1][i + 1].max(0.0).sqrt();
        let verdict = match &blind[i] {
            Some(reason) => {
                warnings.push(format!("{t}: cannot be estimated: {reason}"));
                Verdict::CannotBeEstimated {
                    reason: reason.clone(),
                }
            }
            None => verdict(i + 1, costs[t], &beta, &cov, lambda.as_ref()),
        };
        lines.push(UnitLine {
            unit: t.clone(),
            cost: costs[t],
            games: g,
            wins: w,
            win_rate: if g > 0 { w as f64 / g as f64 } else { 0.0 },
            ci95: wilson(w as f64, g as f64),
            worth: b,
            worth_ci95: [b - half, b + half],
            verdict,
        });
    }
    Fit {
        lines,
        rows: rows.len() as u64,
        lambda: lambda.map(|l| (l.value, [l.value - l.half, l.value + l.half])),
        warnings,
    }
}

/// λ, the log-odds per point, fitted through the origin over the types that can be
/// estimated: `λ = Σ c·β / Σ c²`, with its variance from the β's covariance and the
/// weights each β has in it (`dλ/dβ_t = c_t / Σ c²`).
struct Lambda {
    value: f64,
    half: f64,
    /// `dλ/dβ` over the coefficients (0 for the intercept and the types left out).
    grad: Vec<f64>,
}

fn fit_lambda(
    types: &[String],
    costs: &BTreeMap<String, f64>,
    beta: &[f64],
    cov: &[Vec<f64>],
    blind: &[Option<String>],
) -> Option<Lambda> {
    let k = beta.len();
    let used = |i: usize| blind[i].is_none();
    let den: f64 = (0..types.len())
        .filter(|&i| used(i))
        .map(|i| costs[&types[i]].powi(2))
        .sum();
    if den <= 0.0 {
        return None;
    }
    let mut grad = vec![0.0; k];
    for i in (0..types.len()).filter(|&i| used(i)) {
        grad[i + 1] = costs[&types[i]] / den;
    }
    let value: f64 = (0..k).map(|i| grad[i] * beta[i]).sum();
    let var = quad(&grad, cov, &grad);
    Some(Lambda {
        value,
        half: Z95 * var.max(0.0).sqrt(),
        grad,
    })
}

/// `aᵀ M b`.
fn quad(a: &[f64], m: &[Vec<f64>], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for (i, ai) in a.iter().enumerate() {
        for (j, bj) in b.iter().enumerate() {
            s += ai * m[i][j] * bj;
        }
    }
    s
}

/// The suggested cost of coefficient `col`, `β/λ`, and its verdict: its variance by the
/// delta method, λ's own error included (`d(β/λ) = dβ/λ − β dλ/λ²`).
fn verdict(
    col: usize,
    cost: f64,
    beta: &[f64],
    cov: &[Vec<f64>],
    lambda: Option<&Lambda>,
) -> Verdict {
    let Some(l) = lambda.filter(|l| l.value - l.half > 0.0) else {
        // No link between cost and worth measured: no cost can be suggested.
        return Verdict::NotEnoughGames { ci95: None };
    };
    let b = beta[col];
    let g: Vec<f64> = (0..beta.len())
        .map(|i| f64::from(u8::from(i == col)) / l.value - b * l.grad[i] / (l.value * l.value))
        .collect();
    let c = b / l.value;
    let half = Z95 * quad(&g, cov, &g).max(0.0).sqrt();
    let ci95 = [c - half, c + half];
    // An interval wholly at or below zero is an answer however wide: no positive cost.
    if ci95[1] <= 0.0 {
        Verdict::NoWorth { ci95 }
    } else if half > COST_PRECISION * cost.abs() {
        Verdict::NotEnoughGames { ci95: Some(ci95) }
    } else if ci95[0] <= 0.0 {
        Verdict::NoWorth { ci95 }
    } else {
        Verdict::Cost { cost: c, ci95 }
    }
}

/// Logistic regression by Newton's method with a ridge prior of precision 1 on every
/// coefficient but the intercept: the coefficients and their covariance (the inverse of the
/// information at the fit).
pub fn logistic(rows: &[(Vec<f64>, f64)], k: usize) -> (Vec<f64>, Vec<Vec<f64>>) {
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
    // The information at the fit (the loop leaves it at the last step's start).
    for (i, row) in info.iter_mut().enumerate() {
        row.iter_mut().for_each(|x| *x = 0.0);
        row[i] = ridge(i);
    }
    for (x, _) in rows {
        let z: f64 = x.iter().zip(&beta).map(|(a, b)| a * b).sum();
        let p = 1.0 / (1.0 + (-z).exp());
        for i in 0..k {
            for j in 0..k {
                info[i][j] += p * (1.0 - p) * x[i] * x[j];
            }
        }
    }
    let cov = crate::stats::invert(&info).unwrap_or_else(|| vec![vec![0.0; k]; k]);
    (beta, cov)
}

impl Report {
    pub fn text(&self, title: &str) -> String {
        let finished = self.games - self.unfinished;
        let mut s = format!(
            "{title}: {} games of self-play, seed {}\n\n",
            self.games, self.seed
        );
        for x in &self.seats {
            s += &format!(
                "  seat {} wins {:>6} of {}  {:>6.2}%  95% [{:.2}%, {:.2}%]\n",
                x.seat,
                x.wins,
                x.games,
                100.0 * x.win_rate,
                100.0 * x.ci95[0],
                100.0 * x.ci95[1]
            );
        }
        s += &format!("  draws {} of {finished}\n", self.draws);
        if self.unfinished > 0 {
            s += &format!(
                "  unfinished {} (stopped by the safety limit: neither a win nor a draw; the rates are of the {finished} finished games)\n",
                self.unfinished,
            );
        }
        if self.units.is_empty() && self.armies_drawn {
            s += "\n  (no finished game: no unit type can be estimated)\n";
            return s;
        }
        if self.units.is_empty() {
            s += "\n  (the same armies every game — --fixed, or no points rules in this game or scenario —\n  so only the seats are compared)\n";
            return s;
        }
        s += &self.unit_table();
        s += &format!(
            "\n  fielded: seats (one a game) that fielded the type, and its win % among them;\n  worth: log-odds of winning per unit fielded (seat 0's minus seat 1's numbers), fitted\n  on the {} games one seat won;\n",
            self.fitted_games
        );
        if let (Some(l), Some([lo, hi])) = (self.logit_per_point, self.logit_per_point_ci95) {
            s += &format!("  log-odds per point {l:.4}, 95% [{lo:.4}, {hi:.4}];\n");
        }
        s += &format!(
            "  suggested cost: the cost at which worth matches cost, given only where its 95%\n  interval (the error in the log-odds per point included) lies above 0 and within\n  ±{:.0}% of the cost; otherwise the interval is shown.\n",
            100.0 * self.cost_precision
        );
        for w in &self.warnings {
            s += &format!("  warning: {w}\n");
        }
        s
    }

    /// The unit types' table.
    fn unit_table(&self) -> String {
        let w = self
            .units
            .iter()
            .map(|u| u.unit.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let mut s = format!(
            "\n  {:<w$}  {:>5}  {:>7}  {:>6}  {:>16}  {:>7}  {:>17}  suggested cost\n",
            "unit", "cost", "fielded", "win %", "95% interval", "worth", "95% interval"
        );
        for u in &self.units {
            let iv = |[lo, hi]: [f64; 2]| format!("[{lo:.1}, {hi:.1}]");
            let sugg = match &u.verdict {
                Verdict::Cost { cost, ci95 } => format!("{cost:.1} {}", iv(*ci95)),
                Verdict::NotEnoughGames { ci95: Some(ci) } => {
                    format!("not enough games: interval {}", iv(*ci))
                }
                Verdict::NotEnoughGames { ci95: None } => {
                    "not enough games: no link of cost to worth yet".into()
                }
                Verdict::NoWorth { ci95 } => format!("none: interval {} is not above 0", iv(*ci95)),
                Verdict::CannotBeEstimated { .. } => "cannot be estimated (see below)".into(),
            };
            s += &format!(
                "  {:<w$}  {:>5.1}  {:>7}  {:>5.1}%  [{:>5.1}%, {:>5.1}%]  {:>+7.3}  [{:>+6.2}, {:>+6.2}]  {}\n",
                u.unit,
                u.cost,
                u.games,
                100.0 * u.win_rate,
                100.0 * u.ci95[0],
                100.0 * u.ci95[1],
                u.worth,
                u.worth_ci95[0],
                u.worth_ci95[1],
                sugg
            );
        }
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
        let (b, cov) = logistic(&rows, 3);
        let se: Vec<f64> = (0..3).map(|i| cov[i][i].sqrt()).collect();
        assert!((b[1] - 0.8).abs() < 4.0 * se[1], "{b:?} {se:?}");
        assert!((b[2] + 0.4).abs() < 4.0 * se[2], "{b:?} {se:?}");
        assert!(b[0].abs() < 4.0 * se[0]);
    }

    /// A fake game: each seat fields 0 to 2 units, each a type drawn from `types`
    /// (name, cost, power); the side with more power wins, level sides by a die.
    fn fake(
        types: &'static [(&'static str, f64, i64)],
    ) -> impl Fn(u64, &mut Roller) -> Result<Game, PlayError> + Sync {
        move |_: u64, r: &mut Roller| {
            let pick = |r: &mut Roller| -> Vec<String> {
                let n = r.roll(3);
                (0..n)
                    .map(|_| types[r.roll(types.len() as u32) as usize - 1].0.to_string())
                    .collect()
            };
            let (a, b) = (pick(r), pick(r));
            let power = |v: &Vec<String>| -> i64 {
                v.iter()
                    .map(|u| types.iter().find(|t| t.0 == u).map_or(0, |t| t.2))
                    .sum()
            };
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
                    costs: types.iter().map(|t| (t.0.to_string(), t.1)).collect(),
                }),
            ))
        }
    }

    fn spec(games: u64) -> Spec {
        Spec {
            games,
            seed: 1,
            threads: 2,
            unfinished_by_limit: true,
        }
    }

    /// A type worth three times another, both costing 5: with many games the strong one is
    /// suggested a cost above 5, the weak one below, each with an interval narrow enough.
    #[test]
    fn a_stronger_unit_type_is_suggested_a_higher_cost() {
        let rep = run(
            &spec(4000),
            &fake(&[("strong", 5.0, 3), ("weak", 5.0, 1)]),
            &|| {},
        )
        .unwrap();
        let strong = rep.units.iter().find(|u| u.unit == "strong").unwrap();
        let weak = rep.units.iter().find(|u| u.unit == "weak").unwrap();
        assert!(strong.win_rate > 0.5 && weak.win_rate < 0.5);
        assert!(strong.worth > weak.worth);
        let cost = |u: &UnitLine| match u.verdict {
            Verdict::Cost { cost, ci95 } => {
                assert!(
                    ci95[1] - ci95[0] <= 2.0 * COST_PRECISION * u.cost,
                    "{ci95:?}"
                );
                cost
            }
            ref v => panic!("{}: {v:?}", u.unit),
        };
        let (s, w) = (cost(strong), cost(weak));
        assert!(s > 5.0 && w < 5.0, "{s} {w}");
        let text = rep.text("T");
        assert!(
            text.contains("suggested cost") && text.contains("within\n  ±25%"),
            "{text}"
        );
        assert!(
            text.contains("seat 0 wins") && text.contains(" of 4000 "),
            "{text}"
        );
        assert_eq!(rep.svg("T").unwrap().len(), 2);
    }

    /// Issue 25: "suggests a cost only when its interval is narrow enough to mean
    /// something". Twenty games of the same fake game used to suggest costs (the fit
    /// always gave a number); now they give none, and say so.
    #[test]
    fn a_tiny_sample_suggests_no_cost() {
        let rep = run(
            &spec(20),
            &fake(&[("strong", 5.0, 3), ("weak", 5.0, 1)]),
            &|| {},
        )
        .unwrap();
        for u in &rep.units {
            assert!(
                matches!(u.verdict, Verdict::NotEnoughGames { .. }),
                "{}: {:?}",
                u.unit,
                u.verdict
            );
        }
        let text = rep.text("T");
        assert!(text.contains("not enough games"), "{text}");
        assert_eq!(rep.fitted_games, 20, "every game is won by one seat");
    }

    /// Issue 25: "negative costs". A type that loses games for the side fielding it has a
    /// negative worth: it is never given as a cost (the old report printed β/λ < 0).
    #[test]
    fn a_negative_estimate_is_not_printed_as_a_cost() {
        let types = &[("good", 4.0, 2), ("fine", 2.0, 1), ("harm", 1.0, -2)];
        let rep = run(&spec(4000), &fake(types), &|| {}).unwrap();
        let harm = rep.units.iter().find(|u| u.unit == "harm").unwrap();
        assert!(harm.worth_ci95[1] < 0.0, "{harm:?}");
        assert!(matches!(harm.verdict, Verdict::NoWorth { .. }), "{harm:?}");
        let text = rep.text("T");
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("harm"))
            .unwrap();
        assert!(line.contains("none: interval [-"), "{line}");
        assert!(line.ends_with("is not above 0"), "{line}");
        // The others keep their costs.
        let good = rep.units.iter().find(|u| u.unit == "good").unwrap();
        assert!(matches!(good.verdict, Verdict::Cost { .. }), "{good:?}");
    }

    /// Issue 25: "warns when a unit type cannot be estimated (always fielded by both
    /// sides)": one type each side always fields once, one in the costs never fielded.
    #[test]
    fn a_type_the_games_cannot_tell_is_warned_of() {
        let play = |i: u64, r: &mut Roller| -> Result<Game, PlayError> {
            let (p, a) = fake(&[("strong", 5.0, 3), ("weak", 5.0, 1)])(i, r)?;
            let mut a = a.unwrap();
            for s in &mut a.seats {
                s.push("banner".into());
            }
            a.costs.insert("banner".into(), 2.0);
            a.costs.insert("ghost".into(), 3.0);
            Ok((p, Some(a)))
        };
        let rep = run(&spec(400), &play, &|| {}).unwrap();
        let banner = rep.units.iter().find(|u| u.unit == "banner").unwrap();
        assert!(
            matches!(banner.verdict, Verdict::CannotBeEstimated { .. }),
            "{banner:?}"
        );
        let text = rep.text("T");
        assert!(
            text.contains("warning: banner: fielded by both sides in every game"),
            "{text}"
        );
        assert!(
            text.contains("warning: banner: cannot be estimated"),
            "{text}"
        );
        assert!(text.contains("warning: ghost: never fielded"), "{text}");
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
        let play = |i: u64, _: &mut Roller| -> Result<(Played, Option<Armies>), PlayError> {
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
