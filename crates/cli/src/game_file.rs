//! The game file: a record plus how its dice are rolled.

use anyhow::{Context, Result, bail};
use battlemat_core::dynamic::{DynEvent, DynRecord, DynState};
use battlemat_core::{DataFile, Step, ToAct};
use battlemat_dice::{Roller, RollerPosition};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const FORMAT: u32 = 1;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceMode {
    /// Rolled from a seed; the position is where the next die comes from.
    Seeded(RollerPosition),
    /// Rolled at a real table and typed in.
    Table,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub battlemat: u32,
    pub ruleset: String,
    pub version: String,
    pub dice: DiceMode,
    pub setup: Value,
    pub steps: Vec<Step<Value>>,
}

/// Where a game's scenario comes from: built in (by id; none = the first), one scenario
/// file of the user's, or a data folder shaped like a game's `data/` (with `--scenario` to
/// pick among its scenarios).
pub enum ScenarioSource {
    Builtin(Option<String>),
    File(PathBuf),
    Data(PathBuf, Option<String>),
}

impl ScenarioSource {
    pub fn from_args(
        scenario: Option<String>,
        file: Option<PathBuf>,
        data: Option<PathBuf>,
    ) -> Result<Self> {
        Ok(match (file, data) {
            (Some(_), Some(_)) => bail!("give --scenario-file or --data, not both"),
            (Some(f), None) => ScenarioSource::File(f),
            (None, Some(d)) => ScenarioSource::Data(d, scenario),
            (None, None) => ScenarioSource::Builtin(scenario),
        })
    }

    /// The setup, as JSON, and a name for the scenario.
    pub fn setup(
        &self,
        entry: &battlemat_rulesets::Entry,
        options: &BTreeMap<String, String>,
    ) -> Result<(Value, String)> {
        let info = entry.ruleset.info();
        let from_data = |scenario: Option<&str>, files: Vec<DataFile>| -> Result<Value> {
            entry
                .ruleset
                .setup_from_data(scenario, &files, options)
                .map_err(|e| anyhow::anyhow!("{e}"))
        };
        match self {
            ScenarioSource::Builtin(s) => {
                let id = match s {
                    Some(s) => s.clone(),
                    None => info
                        .scenarios
                        .first()
                        .map(|s| s.id.clone())
                        .context("the game has no scenarios")?,
                };
                let setup = entry
                    .ruleset
                    .setup(&id, options)
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                Ok((setup, id))
            }
            ScenarioSource::File(path) => {
                let text = read_capped(path, MAX_DATA_FILE)?;
                let name = path.display().to_string();
                let setup = from_data(
                    None,
                    vec![DataFile {
                        name: name.clone(),
                        text,
                    }],
                )?;
                Ok((setup, name))
            }
            ScenarioSource::Data(dir, scenario) => {
                let files = read_data_folder(dir)
                    .with_context(|| format!("data folder {}", dir.display()))?;
                let setup = from_data(scenario.as_deref(), files)?;
                let name = scenario
                    .clone()
                    .unwrap_or_else(|| dir.display().to_string());
                Ok((setup, name))
            }
        }
    }
}

/// A data folder shaped like a game's built-in `data/`: the `*.toml` files in it and in its
/// `scenarios/` folder, each in name order, named by path. Nothing deeper is read and
/// folder links are not followed, so a link loop cannot trap the reading.
fn read_data_folder(dir: &Path) -> Result<Vec<DataFile>> {
    let mut files = Vec::new();
    read_toml_files(dir, &mut files)?;
    let scenarios = dir.join("scenarios");
    if std::fs::symlink_metadata(&scenarios).is_ok_and(|m| m.is_dir()) {
        read_toml_files(&scenarios, &mut files)?;
    }
    if files.is_empty() {
        bail!("no .toml files in it (expected units.toml and/or scenarios/*.toml)");
    }
    Ok(files)
}

/// The `*.toml` files directly in `dir` (links to files are followed), in name order.
fn read_toml_files(dir: &Path, out: &mut Vec<DataFile>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        let is_file = std::fs::metadata(&p).is_ok_and(|m| m.is_file());
        if is_file && p.extension().is_some_and(|e| e == "toml") {
            let text = read_capped(&p, MAX_DATA_FILE)?;
            out.push(DataFile {
                name: p.display().to_string(),
                text,
            });
        }
    }
    Ok(())
}

