//! `battlemat verify FILE` (and `replay --verify`): everything a game file can prove about
//! itself, and a plain statement of what it cannot.
//!
//! A file proves that its steps are legal in order from its setup (replaying them), that a
//! seeded game's every die is the one its seed gives (rolling them again), that a built-in
//! scenario's setup is that scenario with the options recorded (building it again), and —
//! through the digest stored in it — that nobody changed it without battlemat. It cannot
//! prove that its holder did not rewrite it whole (digest included), or roll ahead on a copy
//! and keep the future he liked: only a digest read to a correspondent after each move, and
//! the server's commit–reveal of the dice, answer those (docs/files.md).

use crate::game_file::{DiceMode, GameFile, Mismatch, Origin};
use serde::Serialize;
use serde_json::Value;

/// `verify`'s exit status when everything holds.
pub const EXIT_VERIFIED: i32 = 0;
/// Nothing (or not everything) can be checked, and nothing checked failed: table dice, or a
/// format 1 file that does not say which scenario it was made from.
pub const EXIT_UNVERIFIABLE: i32 = 3;
/// Something the file claims does not hold.
pub const EXIT_FAILED: i32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Verified,
    Unverifiable,
    Failed,
}

impl Verdict {
    pub fn exit_status(self) -> i32 {
        match self {
            Verdict::Verified => EXIT_VERIFIED,
            Verdict::Unverifiable => EXIT_UNVERIFIABLE,
            Verdict::Failed => EXIT_FAILED,
        }
    }
}

/// One finding: which part of the file, what was found, and whether it holds.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// `setup`, `steps`, `dice` or `digest`.
    pub part: &'static str,
    pub verdict: Verdict,
    /// The first step that differs, when a step does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub verdict: Verdict,
    pub steps: usize,
    /// Dice checked against the seed.
    pub dice_checked: usize,
    /// The record's digest after its last step (64 hex digits) and its short form.
    pub digest: String,
    pub digest_short: String,
    pub findings: Vec<Finding>,
}

impl Report {
    /// The first finding that does not hold (a failure before a thing unverifiable).
    pub fn first_problem(&self) -> Option<&Finding> {
        let worst = |v| self.findings.iter().find(|f| f.verdict == v);
        worst(Verdict::Failed).or_else(|| worst(Verdict::Unverifiable))
    }
}

fn finding(part: &'static str, verdict: Verdict, text: String) -> Finding {
    Finding {
        part,
        verdict,
        step: None,
        text,
    }
}

/// Check everything the file can prove.
pub fn verify(gf: &GameFile) -> Report {
    let mut findings = vec![check_setup(gf)];
    let mut dice_checked = 0;
    match gf.replay_checked() {
        Ok(r) => {
            dice_checked = r.dice;
            findings.push(finding(
                "steps",
                Verdict::Verified,
                format!(
                    "{} steps replayed from the setup, every one legal in order",
                    gf.steps.len()
                ),
            ));
            findings.push(match &gf.dice {
                DiceMode::Seeded(p) => finding(
                    "dice",
                    Verdict::Verified,
                    format!(
                        "all {} dice are the ones seed {} gives, and the saved dice position follows from them",
                        r.dice, p.seed
                    ),
                ),
                DiceMode::Server(d) if d.seed.is_some() => finding(
                    "dice",
                    Verdict::Verified,
                    format!(
                        "all {} dice are the ones the revealed server seed and the seats' seeds give, and the seed is the one committed to ({}…)",
                        r.dice,
                        d.commitment.get(..16).unwrap_or(&d.commitment)
                    ),
                ),
                DiceMode::Server(_) => finding(
                    "dice",
                    Verdict::Unverifiable,
                    "the server reveals its seed when the game is over, and this record was taken before: the dice cannot be checked yet"
                        .to_string(),
                ),
                DiceMode::Table => finding(
                    "dice",
                    Verdict::Unverifiable,
                    "the dice were rolled at the table and typed in: there is no seed to check them against"
                        .to_string(),
                ),
            });
        }
        Err(Mismatch { step, what }) => {
            let part = if what.contains(" gives ")
                || what.contains("dice position")
                || what.contains("server seed")
            {
                "dice"
            } else {
                "steps"
            };
            findings.push(Finding {
                part,
                verdict: Verdict::Failed,
                step,
                text: match step {
                    Some(i) => format!("step {i} is the first that does not hold: {what}"),
                    None => what,
                },
            });
        }
    }
    let digest = gf.digest();
    findings.push(match &gf.digest {
        None => finding(
            "digest",
            Verdict::Unverifiable,
            format!(
                "a format {} file stores no digest: nothing shows whether it was changed by hand",
                gf.battlemat
            ),
        ),
        Some(stored) if *stored == digest.hex() => finding(
            "digest",
            Verdict::Verified,
            format!(
                "the stored digest is the record's own: {} after {} steps",
                digest.short(),
                gf.steps.len()
            ),
        ),
        Some(stored) => finding(
            "digest",
            Verdict::Failed,
            format!(
                "the stored digest ({}…) is not the record's own ({}): the file was changed other than by battlemat",
                stored.get(..16).unwrap_or(stored),
                digest.short()
            ),
        ),
    });
    let verdict = if findings.iter().any(|f| f.verdict == Verdict::Failed) {
        Verdict::Failed
    } else if findings.iter().any(|f| f.verdict == Verdict::Unverifiable) {
        Verdict::Unverifiable
    } else {
        Verdict::Verified
    };
    Report {
        verdict,
        steps: gf.steps.len(),
        dice_checked,
        digest: digest.hex(),
        digest_short: digest.short(),
        findings,
    }
}

