//! `battlemat play`: a game in the terminal, each seat a human or an AI.

use crate::game_file::{DiceMode, GameFile};
use anyhow::{Result, bail};
use battlemat_ai::PlayerKind;
use battlemat_core::dynamic::{DynAction, DynState};
use battlemat_core::{Step, ToAct, Viewer};
use battlemat_dice::Roller;
use serde_json::Value;
use std::io::{BufRead, Write};
use std::path::PathBuf;

pub struct PlayArgs {
    pub game: String,
    /// The scenario and the options.
    pub setup: crate::game_file::SetupChoice,
    pub seats: Vec<String>,
    pub seed: Option<u64>,
    pub table_dice: bool,
    pub save: Option<PathBuf>,
    pub load: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq)]
enum Sitter {
    Human,
    Ai(PlayerKind),
}

/// Print each event's sentence (events with nothing to say print nothing).
pub fn print_events(events: &[battlemat_core::dynamic::DynEvent]) {
    for e in events.iter().filter(|e| !e.text.is_empty()) {
        println!("{}", e.text);
    }
}

/// "Seat 1 to act: ..." or the result.
pub fn prompt_line(state: &dyn DynState) -> String {
    match state.to_act() {
        ToAct::Decide { seat, prompt } => format!("Seat {seat} to act: {prompt}"),
        ToAct::Chance(c) => format!("Waiting for a die: {}", c.what),
        ToAct::Over(r) => format!(
            "Game over: {} (scores {:?}, ranks {:?})",
            r.reason, r.scores, r.ranks
        ),
    }
}

/// "  (defender_eliminated 41.7%, nothing 58.3%)" for actions that roll dice.
pub fn odds_suffix(state: &dyn DynState, action: &Value) -> String {
    match state.odds(action) {
        Some(o) => {
            let mut parts: Vec<String> = o
                .outcomes
                .iter()
                .map(|(k, p)| format!("{} {:.1}%", k.replace('_', " "), 100.0 * p))
                .collect();
            // Each effect's mean (ms-d20's damage to the section aimed at).
            parts.extend(o.distributions.iter().map(|(k, d)| {
                format!(
                    "{} mean {:.1}",
                    k.replace('_', " "),
                    battlemat_core::Odds::mean(d)
                )
            }));
            // A game's own summary in words (SD ERA: the whole win and the stun) comes first.
            if let Some(sum) = o.details.get("summary").and_then(|v| v.as_str()) {
                parts.insert(0, format!("{sum};"));
            }
            format!("   odds: {}", parts.join(", "))
        }
        None => String::new(),
    }
}

