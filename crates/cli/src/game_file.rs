//! The game file: a record plus how its dice are rolled.

use anyhow::{Context, Result, bail};
use battlemat_core::dynamic::{DynEvent, DynRecord, DynState};
use battlemat_core::{Chain, DataFile, Step, ToAct, Viewer};
use battlemat_dice::{Roller, RollerPosition};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The game file format written: 2 adds `origin` and `digest` to format 1, which is still
/// read (its files say nothing of their origin and carry no digest).
pub const FORMAT: u32 = 2;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceMode {
    /// Rolled from a seed; the position is where the next die comes from.
    Seeded(RollerPosition),
    /// Rolled at a real table and typed in.
    Table,
    /// Rolled by a server (`battlemat serve`) from its committed seed and the seats' own
    /// seeds; the record it exports once the game is over carries the seed.
    Server(ServerDice),
}

/// A server's dice: each die is HMAC-SHA256(server seed, seats' seeds, chance index) by the
/// outcomes' exact weights (`battlemat_server::dice`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerDice {
    /// SHA-256 of the server seed, published when the game was created.
    pub commitment: String,
    /// Each seat's own seed, in seat order.
    pub seat_seeds: Vec<String>,
    /// The server seed, revealed when the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
}

impl DiceMode {
    /// What the mode fixes for the whole game (the chain's header): the seed and stream,
    /// not the position, which moves with every die.
    pub(crate) fn fixed(&self) -> Value {
        match self {
            DiceMode::Seeded(p) => json!({"seeded": {"seed": p.seed, "stream": p.stream}}),
            DiceMode::Table => json!("table"),
            // The seed is revealed at the end: the digest made during the game holds.
            DiceMode::Server(d) => {
                json!({"server": {"commitment": d.commitment, "seat_seeds": d.seat_seeds}})
            }
        }
    }
}

/// Where a game's setup came from, as `new` or `play` made it: a built-in scenario with
/// the options given (`verify` builds it again and compares), or the user's own data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Origin {
    Builtin {
        scenario: String,
        options: BTreeMap<String, String>,
    },
    Custom {
        /// The scenario file or data folder, as it was named.
        from: String,
        /// The scenario picked from a data folder, if one was named.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scenario: Option<String>,
        options: BTreeMap<String, String>,
    },
}