/// The options as `k=v, …` (or "no options").
fn options_words(options: &std::collections::BTreeMap<String, String>) -> String {
    if options.is_empty() {
        return "no options".to_string();
    }
    let pairs: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("options {}", pairs.join(", "))
}

/// Is the setup the one its origin says?
fn check_setup(gf: &GameFile) -> Finding {
    let entry = match crate::games::get(&gf.ruleset) {
        Ok(e) => e,
        Err(e) => return finding("setup", Verdict::Failed, e.to_string()),
    };
    let current = entry.ruleset.info().version;
    let older = if gf.version != current {
        format!(
            " (the file is of {} version {}; this build's built-in scenarios are version {current}'s)",
            gf.ruleset, gf.version
        )
    } else {
        String::new()
    };
    match &gf.origin {
        None => finding(
            "setup",
            Verdict::Unverifiable,
            format!(
                "the file (format {}) does not record the scenario and options it was made from, so its setup cannot be checked",
                gf.battlemat
            ),
        ),
        Some(Origin::Builtin { scenario, options }) => {
            let what = format!(
                "built-in scenario {scenario} with {}",
                options_words(options)
            );
            match entry.ruleset.setup(scenario, options) {
                Err(e) => finding(
                    "setup",
                    Verdict::Failed,
                    format!("{what} cannot be built: {e}{older}"),
                ),
                Ok(built) => match differences(&gf.setup, &built, 3).as_slice() {
                    [] => finding("setup", Verdict::Verified, format!("{what}: the same")),
                    diffs => finding(
                        "setup",
                        Verdict::Failed,
                        format!("not {what}: {}{older}", diffs.join("; ")),
                    ),
                },
            }
        }
        Some(Origin::Custom {
            from,
            scenario,
            options,
        }) => {
            let mut text = format!(
                "a custom setup (from {from}, {}): not a built-in scenario, so nothing shows it is the one agreed",
                options_words(options)
            );
            if let Some(id) = scenario {
                match entry.ruleset.setup(id, options) {
                    Ok(built) => match differences(&gf.setup, &built, 3).as_slice() {
                        [] => text.push_str(&format!("; it is the same as built-in {id}")),
                        diffs => text.push_str(&format!(
                            "; it differs from built-in {id}: {}",
                            diffs.join("; ")
                        )),
                    },
                    Err(_) => text.push_str(&format!("; there is no built-in scenario {id}")),
                }
            }
            // Said plainly, a custom setup is what the file holds: not a failure.
            finding("setup", Verdict::Verified, text)
        }
    }
}

/// Where two JSON values differ, as `setup.path: the file has A, the scenario gives B`, at
/// most `limit` of them (and a count of the rest).
pub fn differences(file: &Value, built: &Value, limit: usize) -> Vec<String> {
    fn walk(a: Option<&Value>, b: Option<&Value>, path: &str, out: &mut Vec<(String, String)>) {
        match (a, b) {
            (Some(Value::Object(x)), Some(Value::Object(y))) => {
                let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
                for k in keys {
                    walk(x.get(k), y.get(k), &format!("{path}.{k}"), out);
                }
            }
            (Some(Value::Array(x)), Some(Value::Array(y))) => {
                for i in 0..x.len().max(y.len()) {
                    walk(x.get(i), y.get(i), &format!("{path}[{i}]"), out);
                }
            }
            (a, b) if a == b => {}
            (a, b) => {
                let show = |v: Option<&Value>| match v {
                    None => "nothing".to_string(),
                    Some(v) => {
                        let s = v.to_string();
                        if s.chars().count() > 60 {
                            format!("{}…", s.chars().take(60).collect::<String>())
                        } else {
                            s
                        }
                    }
                };
                out.push((
                    path.to_string(),
                    format!("the file has {}, the scenario gives {}", show(a), show(b)),
                ));
            }
        }
    }
    let mut all = Vec::new();
    walk(Some(file), Some(built), "setup", &mut all);
    let more = all.len().saturating_sub(limit);
    let mut out: Vec<String> = all
        .into_iter()
        .take(limit)
        .map(|(p, d)| format!("{p}: {d}"))
        .collect();
    if more > 0 {
        out.push(format!("and {more} more differences"));
    }
    out
}

/// The report in words, one line a finding, then the verdict.
pub fn print(r: &Report) {
    for f in &r.findings {
        let mark = match f.verdict {
            Verdict::Verified => "ok",
            Verdict::Unverifiable => "not checkable",
            Verdict::Failed => "FAILED",
        };
        println!("{:<7} {mark}: {}", format!("{}:", f.part), f.text);
    }
    println!("Digest: {} after {} steps.", r.digest_short, r.steps);
    match r.verdict {
        Verdict::Verified => println!("Verified: everything this file can prove holds."),
        Verdict::Unverifiable => println!(
            "Not verified: nothing failed, but not everything can be checked (exit status {EXIT_UNVERIFIABLE})."
        ),
        Verdict::Failed => println!("Verification FAILED (exit status {EXIT_FAILED})."),
    }
}

#[cfg(test)]
mod tests {
    use super::differences;
    use serde_json::json;

    #[test]
    fn differences_name_each_path_and_count_the_rest() {
        let a = json!({"u": {"han": {"attack": 6}}, "s": [1, 2, 3], "x": 1});
        let b = json!({"u": {"han": {"attack": 2}}, "s": [1, 2], "y": 1});
        let d = differences(&a, &b, 2);
        assert_eq!(
            d,
            [
                "setup.s[2]: the file has 3, the scenario gives nothing",
                "setup.u.han.attack: the file has 6, the scenario gives 2",
                "and 2 more differences",
            ]
        );
        assert!(differences(&a, &a, 3).is_empty());
    }
}