fn print_menu(state: &dyn DynState, legal: &[DynAction], no: &[usize]) {
    // By unit (the first `uN` in the text, in number order), then by kind (the verb, in the
    // order the list first gives it); what names no unit comes last. Within that, actions
    // with odds one per line with their words; the rest grouped by their first two words
    // (many moves of one unit on one line), a lone one with its words.
    let unit_of = |t: &str| -> u32 {
        t.split_whitespace()
            .find_map(|w| w.strip_prefix('u').and_then(|n| n.parse::<u32>().ok()))
            .unwrap_or(u32::MAX)
    };
    let mut verbs: Vec<&str> = Vec::new();
    for a in legal {
        let v = a.text.split_whitespace().next().unwrap_or("");
        if !verbs.contains(&v) {
            verbs.push(v);
        }
    }
    let verb_of = |t: &str| {
        let v = t.split_whitespace().next().unwrap_or("");
        verbs.iter().position(|x| *x == v).unwrap_or(usize::MAX)
    };
    let mut order: Vec<usize> = (0..legal.len()).collect();
    order.sort_by_key(|&i| (unit_of(&legal[i].text), verb_of(&legal[i].text), i));
    // Each entry: a finished line, or a group (head, items) still collecting.
    enum Entry {
        Line(String),
        Group(String, Vec<(usize, String)>),
    }
    let mut entries: Vec<Entry> = Vec::new();
    for i in order {
        let a = &legal[i];
        let odds = odds_suffix(state, &a.json);
        if !odds.is_empty() {
            entries.push(Entry::Line(format!(
                "  {:>3}) {:<22} {}{odds}",
                no[i], a.text, a.label
            )));
            continue;
        }
        let words: Vec<&str> = a.text.split_whitespace().collect();
        // Many actions of one verb and one argument (`move 0712`, `place 1017`) group by
        // the verb.
        let (head, rest) = if words.len() > 2 {
            (words[..2].join(" "), words[2..].join(" "))
        } else if words.len() == 2 {
            (words[0].to_string(), words[1].to_string())
        } else {
            (a.text.clone(), String::new())
        };
        match entries.last_mut() {
            Some(Entry::Group(h, items)) if *h == head && !rest.is_empty() => items.push((i, rest)),
            _ => entries.push(Entry::Group(head, vec![(i, rest)])),
        }
    }
    for e in entries {
        let (head, items) = match e {
            Entry::Line(l) => {
                println!("{l}");
                continue;
            }
            Entry::Group(h, items) => (h, items),
        };
        if let [(i, _)] = items.as_slice() {
            let a = &legal[*i];
            println!("  {:>3}) {:<22} {}", no[*i], a.text, a.label);
            continue;
        }
        let list: Vec<String> = items
            .iter()
            .map(|(i, r)| format!("{}) {r}", no[*i]))
            .collect();
        // A long group (a counter's hundred hexes) is summed up: type the action itself.
        if list.len() > 30 {
            println!(
                "  {head}: {} choices, {} … {} (type it, e.g. `{head} {}`)",
                list.len(),
                list[0],
                list[list.len() - 1],
                items[0].1
            );
            continue;
        }
        println!("  {head}: {}", list.join("  "));
    }
}

