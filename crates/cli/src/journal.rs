//! The journal of `play --save`: what each save adds, appended to `FILE.journal` beside the
//! game file instead of rewriting the whole file after every step.
//!
//! `play --save FILE` writes FILE whole at the start, then appends one line per save to
//! `FILE.journal` (the steps since the last save, the dice position after them and the
//! record's digest after them) and flushes it to disk; at the end of the game (or at
//! `quit`) it folds the journal into FILE (written whole, as every writer writes it) and
//! removes it. Every reader folds a journal it finds back in ([`GameFile::load`]), so a game
//! interrupted by a crash is whole as of its last save. A save is one line, so it is applied
//! whole or not at all: the file is never left with an action and not the dice it brought.
//!
//! A line counts once its newline is on disk: a last line without one (a crash mid-write)
//! is dropped with a warning. Each line's digest must continue the record's hash chain, so
//! a journal of another game, or one edited by hand, is refused, never folded in. A line
//! whose steps the file already holds (a crash between writing the file whole and removing
//! the journal) is skipped once its digest matches the file's.
//!
//! Rejected: appending to the game file itself (a file of lines instead of one JSON
//! document: every other reader of game files, and docs/json.md, would change), and
//! rewriting only every N steps (a crash would lose the last N − 1).

use crate::game_file::{DiceMode, FileId, GameFile, Lock, MAX_GAME_FILE};
use anyhow::{Context, Result, bail};
use battlemat_core::{Chain, Step};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The journal beside a game file: its name with `.journal` added.
pub fn journal_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// One save: the steps from index `from`, the dice after them, the digest after them.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    from: usize,
    steps: Vec<Step<Value>>,
    dice: DiceMode,
    digest: String,
}

impl GameFile {
    /// Fold in the journal beside `path`, if there is one: returns its length as read (0
    /// without a journal).
    pub fn fold_journal(&mut self, path: &Path) -> Result<u64> {
        let jp = journal_path(path);
        let Ok(meta) = std::fs::symlink_metadata(&jp) else {
            return Ok(0);
        };
        if !meta.is_file() || meta.len() > MAX_GAME_FILE {
            bail!(
                "{}: not a journal (not a regular file, or larger than {} MB)",
                jp.display(),
                MAX_GAME_FILE >> 20
            );
        }
        let bytes = std::fs::read(&jp).with_context(|| format!("reading {}", jp.display()))?;
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let chain = self.chain();
        let mut at = *chain.last().expect("the chain has its start");
        for (n, raw) in bytes[..whole].split(|&b| b == b'\n').enumerate() {
            if raw.is_empty() {
                continue;
            }
            let where_ = || format!("{}: line {}", jp.display(), n + 1);
            let line: Line = serde_json::from_slice(raw).map_err(|e| {
                anyhow::anyhow!(
                    "{}: not a journal line ({e}): the journal is damaged (move it away to load the game as the file has it)",
                    where_()
                )
            })?;
            let end = line.from + line.steps.len();
            if end <= self.steps.len() {
                // Already in the file (written whole before the journal was removed).
                if chain.get(end).map(Chain::hex) != Some(line.digest) {
                    bail!(
                        "{}: its steps are not the file's: the journal is another game's",
                        where_()
                    );
                }
                continue;
            }
            if line.from != self.steps.len() {
                bail!(
                    "{}: starts at step {} but the game has {}: the journal is another game's, or a line is missing",
                    where_(),
                    line.from,
                    self.steps.len()
                );
            }
            for step in &line.steps {
                at = at.then(&serde_json::to_value(step)?);
            }
            if at.hex() != line.digest {
                bail!(
                    "{}: its digest is not the record's: the journal is another game's, or was changed other than by battlemat",
                    where_()
                );
            }
            self.steps.extend(line.steps);
            self.dice = line.dice;
            self.digest = Some(line.digest);
        }
        if whole < bytes.len() {
            eprintln!(
                "warning: {}: its last line is cut off ({} bytes: a save interrupted by a crash): dropped, so the game is as of step {}",
                jp.display(),
                bytes.len() - whole,
                self.steps.len()
            );
        }
        Ok(bytes.len() as u64)
    }
}

/// What no journal line can change: a change of these rewrites the file whole.
fn fixed(gf: &GameFile) -> Value {
    json!([gf.ruleset, gf.version, gf.dice.fixed()])
}

/// Where `play` saves and what it saved last: every save is made under the writers' lock
/// and refused if another writer changed the file (or its journal) since.
pub struct Saver {
    pub path: PathBuf,
    /// The file as last written or read (None before a new file's first save): a writer
    /// that replaced it since is noticed without reading it again.
    base: Option<FileId>,
    /// The journal's length as last written or read.
    journal: u64,
    /// Steps saved, the digest after them, and what lines cannot change, as saved.
    steps: usize,
    digest: Option<Chain>,
    fixed: Value,
    dice: Value,
    /// When the journal was last flushed to disk ([`SYNC_EVERY`]).
    synced: Option<std::time::Instant>,
}

