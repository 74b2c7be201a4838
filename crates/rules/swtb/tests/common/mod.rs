//! Helpers shared by the SWTB integration tests: scenarios written in a tiny notation.
#![allow(dead_code)]

use battlemat_core::GameOptions;
use battlemat_swtb::data::{Catalog, Options, Scenario, Setup};
use std::collections::BTreeMap;

/// Units in the shared notation (`battlemat_core::testing::piece`): `kind@cell` for ground
/// units, `kind@cell:power` for a Force User with a power, `kind` alone for a flier (it
/// starts on the line).
pub fn units(prefix: &str, list: &[&str]) -> String {
    list.iter()
        .enumerate()
        .map(|(i, s)| {
            let p = battlemat_core::testing::piece(s);
            let kind = p.kind;
            let at = p.at.map(|a| format!(", at = \"{a}\"")).unwrap_or_default();
            let power = p
                .tag
                .map(|t| format!(", power = \"{t}\""))
                .unwrap_or_default();
            format!("{{ kind = \"{kind}\", name = \"{prefix} {kind} {i}\"{at}{power} }}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The scenario's TOML text: `extra` holds top-level keys (walls, hills, fortified, a
/// `[goal]` table). Side 0 is the light side "Rebels", side 1 the dark side "Empire".
pub fn scenario_text(w: u8, h: u8, rounds: u16, extra: &str, a: &[&str], b: &[&str]) -> String {
    format!(
        r#"id = "test"
name = "Test"
summary = "a test scenario"
width = {w}
height = {h}
max_rounds = {rounds}
points = 20
{extra}

[[sides]]
name = "Rebels"
alignment = "light"
units = [{}]

[[sides]]
name = "Empire"
alignment = "dark"
units = [{}]
"#,
        units("Rebel", a),
        units("Imperial", b)
    )
}

pub fn options(opts: &[(&str, &str)]) -> Options {
    let pairs: BTreeMap<String, String> = opts
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Options::from_pairs(&pairs).unwrap()
}

pub fn setup_sized(
    w: u8,
    h: u8,
    rounds: u16,
    extra: &str,
    a: &[&str],
    b: &[&str],
    opts: &[(&str, &str)],
) -> Setup {
    let text = scenario_text(w, h, rounds, extra, a, b);
    let scenario: Scenario = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Setup {
        unit_types: Catalog::builtin().unit_types.clone(),
        scenario,
        options: options(opts),
        seating: None,
    }
}

/// Every optional rule of the text switched on (every on/off option in the options table
/// that is not a house rule), so that new options are covered without editing the tests.
pub fn every_optional_rule() -> BTreeMap<String, String> {
    Options::table()
        .iter()
        .filter(|r| !r.house_rule && r.values == ["false", "true"])
        .map(|r| (r.key.to_string(), "true".to_string()))
        .collect()
}
