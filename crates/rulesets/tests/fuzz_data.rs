//! Mutated data files of every game, as a `--data` folder gives them: nothing panics, a
//! setup accepted starts a game, and every refusal is at `file:line:column` in one of the
//! files (or names the scenario asked for, when the mutation renamed it). 40 mutations a
//! file, times `BATTLEMAT_TEST_SCALE` for longer runs.

use battlemat_core::DataFile;
use battlemat_dice::Roller;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A game's built-in data files, named by their path, and the scenario each defines.
fn data_files(game: &str) -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../rules")
        .join(game)
        .join("data");
    let mut out = Vec::new();
    for d in [dir.clone(), dir.join("scenarios")] {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        names.sort();
        for p in names {
            let text = std::fs::read_to_string(&p).unwrap();
            out.push((p, text));
        }
    }
    out
}

/// One mutation of `text`: a number, a string or a boolean changed, a line deleted,
/// doubled or swapped with the next, the text cut short, or a character put in.
fn mutate(text: &str, r: &mut Roller) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let pick = |r: &mut Roller, n: usize| (r.roll(n.max(1) as u32) - 1) as usize;
    match r.roll(8) {
        1 | 2 => {
            let spans: Vec<(usize, usize)> = token_spans(text, |c| c.is_ascii_digit() || c == '.');
            let Some(&(a, b)) = spans.get(pick(r, spans.len())) else {
                return text.to_string();
            };
            let with = [
                "0",
                "-1",
                "7",
                "99999",
                "4294967296",
                "1e300",
                "0.0001",
                "1/3",
            ][pick(r, 8)];
            format!("{}{with}{}", &text[..a], &text[b..])
        }
        3 => {
            let quotes: Vec<usize> = text.match_indices('"').map(|(i, _)| i).collect();
            let i = pick(r, quotes.len() / 2) * 2;
            match (quotes.get(i), quotes.get(i + 1)) {
                (Some(&a), Some(&b)) => {
                    format!("{}\"zz{}\"{}", &text[..a], pick(r, 9), &text[b + 1..])
                }
                _ => text.to_string(),
            }
        }
        4 => {
            let i = pick(r, lines.len());
            let mut l = lines.clone();
            l.remove(i);
            l.join("\n")
        }
        5 => {
            let i = pick(r, lines.len());
            let mut l = lines.clone();
            l.insert(i, lines[i]);
            l.join("\n")
        }
        6 if lines.len() > 1 => {
            let i = pick(r, lines.len() - 1);
            let mut l = lines.clone();
            l.swap(i, i + 1);
            l.join("\n")
        }
        7 => {
            let mut cut = pick(r, text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text[..cut].to_string()
        }
        _ => {
            let mut at = pick(r, text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let c = ['[', ']', '"', '=', '\n', '#', '{', 'é'][pick(r, 8)];
            format!("{}{c}{}", &text[..at], &text[at..])
        }
    }
}

/// Byte spans of the runs of characters `is` accepts.
fn token_spans(text: &str, is: impl Fn(char) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (is(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// `file:line:column` at the start of `at`, the file one of `names`.
fn placed(at: &str, names: &[String]) -> bool {
    names.iter().any(|n| {
        at.strip_prefix(n.as_str())
            .and_then(|rest| rest.strip_prefix(':'))
            .is_some_and(|rest| {
                let mut parts = rest.splitn(3, ':');
                let line = parts.next().and_then(|l| l.parse::<usize>().ok());
                let col = parts.next().and_then(|c| c.trim().parse::<usize>().ok());
                line.is_some() && col.is_some()
            })
    })
}

#[test]
fn mutated_data_files_are_refused_at_their_place_or_play() {
    let scale = battlemat_core::conformance::scale();
    let mut refused = 0;
    let mut accepted = 0;
    for entry in battlemat_rulesets::all() {
        let info = entry.info();
        let files = data_files(&info.id);
        let names: Vec<String> = files.iter().map(|(p, _)| p.display().to_string()).collect();
        let scenario = info.scenarios[0].id.clone();
        let mut r = Roller::new(21, 0);
        for (k, (path, text)) in files.iter().enumerate() {
            for round in 0..40 * scale {
                let mutated = mutate(text, &mut r);
                let data: Vec<DataFile> = files
                    .iter()
                    .enumerate()
                    .map(|(j, (p, t))| DataFile {
                        name: p.display().to_string(),
                        text: if j == k { mutated.clone() } else { t.clone() },
                    })
                    .collect();
                let what = format!("{} {} round {round}", info.id, path.display());
                match entry.setup_from_data(Some(&scenario), &data, &BTreeMap::new()) {
                    Ok(setup) => {
                        accepted += 1;
                        if let Err(e) = entry.new_game(&setup) {
                            panic!("{what}: an accepted setup does not start: {e}\n{mutated}");
                        }
                    }
                    Err(e) => {
                        refused += 1;
                        assert!(
                            placed(&e.at, &names) || e.message.contains("no such scenario"),
                            "{what}: not at file:line:column: {e}"
                        );
                    }
                }
            }
        }
    }
    assert!(
        refused > 0 && accepted > 0,
        "{refused} refused, {accepted} accepted"
    );
}