/// How often the journal is flushed to disk: a crash of the program loses nothing (every
/// line is written before play goes on), one of the machine at most this much of the game.
/// Flushing after every step would cost more than the step (about a millisecond a flush).
pub const SYNC_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

impl Saver {
    /// A new game file, written by the first save (refused if one is there).
    pub fn new(path: PathBuf) -> Saver {
        Saver {
            path,
            base: None,
            journal: 0,
            steps: 0,
            digest: None,
            fixed: Value::Null,
            dice: Value::Null,
            synced: None,
        }
    }

    /// A game file read as `base`, its journal `journal` bytes long as read: the first save
    /// writes the file whole, the journal folded in.
    pub fn loaded(path: PathBuf, base: FileId, journal: u64) -> Saver {
        Saver {
            base: Some(base),
            journal,
            ..Saver::new(path)
        }
    }

    /// Save what changed: a journal line with the steps since the last save, or the whole
    /// file when steps were taken back or the record's header changed.
    pub fn save(&mut self, gf: &mut GameFile) -> Result<()> {
        let Some(digest) = self.digest else {
            return self.save_whole(gf);
        };
        let dice = serde_json::to_value(&gf.dice)?;
        if gf.truncated || gf.steps.len() < self.steps || fixed(gf) != self.fixed {
            return self.save_whole(gf);
        }
        if gf.steps.len() == self.steps {
            if dice != self.dice {
                return self.save_whole(gf);
            }
            return Ok(());
        }
        let mut at = digest;
        let new = &gf.steps[self.steps..];
        for step in new {
            at = at.then(&serde_json::to_value(step)?);
        }
        let line = Line {
            from: self.steps,
            steps: new.to_vec(),
            dice: gf.dice.clone(),
            digest: at.hex(),
        };
        let text = serde_json::to_string(&line)? + "\n";
        if self.journal + text.len() as u64 > MAX_GAME_FILE / 2 {
            // A journal as large as a file may be: fold it in (the file's own limit holds).
            return self.save_whole(gf);
        }
        // The lock is taken after every way out to a whole save (which takes it itself).
        let Some(_lock) = self.unchanged()? else {
            return self.save_whole(gf);
        };
        let sync = self.synced.is_none_or(|t| t.elapsed() >= SYNC_EVERY);
        self.append(&text, sync)?;
        if sync {
            self.synced = Some(std::time::Instant::now());
        }
        self.journal += text.len() as u64;
        self.steps = gf.steps.len();
        self.digest = Some(at);
        self.dice = dice;
        gf.digest = Some(at.hex());
        Ok(())
    }

    /// Write the file whole (its journal folded in and removed).
    pub fn save_whole(&mut self, gf: &mut GameFile) -> Result<()> {
        match self.base {
            None => gf.save_new(&self.path)?,
            Some(_) => {
                let _lock = self.unchanged()?;
                gf.save(&self.path)?
            }
        };
        let meta = std::fs::metadata(&self.path)
            .with_context(|| format!("reading {}", self.path.display()))?;
        self.base = Some(FileId::of(&meta));
        self.journal = 0;
        self.steps = gf.steps.len();
        self.digest = Some(gf.digest());
        self.fixed = fixed(gf);
        self.dice = serde_json::to_value(&gf.dice)?;
        Ok(())
    }

    /// The writers' lock, once the file and its journal are checked to be as this game
    /// left them; `None` if the file was removed since (nothing of anyone's to lose).
    fn unchanged(&self) -> Result<Option<Lock>> {
        let path = &self.path;
        let (lock, now) = match Lock::hold(path) {
            Ok(l) => l,
            Err(_) if std::fs::symlink_metadata(path).is_err() => return Ok(None),
            Err(e) => return Err(e),
        };
        let journal = std::fs::metadata(journal_path(path)).map_or(0, |m| m.len());
        if Some(FileId::of(&now)) != self.base || journal != self.journal {
            let steps = GameFile::load(path).map_or(0, |g| g.steps.len());
            bail!(
                "{} was changed by another program since this game last saved it (it now has {steps} steps): not overwritten, and the steps played here since are not in it; continue with `battlemat play --load {0}`",
                path.display()
            );
        }
        Ok(Some(lock))
    }

