//! `battlemat`: the command line. Every command works for every game through the registry
//! (`battlemat-rulesets`); nothing here knows a game's rules.
//!
//! The referee commands (`new`, `view`, `legal`, `act`, `replay`) work on a *game file*: a
//! JSON game record (ruleset, version, setup, every step including each die) plus how dice
//! are rolled — from a seed (the roller's position is saved, so the next die is the one the
//! seed would give) or at a real table (`--table-dice`: the game waits at each die and `act`
//! takes the face). Files are written whole to a temporary file and renamed, so a refused
//! action or a crash never leaves a half-written game.
//!
//! `anyhow` lives here and only here: library crates return typed errors.

// mimalloc, not glibc's malloc: under the server's load (two cores, many tasks allocating
// and freeing JSON) glibc's arenas contend and its p99 at 2,000 actions/s was 150–370 ms;
// with mimalloc it is under 10 ms (crates/server/benches/serve.rs, README "Online play").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod game_file;
mod games;
mod journal;
mod lab;
mod odds;
mod play;
mod progress;
mod shard;
mod sim;
mod verify;

use anyhow::{Context, Result, bail};
use battlemat_core::{Step, ToAct, Viewer};
use battlemat_dice::{Expr, Roller};
use clap::{Parser, Subcommand};
use game_file::{DiceMode, GameFile, ScenarioSource, SetupChoice};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "battlemat",
    version,
    about = "Referee, odds and AI for tabletop battle games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the games, their scenarios and options.
    Rulesets {
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Start a game file for play by email or scripts.
    New {
        /// The game: swtb, sd-era, abaoaqu, ms-d20 or serm (`battlemat rulesets` lists them).
        game: String,
        #[command(flatten)]
        setup: SetupArgs,
        /// Roll dice from this seed as they come (default: a seed from the clock).
        #[arg(long, conflicts_with = "table_dice", allow_hyphen_values = true, value_parser = parse_seed)]
        seed: Option<u64>,
        /// Wait at each die for the result rolled at the table.
        #[arg(long)]
        table_dice: bool,
        /// The game file to write.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// Replace a file that is already there (by default `new` will not overwrite one).
        #[arg(long)]
        force: bool,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Show the table.
    View {
        /// The game file (made by `battlemat new`, or saved by `play --save`).
        file: PathBuf,
        #[arg(long)]
        seat: Option<u8>,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
        /// Also write a picture of the table, to scale, as an SVG file (drawn from the scene:
        /// world units, each piece and cell named in `data-*` attributes).
        #[arg(long, value_name = "OUT.svg")]
        svg: Option<PathBuf>,
    },
    /// List what may be done now (actions, or die faces with --table-dice).
    Legal {
        /// The game file (made by `battlemat new`, or saved by `play --save`).
        file: PathBuf,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Take an action (its short text or JSON), or give a die face with --table-dice.
    #[command(
        after_help = "The actions each game takes, in short text and JSON, are in docs/json.md; \
`battlemat legal FILE` lists those open now, in the short text this command takes."
    )]
    Act {
        /// The game file (made by `battlemat new`, or saved by `play --save`).
        file: PathBuf,
        /// The action in its short text, as `legal` lists it (e.g. "attack u2 u9"), or as JSON; at a die with table dice, the face rolled.
        action: String,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Resign for a seat: the game ends with a result for every seat, that seat's side losing.
    Resign {
        /// The game file (made by `battlemat new`, or saved by `play --save`).
        file: PathBuf,
        /// The seat that resigns.
        #[arg(long)]
        seat: u8,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Check everything a game file can prove: its setup is the built-in scenario it names
    /// (or it says plainly that it is a custom one), every step is legal in order, every
    /// seeded die is the seed's, the stored digest is the record's own.
    #[command(
        after_help = "Exit status: 0 everything holds; 3 nothing failed but not everything can be checked \
(table dice, or a format 1 file that does not name its scenario); 4 something does not hold (the first \
step that differs is named); 1 the file cannot be read. docs/files.md says what a file can and cannot prove."
    )]
    Verify {
        /// The game file (made by `battlemat new`, or saved by `play --save`).
        file: PathBuf,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Replay a game file from its setup; with --verify, also check everything `verify` does.
    Replay {
        /// The game file (made by `battlemat new`, or saved by `play --save`).
        file: PathBuf,
        #[arg(long)]
        verify: bool,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Play in the terminal: humans and AIs.
    Play {
        /// The game (`battlemat rulesets`); left out with --load.
        game: Option<String>,
        #[command(flatten)]
        setup: SetupArgs,
        /// Who sits in each seat, in seat order: human, random, greedy, mcts, mcts:N
        /// (iterations a move), mcts:Nw (units of work a move) or mcts:2s (time a move).
        #[arg(long, value_delimiter = ',', default_value = "human,mcts")]
        seats: Vec<String>,
        /// The seed of the dice (a whole number; the same seed gives the same dice).
        #[arg(long, allow_hyphen_values = true, value_parser = parse_seed)]
        seed: Option<u64>,
        /// Ask for each die instead of rolling it.
        #[arg(long)]
        table_dice: bool,
        /// Save the game file here, from the start and after every step (an interrupted game
        /// is continued with --load).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Continue the game in this file (saved by --save, or made by `new`), saving back to it.
        #[arg(long, conflicts_with_all = ["save", "seed", "table_dice"])]
        load: Option<PathBuf>,
    },
    /// Exact odds of one attack: `battlemat odds swtb --attacker hero --defender trooper`.
    #[command(allow_hyphen_values = true)]
    Odds {
        /// The game: swtb, sd-era, abaoaqu, ms-d20 or serm (`battlemat rulesets` lists them).
        game: String,
        /// Game-specific parameters: `--key value` or `--flag`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        params: Vec<String>,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// AI-vs-AI games in parallel: win rates with 95% intervals.
    Sim {
        /// The game: swtb, sd-era, abaoaqu, ms-d20 or serm (`battlemat rulesets` lists them).
        game: String,
        #[command(flatten)]
        setup: SetupArgs,
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Players in seat order: random, greedy, mcts, mcts:N (iterations a move), mcts:Nw
        /// (units of work a move), mcts:2s.
        #[arg(long, value_delimiter = ',', default_value = "greedy,greedy")]
        players: Vec<String>,
        #[command(flatten)]
        run: RunArgs,
    },
    /// A round robin between AI players (seats swapped each game): wins, draws, losses and
    /// Elo with 95% intervals, as a table, JSON or an SVG chart.
    Tournament {
        /// The game: swtb, sd-era, abaoaqu, ms-d20 or serm (`battlemat rulesets` lists them).
        game: String,
        #[command(flatten)]
        setup: SetupArgs,
        /// The players, two or more: random, greedy, mcts, mcts:N (iterations a move),
        /// mcts:Nw (units of work a move), mcts:2s or mcts:500ms (time a move).
        #[arg(long, value_delimiter = ',', default_value = "mcts,greedy,random")]
        players: Vec<String>,
        /// Games each pair plays (seats swapped every game).
        #[arg(long, default_value_t = 20)]
        games: u64,
        #[command(flatten)]
        run: RunArgs,
        /// Also draw the ratings as an SVG bar chart to this file.
        #[arg(long, value_name = "FILE.svg")]
        svg: Option<PathBuf>,
    },
    /// Self-play to test a scenario's balance: each seat's win rate and, where the game has
    /// points rules, each unit type's win rate and the cost that would make it fair.
    Balance {
        /// The game: swtb, sd-era, abaoaqu, ms-d20 or serm (`battlemat rulesets` lists them).
        game: String,
        #[command(flatten)]
        setup: SetupArgs,
        /// The player in every seat: random, greedy, mcts, mcts:N, mcts:Nw, mcts:2s.
        #[arg(long, default_value = "greedy")]
        player: String,
        #[arg(long, default_value_t = 200)]
        games: u64,
        #[command(flatten)]
        run: RunArgs,
        /// Keep the scenario's armies (by default a game with points rules draws new ones
        /// at random within the points for every game).
        #[arg(long)]
        fixed: bool,
        /// Also draw SVG charts: FILE.svg (seats) and FILE-units.svg (unit types).
        #[arg(long, value_name = "FILE.svg")]
        svg: Option<PathBuf>,
    },
    /// The report of a run split into shards (`sim`, `tournament` or `balance` with
    /// --shard I/K --out FILE): the same report, byte for byte, as the run on one machine.
    Merge {
        /// The shard files, every shard of the run once (in any order).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
        /// Also draw the report's SVG charts (tournament, balance), as those commands do.
        #[arg(long, value_name = "FILE.svg")]
        svg: Option<PathBuf>,
    },
    /// Host online games: the HTTP API (docs/server.md), games kept in a SQLite file or
    /// PostgreSQL (several nodes may share one).
    Serve {
        /// The address to listen on (port 0: any free port).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// The database: a SQLite file (`sqlite:battlemat.db` or a path), created if absent,
        /// or PostgreSQL (`postgres://user@host:5432/db`), whose schema is migrated at start.
        #[arg(long, default_value = "sqlite:battlemat.db")]
        db: String,
        /// Several nodes on one PostgreSQL: seconds a node's lease on a game lasts unless
        /// renewed (it renews every third of it); a dead node's games move after this.
        #[arg(long, default_value_t = 10.0)]
        lease: f64,
        /// The base URL other nodes forward this node's games' commands to (default: the
        /// address it listens on).
        #[arg(long)]
        node_url: Option<String>,
        /// Seconds without a request after which a seat the game waits on is gone (another
        /// seat may then claim the game).
        #[arg(long, default_value_t = 120)]
        gone_after: i64,
        /// Seconds after which a game with a free seat that nobody touched is removed.
        #[arg(long, default_value_t = 86_400)]
        open_ttl: i64,
        /// Seconds after which a started, unfinished game that nobody touched is removed.
        #[arg(long, default_value_t = 2_592_000)]
        abandon_after: i64,
        /// Actions per token: BURST/PER_SECOND (0/0: no limit).
        #[arg(long, default_value = "20/10")]
        token_rate: String,
        /// Actions per client address: BURST/PER_SECOND (0/0: no limit).
        #[arg(long, default_value = "200/100")]
        ip_rate: String,
        /// Unfinished games one client address may have created.
        #[arg(long, default_value_t = 100)]
        max_open_games: usize,
        /// Messages a WebSocket client may send in 20 seconds (0: no limit).
        #[arg(long, default_value_t = 50)]
        ws_messages: u32,
    },
    /// Dice notation: roll it or show its exact distribution.
    Dice {
        #[command(subcommand)]
        command: DiceCommand,
    },
}

/// How a batch of games runs (`sim`, `tournament`, `balance`): the dice's seed, the
/// threads, the output's form, and the shard of the run this process plays.
#[derive(clap::Args, Clone, Debug)]
pub struct RunArgs {
    /// The seed of the dice (a whole number; the same seed gives the same report).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads (default: all cores). The report does not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print JSON instead of text (the shapes are in docs/json.md).
    #[arg(long)]
    pub json: bool,
    /// Play only shard I of K (from 0): the games whose index is I modulo K, each with the
    /// dice it has in the whole run; written with --out, merged by `battlemat merge`
    /// (docs/scale.md).
    #[arg(long, value_name = "I/K", requires = "out", value_parser = shard::parse_shard)]
    pub shard: Option<battlemat_lab::shard::Shard>,
    /// The shard file to write (JSON, docs/json.md) instead of printing a report.
    #[arg(long, value_name = "FILE.json", requires = "shard")]
    pub out: Option<PathBuf>,
}

/// Which scenario, from where, with which options: shared by `new`, `play` and `sim`.
#[derive(clap::Args)]
struct SetupArgs {
    /// A built-in scenario (see `battlemat rulesets`), or one from --data.
    #[arg(long)]
    scenario: Option<String>,
    /// Your own scenario (map and armies) in the game's TOML format.
    #[arg(long, conflicts_with = "scenario")]
    scenario_file: Option<PathBuf>,
    /// A data folder shaped like the game's built-in data (units.toml, scenarios/*.toml)
    /// used instead of it; --scenario picks one of its scenarios.
    #[arg(long)]
    data: Option<PathBuf>,
    /// A rule option, `key=value` (repeatable); see `battlemat rulesets`.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
}

impl SetupArgs {
    fn source(self) -> Result<SetupChoice> {
        Ok(SetupChoice {
            options: parse_options(&self.options)?,
            source: ScenarioSource::from_args(self.scenario, self.scenario_file, self.data)?,
        })
    }
}

#[derive(Subcommand)]
enum DiceCommand {
    /// Roll an expression like 4d6kh3 or 2d6+1.
    Roll {
        expr: String,
        /// The seed of the dice (a whole number; the same seed gives the same dice).
        #[arg(long, allow_hyphen_values = true, value_parser = parse_seed)]
        seed: Option<u64>,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// The exact distribution, mean and standard deviation.
    Dist {
        expr: String,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// An opposed roll: exact chances that A beats, ties or loses to B.
    Versus {
        a: String,
        b: String,
        /// Print JSON instead of text (the shapes are in docs/json.md).
        #[arg(long)]
        json: bool,
    },
}

fn main() {
    // Output piped into `head` that closes early: end quietly, as Unix tools do, instead of
    // panicking on a broken pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // `odds --help` lists each game's parameters, as the games declare them. Only then are
    // the games asked (reading every game's data costs milliseconds at every start).
    let args: Vec<String> = std::env::args().collect();
    let mut usage = String::from(
        "The odds command's own parameters, for every game:\n  \
         --plot FILE.svg   also draw the odds (outcomes as bars, each distribution as a histogram)\n  \
         --check-sims N    also roll the matchup N times with the game's own dice and compare (chi-square)\n  \
         --option KEY=VALUE  a rule option (see `battlemat rulesets`)\n\n\
         Each game's parameters:\n",
    );
    if args.iter().any(|a| a == "odds")
        && args
            .iter()
            .any(|a| a == "-h" || a == "--help" || a == "help")
    {
        for e in crate::games::all() {
            let info = e.ruleset.info();
            if !info.odds.is_empty() {
                usage.push_str(&format!("  {}: {}\n", info.id, info.odds));
            }
        }
    }
    let command =
        <Cli as clap::CommandFactory>::command().mut_subcommand("odds", |c| c.after_help(usage));
    let cli = match <Cli as clap::FromArgMatches>::from_arg_matches(&command.get_matches()) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    if let Err(e) = run(cli) {
        if let Some(Exit(code)) = e.downcast_ref::<Exit>() {
            std::process::exit(*code);
        }
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// An exit status other than 1 (`verify`'s), its words already printed.
#[derive(Debug)]
struct Exit(i32);

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit status {}", self.0)
    }
}

impl std::error::Error for Exit {}

/// Verify `gf` and print the report (as text, or `json` fields added to `extra`); ends the
/// process with the report's exit status when that is not 0, its first problem on stderr.
fn verify_and_report(gf: &GameFile, json: bool, mut extra: serde_json::Value) -> Result<()> {
    let report = verify::verify(gf);
    if json {
        extra["verification"] = serde_json::to_value(&report)?;
        print_json(&extra)?;
    } else {
        verify::print(&report);
    }
    if let Some(problem) = report.first_problem() {
        let label = match report.verdict {
            verify::Verdict::Failed => "verification failed",
            _ => "not verified",
        };
        eprintln!("{label}: {}", problem.text);
        return Err(Exit(report.verdict.exit_status()).into());
    }
    Ok(())
}

pub fn parse_options(pairs: &[String]) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for p in pairs {
        let Some((k, v)) = p.split_once('=') else {
            bail!("--option {p:?}: expected KEY=VALUE");
        };
        out.insert(k.trim().to_string(), v.trim().to_string());
    }
    Ok(out)
}

/// A seed: a whole number from 0 to 2^64 - 1 (a negative one is refused in those words, not
/// taken for an option).
fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| format!("{s:?}: a seed is a whole number from 0 to {}", u64::MAX))
}

pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

fn print_json(v: &impl serde::Serialize) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}

/// What a step did and what comes next, as text or JSON (`act`, `resign`), with the
/// record's digest for the correspondents to compare.
fn report_step(
    events: &[battlemat_core::dynamic::DynEvent],
    state: &dyn battlemat_core::dynamic::DynState,
    gf: &GameFile,
    json: bool,
) -> Result<()> {
    let digest = gf.digest();
    if json {
        print_json(&serde_json::json!({
            "events": events, "to_act": state.to_act(),
            "digest": digest.hex(), "digest_short": digest.short(), "steps": gf.steps.len(),
        }))
    } else {
        play::print_events(events);
        println!("{}", play::prompt_line(state));
        println!("{}", digest_line(gf));
        Ok(())
    }
}

/// "Digest after 12 steps: 1a2b-…" (`act`, `resign`, `view`, `new`).
fn digest_line(gf: &GameFile) -> String {
    format!(
        "Digest after {} steps: {}",
        gf.steps.len(),
        gf.digest().short()
    )
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Rulesets { json } => rulesets(json),
        Command::New {
            game,
            setup,
            seed,
            table_dice,
            output,
            force,
            json,
        } => {
            if !force && std::fs::symlink_metadata(&output).is_ok() {
                bail!(
                    "{} already exists: a game in progress is not overwritten (--force replaces it)",
                    output.display()
                );
            }
            let dice = if table_dice {
                DiceMode::Table
            } else {
                DiceMode::Seeded(Roller::new(seed.unwrap_or_else(clock_seed), 0).position())
            };
            let (mut file, _) = GameFile::create(&game, &setup.source()?, dice)?;
            let mut state = file.state()?;
            let events = file.roll_pending(state.as_mut())?;
            file.save(&output)?;
            if json {
                print_json(&serde_json::json!({
                    "file": output, "dice": file.dice, "events": events,
                    "to_act": state.to_act(), "digest": file.digest().hex(),
                    "digest_short": file.digest().short(),
                }))
            } else {
                println!("Started {} in {}.", state.info().name, output.display());
                if let DiceMode::Seeded(p) = &file.dice {
                    println!("Dice: seed {}.", p.seed);
                }
                play::print_events(&events);
                println!("{}", play::prompt_line(state.as_ref()));
                println!("{}", digest_line(&file));
                Ok(())
            }
        }
        Command::View {
            file,
            seat,
            json,
            svg,
        } => {
            let gf = GameFile::load(&file)?;
            let state = gf.state()?;
            let viewer = match seat {
                Some(s) if s >= state.seats() => {
                    bail!("--seat {s}: the game has seats 0 to {}", state.seats() - 1)
                }
                Some(s) => Viewer::Seat(s),
                None => Viewer::Spectator,
            };
            let scene = state.scene(viewer);
            if let Some(out) = svg {
                std::fs::write(&out, battlemat_render::svg(&scene))
                    .with_context(|| format!("writing {}", out.display()))?;
            }
            let (obs, text) = state.observe(viewer);
            if json {
                print_json(&serde_json::json!({
                    "observation": obs,
                    "to_act": state.to_act(),
                    "scene": scene,
                    "digest": gf.digest().hex(),
                    "digest_short": gf.digest().short(),
                }))
            } else {
                print!("{text}");
                println!("{}", play::prompt_line(state.as_ref()));
                println!("{}", digest_line(&gf));
                Ok(())
            }
        }
        Command::Legal { file, json } => {
            let gf = GameFile::load(&file)?;
            let state = gf.state()?;
            match state.to_act() {
                ToAct::Chance(c) if matches!(gf.dice, DiceMode::Seeded(_)) => {
                    // Left at a die by an interrupted `play --save`: the seed rolls it.
                    if json {
                        return print_json(
                            &serde_json::json!({"chance": c, "faces": [], "seeded": true}),
                        );
                    }
                    println!(
                        "Waiting for a die: {}. The dice are seeded: `battlemat act {} roll` rolls it from the seed.",
                        c.what,
                        file.display()
                    );
                }
                ToAct::Chance(c) => {
                    let faces: Vec<u32> = c.outcomes.iter().map(|o| o.value).collect();
                    if json {
                        // The same shape as `to_act`'s chance (what, outcomes), with the faces.
                        return print_json(&serde_json::json!({"chance": c, "faces": faces}));
                    }
                    println!(
                        "Waiting for a die: {}. Give the face rolled: {}",
                        c.what,
                        faces
                            .iter()
                            .map(|f| f.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    );
                }
                ToAct::Over(r) => {
                    if json {
                        return print_json(&serde_json::json!({"over": r}));
                    }
                    println!("The game is over: {}", r.reason);
                }
                ToAct::Decide { seat, prompt } => {
                    let legal = state.legal_actions();
                    if json {
                        let list: Vec<_> = legal
                            .iter()
                            .map(|a| serde_json::json!({"text": a.text, "label": a.label, "action": a.json, "odds": state.odds(&a.json)}))
                            .collect();
                        return print_json(
                            &serde_json::json!({"seat": seat, "prompt": prompt, "actions": list}),
                        );
                    }
                    println!("Seat {seat}: {prompt}");
                    // The short text `act` takes, then its words when they say more (the
                    // units' names), then the odds.
                    for a in &legal {
                        let words = if a.label != a.text {
                            format!("  ({})", a.label)
                        } else {
                            String::new()
                        };
                        println!(
                            "{}{words}{}",
                            a.text,
                            play::odds_suffix(state.as_ref(), &a.json)
                        );
                    }
                }
            }
            Ok(())
        }
        Command::Act { file, action, json } => {
            // Locked from reading to saving: concurrent `act`s apply one after another.
            let (mut gf, _lock) = GameFile::load_locked(&file)?;
            if matches!(gf.dice, DiceMode::Server(_)) {
                bail!(
                    "{} is a server's record: its dice are the server's, so the game goes on on the server, not here ({0} is unchanged)",
                    file.display()
                );
            }
            let mut state = gf.state()?;
            let step = match state.to_act() {
                ToAct::Over(r) => bail!("the game is over: {}", r.reason),
                ToAct::Chance(c) if matches!(gf.dice, DiceMode::Seeded(_)) => {
                    // Left at a die by an interrupted `play --save`: only the seed's face.
                    if action.trim() != "roll" {
                        bail!(
                            "waiting for a die ({}), and the dice are seeded: a face is not typed in; `battlemat act {} roll` rolls it from the seed ({0} is unchanged)",
                            c.what,
                            file.display()
                        );
                    }
                    let events = gf.roll_pending(state.as_mut())?;
                    gf.save(&file)?;
                    return report_step(&events, state.as_ref(), &gf, json);
                }
                ToAct::Chance(c) => {
                    let face: u32 = action.trim().parse().with_context(|| {
                        format!(
                            "waiting for a die ({}): give the face rolled as a number",
                            c.what
                        )
                    })?;
                    Step::Roll { value: face }
                }
                ToAct::Decide { seat, .. } => {
                    let a = state.parse_action(&action).map_err(anyhow::Error::msg)?;
                    Step::Act { seat, action: a }
                }
            };
            let mut events = state
                .apply(&step)
                .map_err(|e| anyhow::anyhow!("illegal: {e}"))
                .with_context(|| format!("{} is unchanged", file.display()))?;
            gf.stamp_current_version()?;
            gf.steps.push(step);
            events.extend(gf.roll_pending(state.as_mut())?);
            gf.save(&file)?;
            report_step(&events, state.as_ref(), &gf, json)
        }
        Command::Resign { file, seat, json } => {
            let (mut gf, _lock) = GameFile::load_locked(&file)?;
            let mut state = gf.state()?;
            let step = Step::Resign { seat };
            let events = state
                .apply(&step)
                .map_err(|e| anyhow::anyhow!("cannot resign: {e}"))
                .with_context(|| format!("{} is unchanged", file.display()))?;
            gf.stamp_current_version()?;
            gf.steps.push(step);
            gf.save(&file)?;
            report_step(&events, state.as_ref(), &gf, json)
        }
        Command::Verify { file, json } => {
            let gf = GameFile::load(&file)?;
            verify_and_report(&gf, json, serde_json::json!({}))
        }
        Command::Replay { file, verify, json } => {
            let gf = GameFile::load(&file)?;
            if verify {
                // Everything `verify` checks, with the replay's events (as far as the record
                // holds) first.
                let replayed = gf.replay_checked().ok();
                let (events, to_act) = match replayed {
                    Some(r) => (r.events, serde_json::to_value(r.state.to_act())?),
                    None => (vec![], serde_json::Value::Null),
                };
                if json {
                    let extra = serde_json::json!({
                        "steps": gf.steps.len(), "events": events, "to_act": to_act,
                        "verified_dice": verify::verify(&gf).dice_checked,
                        "dice_checkable": matches!(gf.dice, DiceMode::Seeded(_)),
                    });
                    return verify_and_report(&gf, true, extra);
                }
                play::print_events(&events);
                return verify_and_report(&gf, false, serde_json::json!({}));
            }
            let (state, events) = gf.replay()?;
            if json {
                return print_json(&serde_json::json!({
                    "steps": gf.steps.len(), "events": events, "to_act": state.to_act(),
                    "verified_dice": serde_json::Value::Null,
                    "dice_checkable": matches!(gf.dice, DiceMode::Seeded(_)),
                }));
            }
            play::print_events(&events);
            println!("Replayed {} steps: OK.", gf.steps.len());
            println!("{}", play::prompt_line(state.as_ref()));
            println!("{}", digest_line(&gf));
            Ok(())
        }
        Command::Play {
            game,
            setup,
            seats,
            seed,
            table_dice,
            save,
            load,
        } => {
            let game = match (&game, &load) {
                (Some(g), _) => g.clone(),
                (None, Some(f)) => GameFile::load(f)?.ruleset,
                (None, None) => {
                    bail!("name the game (battlemat rulesets lists them), or --load a game file")
                }
            };
            play::run(play::PlayArgs {
                game,
                setup: setup.source()?,
                seats,
                seed,
                table_dice,
                save,
                load,
            })
        }
        Command::Odds { game, params, json } => odds::run(&game, &params, json),
        Command::Sim {
            game,
            setup,
            games,
            players,
            run,
        } => sim::run(sim::SimArgs {
            game,
            setup: setup.source()?,
            games,
            players,
            run,
        }),
        Command::Tournament {
            game,
            setup,
            players,
            games,
            run,
            svg,
        } => lab::tournament(lab::TournamentArgs {
            game,
            setup: setup.source()?,
            players,
            games,
            run,
            svg,
        }),
        Command::Balance {
            game,
            setup,
            player,
            games,
            run,
            fixed,
            svg,
        } => lab::balance(lab::BalanceArgs {
            game,
            setup: setup.source()?,
            player,
            games,
            run,
            fixed,
            svg,
        }),
        Command::Merge { files, json, svg } => shard::merge(&files, &shard::Output { json, svg }),
        Command::Dice { command } => dice(command),
        Command::Serve {
            addr,
            db,
            gone_after,
            open_ttl,
            abandon_after,
            token_rate,
            ip_rate,
            max_open_games,
            ws_messages,
            lease,
            node_url,
        } => {
            let rate = |flag: &str, v: &str| -> Result<battlemat_server::limits::Rate> {
                let (b, p) = v
                    .split_once('/')
                    .with_context(|| format!("--{flag} {v}: give BURST/PER_SECOND, e.g. 20/10"))?;
                Ok(battlemat_server::limits::Rate {
                    burst: b
                        .trim()
                        .parse()
                        .with_context(|| format!("--{flag} {v}: the burst"))?,
                    per_sec: p
                        .trim()
                        .parse()
                        .with_context(|| format!("--{flag} {v}: the rate a second"))?,
                })
            };
            let mut config = battlemat_server::Config::new("");
            config.gone_after = gone_after;
            config.open_ttl = open_ttl;
            config.abandon_after = abandon_after;
            config.token_rate = rate("token-rate", &token_rate)?;
            config.ip_rate = rate("ip-rate", &ip_rate)?;
            config.max_open_games = max_open_games;
            config.ws_messages = ws_messages;
            if !(lease.is_finite() && lease >= 0.01) {
                bail!("--lease {lease}: give the seconds a lease lasts, at least 0.01");
            }
            config.lease_ms = (lease * 1000.0).round() as u64;
            config.node_url = node_url.unwrap_or_default();
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .context("starting the server's runtime")?;
            rt.block_on(battlemat_server::serve(&addr, &db, config))
                .map_err(|e| anyhow::anyhow!(e))
        }
    }
}

fn rulesets(json: bool) -> Result<()> {
    let infos: Vec<_> = crate::games::all()
        .iter()
        .map(|e| e.ruleset.info())
        .collect();
    if json {
        return print_json(&infos);
    }
    for i in infos {
        println!(
            "{} — {} (version {}, {}-{} seats)",
            i.id, i.name, i.version, i.min_seats, i.max_seats
        );
        println!("  scenarios:");
        // Columns as wide as the longest entry (scenario ids like `king_of_the_hill`).
        let id_w = i
            .scenarios
            .iter()
            .map(|s| s.id.len())
            .max()
            .unwrap_or(0)
            .max(10);
        for s in &i.scenarios {
            println!(
                "    {:<id_w$} {}{}",
                s.id,
                s.name,
                if s.ours { " (ours)" } else { "" }
            );
            println!("    {:<id_w$} {}", "", s.summary);
        }
        println!("  options (--option key=value):");
        let key_w = i
            .options
            .iter()
            .map(|o| o.key.len())
            .max()
            .unwrap_or(0)
            .max(20);
        let val_w = i
            .options
            .iter()
            .map(|o| o.values.join("|").len())
            .max()
            .unwrap_or(0)
            .max(18);
        let def_w = i
            .options
            .iter()
            .map(|o| o.default.len())
            .max()
            .unwrap_or(0)
            .max(9);
        for o in &i.options {
            println!(
                "    {:<key_w$} {:<val_w$} default {:<def_w$} {} [{}{}]",
                o.key,
                o.values.join("|"),
                o.default,
                o.help,
                o.rule,
                if o.house_rule { ", house rule" } else { "" }
            );
        }
    }
    Ok(())
}

fn dice(cmd: DiceCommand) -> Result<()> {
    match cmd {
        DiceCommand::Roll { expr, seed, json } => {
            let e: Expr = expr.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
            let seed = seed.unwrap_or_else(clock_seed);
            let rolled = e.roll(&mut Roller::new(seed, 0));
            if json {
                return print_json(
                    &serde_json::json!({"seed": seed, "rolled": rolled, "total": rolled.total}),
                );
            }
            println!("{rolled}");
            Ok(())
        }
        DiceCommand::Versus { a, b, json } => {
            let parse = |s: &str| -> Result<battlemat_dice::Dist> {
                let e: Expr = s.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
                e.try_dist().map_err(|e| anyhow::anyhow!("{s}: {e}"))
            };
            let o = parse(&a)?.versus(&parse(&b)?);
            if json {
                return print_json(&serde_json::json!({
                    "a": a, "b": b,
                    "outcomes": {"a_wins": o.win, "tie": o.tie, "b_wins": o.lose},
                }));
            }
            println!("A = {a} against B = {b}:");
            let rows = [("A higher", o.win), ("tie", o.tie), ("B higher", o.lose)];
            for (label, p) in rows {
                println!("  {label:<10} {:>11.6}%", 100.0 * p);
            }
            Ok(())
        }
        DiceCommand::Dist { expr, json } => {
            let e: Expr = expr.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
            let d = e.try_dist().map_err(|e| anyhow::anyhow!("{expr}: {e}"))?;
            // A million outcomes is a possible answer (`1000d1000` has 646,007): write them
            // through one buffer, not a line (or a JSON tree) at a time.
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            if json {
                write_dist_json(&mut out, &e, &d)?;
            } else {
                write_dist_text(&mut out, &e, &d).context("writing the distribution")?;
            }
            std::io::Write::flush(&mut out).context("writing the distribution")?;
            Ok(())
        }
    }
}

/// `dice dist` as text: a header line, then one line and bar per outcome.
fn write_dist_text(
    out: &mut impl std::io::Write,
    e: &Expr,
    d: &battlemat_dice::Dist,
) -> std::io::Result<()> {
    const BAR: &str = "##################################################";
    writeln!(
        out,
        "{e}: mean {:.6}, standard deviation {:.6}, from {} to {}",
        d.mean(),
        d.std_dev(),
        d.min(),
        d.max()
    )?;
    let peak = d.iter().map(|(_, p)| p).fold(0.0, f64::max);
    for (x, p) in d.iter() {
        let bar = &BAR[..(((p / peak) * 50.0).round() as usize).min(BAR.len())];
        writeln!(out, "{x:>6} {:>10.6}% {bar}", 100.0 * p)?;
    }
    Ok(())
}

/// `dice dist --json`, serialised straight into `out` (docs/json.md has the shape).
///
/// It used to be built as a `serde_json::Value` first, which for `1000d1000` meant two
/// copies of 646,007 outcomes as tree nodes and strings: 280 MiB to print 60 MB. The bytes
/// are kept exactly as they were: the fields in alphabetical order (the `json!` map was a
/// `BTreeMap`), and `outcomes` keyed in the order of the keys as strings, `"10"` before
/// `"3"`.
fn write_dist_json(
    out: &mut impl std::io::Write,
    e: &Expr,
    d: &battlemat_dice::Dist,
) -> Result<()> {
    use serde::ser::{SerializeMap, Serializer};

    struct Ordered<'a>(&'a battlemat_dice::Dist);
    impl serde::Serialize for Ordered<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.0.iter())
        }
    }
    struct ByKey<'a>(&'a battlemat_dice::Dist);
    impl serde::Serialize for ByKey<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let d = self.0;
            let mut map = s.serialize_map(None)?;
            for x in decimal_order(d.min(), d.max()) {
                let p = d.p_eq(x);
                // `Dist::iter` leaves out impossible outcomes (gaps in exploding dice).
                if p != 0.0 {
                    map.serialize_entry(&x, &p)?;
                }
            }
            map.end()
        }
    }
    #[derive(serde::Serialize)]
    struct DistJson<'a> {
        distribution: Ordered<'a>,
        expr: String,
        max: i64,
        mean: f64,
        min: i64,
        outcomes: ByKey<'a>,
        std_dev: f64,
    }
    let shape = DistJson {
        distribution: Ordered(d),
        expr: e.to_string(),
        max: d.max(),
        mean: d.mean(),
        min: d.min(),
        outcomes: ByKey(d),
        std_dev: d.std_dev(),
    };
    serde_json::to_writer_pretty(&mut *out, &shape).context("writing the distribution")?;
    writeln!(out).context("writing the distribution")?;
    Ok(())
}