pub fn run(a: PlayArgs) -> Result<()> {
    let seed = a.seed.unwrap_or_else(crate::clock_seed);
    let dice = if a.table_dice {
        DiceMode::Table
    } else {
        DiceMode::Seeded(Roller::new(seed, 0).position())
    };
    let (mut gf, entry, save) = match &a.load {
        Some(path) => {
            let text = crate::game_file::read_capped(path, crate::game_file::MAX_GAME_FILE)?;
            let gf = GameFile::parse(path, &text)?;
            if matches!(gf.dice, DiceMode::Server(_)) {
                bail!(
                    "{} is a server's record: its dice are the server's, so the game goes on on the server",
                    path.display()
                );
            }
            if gf.ruleset != a.game {
                bail!(
                    "{} is a game of {}, not {}",
                    path.display(),
                    gf.ruleset,
                    a.game
                );
            }
            let entry = battlemat_rulesets::get(&gf.ruleset).map_err(anyhow::Error::msg)?;
            let save = Saving {
                path: path.clone(),
                last: Some(text),
            };
            (gf, entry, Some(save))
        }
        None => {
            let mut setup = a.setup;
            setup.seat(&a.game, a.seats.len())?;
            let (gf, entry) = GameFile::create(&a.game, &setup, dice)?;
            if let Some(path) = &a.save
                && std::fs::symlink_metadata(path).is_ok()
            {
                bail!(
                    "{} already exists: continue it with --load {0}, or save elsewhere",
                    path.display()
                );
            }
            let save = a.save.clone().map(|path| Saving { path, last: None });
            (gf, entry, save)
        }
    };
    // Checked before anything is saved: a file whose record does not hold is not played on.
    let mut state = gf.state()?;
    // Saved before the first move (a bad path is found now, not at the end) and after every
    // step, so nothing played is lost if the game is interrupted.
    let mut save = save;
    if let Some(s) = &mut save {
        s.save(&mut gf)?;
    }
    let seats = state.seats() as usize;
    let mut sitters = Vec::new();
    for s in &a.seats {
        sitters.push(match s.as_str() {
            "human" => Sitter::Human,
            other => Sitter::Ai(
                other
                    .parse()
                    .map_err(|e: String| anyhow::anyhow!("--seats: {e} (or human)"))?,
            ),
        });
    }
    if sitters.len() != seats {
        bail!(
            "--seats names {} player(s); {} has {seats} seats (e.g. --seats human,mcts)",
            sitters.len(),
            a.game
        );
    }
    let mut ai_roller = Roller::new(seed, 1);
    let mut ai_players: std::collections::BTreeMap<u8, Box<dyn battlemat_rulesets::DynPlayer>> =
        std::collections::BTreeMap::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut read = |prompt: &str| -> Option<String> {
        print!("{prompt}");
        std::io::stdout().flush().ok();
        lines.next().and_then(|l| l.ok())
    };
    println!(
        "{} — seed {seed}. Type a number or an action; 'help' for the commands.",
        state.info().name
    );
    let mut show_board = true;
    // The menu's numbers: kept with their actions while the same seat is asked the same
    // question (an action still listed keeps its number), started again from 1 otherwise.
    type Numbers = (
        Option<(u8, String)>,
        std::collections::HashMap<String, usize>,
        usize,
    );
    let mut numbers: Numbers = (None, std::collections::HashMap::new(), 0);
    loop {
        let step = match state.to_act() {
            ToAct::Over(r) => {
                // The final table (its own "Game over" line left out: the events of the last
                // step said it), then each seat's place in words.
                let (_, text) = state.observe(Viewer::Spectator);
                for line in text.lines().filter(|l| !l.starts_with("Game over")) {
                    println!("{line}");
                }
                let nothing_played = gf.steps.is_empty();
                if nothing_played {
                    println!("Game over: {}.", r.reason);
                }
                println!("{}", standings(&r));
                break;
            }
            ToAct::Chance(c) => {
                if matches!(gf.dice, DiceMode::Table) {
                    let Some(line) = read(&format!("Roll {} and enter the face: ", c.what)) else {
                        break;
                    };
                    match line.trim().parse::<u32>() {
                        Ok(v) => Step::Roll { value: v },
                        Err(_) => {
                            println!("Enter the number the die shows.");
                            continue;
                        }
                    }
                } else {
                    print_events(&gf.roll_pending(state.as_mut())?);
                    if let Some(s) = &mut save {
                        s.save(&mut gf)?;
                    }
                    continue;
                }
            }
            ToAct::Decide { seat, prompt } => match sitters[seat as usize] {
                Sitter::Ai(kind) => {
                    // One player per AI seat for the whole game (an MCTS player keeps its
                    // trees between moves).
                    let player = ai_players
                        .entry(seat)
                        .or_insert_with(|| (entry.new_player)(kind));
                    let Some(action) = player.choose(state.as_ref(), &mut ai_roller) else {
                        bail!("the AI found no action");
                    };
                    // The short text the AI chose (its events then say it in words, with
                    // the dice), and the odds it faced.
                    let text = state
                        .action_text(&action)
                        .unwrap_or_else(|_| state.describe(&action));
                    println!(
                        "Seat {seat} ({kind}): {text}{}",
                        odds_suffix(state.as_ref(), &action)
                    );
                    show_board = true;
                    Step::Act { seat, action }
                }
                Sitter::Human => {
                    let legal = state.legal_actions();
                    if show_board {
                        let (_, text) = state.observe(Viewer::Seat(seat));
                        print!("{text}");
                        show_board = false;
                    }
                    println!("Seat {seat}: {prompt}");
                    let asked = (seat, prompt.clone());
                    if numbers.0.as_ref() != Some(&asked) {
                        numbers = (Some(asked), std::collections::HashMap::new(), 0);
                    }
                    let no: Vec<usize> = legal
                        .iter()
                        .map(|a| {
                            let (_, map, next) = &mut numbers;
                            *map.entry(a.text.clone()).or_insert_with(|| {
                                *next += 1;
                                *next
                            })
                        })
                        .collect();
                    print_menu(state.as_ref(), &legal, &no);
                    let Some(line) = read("> ") else {
                        println!();
                        break;
                    };
                    let line = line.trim();
                    match line {
                        "" => continue,
                        "q" | "quit" => {
                            // Typed at a terminal, the Enter ended the line; piped, end it here.
                            if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                                println!();
                            }
                            break;
                        }
                        "help" | "?" | "h" => {
                            println!("{HELP}");
                            continue;
                        }
                        "resign" => {
                            // Ends the game: every seat gets a result, this seat's side loses.
                            let step = Step::Resign { seat };
                            state
                                .apply(&step)
                                .map(|events| print_events(&events))
                                .map_err(|e| anyhow::anyhow!("{e}"))?;
                            gf.steps.push(step);
                            if let Some(s) = &mut save {
                                s.save(&mut gf)?;
                            }
                            continue;
                        }
                        "board" | "b" => {
                            show_board = true;
                            continue;
                        }
                        _ => {}
                    }
                    let action = if let Ok(n) = line.parse::<usize>() {
                        match no.iter().position(|&k| k == n).and_then(|j| legal.get(j)) {
                            Some(a) => a.json.clone(),
                            None => {
                                println!(
                                    "Not accepted: there is no action {n} among those listed (type help for the commands)."
                                );
                                continue;
                            }
                        }
                    } else {
                        match state.parse_action(line) {
                            Ok(a) => a,
                            Err(e) => {
                                println!("Not accepted: {e} (type help for the commands).");
                                continue;
                            }
                        }
                    };
                    if let Err(e) = state.check(&action) {
                        println!("Not accepted: {e}");
                        continue;
                    }
                    Step::Act { seat, action }
                }
            },
        };
        match state.apply(&step) {
            Ok(events) => {
                gf.steps.push(step);
                print_events(&events);
                // The dice an action brings are rolled before the file is saved, so a
                // seeded file is never left waiting at a die.
                print_events(&gf.roll_pending(state.as_mut())?);
                if let Some(s) = &mut save {
                    s.save(&mut gf)?;
                }
                // Redraw the board after any action (the dice it brings are part of it).
                if matches!(gf.steps.last(), Some(Step::Act { .. })) {
                    show_board = true;
                }
            }
            Err(e) => println!("Not accepted: {e}"),
        }
    }
    if let Some(s) = &mut save {
        s.save(&mut gf)?;
        println!("Saved to {}.", s.path.display());
    }
    Ok(())
}

