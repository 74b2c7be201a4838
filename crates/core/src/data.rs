//! Reading a game's data files (TOML) with errors a user can act on.
//!
//! Every game keeps its units and scenarios as TOML, embedded in the binary or passed in by
//! a caller as [`DataFile`](crate::DataFile)s (rules crates do no I/O). Two kinds of mistake
//! need a place in the file: a TOML error (serde's span: [`parse`]), and a mistake found
//! after parsing, when the setup is checked (`sides[0].units[6].kind` names a unit type
//! that does not exist: [`place`]). Both come out as `file:line:column`.
//!
//! Rejected: checking everything in serde (`deserialize_with` validators). Spans would come
//! for free, but checks that look across the file (a cell taken twice, a unit kind from
//! another file) cannot be written there, and the setup a record carries would need the
//! same checks again without a file.

use crate::SetupError;
use serde::de::DeserializeOwned;

/// Parse `text` (the file `name`) as TOML into `T`; errors at `name:line:column`.
pub fn parse<T: DeserializeOwned>(name: &str, text: &str) -> Result<T, SetupError> {
    toml::from_str(text).map_err(|e| toml_error(name, text, &e))
}

/// `file:line:column: message` for a TOML error.
pub fn toml_error(file: &str, text: &str, e: &toml::de::Error) -> SetupError {
    let (line, col) = match e.span() {
        Some(span) => line_col(text, span.start),
        None => (1, 1),
    };
    SetupError::new(
        format!("{file}:{line}:{col}"),
        e.message().trim().to_string(),
    )
}

/// Where a setup's parts came from: the setup path prefix (`scenario.`), the file's name and
/// its text.
pub struct Source<'a> {
    pub prefix: &'a str,
    pub name: &'a str,
    pub text: &'a str,
}

/// Put a setup error found after parsing (its `at` a path like
/// `scenario.sides[0].units[6].kind`) at its place in the file it came from:
/// `file:line:column: path: message`. The first source whose prefix the path starts with
/// is the file; a path the file does not have (a field the rules derive) is put at the
/// nearest part of it the file has (`sides[0].units[6]`), or at the file's start. An error
/// already placed (its `at` a `file:line:column`) is left as it is.
pub fn place(e: SetupError, sources: &[Source]) -> SetupError {
    let parts: Vec<Part> = sources
        .iter()
        .map(|s| Part {
            setup: s.prefix,
            file: "",
            name: s.name,
            text: s.text,
        })
        .collect();
    place_parts(e, &parts)
}

/// A part of a setup and the file it came from: setup paths under `setup` are at `file`
/// followed by the rest of the path in it (`units.GD.move` with `setup: "units."` and `file:
/// "units."` is `units.GD.move` in the unit file; `chart.zaku.value` with `setup: "chart."`
/// and `file: ""` is `zaku.value`).
#[derive(Clone, Copy)]
pub struct Part<'a> {
    pub setup: &'a str,
    pub file: &'a str,
    pub name: &'a str,
    pub text: &'a str,
}

/// [`place`] with each part's path in its file said ([`Part`]).
pub fn place_parts(e: SetupError, parts: &[Part]) -> SetupError {
    for p in parts {
        if e.at.starts_with(p.name) {
            return e;
        }
    }
    for p in parts {
        // The part itself (`mission`), or a path in it.
        let whole = !p.setup.is_empty() && e.at == p.setup.trim_end_matches('.');
        if let Some(rest) = e.at.strip_prefix(p.setup).or(whole.then_some("")) {
            let (l, c) = locate_nearest(p.text, &format!("{}{rest}", p.file));
            return SetupError::new(format!("{}:{l}:{c}: {}", p.name, e.at), e.message);
        }
    }
    e
}

/// A setup error of a game made from data files, placed: in the scenario file the scenario
/// `id` came from (found among `scenarios` by its `id`; setup paths under `scenario`), or in
/// one of the other `parts`. A scenario not from the files (a built-in one) places nothing.
pub fn place_in_data(
    e: SetupError,
    id: &str,
    scenarios: &[(&str, &str)],
    scenario: &str,
    parts: &[Part],
) -> SetupError {
    let mut all: Vec<Part> = Vec::with_capacity(parts.len() + 1);
    if let Some((name, text)) = file_with_id(scenarios, id) {
        all.push(Part {
            setup: scenario,
            file: "",
            name,
            text,
        });
    }
    all.extend(parts.iter().copied());
    place_parts(e, &all)
}