    /// Append a line to the journal, flushed to disk if `sync` (created with the game file's
    /// permissions; its folder flushed too when it is new).
    fn append(&self, text: &str, sync: bool) -> Result<()> {
        let jp = journal_path(&self.path);
        let mut options = std::fs::OpenOptions::new();
        options.append(true).create(true);
        #[cfg(unix)]
        if let Ok(m) = std::fs::metadata(&self.path) {
            use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
            options.mode(m.permissions().mode() & 0o777);
        }
        let written = (|| -> std::io::Result<()> {
            let mut f = options.open(&jp)?;
            f.write_all(text.as_bytes())?;
            if sync {
                f.sync_data()?;
            }
            if self.journal == 0
                && let Some(dir) = jp.parent().filter(|d| !d.as_os_str().is_empty())
                && let Ok(d) = std::fs::File::open(dir)
            {
                let _ = d.sync_all();
            }
            Ok(())
        })();
        written.with_context(|| format!("writing {}", jp.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_file::{ScenarioSource, SetupChoice};
    use battlemat_core::ToAct;

    /// A seeded game of the first game's first scenario, saved by a [`Saver`] after each
    /// of `saves` actions (each with the dice it brought); the record after each save.
    fn played(path: &Path, seed: u64, saves: usize) -> Vec<GameFile> {
        let setup = SetupChoice {
            source: ScenarioSource::Builtin(None),
            options: Default::default(),
        };
        let dice = DiceMode::Seeded(battlemat_dice::Roller::new(seed, 0).position());
        let (mut gf, _) = GameFile::create("swtb", &setup, dice).unwrap();
        let mut state = gf.state().unwrap();
        let mut saver = Saver::new(path.to_path_buf());
        saver.save(&mut gf).unwrap();
        let mut after = vec![gf.clone()];
        for k in 0..saves {
            if let ToAct::Chance(_) = state.to_act() {
                gf.roll_pending(state.as_mut()).unwrap();
            }
            let ToAct::Decide { seat, .. } = state.to_act() else {
                break;
            };
            let legal = state.legal_actions();
            let action = legal[k % legal.len()].json.clone();
            let step = Step::Act { seat, action };
            state.apply(&step).unwrap();
            gf.steps.push(step);
            gf.roll_pending(state.as_mut()).unwrap();
            saver.save(&mut gf).unwrap();
            after.push(gf.clone());
        }
        after
    }

    fn steps(gf: &GameFile) -> Value {
        serde_json::to_value(&gf.steps).unwrap()
    }

    /// Issue 25, "nothing lost on a crash": the journal cut at every byte of its last line
    /// (a crash mid-write) loads the game as of the save before, whole and verified, never
    /// a corrupt game; the whole journal loads the last save.
    #[test]
    fn a_journal_cut_at_any_byte_of_its_last_line_loads_the_save_before() {
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("g.json");
        let saves = played(&path, 5, 12);
        assert!(saves.len() > 3, "the game went on");
        let jp = journal_path(&path);
        let journal = std::fs::read(&jp).unwrap();
        let file = std::fs::read(&path).unwrap();
        assert_eq!(
            file.len() as u64,
            std::fs::read(&path).unwrap().len() as u64,
            "the file itself is written once"
        );
        let last = journal[..journal.len() - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let (before, whole) = (&saves[saves.len() - 2], &saves[saves.len() - 1]);
        for cut in last..=journal.len() {
            std::fs::write(&jp, &journal[..cut]).unwrap();
            let gf = GameFile::load(&path).unwrap();
            let want = if cut == journal.len() { whole } else { before };
            assert_eq!(steps(&gf), steps(want), "cut at {cut}");
            assert_eq!(
                serde_json::to_value(&gf.dice).unwrap(),
                serde_json::to_value(&want.dice).unwrap(),
                "cut at {cut}: the dice as saved"
            );
            gf.digest_matches().unwrap();
            gf.replay_checked().unwrap();
        }
    }

    /// A journal of another game, or a line edited, is refused with its line named; a line
    /// the file already holds is skipped.
    #[test]
    fn a_journal_that_is_not_the_files_is_refused() {
        let dir = tempfile::TempDir::new().unwrap();
        let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
        played(&a, 5, 6);
        let saves = played(&b, 6, 3);
        // b's journal beside a.
        std::fs::copy(journal_path(&b), journal_path(&a)).unwrap();
        let e = GameFile::load(&a).unwrap_err().to_string();
        assert!(e.contains("a.json.journal: line 1"), "{e}");
        // A step changed by hand.
        let text = std::fs::read_to_string(journal_path(&b)).unwrap();
        let edited = text.replacen("\"seat\":0", "\"seat\":1", 1);
        assert_ne!(edited, text);
        std::fs::write(journal_path(&b), &edited).unwrap();
        let e = GameFile::load(&b).unwrap_err().to_string();
        assert!(
            e.contains("b.json.journal: line") && e.contains("digest"),
            "{e}"
        );
        // Written whole, the journal left behind: its lines are skipped.
        std::fs::write(journal_path(&b), &text).unwrap();
        let mut whole = GameFile::load(&b).unwrap();
        whole.save(&b).unwrap();
        assert!(
            !journal_path(&b).exists(),
            "a whole save removes the journal"
        );
        std::fs::write(journal_path(&b), &text).unwrap();
        let gf = GameFile::load(&b).unwrap();
        assert_eq!(steps(&gf), steps(saves.last().unwrap()));
    }
}