/// Where `play` saves, and the text it last wrote there (or read from it): every save is
/// made under the writers' lock and refused if another writer changed the file since.
struct Saving {
    path: PathBuf,
    /// None before the first save of a new game file.
    last: Option<String>,
}

impl Saving {
    fn save(&mut self, gf: &mut GameFile) -> Result<()> {
        let text = match &self.last {
            Some(last) => gf.save_over(&self.path, last)?,
            None => gf.save_new(&self.path)?,
        };
        self.last = Some(text);
        Ok(())
    }
}

/// The commands a human may type at a decision.
const HELP: &str = "Commands:
  NUMBER         take the action with that number in the list
  ACTION         type the action itself, as listed (e.g. `attack u2 u9`, `move 0712`)
  board          show the table again
  resign         give up: the game ends, your side losing
  quit           stop here (with --save the game is kept: continue with --load)
  help, ?        this list";

/// Each seat's place and score, in words: "Seat 0 (side 0): 1st, score 1; ...".
fn standings(r: &battlemat_core::GameResult) -> String {
    let place = |n: u8| match n {
        1 => "1st".to_string(),
        2 => "2nd".to_string(),
        3 => "3rd".to_string(),
        n => format!("{n}th"),
    };
    let parts: Vec<String> = r
        .ranks
        .iter()
        .zip(&r.scores)
        .enumerate()
        .map(|(s, (rank, score))| format!("seat {s} {} (score {score})", place(*rank)))
        .collect();
    format!("Result: {}.", parts.join(", "))
}