/// A scenario from somewhere, and the options to play it with.
pub struct SetupChoice {
    pub source: ScenarioSource,
    pub options: BTreeMap<String, String>,
}

impl SetupChoice {
    /// For the simulation commands: the game's safety limit (`rounds=30`) when the options
    /// do not set that option themselves; whether it was added (then a game it ends is
    /// unfinished, neither a win nor a draw).
    pub fn safety_limit(&mut self, info: &battlemat_core::RulesetInfo) -> bool {
        match &info.safety_limit {
            Some((k, v)) if !self.options.contains_key(k) => {
                self.options.insert(k.clone(), v.clone());
                true
            }
            _ => false,
        }
    }

    /// For a game played by a varying number of players, say how many sit down (unless the
    /// options already do).
    pub fn seat(&mut self, game: &str, players: usize) -> Result<()> {
        let info = battlemat_rulesets::get(game)
            .map_err(anyhow::Error::msg)?
            .ruleset
            .info();
        // One named player for many seats is cycled (sim): leave the game's own default then.
        if info.min_seats != info.max_seats && players >= info.min_seats as usize {
            self.options
                .entry(battlemat_core::SEATS_OPTION.to_string())
                .or_insert_with(|| players.to_string());
        }
        Ok(())
    }

    /// The setup, as JSON, and a name for the scenario.
    pub fn setup(&self, entry: &battlemat_rulesets::Entry) -> Result<(Value, String)> {
        self.source.setup(entry, &self.options)
    }
}

impl GameFile {
    pub fn create(
        game: &str,
        setup: &SetupChoice,
        dice: DiceMode,
    ) -> Result<(GameFile, battlemat_rulesets::Entry)> {
        let entry = battlemat_rulesets::get(game).map_err(anyhow::Error::msg)?;
        let info = entry.ruleset.info();
        let (setup, _) = setup.setup(&entry)?;
        let gf = GameFile {
            battlemat: FORMAT,
            ruleset: info.id,
            version: info.version,
            dice,
            setup,
            steps: vec![],
        };
        Ok((gf, entry))
    }

    pub fn load(path: &Path) -> Result<GameFile> {
        let text = read_capped(path, MAX_GAME_FILE)?;
        GameFile::parse(path, &text)
    }

    fn parse(path: &Path, text: &str) -> Result<GameFile> {
        let gf: GameFile = serde_json::from_str(text)
            .with_context(|| format!("{}: not a Battlemat game file", path.display()))?;
        if gf.battlemat != FORMAT {
            bail!(
                "{}: game file format {} (this program reads format {FORMAT})",
                path.display(),
                gf.battlemat
            );
        }
        Ok(gf)
    }

    /// Open a game file to change it: an exclusive lock on the file as it is now (a writer
    /// that replaced it while this one waited is noticed, and the new file locked and read
    /// instead), so concurrent `act`s apply one after another, each to the file the last left.
    /// Hold the lock until the change is saved.
    pub fn load_locked(path: &Path) -> Result<(GameFile, Lock)> {
        for _ in 0..1000 {
            let file =
                std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
            file.lock()
                .with_context(|| format!("locking {}", path.display()))?;
            // Still the file at that path (not one a writer has since replaced)?
            let held = file.metadata()?;
            let now =
                std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
            if !same_file(&held, &now) {
                continue;
            }
            let text = read_capped(path, MAX_GAME_FILE)?;
            let gf = GameFile::parse(path, &text)?;
            return Ok((gf, Lock { _file: file }));
        }
        bail!(
            "{}: the file kept changing while waiting for it",
            path.display()
        )
    }