/// The integers `lo..=hi` in the order of their decimal strings: `-1 -10 -2 0 1 10 2` (`-`
/// sorts before the digits). Numbers with the same count of digits are in numeric order,
/// so this merges at most twenty counting runs, one per count of digits, and needs no
/// memory for the numbers themselves.
fn decimal_order(lo: i64, hi: i64) -> impl Iterator<Item = i64> {
    let negative =
        (lo < 0).then(|| DecimalOrder::new(hi.min(-1).unsigned_abs(), lo.unsigned_abs()));
    let positive = (hi >= 0).then(|| DecimalOrder::new(lo.max(0) as u64, hi as u64));
    let negative = negative
        .into_iter()
        .flatten()
        .map(|m| 0i64.wrapping_sub_unsigned(m));
    negative.chain(positive.into_iter().flatten().map(|m| m as i64))
}

/// `a..=b` in the order of their decimal strings: see [`decimal_order`].
struct DecimalOrder {
    /// Runs of numbers with the same count of digits: `(next, last, digits)`.
    runs: Vec<(u64, u64, u32)>,
}

impl DecimalOrder {
    fn new(a: u64, b: u64) -> DecimalOrder {
        let runs = (1..=20u32)
            .filter_map(|digits| {
                let first = if digits == 1 {
                    0
                } else {
                    10u64.pow(digits - 1)
                };
                let last = 10u64.checked_pow(digits).map_or(u64::MAX, |p| p - 1);
                let (next, last) = (a.max(first), b.min(last));
                (next <= last).then_some((next, last, digits))
            })
            .collect();
        DecimalOrder { runs }
    }
}