/// Where `path` is in `text`, or the nearest enclosing part of it that is there, or the
/// start of the file.
pub fn locate_nearest(text: &str, path: &str) -> (usize, usize) {
    let mut p = path;
    loop {
        if let Some(at) = locate(text, p) {
            return at;
        }
        // Drop the last index, or else the last field.
        let cut = match (p.rfind('['), p.rfind('.')) {
            (Some(b), Some(d)) => b.max(d),
            (Some(b), None) => b,
            (None, Some(d)) => d,
            (None, None) => return (1, 1),
        };
        p = &p[..cut];
        if p.is_empty() {
            return (1, 1);
        }
    }
}

/// Where a path like `sides[0].units[6].kind` (or `armies[0][1]`) is in a TOML text, as
/// (line, column).
pub fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    use toml::de::{DeTable, DeValue};
    let root = DeTable::parse(text).ok()?;
    let mut table = Some(root.get_ref());
    let mut span = root.span();
    for seg in path.split('.') {
        let (name, indices) = match seg.split_once('[') {
            Some((n, i)) => (n, i.trim_end_matches(']')),
            None => (seg, ""),
        };
        let (_, v) = table?.iter().find(|(k, _)| k.get_ref().as_ref() == name)?;
        span = v.span();
        let mut value = v.get_ref();
        for i in indices.split("][").filter(|i| !i.is_empty()) {
            let i: usize = i.parse().ok()?;
            let DeValue::Array(items) = value else {
                return None;
            };
            let item = items.get(i)?;
            span = item.span();
            value = item.get_ref();
        }
        table = match value {
            DeValue::Table(t) => Some(t),
            _ => None,
        };
    }
    Some(line_col(text, span.start))
}

/// Of data files as (name, text), the one whose top-level `id` is `id` (where a scenario
/// chosen by its id came from).
pub fn file_with_id<'a>(files: &[(&'a str, &'a str)], id: &str) -> Option<(&'a str, &'a str)> {
    files.iter().copied().find(|(_, text)| {
        toml::de::DeTable::parse(text).is_ok_and(|t| {
            t.get_ref().iter().any(|(k, v)| {
                k.get_ref().as_ref() == "id"
                    && matches!(v.get_ref(), toml::de::DeValue::String(s) if s.as_ref() == id)
            })
        })
    })
}

/// The 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// A game's data folder as the rules crate sees it: the files it knows by name (a unit
/// table, results tables) — each the user's own if given, else the built-in text — and
/// every other file, a scenario.
pub struct DataFolder<'a> {
    files: &'a [crate::DataFile],
    names: Vec<&'a str>,
}

impl<'a> DataFolder<'a> {
    /// `files`, of which those named (by file name, in any folder) in `names` are not
    /// scenarios.
    pub fn new(files: &'a [crate::DataFile], names: &[&'a str]) -> DataFolder<'a> {
        DataFolder {
            files,
            names: names.to_vec(),
        }
    }

    fn file_name(f: &crate::DataFile) -> &str {
        std::path::Path::new(&f.name)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
    }

    /// The file called `name` as (its path, its text), or the built-in one.
    pub fn named(&self, name: &'a str, builtin: &'a str) -> (String, &'a str) {
        match self.files.iter().find(|f| Self::file_name(f) == name) {
            Some(f) => (f.name.clone(), f.text.as_str()),
            None => (format!("{name} (built in)"), builtin),
        }
    }

    /// Every other file: the scenarios, as (path, text).
    pub fn scenarios(&self) -> Vec<(&'a str, &'a str)> {
        self.files
            .iter()
            .filter(|f| !self.names.contains(&Self::file_name(f)))
            .map(|f| (f.name.as_str(), f.text.as_str()))
            .collect()
    }
}