    /// Write the whole file safely: to a temporary file of its own in the same folder (the
    /// old file's permissions kept), flushed to disk, renamed over the old one, the folder
    /// flushed too. A symbolic link is written through to its target.
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)? + "\n";
        let target = match std::fs::canonicalize(path) {
            Ok(t) => t,
            Err(_) => path.to_path_buf(),
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| "game".into());
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let tmp = dir.join(format!(
            ".{name}.{}-{stamp}.tmp-battlemat",
            std::process::id()
        ));
        let written = (|| -> Result<()> {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
                .with_context(|| format!("writing {}", path.display()))?;
            f.write_all(text.as_bytes())
                .with_context(|| format!("writing {}", path.display()))?;
            if let Ok(old) = std::fs::metadata(&target) {
                f.set_permissions(old.permissions())?;
            }
            f.sync_all()?;
            std::fs::rename(&tmp, &target)
                .with_context(|| format!("writing {}", path.display()))?;
            if let Ok(d) = std::fs::File::open(&dir) {
                let _ = d.sync_all();
            }
            Ok(())
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }

    fn record(&self) -> DynRecord {
        DynRecord {
            ruleset: self.ruleset.clone(),
            version: self.version.clone(),
            setup: self.setup.clone(),
            steps: self.steps.clone(),
        }
    }

    pub fn replay(&self) -> Result<(Box<dyn DynState>, Vec<DynEvent>)> {
        let entry = battlemat_rulesets::get(&self.ruleset).map_err(anyhow::Error::msg)?;
        entry
            .ruleset
            .replay(&self.record())
            .map_err(|e| anyhow::anyhow!("the game file does not replay: {e}"))
    }

    pub fn state(&self) -> Result<Box<dyn DynState>> {
        Ok(self.replay()?.0)
    }

    /// Before steps are added to a record of an older ruleset version: the current version
    /// replays it as it was (that is what let it load), and the new steps are made under the
    /// current rules, so the file is now of the current version.
    pub fn stamp_current_version(&mut self) -> Result<()> {
        let entry = battlemat_rulesets::get(&self.ruleset).map_err(anyhow::Error::msg)?;
        self.version = entry.ruleset.info().version;
        Ok(())
    }

    /// With seeded dice, roll every die the game is waiting for.
    pub fn roll_pending(&mut self, state: &mut dyn DynState) -> Result<Vec<DynEvent>> {
        let DiceMode::Seeded(pos) = &mut self.dice else {
            return Ok(vec![]);
        };
        let mut roller = Roller::resume(*pos);
        let mut events = Vec::new();
        while let ToAct::Chance(c) = state.to_act() {
            let step = Step::Roll {
                value: c.roll(&mut roller),
            };
            events.extend(state.apply(&step).map_err(|e| anyhow::anyhow!("{e}"))?);
            self.steps.push(step);
        }
        *pos = roller.position();
        Ok(events)
    }

    /// Check that every die in a seeded record is the one its seed gives. Returns how many.
    pub fn verify_dice(&self) -> Result<usize> {
        let DiceMode::Seeded(pos) = &self.dice else {
            return Ok(0);
        };
        let entry = battlemat_rulesets::get(&self.ruleset).map_err(anyhow::Error::msg)?;
        let mut state = entry
            .ruleset
            .new_game(&self.setup)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut roller = Roller::new(pos.seed, pos.stream);
        let mut n = 0;
        for (i, step) in self.steps.iter().enumerate() {
            if let (ToAct::Chance(c), Step::Roll { value }) = (state.to_act(), step) {
                let expected = c.roll(&mut roller);
                if expected != *value {
                    bail!(
                        "step {i}: {} shows {value}, but seed {} gives {expected}",
                        c.what,
                        pos.seed
                    );
                }
                n += 1;
            }
            state
                .apply(step)
                .map_err(|e| anyhow::anyhow!("step {i}: {e}"))?;
        }
        if roller.position() != *pos {
            bail!(
                "the saved dice position does not follow from seed {}: the file was edited",
                pos.seed
            );
        }
        Ok(n)
    }
}

/// The most a game file may weigh (a long game is a few megabytes).
pub const MAX_GAME_FILE: u64 = 64 << 20;
/// The most a data file (a scenario, a unit table) may weigh.
pub const MAX_DATA_FILE: u64 = 8 << 20;

/// An exclusive lock on a game file, held while it is changed (released when dropped).
pub struct Lock {
    _file: std::fs::File,
}

fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len() && a.modified().ok() == b.modified().ok()
    }
}

/// Read a regular file of at most `max` bytes: a device, a pipe or a folder is refused, and
/// so is a file larger than that, with a message that says which.
pub fn read_capped(path: &Path, max: u64) -> Result<String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    if !meta.is_file() {
        bail!("{}: not a regular file", path.display());
    }
    if meta.len() > max {
        bail!(
            "{}: {} bytes, more than the {} MB a file may have here",
            path.display(),
            meta.len(),
            max >> 20
        );
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .with_context(|| format!("reading {}", path.display()))?
        .take(max + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("reading {}: not UTF-8 text", path.display()))?;
    if text.len() as u64 > max {
        bail!("{}: larger than {} MB", path.display(), max >> 20);
    }
    Ok(text)
}