impl Iterator for DecimalOrder {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        // As strings, `m` with `digits` digits compares like `m` padded with zeros to 20
        // digits, the shorter string first when those are equal (`1` before `10`).
        let key =
            |&(m, _, digits): &(u64, u64, u32)| (u128::from(m) * 10u128.pow(20 - digits), digits);
        let i = (0..self.runs.len()).min_by_key(|&i| key(&self.runs[i]))?;
        let (m, last, _) = self.runs[i];
        if m == last {
            self.runs.swap_remove(i);
        } else {
            self.runs[i].0 = m + 1;
        }
        Some(m)
    }
}

#[cfg(test)]
mod dice_tests {
    use super::*;

    #[test]
    fn decimal_order_is_string_order() {
        let ranges = [
            (-25, 130),
            (0, 0),
            (-1, -1),
            (7, 1234),
            (-1005, -990),
            (i64::MIN, i64::MIN + 30),
            (i64::MAX - 30, i64::MAX),
            (999_999_999_990, 1_000_000_000_020),
        ];
        for (lo, hi) in ranges {
            let got: Vec<i64> = decimal_order(lo, hi).collect();
            let mut want: Vec<i64> = (lo..=hi).collect();
            want.sort_by_key(|x| x.to_string());
            assert_eq!(got, want, "{lo}..={hi}");
        }
    }

    /// The streamed JSON is byte for byte what the `serde_json::Value` tree printed.
    #[test]
    fn dist_json_bytes_unchanged() {
        for s in [
            "3d6",
            "2d20+3",
            "4d6kh3",
            "3d6!1",
            "6d6>=5",
            "2d6-1d4-2",
            "-3",
            "12d10-60",
        ] {
            let e: Expr = s.parse().unwrap();
            let d = e.dist();
            let outcomes: BTreeMap<String, f64> =
                d.iter().map(|(x, p)| (x.to_string(), p)).collect();
            let ordered: Vec<(i64, f64)> = d.iter().collect();
            let old = serde_json::to_string_pretty(&serde_json::json!({
                "expr": e.to_string(), "outcomes": outcomes, "distribution": ordered,
                "mean": d.mean(), "std_dev": d.std_dev(), "min": d.min(), "max": d.max(),
            }))
            .unwrap()
                + "\n";
            let mut new = Vec::new();
            write_dist_json(&mut new, &e, &d).unwrap();
            assert_eq!(String::from_utf8(new).unwrap(), old, "{s}");
        }
    }
}
