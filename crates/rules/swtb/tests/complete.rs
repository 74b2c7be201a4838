//! The legal-action list is complete, tried exhaustively: on a small mat with every kind of
//! unit in the built-in table and every optional rule, at every decision of seeded random games, every action of
//! a finite universe (every unit, every target, every cell, every power, a unit and a cell
//! that do not exist) is accepted by `check` exactly when `legal_actions` lists it. The
//! conformance kit checks the same by sampling neighbours of listed actions, for every game;
//! this test covers SWTB's whole action space.
use battlemat_core::Ruleset;
use battlemat_core::{Game, Next, Step};
use battlemat_dice::Roller;
use battlemat_geom::Cell;
use battlemat_swtb::data::Power;
use battlemat_swtb::{Action, Dest, Swtb};

mod common;

fn universe(units: u8, width: u8, height: u8) -> Vec<Action> {
    let ids = 0..=units; // one past the last: a unit that does not exist
    let mut cells: Vec<Cell> = (0..height)
        .flat_map(|r| (0..width).map(move |c| Cell::new(c, r)))
        .collect();
    cells.push(Cell::new(width, 0)); // off the board
    let powers = [
        Power::LightSaberThrow,
        Power::ForceChoke,
        Power::MindTrick,
        Power::DeflectBlasters,
    ];
    let mut out = vec![Action::EndTurn];
    for side in 0..3 {
        out.push(Action::First { side });
    }
    for u in ids.clone() {
        for power in powers {
            out.push(Action::ChoosePower { unit: u, power });
        }
        out.push(Action::Move {
            unit: u,
            to: Dest::Line,
        });
        for &c in &cells {
            out.push(Action::Move {
                unit: u,
                to: Dest::Cell(c),
            });
        }
        for t in ids.clone() {
            out.push(Action::Attack {
                unit: u,
                target: t,
                land: None,
            });
            for &c in &cells {
                out.push(Action::Attack {
                    unit: u,
                    target: t,
                    land: Some(c),
                });
            }
            out.push(Action::Choke { unit: u, target: t });
            out.push(Action::MindTrick { unit: u, target: t });
            out.push(Action::Revive { unit: u, fallen: t });
            for crew in ids.clone() {
                out.push(Action::Fire {
                    gun: u,
                    target: t,
                    crew,
                });
            }
        }
    }
    out
}

#[test]
fn every_accepted_action_is_listed_on_a_small_mat() {
    let mut opts = common::every_optional_rule();
    opts.remove("points");
    let pairs: Vec<(&str, &str)> = opts.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    for (grid, seats) in [("square", None), ("hex", Some(vec![0, 1, 0, 1]))] {
        let mut pairs = pairs.clone();
        pairs.push(("grid", grid));
        let mut setup = common::setup_sized(
            5,
            5,
            6,
            "walls = [\"c3\"]\nhills = [\"b3\"]\nfortified = [\"c2\", \"d4\"]",
            &[
                "force_user@a1",
                "trooper@b1",
                "droid@c1",
                "fighter",
                "hero@a2",
                "aa_gun@b2",
                "hero_ship",
            ],
            &[
                "force_user@e5",
                "artillery@e4",
                "trooper@d5",
                "speeder",
                "small_vehicle@e3",
                "large_vehicle@e1",
            ],
            &pairs,
        );
        setup.seating = seats.map(battlemat_core::Seating);
        let first = Swtb::new_game(&setup).unwrap();
        let kinds: std::collections::BTreeSet<&str> = first
            .now
            .units
            .iter()
            .map(|u| first.fixed.type_keys[u.kind as usize].as_str())
            .collect();
        assert_eq!(
            kinds.len(),
            first.fixed.types.len(),
            "every unit type is on the mat"
        );
        let all = universe(first.now.units.len() as u8, 5, 5);
        let mut decisions = 0;
        for game in 0..12 {
            let mut g = first.clone();
            let mut roller = Roller::new(77, game);
            while let Some(step) = match g.next() {
                Next::Over => None,
                Next::Chance(o) => Some(Step::Roll {
                    value: o.roll(&mut roller),
                }),
                Next::Decide(seat) => {
                    decisions += 1;
                    let legal = g.legal_actions();
                    // A seat acts only with its own units (a gun: with its own crew).
                    for a in &legal {
                        let own = |u: u8| g.now.units[u as usize].owner == Some(seat);
                        let ok = match *a {
                            Action::Move { unit, .. }
                            | Action::Attack { unit, .. }
                            | Action::Choke { unit, .. }
                            | Action::MindTrick { unit, .. }
                            | Action::Revive { unit, .. } => own(unit),
                            Action::Fire { crew, .. } => own(crew),
                            Action::ChoosePower { unit, .. } => own(unit),
                            Action::First { .. } | Action::EndTurn => true,
                        };
                        assert!(ok, "{grid}, game {game}: seat {seat} is offered {a}");
                    }
                    for a in &all {
                        assert_eq!(
                            g.check(a).is_ok(),
                            legal.contains(a),
                            "{grid}, game {game}: {a} (check: {:?})",
                            g.check(a)
                        );
                    }
                    let i = roller.roll(legal.len() as u32) as usize - 1;
                    Some(Step::Act {
                        seat,
                        action: legal[i].clone(),
                    })
                }
            } {
                g.apply(&step).unwrap();
            }
        }
        assert!(decisions > 100, "{grid}: {decisions} decisions tried");
    }
}