/// The scenario to play: the one named, or the only one there is.
pub fn choose_scenario(named: Option<&str>, ids: &[&str]) -> Result<String, SetupError> {
    match (named, ids) {
        (Some(id), _) => Ok(id.to_string()),
        (None, [one]) => Ok(one.to_string()),
        (None, _) => Err(SetupError::new(
            "scenario",
            "the data holds several scenarios: name one with --scenario",
        )),
    }
}

/// The item whose id is `id`, or an error listing the ids there are (`what`: "scenario").
pub fn by_id<'a, T>(
    items: &'a [T],
    id: &str,
    what: &str,
    key: impl Fn(&T) -> &str,
) -> Result<&'a T, SetupError> {
    items.iter().find(|s| key(s) == id).ok_or_else(|| {
        let ids: Vec<&str> = items.iter().map(&key).collect();
        SetupError::new(
            format!("{what} {id}"),
            format!("no such {what}; {what}s are {}", ids.join(", ")),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct S {
        a: u8,
        sides: Vec<Side>,
    }
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Side {
        kind: String,
    }

    const TEXT: &str = "a = 1\n\n[[sides]]\nkind = \"x\"\n\n[[sides]]\nkind = \"y\"\n";

    #[test]
    fn toml_errors_name_file_line_and_column() {
        let e = parse::<S>("f.toml", "a = 300\nsides = []\n").unwrap_err();
        assert_eq!(e.at, "f.toml:1:5");
    }

    #[test]
    fn errors_after_parsing_are_placed_in_their_file() {
        parse::<S>("f.toml", TEXT).unwrap();
        let e = SetupError::new("scenario.sides[1].kind", "no such kind");
        let placed = place(
            e,
            &[Source {
                prefix: "scenario.",
                name: "f.toml",
                text: TEXT,
            }],
        );
        assert_eq!(placed.at, "f.toml:7:8: scenario.sides[1].kind");
        let other = place(SetupError::new("options.x", "m"), &[]);
        assert_eq!(other.at, "options.x");
        let src = [Source {
            prefix: "scenario.",
            name: "f.toml",
            text: TEXT,
        }];
        // A field the file does not have: at the nearest part it has.
        let near = place(SetupError::new("scenario.sides[1].reach", "m"), &src);
        assert_eq!(near.at, "f.toml:6:1: scenario.sides[1].reach");
        let none = place(SetupError::new("scenario.table", "m"), &src);
        assert_eq!(none.at, "f.toml:1:1: scenario.table");
        let whole = place(SetupError::new("scenario", "m"), &src);
        assert_eq!(whole.at, "f.toml:1:1: scenario");
        // Placed once only.
        assert_eq!(place(near.clone(), &src).at, near.at);
        // Arrays of arrays.
        let text = "armies = [\n  [\"a\", \"b\"],\n  [\"c\"],\n]\n";
        assert_eq!(locate(text, "armies[1][0]"), Some((3, 4)));
        assert_eq!(locate(text, "armies[1][5]"), None);
        let files = [("a.toml", "id = \"x\"\n"), ("b.toml", "id = \"y\"\n")];
        assert_eq!(file_with_id(&files, "y").map(|f| f.0), Some("b.toml"));
        assert_eq!(file_with_id(&files, "z"), None);
    }

    #[test]
    fn data_folder_named_files_and_scenarios() {
        let files = vec![
            crate::DataFile {
                name: "d/cards.toml".into(),
                text: "c".into(),
            },
            crate::DataFile {
                name: "d/scenarios/a.toml".into(),
                text: "a".into(),
            },
        ];
        let f = DataFolder::new(&files, &["cards.toml", "units.toml"]);
        assert_eq!(
            f.named("cards.toml", "built"),
            ("d/cards.toml".to_string(), "c")
        );
        assert_eq!(f.named("units.toml", "built").1, "built");
        assert_eq!(f.scenarios(), vec![("d/scenarios/a.toml", "a")]);
        assert_eq!(choose_scenario(None, &["a"]).unwrap(), "a");
        assert!(choose_scenario(None, &["a", "b"]).is_err());
        let e = by_id(&["x", "y"], "z", "scenario", |s| s).unwrap_err();
        assert!(e.message.contains("scenarios are x, y"), "{e}");
    }
}
