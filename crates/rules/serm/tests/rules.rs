//! One or more tests per SERM rule, named by its id, on small tables (`common`).
mod common;

use battlemat_core::testing::{act, allowed, refused, roll};
use battlemat_core::{Game, Next};
use battlemat_serm::state::Phase;
use battlemat_serm::{Event, pools};
use common::*;

#[test]
fn serm_pool_a_die_a_point_and_sixes_rolled_again() {
    // SERM-POOL: "Roll a D6 per number allocated the firing soldier and re-roll any sixes,
    // adding towards a single total number". A Machine Gunner (S2) at an Armor Plated (E2):
    // 6 then 6 then 2 (one die: 14), then 3: 17 against 5 + 4 = 9: eliminated.
    let mut g = game(&["machine_gunner@10,5"], &["armor_plated@10,20"], &[]);
    act(&mut g, "shoot u0 u1");
    let ev = roll(&mut g, &[6, 6, 2, 3]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Pool { what, total: 17, .. } if what == "shoot"))
    );
    roll(&mut g, &[5, 4]);
    assert!(!g.soldier(1).alive);
    // The exact distribution: one die's 7 is 6 then 1 (1/36); totals of 6 never happen.
    let d = pools::distribution(1);
    assert!((d[7] - 1.0 / 36.0).abs() < 1e-12);
    assert_eq!(d[6], 0.0);
    assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn serm_shoot_turn_freely_higher_eliminates_initiative_passes() {
    // SERM-SHOOT: "Soldiers have a 180 degree forward fire arc for line of sight purposes,
    // fortunately, turning does not count as a move. ... A higher Shoot total eliminates the
    // target soldier. In either case, the initiative passes to the opponent." A Blue soldier
    // facing north shoots one behind it (it turns), a tie fails.
    let mut g = game(&["machine_gunner@10,20"], &["armor_plated@10,5"], &[]);
    act(&mut g, "shoot u0 u1");
    assert!(g.soldier(0).facing.1 < 0, "it turned to face south");
    roll(&mut g, &[3, 2]); // 5
    roll(&mut g, &[4, 1]); // 5: a tie, it endures
    assert!(g.soldier(1).alive);
    assert!(matches!(g.now.phase, Phase::Activate { side: 1, .. }));
    // Line of sight: a wall between them.
    let mut w = game(
        &["machine_gunner@10,5"],
        &["armor_plated@10,20"],
        &[[5.0, 10.0, 15.0, 12.0]],
    );
    refused(&mut w, "shoot u0 u1", "SERM-SHOOT");
}

#[test]
fn serm_endure_only_against_shooting() {
    // SERM-ENDURE: "only ever used in response to being the target of a Shoot activation".
    // The Assault Commando (E0) endures with nothing; a Move into it kills it outright.
    let mut g = game(&["machine_gunner@10,5"], &["assault_commando@10,20"], &[]);
    act(&mut g, "shoot u0 u1");
    let ev = roll(&mut g, &[1, 1]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Pool { what, total: 0, .. } if what == "endure"))
    );
    assert!(!g.soldier(1).alive);
}

#[test]
fn serm_move_straight_exactly_that_far_contact_kills() {
    // SERM-MOVE: "roll a D6 per number allocated the moving soldier ... the soldier must
    // move exactly that amount in the previously declared direction unless obstructed. ... If
    // an enemy soldier is contacted during a Move, it is automatically killed".
    let mut g = game(&["armor_plated@10,5"], &["armor_plated@30,30"], &[]);
    act(&mut g, "move u0 n");
    roll(&mut g, &[4]);
    // No Red soldier sees it (Red faces south... the Armor Plated has React 0): it moves.
    assert_eq!(inches(&g, 0), (10.0, 9.0));
    // Terrain ends it.
    let mut w = game(
        &["armor_plated@10,5"],
        &["armor_plated@30,30"],
        &[[5.0, 8.0, 15.0, 9.0]],
    );
    act(&mut w, "move u0 n");
    roll(&mut w, &[5]);
    assert_eq!(inches(&w, 0), (10.0, 7.5));
    // Toward an enemy: contact kills it.
    let mut k = game(&["armor_plated@10,5"], &["armor_plated@10,9"], &[]);
    act(&mut k, "move u0 u1");
    let ev = roll(&mut k, &[5]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Eliminated { soldier: 1 }))
    );
    assert!(matches!(k.next(), Next::Over));
}

#[test]
fn serm_react_a_greater_roll_stops_the_mover_where_the_reactor_chooses() {
    // SERM-REACT: "if the React roll is greater than the Move roll, the moving soldier is
    // stopped anywhere along its move path and the initiative switches to the soldier who
    // responded who may now Move or Shoot". A Red Machine Gunner (R1) facing south sees the
    // Blue Armor Plated moving north.
    let mut g = game(&["armor_plated@10,5"], &["machine_gunner@20,30"], &[]);
    act(&mut g, "move u0 n");
    roll(&mut g, &[4]);
    allowed(&g, "react u1");
    act(&mut g, "react u1");
    roll(&mut g, &[5]); // 5 > 4
    assert!(matches!(g.now.phase, Phase::StopWhere { .. }));
    act(&mut g, "stop 1.5");
    assert_eq!(inches(&g, 0), (10.0, 6.5));
    // The reactor acts next — it alone.
    assert!(matches!(&g.now.phase, Phase::Activate { side: 1, only: Some(o) } if o == &vec![1]));
    // And its own Move may be reacted to in turn: Blue's Armor Plated has React 0, so none.
    act(&mut g, "move u1 s");
    roll(&mut g, &[2]);
    assert!(matches!(g.now.phase, Phase::Activate { side: 0, .. }));
    // A tie does not stop it.
    let mut t = game(&["armor_plated@10,5"], &["machine_gunner@20,30"], &[]);
    act(&mut t, "move u0 n");
    roll(&mut t, &[4]);
    act(&mut t, "react u1");
    roll(&mut t, &[4]);
    assert_eq!(inches(&t, 0), (10.0, 9.0));
}

