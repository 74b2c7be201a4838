//! `battlemat play`: a game in the terminal, each seat a human or an AI.
//!
//! A human at a decision sees the table, the menu of what may be done (grouped by unit
//! and verb; a long group folded, unfolded by typing its first words) and may type a
//! number, an action, the first words of actions, or one of the commands: `help` (made
//! from the game's own actions at that moment, so every game's help is its own), `board`,
//! `hint` (the AI's best few actions with their values: the registry's greedy hint, as the
//! server's `/hint` gives it), `history` (the game so far in words, as this seat was told
//! it), `undo`, `resign` (asked again) and `quit`.
//!
//! `undo` takes back the last action a human took, and everything after it: the dice it
//! brought and the AIs' replies. Every other human at the terminal must agree (an AI is
//! not asked). With seeded dice the dice stream goes back with the record
//! ([`GameFile::truncate`]): the dice to come are those that came, so an undo never
//! re-rolls a die — the same action rolls the same faces, and the file still verifies.
//! With table dice an action is not taken back past a die rolled at the table (the table's
//! dice cannot be unrolled).

use crate::game_file::{DiceMode, GameFile};
use crate::journal::Saver;
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
        // A lone action, or two (`first 0`, `first 1`): each on its line with its words,
        // which name what a bare number does not.
        if items.len() <= 2 {
            for (i, _) in &items {
                let a = &legal[*i];
                println!("  {:>3}) {:<22} {}", no[*i], a.text, a.label);
            }
            continue;
        }
        let list: Vec<String> = items
            .iter()
            .map(|(i, r)| format!("{}) {r}", no[*i]))
            .collect();
        // A long group (a counter's hundred hexes) is summed up: type the action itself.
        if list.len() > 30 {
            println!(
                "  {head}: {} choices, {} … {} (type `{head}` to list them all, or the action, e.g. `{head} {}`)",
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
            let (gf, text, journal) = GameFile::load_text(path)?;
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
            let entry = crate::games::get(&gf.ruleset).map_err(anyhow::Error::msg)?;
            let save = Saver::loaded(path.clone(), text, journal);
            (gf, entry, Some(save))
        }
        None => {
            let mut setup = a.setup;
            setup.seat(&a.game, a.seats.len())?;
            // With no human at the table, the simulation commands' safety limit, unless the
            // options name it: AIs alone may otherwise play a game without end (a ring battle
            // of two units that cannot hurt each other).
            let limit = if a.seats.iter().all(|s| s != "human") {
                let info = crate::games::get(&a.game)
                    .map_err(anyhow::Error::msg)?
                    .ruleset
                    .info();
                setup
                    .safety_limit(&info)
                    .then(|| info.safety_limit.clone())
                    .flatten()
            } else {
                None
            };
            if let Some((k, v)) = limit {
                println!(
                    "No human seat: the game stops at the safety limit {k}={v} (--option {k}=N for another)."
                );
            }
            let (gf, entry) = GameFile::create(&a.game, &setup, dice)?;
            if let Some(path) = &a.save
                && std::fs::symlink_metadata(path).is_ok()
            {
                bail!(
                    "{} already exists: continue it with --load {0}, or save elsewhere",
                    path.display()
                );
            }
            let save = a.save.clone().map(Saver::new);
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
    // The file's own dice: a loaded game's seed is the file's, not a new one.
    let (seed, dice_words) = match &gf.dice {
        DiceMode::Seeded(p) => (p.seed, format!("seed {}", p.seed)),
        DiceMode::Table => (seed, "dice rolled at the table".to_string()),
        DiceMode::Server(_) => {
            bail!("a server's game is played on its server (`battlemat serve`), not here")
        }
    };
    let mut ai_roller = Roller::new(seed, 1);
    let mut ai_players: std::collections::BTreeMap<u8, Box<dyn battlemat_ai::DynPlayer>> =
        std::collections::BTreeMap::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut read = |prompt: &str| -> Option<String> {
        print!("{prompt}");
        std::io::stdout().flush().ok();
        lines.next().and_then(|l| l.ok())
    };
    println!(
        "{} — {dice_words}. Type a number or an action; 'help' for the commands.",
        state.info().name
    );
    let mut show_board = true;
    let mut show_menu = true;
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
                println!("{}", standings(&r, &state.scene(Viewer::Spectator).sides));
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
                        .or_insert_with(|| entry.ai.new_player(kind));
                    let Some(action) = player.choose(state.as_ref(), &mut ai_roller)? else {
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
                    // The menu again unless the last line typed was help, history or
                    // first words, whose answer is still on the screen above it.
                    if show_menu {
                        print_menu(state.as_ref(), &legal, &no);
                    } else {
                        println!(
                            "  (the list as above; `board` shows the table and the list again)"
                        );
                    }
                    show_menu = true;
                    let Some(line) = read("> ") else {
                        println!();
                        break;
                    };
                    let line = line.trim();
                    let (word, arg) = line.split_once(' ').unwrap_or((line, ""));
                    match (word, arg.trim()) {
                        ("", _) => continue,
                        ("q" | "quit", "") => {
                            // Typed at a terminal, the Enter ended the line; piped, end it here.
                            if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                                println!();
                            }
                            break;
                        }
                        ("help" | "?" | "h", "") => {
                            println!("{}", help(state.as_ref(), seat, &legal));
                            show_menu = false;
                            continue;
                        }
                        ("hint", n) => {
                            let top = match n {
                                "" => 5,
                                n => match n.parse::<usize>() {
                                    Ok(k) if k > 0 => k,
                                    _ => {
                                        println!(
                                            "hint N: the AI's N best actions (a whole number from 1), or hint for five."
                                        );
                                        continue;
                                    }
                                },
                            };
                            // The hint's own dice (where greedy samples), fixed by the game and
                            // the step, so asking twice gives the same answer; they are not the
                            // game's dice.
                            let mut roller = Roller::new(seed ^ HINT_DICE, gf.steps.len() as u64);
                            let ranked = entry.ai.hint(state.as_ref(), &mut roller)?;
                            println!("{}", hint_lines(state.as_ref(), &legal, &no, &ranked, top));
                            show_menu = false;
                            continue;
                        }
                        ("history", n) => {
                            let last = match n {
                                "" => usize::MAX,
                                n => match n.parse::<usize>() {
                                    Ok(k) => k,
                                    Err(_) => {
                                        println!(
                                            "history N: the last N steps (a whole number), or history for all."
                                        );
                                        continue;
                                    }
                                },
                            };
                            print_history(&gf, Viewer::Seat(seat), last)?;
                            show_menu = false;
                            continue;
                        }
                        ("undo", "") => {
                            let humans: Vec<u8> = (0..seats as u8)
                                .filter(|&s| sitters[s as usize] == Sitter::Human)
                                .collect();
                            match undo(&mut gf, &humans, seat, &mut read)? {
                                Some(undone) => {
                                    state = undone;
                                    // The AIs think again from the position (an MCTS
                                    // player's kept trees are of the game undone).
                                    ai_players.clear();
                                    numbers = (None, std::collections::HashMap::new(), 0);
                                    show_board = true;
                                    if let Some(s) = &mut save {
                                        s.save(&mut gf)?;
                                    }
                                }
                                None => continue,
                            }
                            continue;
                        }
                        ("resign", "") => {
                            let side = state
                                .scene(Viewer::Spectator)
                                .sides
                                .iter()
                                .find(|s| s.seats.contains(&seat))
                                .map(|s| format!(" ({})", s.name))
                                .unwrap_or_default();
                            let Some(answer) = read(&format!(
                                "Resign for seat {seat}{side}? The game ends, your side losing. Type yes to resign: "
                            )) else {
                                println!();
                                break;
                            };
                            if !matches!(answer.trim(), "yes" | "y") {
                                println!("Not resigned: the game goes on.");
                                continue;
                            }
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
                        ("board" | "b", "") => {
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
                    } else if let Some(a) = legal.iter().find(|a| a.text == line) {
                        a.json.clone()
                    } else {
                        // Not an action the game takes now: the first words of some listed
                        // ones (`move u0`) unfold them, numbered as in the menu.
                        let parsed = state
                            .parse_action(line)
                            .and_then(|a| state.check(&a).map(|_| a))
                            .map_err(|e| e.to_string());
                        match parsed {
                            Ok(a) => a,
                            Err(e) => {
                                let words: Vec<&str> = line.split_whitespace().collect();
                                let begun: Vec<usize> = (0..legal.len())
                                    .filter(|&i| {
                                        let w: Vec<&str> =
                                            legal[i].text.split_whitespace().collect();
                                        w.len() > words.len() && w[..words.len()] == words[..]
                                    })
                                    .collect();
                                if begun.is_empty() {
                                    println!("Not accepted: {e} (type help for the commands).");
                                } else {
                                    println!("The actions that begin `{line}`:");
                                    show_menu = false;
                                    for i in begun {
                                        let a = &legal[i];
                                        println!(
                                            "  {:>3}) {:<22} {}{}",
                                            no[i],
                                            a.text,
                                            a.label,
                                            odds_suffix(state.as_ref(), &a.json)
                                        );
                                    }
                                }
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
        // The journal folded in: the file is whole again.
        s.save_whole(&mut gf)?;
        println!("Saved to {}.", s.path.display());
    }
    Ok(())
}

/// The hint's dice stream, apart from the game's and the AIs' ("hint" in ASCII).
const HINT_DICE: u64 = 0x68696e74;

/// `hint`: the AI's `top` best actions of `ranked` (the registry's greedy values for the
/// deciding seat, best first), each with its number in the menu, its words and its value
/// (the seat's expected evaluation after the action's dice, from -1 a sure loss to 1 a sure
/// win).
fn hint_lines(
    state: &dyn DynState,
    legal: &[DynAction],
    no: &[usize],
    ranked: &[(Value, f64)],
    top: usize,
) -> String {
    if ranked.is_empty() {
        return "No hint: there is nothing to choose between.".to_string();
    }
    let mut out = format!(
        "The AI's best {} of {} (greedy: the value after each action's dice, -1 a loss to 1 a win):",
        top.min(ranked.len()),
        ranked.len()
    );
    for (action, value) in ranked.iter().take(top) {
        let (number, text) = match legal.iter().position(|l| l.json == *action) {
            Some(i) => (format!("{:>3})", no[i]), legal[i].text.clone()),
            None => ("   ".to_string(), state.describe(action)),
        };
        out += &format!(
            "\n  {number} {text:<22} value {value:+.3}{}",
            odds_suffix(state, action)
        );
    }
    out
}

/// The commands a human may type at a decision, with this game's own actions open now
/// (one of each kind, as the list gives them, and a free point's form): every game's help
/// is its own, and nothing here names a game.
fn help(state: &dyn DynState, seat: u8, legal: &[DynAction]) -> String {
    let mut out = String::from(
        "Commands:\n  NUMBER         take the action with that number in the list\n  ACTION         type an action as the list shows it; those open now are like\n",
    );
    // One example of each verb, in the list's order.
    let mut verbs: Vec<&str> = Vec::new();
    for a in legal {
        let v = a.text.split_whitespace().next().unwrap_or("");
        if verbs.contains(&v) {
            continue;
        }
        verbs.push(v);
        out += &format!("                   {:<22} {}\n", a.text, a.label);
    }
    // A free parameter's form (any point, not only the listed ones), once per verb.
    let scene = state.scene(Viewer::Seat(seat));
    let mut forms: Vec<String> = Vec::new();
    for a in &scene.actions {
        if let Some(f) = &a.anchors.free {
            let form = f.template.replace("{x}", "X").replace("{y}", "Y");
            let verb = form.split_whitespace().next().unwrap_or("").to_string();
            if !forms
                .iter()
                .any(|x| x.split_whitespace().next() == Some(verb.as_str()))
            {
                forms.push(form);
            }
        }
    }
    for f in &forms {
        out += &format!(
            "                   {f:<22} (any point X,Y it can reach, in {}s from the table's corner)\n",
            scene.table.unit
        );
    }
    // The first words of a folded group, as an example of unfolding.
    if let Some(a) = legal.iter().find(|a| a.text.split_whitespace().count() > 2) {
        let head: Vec<&str> = a.text.split_whitespace().take(2).collect();
        out += &format!(
            "  FIRST WORDS    list every action that begins so (e.g. `{}`)\n",
            head.join(" ")
        );
    }
    out += "  board          show the table again
  history [N]    the game so far in words (the last N steps)
  hint [N]       the AI's N best actions now (five if no N), with their values
  undo           take back the last action a human took, and what followed it (the
                 other humans are asked; seeded dice are not rolled again: the same
                 action rolls the same dice)
  resign         give up: the game ends, your side losing (asked again first)
  quit           stop here (with --save the game is kept: continue with --load)
  help, ?        this list";
    out
}

/// `history [N]`: the steps so far (the last `last`), each with what `viewer` was told.
fn print_history(gf: &GameFile, viewer: Viewer, last: usize) -> Result<()> {
    let steps = gf.history(viewer)?;
    if steps.is_empty() {
        println!("Nothing has happened yet.");
        return Ok(());
    }
    let from = steps.len().saturating_sub(last);
    let seen = match viewer {
        Viewer::Seat(s) => format!("as seat {s} was told it"),
        Viewer::Spectator => "as it was told".to_string(),
    };
    println!("The game so far, {seen}:");
    match from {
        0 => {}
        1 => println!("  (the first step left out)"),
        n => println!("  (the first {n} steps left out)"),
    }
    let state = gf.start()?;
    for (k, (step, events)) in steps.iter().enumerate().skip(from) {
        // Each step numbered: an action by its seat and short text, then what it did; a die
        // and a resignation by what was said of them.
        let said: Vec<&str> = events
            .iter()
            .map(|e| e.text.as_str())
            .filter(|t| !t.is_empty())
            .collect();
        let (head, rest) = match step {
            Step::Act { seat, action } => {
                let text = state
                    .action_text(action)
                    .unwrap_or_else(|_| action.to_string());
                (format!("seat {seat}: {text}"), &said[..])
            }
            Step::Roll { value } => match said.split_first() {
                Some((first, rest)) => (first.to_string(), rest),
                None => (format!("a die: {value}"), &said[..]),
            },
            Step::Resign { seat } => (format!("seat {seat} resigns"), &said[..]),
        };
        println!("{:>5}. {head}", k + 1);
        for line in rest {
            println!("         {line}");
        }
    }
    Ok(())
}

/// `undo`: take back the last action a human took (and every step after it), if every
/// other human agrees; the state after, or `None` (with the reason printed) if nothing was
/// undone.
fn undo(
    gf: &mut GameFile,
    humans: &[u8],
    asking: u8,
    read: &mut impl FnMut(&str) -> Option<String>,
) -> Result<Option<Box<dyn DynState>>> {
    let last = gf
        .steps
        .iter()
        .enumerate()
        .rev()
        .find_map(|(k, s)| match s {
            Step::Act { seat, action } if humans.contains(seat) => Some((k, *seat, action.clone())),
            _ => None,
        });
    let Some((k, actor, action)) = last else {
        println!("Nothing to undo: no human has taken an action yet.");
        return Ok(None);
    };
    if matches!(gf.dice, DiceMode::Table)
        && gf.steps[k..].iter().any(|s| matches!(s, Step::Roll { .. }))
    {
        println!(
            "Not undone: a die was rolled at the table since, and the table's dice cannot be taken back (that would be rolling them again)."
        );
        return Ok(None);
    }
    let text = gf
        .start()?
        .action_text(&action)
        .unwrap_or_else(|_| action.to_string());
    for &h in humans.iter().filter(|&&h| h != asking) {
        let Some(answer) = read(&format!(
            "Seat {h}: seat {asking} asks to take back seat {actor}'s `{text}`. Allow it? Type yes to allow: "
        )) else {
            println!();
            return Ok(None);
        };
        if !matches!(answer.trim(), "yes" | "y") {
            println!("Not undone: seat {h} said no.");
            return Ok(None);
        }
    }
    let after = gf.steps.len() - k - 1;
    let state = gf.truncate(k)?;
    println!(
        "Undone: seat {actor}'s `{text}`{}.{}",
        match after {
            0 => String::new(),
            1 => " and the step after it".to_string(),
            n => format!(" and the {n} steps after it"),
        },
        if matches!(gf.dice, DiceMode::Seeded(_)) {
            " The dice go back with it: the same action rolls the same dice again."
        } else {
            ""
        }
    );
    Ok(Some(state))
}

/// Each seat's place and score, in words, with its side's name: "Result: seat 0 (Rebels)
/// 1st, score 7; …", or a draw said as one: "Result: a draw, seat 0 (Rebels) and seat 1
/// (Empire) sharing first place (scores 7 and 7)."
fn standings(r: &battlemat_core::GameResult, sides: &[battlemat_core::scene::SceneSide]) -> String {
    let place = |n: u8| match n {
        1 => "1st".to_string(),
        2 => "2nd".to_string(),
        3 => "3rd".to_string(),
        n => format!("{n}th"),
    };
    let who = |s: usize| match sides.iter().find(|x| x.seats.contains(&(s as u8))) {
        Some(side) => format!("seat {s} ({})", side.name),
        None => format!("seat {s}"),
    };
    let scores: Vec<String> = r.scores.iter().map(|s| s.to_string()).collect();
    let and = |v: Vec<String>| match v.len() {
        0 | 1 => v.concat(),
        n => format!("{} and {}", v[..n - 1].join(", "), v[n - 1]),
    };
    if let Some(won) = r.cooperative {
        let seats: Vec<String> = (0..r.ranks.len()).map(who).collect();
        return format!(
            "Result: the mission is {} by {} together (score{} {}).",
            if won { "won" } else { "lost" },
            and(seats),
            if scores.len() == 1 { "" } else { "s" },
            and(scores)
        );
    }
    if r.ranks.len() > 1 && r.ranks.iter().all(|&k| k == 1) {
        let seats: Vec<String> = (0..r.ranks.len()).map(who).collect();
        return format!(
            "Result: a draw, {} sharing first place (scores {}).",
            and(seats),
            and(scores)
        );
    }
    let parts: Vec<String> = r
        .ranks
        .iter()
        .zip(&r.scores)
        .enumerate()
        .map(|(s, (rank, score))| format!("{} {} (score {score})", who(s), place(*rank)))
        .collect();
    format!("Result: {}.", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use battlemat_core::GameResult;
    use battlemat_core::scene::SceneSide;

    fn side(name: &str, seats: Vec<u8>) -> SceneSide {
        SceneSide {
            name: name.into(),
            seats,
            note: String::new(),
            to_act: false,
        }
    }

    #[test]
    fn a_draw_is_said_as_one_with_the_sides_names() {
        let sides = [side("Rebels", vec![0]), side("Empire", vec![1])];
        let draw = GameResult::from_scores(vec![7, 7], "time");
        assert_eq!(
            standings(&draw, &sides),
            "Result: a draw, seat 0 (Rebels) and seat 1 (Empire) sharing first place (scores 7 and 7)."
        );
        let win = GameResult::from_scores(vec![3, 7], "time");
        assert_eq!(
            standings(&win, &sides),
            "Result: seat 0 (Rebels) 2nd (score 3), seat 1 (Empire) 1st (score 7)."
        );
        assert_eq!(
            standings(&win, &[]),
            "Result: seat 0 2nd (score 3), seat 1 1st (score 7)."
        );
    }
}