impl Origin {
    /// A name for the scenario in reports: its id, or the file or folder it came from.
    pub fn name(&self) -> String {
        match self {
            Origin::Builtin { scenario, .. } => scenario.clone(),
            Origin::Custom { from, scenario, .. } => scenario.clone().unwrap_or(from.clone()),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub battlemat: u32,
    pub ruleset: String,
    pub version: String,
    /// Absent in format 1 files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    pub dice: DiceMode,
    /// The record's hash chain after its last step (`Chain::hex`), written on every save;
    /// absent in format 1 files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    pub setup: Value,
    pub steps: Vec<Step<Value>>,
    /// Steps were taken back since the file was read (`play`'s undo): the next save
    /// rewrites it whole, as no journal line can take a step back ([`Saver`]).
    #[serde(skip)]
    pub truncated: bool,
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

    /// The setup, as JSON, and where it came from.
    pub fn setup(
        &self,
        entry: &crate::games::Entry,
        options: &BTreeMap<String, String>,
    ) -> Result<(Value, Origin)> {
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
                let origin = Origin::Builtin {
                    scenario: id,
                    options: options.clone(),
                };
                Ok((setup, origin))
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
                let origin = Origin::Custom {
                    from: name,
                    scenario: None,
                    options: options.clone(),
                };
                Ok((setup, origin))
            }
            ScenarioSource::Data(dir, scenario) => {
                let files = read_data_folder(dir)
                    .with_context(|| format!("data folder {}", dir.display()))?;
                let setup = from_data(scenario.as_deref(), files)?;
                let origin = Origin::Custom {
                    from: dir.display().to_string(),
                    scenario: scenario.clone(),
                    options: options.clone(),
                };
                Ok((setup, origin))
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

/// The `*.toml` files directly in `dir` (links to files are followed), in name order. A
/// `.toml` that is not a regular file (a pipe, a device, a folder) is an error, not skipped,
/// and so is a folder whose files weigh more than [`MAX_DATA_FOLDER`] together.
fn read_toml_files(dir: &Path, out: &mut Vec<DataFile>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        if p.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let meta = std::fs::metadata(&p).with_context(|| format!("reading {}", p.display()))?;
        if !meta.is_file() {
            bail!("{}: not a regular file", p.display());
        }
        let total: u64 = out.iter().map(|f| f.text.len() as u64).sum::<u64>() + meta.len();
        if total > MAX_DATA_FOLDER {
            bail!(
                "{}: the data files weigh more than the {} MB a data folder may have in all",
                p.display(),
                MAX_DATA_FOLDER >> 20
            );
        }
        let text = read_capped(&p, MAX_DATA_FILE)?;
        out.push(DataFile {
            name: p.display().to_string(),
            text,
        });
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
        let info = crate::games::get(game)
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

    /// The setup, as JSON, and where it came from.
    pub fn setup(&self, entry: &crate::games::Entry) -> Result<(Value, Origin)> {
        self.source.setup(entry, &self.options)
    }
}

impl GameFile {
    pub fn create(
        game: &str,
        setup: &SetupChoice,
        dice: DiceMode,
    ) -> Result<(GameFile, crate::games::Entry)> {
        let entry = crate::games::get(game).map_err(anyhow::Error::msg)?;
        let info = entry.ruleset.info();
        let (setup, origin) = setup.setup(&entry)?;
        let gf = GameFile {
            battlemat: FORMAT,
            ruleset: info.id,
            version: info.version,
            origin: Some(origin),
            dice,
            digest: None,
            setup,
            steps: vec![],
            truncated: false,
        };
        Ok((gf, entry))
    }

    /// Read a game file, its journal (left by a `play --save` that did not end) folded in.
    pub fn load(path: &Path) -> Result<GameFile> {
        Ok(GameFile::load_text(path)?.0)
    }

    /// [`GameFile::load`], with the file as read and the journal's length read.
    pub fn load_text(path: &Path) -> Result<(GameFile, FileId, u64)> {
        let meta =
            std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
        let text = read_capped(path, MAX_GAME_FILE)?;
        let mut gf = GameFile::parse(path, &text)?;
        let journal = gf.fold_journal(path)?;
        Ok((gf, FileId::of(&meta), journal))
    }

    pub fn parse(path: &Path, text: &str) -> Result<GameFile> {
        let gf: GameFile = serde_json::from_str(text)
            .with_context(|| format!("{}: not a Battlemat game file", path.display()))?;
        if !(1..=FORMAT).contains(&gf.battlemat) {
            bail!(
                "{}: game file format {} (this program reads formats 1 to {FORMAT})",
                path.display(),
                gf.battlemat
            );
        }
        if gf.battlemat >= 2 && gf.digest.is_none() {
            bail!(
                "{}: a format {} game file without its digest (it was edited by hand)",
                path.display(),
                gf.battlemat
            );
        }
        Ok(gf)
    }

    /// Open a game file to change it: an exclusive lock on the file as it is now (a writer
    /// that replaced it while this one waited is noticed, and the new file locked and read
    /// instead), so concurrent writers apply one after another, each to the file the last
    /// left. Hold the lock until the change is saved. A file that is not a regular file (a
    /// pipe would block the opening) or that is read-only is refused before it is opened.
    pub fn load_locked(path: &Path) -> Result<(GameFile, Lock)> {
        let (lock, text) = Lock::take(path)?;
        let mut gf = GameFile::parse(path, &text)?;
        gf.fold_journal(path)?;
        Ok((gf, lock))
    }

    /// The record's hash chain over its header (ruleset, origin, dice mode, setup) and
    /// every step, and the digest after each step: `[start, after step 0, …]`.
    pub fn chain(&self) -> Vec<Chain> {
        let header = json!({
            "ruleset": self.ruleset,
            "origin": self.origin,
            "dice": self.dice.fixed(),
            "setup": self.setup,
        });
        let mut at = Chain::start(&header);
        let mut all = Vec::with_capacity(self.steps.len() + 1);
        all.push(at);
        for step in &self.steps {
            at = at.then(&serde_json::to_value(step).unwrap_or(Value::Null));
            all.push(at);
        }
        all
    }

    /// The digest after the last step.
    pub fn digest(&self) -> Chain {
        *self.chain().last().expect("the chain has its start")
    }

    /// Is the stored digest the record's own? (Not, when the file was changed by hand.)
    pub fn digest_matches(&self) -> Result<()> {
        let Some(stored) = &self.digest else {
            return Ok(());
        };
        let own = self.digest().hex();
        if *stored != own {
            bail!(
                "the digest stored in the file ({}…) is not the record's own ({}): the file was changed other than by battlemat",
                stored.get(..16).unwrap_or(stored),
                Chain::short(&self.digest())
            );
        }
        Ok(())
    }

    /// The file's text as it is saved (format and digest brought up to date), refused if
    /// it would be larger than the reader accepts.
    fn text(&mut self) -> Result<String> {
        self.battlemat = FORMAT;
        self.digest = Some(self.digest().hex());
        let text = serde_json::to_string_pretty(self)? + "\n";
        within_reader_limit(text.len() as u64, MAX_GAME_FILE)?;
        Ok(text)
    }

    /// Write the whole file safely: to a temporary file of its own in the same folder
    /// (created with the old file's permissions), flushed to disk, renamed over the old one,
    /// the folder flushed too. A symbolic link is written through to its target. Temporary
    /// files left by a writer that was killed are removed. Returns the text written.
    /// The journal beside it, if any, is removed once the file holds its steps.
    pub fn save(&mut self, path: &Path) -> Result<String> {
        let text = self.text()?;
        write_replacing(path, &text)?;
        let journal = crate::journal::journal_path(path);
        match std::fs::remove_file(&journal) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("removing {}", journal.display()));
            }
            _ => self.truncated = false,
        }
        Ok(text)
    }

    /// Save as a new file: refused if one is there already (`new` without `--force`, the
    /// first save of `play --save`).
    pub fn save_new(&mut self, path: &Path) -> Result<String> {
        if std::fs::symlink_metadata(path).is_ok() {
            bail!(
                "{} already exists: a game in progress is not overwritten",
                path.display()
            );
        }
        self.save(path)
    }

    fn record(&self) -> DynRecord {
        DynRecord {
            ruleset: self.ruleset.clone(),
            version: self.version.clone(),
            setup: self.setup.clone(),
            steps: Vec::new(),
        }
    }

    /// Replay the record from its setup, every step in order, checking every die of a
    /// seeded game against its seed and the saved dice position against the dice rolled.
    /// The error names the first step that does not hold.
    pub fn replay_checked(&self) -> Result<Replayed, Mismatch> {
        let entry =
            crate::games::get(&self.ruleset).map_err(|e| Mismatch::new(None, e.to_string()))?;
        // The version and the setup (a record without steps).
        let (mut state, _) = entry
            .ruleset
            .replay(&self.record())
            .map_err(|e| Mismatch::new(None, e.to_string()))?;
        let mut roller = match &self.dice {
            DiceMode::Seeded(p) => Some(Roller::new(p.seed, p.stream)),
            DiceMode::Table | DiceMode::Server(_) => None,
        };
        // A server's revealed seed: it must be the one committed to.
        let server = match &self.dice {
            DiceMode::Server(d) => match &d.seed {
                Some(seed) if battlemat_server::dice::commitment(seed) != d.commitment => {
                    return Err(Mismatch::new(
                        None,
                        format!(
                            "the server seed revealed does not match the dice commitment: its SHA-256 gives {}, the commitment is {}",
                            battlemat_server::dice::commitment(seed),
                            d.commitment
                        ),
                    ));
                }
                Some(seed) => Some((seed.as_str(), d.seat_seeds.as_slice())),
                None => None,
            },
            _ => None,
        };
        let mut chance_index = 0u64;
        let mut events = Vec::new();
        let mut dice = 0;
        for (i, step) in self.steps.iter().enumerate() {
            if let (ToAct::Chance(c), Step::Roll { value }, Some((seed, seats))) =
                (state.to_act(), step, server)
            {
                let expected = battlemat_server::dice::face(seed, seats, chance_index, &c.outcomes);
                if expected != *value {
                    return Err(Mismatch::new(
                        Some(i),
                        format!(
                            "{} shows {value}, but the server seed and the seats' seeds give {expected} (die {chance_index})",
                            c.what
                        ),
                    ));
                }
                dice += 1;
            }
            if matches!(state.to_act(), ToAct::Chance(_)) {
                chance_index += 1;
            }
            if let (ToAct::Chance(c), Step::Roll { value }, Some(roller)) =
                (state.to_act(), step, roller.as_mut())
            {
                let expected = c.roll(roller);
                if expected != *value {
                    let DiceMode::Seeded(p) = &self.dice else {
                        unreachable!("a roller only for seeded dice")
                    };
                    return Err(Mismatch::new(
                        Some(i),
                        format!(
                            "{} shows {value}, but seed {} gives {expected}",
                            c.what, p.seed
                        ),
                    ));
                }
                dice += 1;
            }
            let step_events = state.apply(step).map_err(|e| {
                Mismatch::new(Some(i), format!("{} is not legal: {e}", step_words(step)))
            })?;
            events.extend(step_events);
        }
        if let (DiceMode::Seeded(pos), Some(roller)) = (&self.dice, &roller)
            && roller.position() != *pos
        {
            return Err(Mismatch::new(
                None,
                format!(
                    "the saved dice position does not follow from seed {} and the {dice} dice rolled: the file was edited",
                    pos.seed
                ),
            ));
        }
        Ok(Replayed {
            state,
            events,
            dice,
        })
    }

    /// The state after the last step, refused (naming the step) if a step is illegal, a
    /// seeded die is not the seed's, or the stored digest is not the record's own: what
    /// every command but `verify` (which reports it) reads a game file through.
    pub fn replay(&self) -> Result<(Box<dyn DynState>, Vec<DynEvent>)> {
        let r = self.replay_checked().map_err(|m| {
            anyhow::anyhow!("the game file does not hold: {m} (`battlemat verify` says more)")
        })?;
        self.digest_matches()
            .context("the game file does not hold (`battlemat verify` says more)")?;
        Ok((r.state, r.events))
    }

    pub fn state(&self) -> Result<Box<dyn DynState>> {
        Ok(self.replay()?.0)
    }

    /// Before steps are added to a record of an older ruleset version: the current version
    /// replays it as it was (that is what let it load), and the new steps are made under the
    /// current rules, so the file is now of the current version.
    pub fn stamp_current_version(&mut self) -> Result<()> {
        let entry = crate::games::get(&self.ruleset).map_err(anyhow::Error::msg)?;
        self.version = entry.ruleset.info().version;
        Ok(())
    }

    /// The game as its setup starts it, before any step (the version and setup checked).
    pub fn start(&self) -> Result<Box<dyn DynState>> {
        let entry = crate::games::get(&self.ruleset).map_err(anyhow::Error::msg)?;
        let (state, _) = entry
            .ruleset
            .replay(&self.record())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(state)
    }

    /// Each step with what `viewer` was told of it, replayed from the setup (`play`'s
    /// `history`).
    pub fn history(&self, viewer: Viewer) -> Result<Vec<(Step<Value>, Vec<DynEvent>)>> {
        let mut state = self.start()?;
        let mut out = Vec::with_capacity(self.steps.len());
        for step in &self.steps {
            let seen = state
                .apply_seen(step)
                .map_err(|e| anyhow::anyhow!("{}: {e}", step_words(step)))?;
            out.push((step.clone(), seen.for_viewer(viewer).to_vec()));
        }
        Ok(out)
    }

    /// Keep only the first `keep` steps (`play`'s `undo`) and return the state after them.
    /// With seeded dice the saved position goes back to where those steps leave the seed's
    /// stream, so the dice to come are the very dice that came before: an action taken
    /// again rolls what it rolled, and an undo never re-rolls a die (every die stays the
    /// seed's, and the file verifies).
    pub fn truncate(&mut self, keep: usize) -> Result<Box<dyn DynState>> {
        self.truncated |= keep < self.steps.len();
        self.steps.truncate(keep);
        let mut state = self.start()?;
        let mut roller = match &self.dice {
            DiceMode::Seeded(p) => Some(Roller::new(p.seed, p.stream)),
            DiceMode::Table | DiceMode::Server(_) => None,
        };
        for step in &self.steps {
            if let (ToAct::Chance(c), Step::Roll { .. }, Some(r)) =
                (state.to_act(), step, roller.as_mut())
            {
                c.roll(r);
            }
            state
                .apply(step)
                .map_err(|e| anyhow::anyhow!("{}: {e}", step_words(step)))?;
        }
        if let (DiceMode::Seeded(pos), Some(r)) = (&mut self.dice, &roller) {
            *pos = r.position();
        }
        Ok(state)
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
}

/// A replayed, checked record.
pub struct Replayed {
    pub state: Box<dyn DynState>,
    pub events: Vec<DynEvent>,
    /// How many dice were checked against the seed (none with table dice).
    pub dice: usize,
}

/// What does not hold in a record: the first step that differs (`None`: the file as a
/// whole, e.g. its setup or its dice position) and how.
#[derive(Debug)]
pub struct Mismatch {
    pub step: Option<usize>,
    pub what: String,
}

impl Mismatch {
    fn new(step: Option<usize>, what: String) -> Mismatch {
        Mismatch { step, what }
    }
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.step {
            Some(i) => write!(f, "step {i}: {}", self.what),
            None => write!(f, "{}", self.what),
        }
    }
}

/// A step in words, for errors: "seat 1: {…}", "roll 5", "seat 0 resigns".
pub fn step_words(step: &Step<Value>) -> String {
    match step {
        Step::Act { seat, action } => format!("seat {seat}'s action {action}"),
        Step::Roll { value } => format!("the roll {value}"),
        Step::Resign { seat } => format!("seat {seat}'s resignation"),
    }
}

/// Refuse to write `len` bytes where the reader takes at most `max`.
fn within_reader_limit(len: u64, max: u64) -> Result<()> {
    if len > max {
        bail!(
            "the game file would be {len} bytes, more than the {} MB battlemat reads back: not written",
            max >> 20
        );
    }
    Ok(())
}

/// The temporary file's name for `name` (the game file's name): the process id and a stamp
/// make it this writer's own; [`remove_stale_temporaries`] reads the process id back.
fn temporary_name(name: &str) -> String {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(".{name}.{}-{stamp}{TMP_SUFFIX}", std::process::id())
}

const TMP_SUFFIX: &str = ".tmp-battlemat";

/// Remove the temporary files of `name` in `dir` left by writers that are no longer
/// running (killed between writing and renaming).
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let prefix = format!(".{name}.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name();
        let Some(rest) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|f| f.strip_suffix(TMP_SUFFIX))
        else {
            continue;
        };
        let Some(pid) = rest
            .split_once('-')
            .and_then(|(p, _)| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !process_alive(pid) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 only asks whether the process exists.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Write `text` as the file at `path`, replacing it whole (see [`GameFile::save`]).
pub fn write_replacing(path: &Path, text: &str) -> Result<()> {
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
    let old = std::fs::metadata(&target).ok();
    if let Some(old) = &old
        && !old.is_file()
    {
        bail!("{}: not a regular file: not written", path.display());
    }
    remove_stale_temporaries(&dir, &name);
    let tmp = dir.join(temporary_name(&name));
    let written = (|| -> Result<()> {
        use std::io::Write;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        if let Some(old) = &old {
            use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
            // Created with the old file's permissions (never more open than they were).
            options.mode(old.permissions().mode() & 0o7777);
        }
        let mut f = options
            .open(&tmp)
            .with_context(|| format!("writing {}", path.display()))?;
        if let Some(old) = &old {
            // Exactly the old permissions, whatever the umask took away.
            f.set_permissions(old.permissions())?;
        }
        f.write_all(text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        f.sync_all()?;
        std::fs::rename(&tmp, &target).with_context(|| format!("writing {}", path.display()))?;
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

/// The most a game file may weigh (a long game is a few megabytes).
pub const MAX_GAME_FILE: u64 = 64 << 20;
/// The most a data file (a scenario, a unit table) may weigh.
pub const MAX_DATA_FILE: u64 = 8 << 20;
/// The most a data folder's files may weigh together.
pub const MAX_DATA_FOLDER: u64 = 32 << 20;

/// An exclusive lock on a game file, held while it is changed (released when dropped).
pub struct Lock {
    _file: std::fs::File,
}

impl Lock {
    /// Lock the file at `path` as it is now and read it (see [`GameFile::load_locked`]).
    pub(crate) fn take(path: &Path) -> Result<(Lock, String)> {
        let (lock, _) = Lock::hold(path)?;
        let text = read_capped(path, MAX_GAME_FILE)?;
        Ok((lock, text))
    }

    /// Lock the file at `path` as it is now, without reading it: the lock and the file's
    /// metadata under it.
    pub(crate) fn hold(path: &Path) -> Result<(Lock, std::fs::Metadata)> {
        for _ in 0..1000 {
            let meta =
                std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
            if !meta.is_file() {
                bail!("{}: not a regular file", path.display());
            }
            if meta.permissions().readonly() {
                bail!(
                    "{}: the file is read-only: battlemat does not replace it (make it writable to go on)",
                    path.display()
                );
            }
            let mut options = std::fs::OpenOptions::new();
            options.read(true);
            #[cfg(unix)]
            {
                // Replaced by a pipe since the check: the opening does not wait for a writer.
                use std::os::unix::fs::OpenOptionsExt;
                options.custom_flags(libc::O_NONBLOCK);
            }
            let file = options
                .open(path)
                .with_context(|| format!("reading {}", path.display()))?;
            let held = file.metadata()?;
            if !held.is_file() {
                bail!("{}: not a regular file", path.display());
            }
            file.lock()
                .with_context(|| format!("locking {}", path.display()))?;
            // Still the file at that path (not one a writer has since replaced)?
            let now =
                std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
            if !same_file(&held, &now) {
                continue;
            }
            return Ok((Lock { _file: file }, now));
        }
        bail!(
            "{}: the file kept changing while waiting for it",
            path.display()
        )
    }
}

/// A file as it is on disk: which file (device and inode), its length and its last change.
/// Every writer replaces a game file by a rename, so a new identity means another writer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileId {
    same: (u64, u64),
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl FileId {
    pub fn of(meta: &std::fs::Metadata) -> FileId {
        #[cfg(unix)]
        let same = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let same = (0, 0);
        FileId {
            same,
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_past_the_readers_limit_is_not_written() {
        assert!(within_reader_limit(MAX_GAME_FILE, MAX_GAME_FILE).is_ok());
        let e = within_reader_limit(MAX_GAME_FILE + 1, MAX_GAME_FILE).unwrap_err();
        assert!(e.to_string().contains("64 MB"), "{e}");
    }

    #[test]
    fn temporary_names_carry_the_writers_process_id() {
        let n = temporary_name("g.json");
        let rest = n
            .strip_prefix(".g.json.")
            .and_then(|r| r.strip_suffix(TMP_SUFFIX))
            .unwrap();
        let pid: u32 = rest.split_once('-').unwrap().0.parse().unwrap();
        assert_eq!(pid, std::process::id());
        assert!(process_alive(pid));
    }
}