#[test]
fn serm_react_h_one_react_the_target_only_and_sight() {
    // SERM-REACT-H: "only one React roll per move is allowed AND if the Move targets a
    // soldier, that soldier is the only one that can React to the Move, and if the target
    // soldier has no React stat, the Move cannot be challenged - except by a Ranger. In order
    // to React a soldier must have line of sight to the moving soldier."
    let mut g = game(
        &["armor_plated@10,5"],
        &["armor_plated@10,20", "machine_gunner@20,30"],
        &[],
    );
    act(&mut g, "move u0 u1"); // targets the Armor Plated (React 0)
    roll(&mut g, &[2]);
    // Nobody may react: the move goes through.
    assert_eq!(inches(&g, 0), (10.0, 7.0));
    // With a Ranger on Red: it may, though it is not the target.
    let mut r = game(
        &["armor_plated@10,5"],
        &["armor_plated@10,20", "ranger@20,30"],
        &[],
    );
    act(&mut r, "move u0 u1");
    roll(&mut r, &[2]);
    allowed(&r, "react u2");
    refused(&mut r, "react u1", "SERM-REACT-H");
    // Sight: the Machine Gunner behind a wall cannot react.
    let mut w = game(
        &["armor_plated@10,5"],
        &["machine_gunner@10,30"],
        &[[5.0, 20.0, 15.0, 22.0]],
    );
    act(&mut w, "move u0 n");
    roll(&mut w, &[2]);
    assert!(matches!(w.now.phase, Phase::Activate { side: 1, .. }));
    // Facing: a Machine Gunner facing away (north) does not see a mover behind it.
    let mut f = game(&["armor_plated@10,5"], &["machine_gunner@20,30"], &[]);
    f.soldier_mut(1).facing = (0, 1);
    act(&mut f, "move u0 n");
    roll(&mut f, &[2]);
    assert!(matches!(f.now.phase, Phase::Activate { side: 1, .. }));
}

#[test]
fn cards_demolitions_expert_blast_and_commando_free_move() {
    // The Demolitions Expert: "declare a direction, ignore line of sight, blast centre 1D6×2
    // inches away, 3-inch diameter; on a 1 it kills itself; anyone partly inside dies".
    let mut g = game(
        &["demolitions_expert@10,5"],
        &["armor_plated@10,13", "ranger@30,30"],
        &[[5.0, 8.0, 15.0, 9.0]],
    );
    refused(&mut g, "shoot u0 u1", "SERM-SHOOT");
    act(&mut g, "blast u0 n");
    roll(&mut g, &[4]); // 8 inches north: 10,13
    assert!(!g.soldier(1).alive);
    let mut s = game(&["demolitions_expert@10,5"], &["ranger@30,30"], &[]);
    act(&mut s, "blast u0 e");
    roll(&mut s, &[1]);
    assert!(!s.soldier(0).alive);
    // The Assault Commando rolls first, then chooses its way (rulings.md).
    let mut c = game(&["assault_commando@10,5"], &["armor_plated@30,30"], &[]);
    refused(&mut c, "move u0 n", "SERM-MOVE");
    act(&mut c, "move u0");
    roll(&mut c, &[3, 2]);
    assert!(matches!(c.now.phase, Phase::Aim { total: 5, .. }));
    act(&mut c, "aim e");
    assert_eq!(inches(&c, 0), (15.0, 5.0));
}

#[test]
fn cards_ranger_sees_all_round_and_hands_over_its_activation() {
    // The Ranger: "may give its activation to a friendly soldier in sight; sees 360°; may
    // React to any enemy Move".
    let mut g = game(
        &["armor_plated@10,5"],
        &["ranger@10,20", "machine_gunner@30,30"],
        &[],
    );
    g.soldier_mut(1).facing = (0, 1); // facing away: it still sees
    act(&mut g, "move u0 e");
    roll(&mut g, &[3]);
    act(&mut g, "react u1");
    roll(&mut g, &[6, 1, 1]); // 6+1, 1: 8 > 3
    act(&mut g, "stop 0");
    // The Ranger's side may act with it or a friend it sees.
    assert!(matches!(&g.now.phase, Phase::Activate { side: 1, only: Some(o) } if o.contains(&2)));
    allowed(&g, "move u2 s");
}

#[test]
fn the_last_side_with_soldiers_wins() {
    let mut g = game(&["machine_gunner@10,5"], &["assault_commando@10,20"], &[]);
    act(&mut g, "shoot u0 u1");
    roll(&mut g, &[1, 1]);
    let r = g.result().unwrap();
    assert_eq!(r.ranks, [1, 2]);
}
