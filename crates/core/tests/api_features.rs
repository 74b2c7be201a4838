//! A small test-only game ("Convoy") that exercises every shape of decision the five games
//! need, so none of them needs a special case in the API:
//! - 2 to 6 seats, competitive or co-operative (one shared result);
//! - phased turns (move phase, objection phase, drift phase);
//! - free parameters: a seat advances to *any* point in a range (fixed-point milli-units);
//!   `check` accepts every legal point, `legal_actions` offers three candidates;
//! - a decision by a seat that is not the active one (the next seat may object to a move);
//! - a chance point whose result the rules act on by themselves (the drift moves every
//!   convoy piece, with no seat deciding), and which is a draw from what is left of a deck
//!   (its odds change as cards are drawn; a card no longer in the deck is refused);
//! - results as per-seat scores and ranks, and a resignation at any moment;
//! - something hidden: each seat's secret code, shown to that seat only (the conformance
//!   kit checks that no other seat's observation or events carry it).

use battlemat_core::conformance::{self, Conformance};
use battlemat_core::{
    ActionList, Anchors, ChanceOutcome, Game, GameResult, Illegal, Next, OptionInfo, Outcomes,
    Record, Ruleset, RulesetInfo, Scene, Seat, SetupError, Step, ToAct, Viewer, scene,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

const UNIT: i32 = 1000; // fixed point: 1000 milli-units = 1 unit

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct Setup {
    seats: u8,
    coop: bool,
    rounds: u8,
    /// Co-operative goal: the sum of positions to reach.
    goal: i32,
    /// A test of the conformance kit: show every seat every code.
    #[serde(default)]
    leak: bool,
}

/// Seat `s`'s secret code, shown to that seat only.
fn code(s: Seat) -> String {
    format!("secret-code-{s}")
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
enum Phase {
    Move { seat: Seat },
    Objection { mover: Seat, from: i32 },
    ObjectionDie { mover: Seat, from: i32 },
    Drift,
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct Convoy {
    setup: Setup,
    pos: Vec<i32>,
    round: u8,
    phase: Phase,
    /// The drift deck: how many cards of drift 0, 1 and 2 are left. Drawn without
    /// replacement, reshuffled when empty — a chance point whose odds change as it is used.
    deck: [u64; 3],
    /// A seat that resigned.
    resigned: Option<Seat>,
}

const FULL_DECK: [u64; 3] = [3, 2, 1];

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Action {
    Advance { to: i32 },
    Object,
    Allow,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Advance { to } => write!(f, "advance {to}"),
            Action::Object => f.write_str("object"),
            Action::Allow => f.write_str("allow"),
        }
    }
}

impl std::str::FromStr for Action {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let w: Vec<&str> = s.split_whitespace().collect();
        match w.as_slice() {
            ["advance", n] => Ok(Action::Advance {
                to: n.parse().map_err(|e| format!("{e}"))?,
            }),
            ["object"] => Ok(Action::Object),
            ["allow"] => Ok(Action::Allow),
            _ => Err(format!("unknown action {s:?}")),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
enum Event {
    Advanced { seat: Seat, from: i32, to: i32 },
    PushedBack { seat: Seat, to: i32 },
    Drifted { by: i32 },
    Resigned { seat: Seat },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

#[derive(Clone, Debug, Serialize)]
struct Obs {
    pos: Vec<i32>,
    /// Each seat's convoy piece, by the id the scene gives it.
    cars: Vec<Car>,
    round: u8,
    codes: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
struct Car {
    id: String,
    at: i32,
}

impl fmt::Display for Obs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "round {} positions {:?}", self.round, self.pos)
    }
}

impl Ruleset for Convoy {
    type State = Convoy;
    type Setup = Setup;

    fn info() -> RulesetInfo {
        RulesetInfo {
            id: "convoy".into(),
            name: "Convoy (test)".into(),
            version: "1".into(),
            min_seats: 2,
            max_seats: 6,
            legal_actions: ActionList::Candidates,
            options: vec![OptionInfo {
                key: "coop".into(),
                rule: "T-1".into(),
                values: vec!["false".into(), "true".into()],
                default: "false".into(),
                help: "one shared result".into(),
                house_rule: false,
            }],
            scenarios: vec![],
            odds: String::new(),
            safety_limit: None,
        }
    }

    fn setup(_s: &str, o: &BTreeMap<String, String>) -> Result<Setup, SetupError> {
        let seats = match o.get(battlemat_core::SEATS_OPTION) {
            None => 3,
            Some(v) => v
                .parse()
                .ok()
                .filter(|n| (2..=6).contains(n))
                .ok_or_else(|| SetupError::new("option seats", "2 to 6 seats"))?,
        };
        Ok(Setup {
            seats,
            coop: o.get("coop").is_some_and(|v| v == "true"),
            rounds: 3,
            goal: 12 * UNIT,
            leak: false,
        })
    }

    fn new_game(s: &Setup) -> Result<Convoy, SetupError> {
        if !(2..=6).contains(&s.seats) {
            return Err(SetupError::new("seats", "2 to 6 seats"));
        }
        Ok(Convoy {
            setup: s.clone(),
            pos: vec![0; s.seats as usize],
            round: 1,
            phase: Phase::Move { seat: 0 },
            deck: FULL_DECK,
            resigned: None,
        })
    }
}

impl Game for Convoy {
    type Action = Action;
    type Event = Event;
    type Observation = Obs;
    /// The judge's plan is the action itself: nothing worked out to keep.
    type Plan = Action;
    type Refusal = Illegal;

    const LEGAL_ACTIONS: ActionList = ActionList::Candidates;

    fn seats(&self) -> u8 {
        self.setup.seats
    }

    fn next(&self) -> Next {
        match &self.phase {
            Phase::Move { seat } => Next::Decide(*seat),
            Phase::Objection { mover, .. } => Next::Decide((mover + 1) % self.setup.seats),
            Phase::ObjectionDie { .. } => Next::Chance(Outcomes::Die(6)),
            Phase::Drift => Next::Chance(Outcomes::Weighted(
                (0..3u32)
                    .filter(|&v| self.deck[v as usize] > 0)
                    .map(|v| ChanceOutcome {
                        value: v,
                        weight: self.deck[v as usize],
                    })
                    .collect(),
            )),
            Phase::Over => Next::Over,
        }
    }

    fn prompt(&self) -> String {
        match &self.phase {
            Phase::Move { .. } => "advance".into(),
            Phase::Objection { .. } => "object?".into(),
            Phase::ObjectionDie { .. } => "objection".into(),
            Phase::Drift => "drift card".into(),
            Phase::Over => String::new(),
        }
    }

    fn result(&self) -> Option<GameResult> {
        (self.phase == Phase::Over).then(|| self.final_result())
    }

    fn legal_actions(&self) -> Vec<Action> {
        match &self.phase {
            Phase::Move { seat } => {
                let p = self.pos[*seat as usize];
                (1..=3)
                    .map(|k| Action::Advance { to: p + k * UNIT })
                    .collect()
            }
            Phase::Objection { .. } => vec![Action::Object, Action::Allow],
            _ => vec![],
        }
    }

    fn plan(&self, a: &Action) -> Result<Action, Illegal> {
        match (&self.phase, a) {
            (Phase::Move { seat }, Action::Advance { to }) => {
                let p = self.pos[*seat as usize];
                if *to > p && *to <= p + 3 * UNIT {
                    Ok(a.clone())
                } else {
                    Err(Illegal::by("T-2", "advance 0 to 3 units forward"))
                }
            }
            (Phase::Objection { .. }, Action::Object | Action::Allow) => Ok(a.clone()),
            _ => Err(Illegal::new("not now")),
        }
    }

    fn explain(&self, refusal: Illegal) -> Illegal {
        refusal
    }

    fn carry_out(&mut self, a: Action, ev: &mut Vec<Event>) {
        match (self.phase.clone(), &a) {
            (Phase::Move { seat }, Action::Advance { to }) => {
                let from = self.pos[seat as usize];
                self.pos[seat as usize] = *to;
                ev.push(Event::Advanced {
                    seat,
                    from,
                    to: *to,
                });
                self.phase = Phase::Objection { mover: seat, from };
            }
            (Phase::Objection { mover, from }, Action::Object) => {
                self.phase = Phase::ObjectionDie { mover, from };
            }
            (Phase::Objection { mover, .. }, Action::Allow) => self.next_mover(mover),
            _ => unreachable!("planned"),
        }
    }

    fn resign(&mut self, seat: Seat, ev: &mut Vec<Event>) {
        self.resigned = Some(seat);
        self.phase = Phase::Over;
        ev.push(Event::Resigned { seat });
    }

    fn apply_chance(&mut self, v: u32, ev: &mut Vec<Event>) {
        match self.phase.clone() {
            Phase::ObjectionDie { mover, from } => {
                if v >= 4 {
                    self.pos[mover as usize] = from;
                    ev.push(Event::PushedBack {
                        seat: mover,
                        to: from,
                    });
                }
                self.next_mover(mover);
            }
            Phase::Drift => {
                self.deck[v as usize] -= 1;
                if self.deck == [0; 3] {
                    self.deck = FULL_DECK;
                }
                // The rules move every piece by themselves.
                let by = v as i32 * UNIT / 2;
                for p in &mut self.pos {
                    *p = (*p - by).max(0);
                }
                ev.push(Event::Drifted { by });
                if self.round == self.setup.rounds {
                    self.phase = Phase::Over;
                } else {
                    self.round += 1;
                    self.phase = Phase::Move { seat: 0 };
                }
            }
            _ => unreachable!(),
        }
    }

    fn observe(&self, v: Viewer) -> Obs {
        Obs {
            cars: self
                .pos
                .iter()
                .enumerate()
                .map(|(s, &at)| Car {
                    id: format!("u{s}"),
                    at,
                })
                .collect(),
            pos: self.pos.clone(),
            round: self.round,
            codes: (0..self.setup.seats)
                .filter(|&s| self.setup.leak || v == Viewer::Seat(s))
                .map(code)
                .collect(),
        }
    }

    /// Each seat's piece on its own lane (y = seat), x its position in units; a move's free
    /// point anywhere on the three units ahead.
    fn scene(&self, _v: Viewer) -> Scene {
        let far = self.pos.iter().copied().max().unwrap_or(0) as f64 / UNIT as f64 + 4.0;
        let lanes = f64::from(self.setup.seats);
        Scene {
            title: "Convoy".into(),
            status: vec![format!("round {}", self.round)],
            table: scene::Table::open("unit", far, lanes, "mat"),
            sides: (0..self.setup.seats)
                .map(|s| scene::SceneSide {
                    name: format!("seat {s}"),
                    seats: vec![s],
                    note: String::new(),
                    to_act: matches!(self.phase, Phase::Move { seat } if seat == s),
                })
                .collect(),
            terrain: vec![],
            markers: vec![],
            pieces: self
                .pos
                .iter()
                .enumerate()
                .map(|(s, &p)| {
                    let mut piece = scene::Piece::new(
                        format!("u{s}"),
                        format!("convoy {s}"),
                        "convoy",
                        scene::PieceShape::Disc,
                        [p as f64 / UNIT as f64, s as f64 + 0.5],
                        0.3,
                    );
                    piece.side = Some(s as u8);
                    piece
                })
                .collect(),
            traces: vec![],
            actions: vec![],
            key: vec![],
        }
    }

    fn anchors(&self, a: &Action) -> Anchors {
        match (&self.phase, a) {
            (Phase::Move { seat }, Action::Advance { to }) => {
                let (from, y) = (
                    self.pos[*seat as usize] as f64 / UNIT as f64,
                    *seat as f64 + 0.5,
                );
                Anchors {
                    piece: Some(format!("u{seat}")),
                    target: Some(scene::Target::Point {
                        x: *to as f64 / UNIT as f64,
                        y,
                    }),
                    free: Some(scene::FreePoint {
                        region: scene::Region::Path {
                            points: vec![[from, y], [from + 3.0, y]],
                        },
                        template: "advance {x}".into(),
                    }),
                    shot: false,
                }
            }
            _ => Anchors::default(),
        }
    }

    fn hidden_from(&self, v: Viewer) -> Vec<String> {
        (0..self.setup.seats)
            .filter(|&s| v != Viewer::Seat(s))
            .map(code)
            .collect()
    }
}

impl Convoy {
    fn next_mover(&mut self, mover: Seat) {
        self.phase = if mover + 1 == self.setup.seats {
            Phase::Drift
        } else {
            Phase::Move { seat: mover + 1 }
        };
    }
    fn final_result(&self) -> GameResult {
        if let Some(r) = self.resigned {
            // The resigning seat comes last; the rest share first place (a lost mission,
            // in a co-operative game).
            let scores: Vec<i64> = (0..self.setup.seats).map(|s| i64::from(s != r)).collect();
            return if self.setup.coop {
                GameResult::cooperative(false, scores, format!("seat {r} resigned"))
            } else {
                GameResult::from_scores(scores, format!("seat {r} resigned"))
            };
        }
        if self.setup.coop {
            let won = self.pos.iter().sum::<i32>() >= self.setup.goal;
            let total = self.pos.iter().map(|&p| p as i64).sum();
            GameResult::cooperative(
                won,
                vec![total; self.pos.len()],
                if won { "goal reached" } else { "goal missed" },
            )
        } else {
            GameResult::from_scores(
                self.pos.iter().map(|&p| p as i64).collect(),
                "furthest wins",
            )
        }
    }
}

fn setup(seats: u8, coop: bool) -> Setup {
    Setup {
        seats,
        coop,
        rounds: 3,
        goal: 4 * seats as i32 * UNIT,
        leak: false,
    }
}

/// The kit catches a game that shows a seat what it hides from it.
#[test]
#[should_panic(expected = "which the game hides from it")]
fn conformance_catches_a_hidden_code_shown() {
    let mut s = setup(2, false);
    s.leak = true;
    conformance::run::<Convoy>(
        &[s],
        Conformance {
            games: 2,
            ..Default::default()
        },
    );
}

#[test]
fn a_resignation_ends_the_game_for_every_seat() {
    let mut g = Convoy::new_game(&setup(3, false)).unwrap();
    let ev = g.apply(&Step::Resign { seat: 1 }).unwrap();
    assert_eq!(ev, vec![Event::Resigned { seat: 1 }]);
    let r = g.result().unwrap();
    assert_eq!(r.ranks, vec![1, 3, 1]);
    assert!(g.apply(&Step::Resign { seat: 0 }).is_err());
    let mut g = Convoy::new_game(&setup(3, false)).unwrap();
    assert!(g.apply(&Step::Resign { seat: 3 }).is_err(), "no seat 3");
}

#[test]
fn conformance_for_two_to_six_seats_competitive_and_cooperative() {
    let setups: Vec<Setup> = (2..=6)
        .flat_map(|n| [setup(n, false), setup(n, true)])
        .collect();
    let s = conformance::run::<Convoy>(
        &setups,
        Conformance {
            games: 50,
            ..Default::default()
        },
    );
    assert_eq!(s.games, 500);
    assert!(s.chance_points > 0 && s.decisions > 0);
}

/// The number of seats comes from the `seats` option, as front ends set it.
#[test]
fn seats_come_from_the_seats_option() {
    let o: BTreeMap<String, String> = [("seats".to_string(), "5".to_string())].into();
    let g = Convoy::new_game(&Convoy::setup("any", &o).unwrap()).unwrap();
    assert_eq!(g.seats(), 5);
    let o: BTreeMap<String, String> = [("seats".to_string(), "7".to_string())].into();
    assert_eq!(Convoy::setup("any", &o).unwrap_err().at, "option seats");
}

#[test]
fn free_parameter_accepted_anywhere_legal_though_not_listed() {
    let g = Convoy::new_game(&setup(2, false)).unwrap();
    let a = Action::Advance { to: 1234 };
    assert!(!g.legal_actions().contains(&a));
    assert!(g.check(&a).is_ok());
    let err = g.check(&Action::Advance { to: 3001 }).unwrap_err();
    assert_eq!(err.rule.as_deref(), Some("T-2"));
}

#[test]
fn a_seat_that_is_not_active_decides() {
    let mut g = Convoy::new_game(&setup(3, false)).unwrap();
    g.apply(&Step::Act {
        seat: 0,
        action: Action::Advance { to: 500 },
    })
    .unwrap();
    assert!(matches!(g.to_act(), ToAct::Decide { seat: 1, .. }));
    let before = g.clone();
    assert!(
        g.apply(&Step::Act {
            seat: 0,
            action: Action::Allow
        })
        .is_err()
    );
    assert_eq!(g, before);
    g.apply(&Step::Act {
        seat: 1,
        action: Action::Object,
    })
    .unwrap();
    assert!(matches!(g.to_act(), ToAct::Chance(_)));
    g.apply(&Step::Roll { value: 6 }).unwrap();
    assert_eq!(g.pos[0], 0, "objection on 4+ pushes the mover back");
}

#[test]
fn rules_move_pieces_after_a_chance_point_and_results_rank_seats() {
    let mut rec = Record::<Convoy>::new(setup(2, false));
    let mut g = Convoy::new_game(&rec.setup).unwrap();
    let steps = vec![
        Step::Act {
            seat: 0,
            action: Action::Advance { to: 3000 },
        },
        Step::Act {
            seat: 1,
            action: Action::Allow,
        },
        Step::Act {
            seat: 1,
            action: Action::Advance { to: 2000 },
        },
        Step::Act {
            seat: 0,
            action: Action::Allow,
        },
        Step::Roll { value: 2 },
    ];
    for s in steps {
        g.apply(&s).unwrap();
        rec.steps.push(s);
    }
    assert_eq!(
        g.pos,
        vec![2000, 1000],
        "drift 2 moves every piece back 1 unit"
    );
    assert!(
        g.apply(&Step::Roll { value: 3 }).is_err(),
        "3 is not a drift outcome"
    );
    // Finish: everyone advances 1, allow, no drift.
    while g.result().is_none() {
        let s = match g.to_act() {
            ToAct::Decide { seat, .. } => {
                let l = g.legal_actions();
                let a = if l.contains(&Action::Allow) {
                    Action::Allow
                } else {
                    l[0].clone()
                };
                Step::Act { seat, action: a }
            }
            ToAct::Chance(c) => {
                // One draw from what is left of a deck: the only drift-2 card is gone until
                // the reshuffle, so 2 cannot come up and is refused.
                assert_eq!(c.probability(2), 0.0);
                let before = g.clone();
                assert!(g.apply(&Step::Roll { value: 2 }).is_err());
                assert_eq!(g, before);
                Step::Roll { value: 0 }
            }
            ToAct::Over(_) => unreachable!(),
        };
        g.apply(&s).unwrap();
        rec.steps.push(s);
    }
    assert_eq!(g.deck, [1, 2, 0], "three drift cards drawn: a 2 and two 0s");
    let r = g.result().unwrap();
    assert_eq!(r.scores, vec![4000, 3000]);
    assert_eq!(r.ranks, vec![1, 2]);
    assert_eq!(rec.replay().unwrap().0, g);
}

#[test]
fn cooperative_result_is_shared() {
    let mut g = Convoy::new_game(&setup(4, true)).unwrap();
    while g.result().is_none() {
        let s = match g.to_act() {
            ToAct::Decide { seat, .. } => Step::Act {
                seat,
                action: g.legal_actions().last().unwrap().clone(),
            },
            _ => Step::Roll { value: 0 },
        };
        g.apply(&s).unwrap();
    }
    let r = g.result().unwrap();
    assert!(r.is_shared());
    assert_eq!(r.cooperative, Some(true));
    assert_eq!(battlemat_core::result_value(&r, 2), 1.0);
    // A draw between opponents is not a shared win: it is worth nothing to either.
    let draw = GameResult::from_scores(vec![7, 7], "equal points");
    assert!(draw.is_shared());
    assert_eq!(battlemat_core::result_value(&draw, 0), 0.0);
    let lost = GameResult::cooperative(false, vec![0; 3], "missed");
    assert_eq!(battlemat_core::result_value(&lost, 1), -1.0);
    assert!(lost.winners().is_empty(), "a lost mission has no winners");
}
