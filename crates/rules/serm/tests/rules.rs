//! One or more tests per SERM rule, named by its id, on small tables (`common`).
mod common;

use battlemat_core::Ruleset;
use battlemat_core::testing::{act, allowed, refused, roll};
use battlemat_core::{Game, Next};
use battlemat_serm::state::Phase;
use battlemat_serm::{Event, Serm, pools};
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

#[test]
fn serm_pool_every_die_shown_explosions_too() {
    // SERM-POOL: "Roll a D6 per number allocated ... and re-roll any sixes, adding towards a
    // single total number": the events show every die of a pool, a six and the throws it
    // added joined by "+", not only the total.
    let mut g = game(&["machine_gunner@10,5"], &["assault_commando@10,20"], &[]);
    act(&mut g, "shoot u0 u1");
    let ev = roll(&mut g, &[6, 6, 2, 3]);
    let pool = ev
        .iter()
        .find(|e| matches!(e, Event::Pool { what, .. } if what == "shoot"))
        .expect("the shoot roll");
    assert!(
        matches!(pool, Event::Pool { dice, total: 17, .. } if dice == &vec![vec![6, 6, 2], vec![3]])
    );
    assert_eq!(pool.to_string(), "u0's shoot roll: 6+6+2, 3 = 17");
    // The Assault Commando's Endure 0 is a pool of no dice, and says so.
    let endure = ev
        .iter()
        .find(|e| matches!(e, Event::Pool { what, .. } if what == "endure"))
        .expect("the endure roll");
    assert_eq!(endure.to_string(), "u1's endure roll: no dice = 0");
    // The first initiative die and the blast die are shown too.
    let f = game(&["demolitions_expert@10,5"], &["ranger@30,30"], &[]);
    let mut fresh = battlemat_serm::Serm::new_game(&f.fixed.setup).unwrap();
    let ev = roll(&mut fresh, &[4]);
    assert_eq!(
        ev[0].to_string(),
        "first initiative die: 4 (even) — Red has the initiative"
    );
    let mut b = f;
    act(&mut b, "blast u0 n");
    let ev = roll(&mut b, &[3]);
    assert!(ev.iter().any(|e| {
        e.to_string()
            .starts_with("u0's blast die: 3 — the blast lands 6 inches away")
    }));
}

#[test]
fn serm_pool_a_position_is_its_dice_left_and_total() {
    // SERM-POOL: "adding towards a single total number" — what a pool has still to do depends
    // on its dice left and its total, not on the order the faces came in. A 6 then a 1 and a
    // 1 then a 6 (the Machine Gunner's two shoot dice: one die left either way, 7 so far) are
    // one position, equal and hashed alike, so an AI weighs it once; the faces stay for the
    // events, which still show each die as thrown.
    use std::hash::BuildHasher;
    let start = game(&["machine_gunner@10,5"], &["assault_commando@10,20"], &[]);
    let mut a = start.clone();
    let mut b = start.clone();
    act(&mut a, "shoot u0 u1");
    act(&mut b, "shoot u0 u1");
    roll(&mut a, &[6, 1]);
    roll(&mut b, &[1, 6]);
    assert!(
        matches!(a.next(), Next::Chance(_)),
        "a die is still to roll"
    );
    assert_eq!(a, b);
    let h = std::collections::hash_map::RandomState::new();
    assert_eq!(h.hash_one(&a), h.hash_one(&b));
    let mut c = start;
    act(&mut c, "shoot u0 u1");
    roll(&mut c, &[2, 4]);
    assert_ne!(a, c, "a 6 then a 1 is not a 2 then a 4");
    let shown = |ev: Vec<Event>| {
        ev.iter()
            .find(|e| matches!(e, Event::Pool { what, .. } if what == "shoot"))
            .map(ToString::to_string)
    };
    assert_eq!(
        shown(roll(&mut a, &[3])).as_deref(),
        Some("u0's shoot roll: 6+1, 3 = 10")
    );
    assert_eq!(
        shown(roll(&mut b, &[3])).as_deref(),
        Some("u0's shoot roll: 1, 6+3 = 10")
    );
}

#[test]
fn serm_shoot_demolitions_one_alone_by_default_or_blast_too() {
    // The Demolitions Expert's card (rulings.md): "on a 1 it kills itself; anyone partly
    // inside dies". Default `demolitions_one = alone`: the charge goes off in its hands and
    // kills the Expert only; `blast_too`: the blast also lands 2 inches away and kills anyone
    // partly inside (an enemy 2.5 inches north is).
    let mut g = game(
        &["demolitions_expert@10,5"],
        &["armor_plated@10,7.5", "ranger@30,30"],
        &[],
    );
    act(&mut g, "blast u0 n");
    let ev = roll(&mut g, &[1]);
    assert!(!g.soldier(0).alive);
    assert!(g.soldier(1).alive, "alone: nobody else dies");
    assert!(!ev.iter().any(|e| matches!(e, Event::Blast { .. })));
    let mut t = game_with(
        &["demolitions_expert@10,5"],
        &["armor_plated@10,7.5", "ranger@30,30"],
        &[],
        &[("demolitions_one", "blast_too")],
    );
    act(&mut t, "blast u0 n");
    let ev = roll(&mut t, &[1]);
    assert!(!t.soldier(0).alive);
    assert!(!t.soldier(1).alive, "blast_too: the blast kills it");
    assert!(ev.iter().any(|e| matches!(e, Event::Blast { die: 1, .. })));
    assert!(t.soldier(2).alive);
}

#[test]
fn serm_shoot_blast_aim_winds_by_default_or_anywhere() {
    // The Demolitions Expert's card: "Shoot = declare a direction, ignore line of sight".
    // Default `blast_aim = winds`: one of the sixteen winds, as a Move is declared. With
    // `anywhere`: toward any soldier or point. A Red soldier 12 inches away at a bearing of
    // 34 degrees, between NNE and NE: no wind's blast reaches it, one thrown at it does.
    let blue = ["demolitions_expert@10,5"];
    let red = ["armor_plated@16.75,15", "ranger@30,30"];
    for wind in ["nne", "ne"] {
        let mut g = game(&blue, &red, &[]);
        act(&mut g, &format!("blast u0 {wind}"));
        roll(&mut g, &[6]);
        assert!(g.soldier(1).alive, "{wind}: the blast misses it");
    }
    let mut g = game(&blue, &red, &[]);
    refused(&mut g, "blast u0 u1", "SERM-SHOOT");
    refused(&mut g, "blast u0 16.75,15", "SERM-SHOOT");
    let mut a = game_with(&blue, &red, &[], &[("blast_aim", "anywhere")]);
    // Any point is accepted (the candidate list offers the soldiers).
    assert!(a.check(&"blast u0 16.75,15".parse().unwrap()).is_ok());
    allowed(&a, "blast u0 u1");
    act(&mut a, "blast u0 u1");
    roll(&mut a, &[6]);
    assert!(!a.soldier(1).alive);
    // Its own spot is no direction.
    let mut o = game_with(&blue, &red, &[], &[("blast_aim", "anywhere")]);
    refused(&mut o, "blast u0 10,5", "SERM-SHOOT");
}

#[test]
fn serm_react_h_turning_to_shoot_by_default_or_free() {
    // SERM-SHOOT: "Soldiers have a 180 degree forward fire arc for line of sight purposes,
    // fortunately, turning does not count as a move"; SERM-REACT-H: "In order to React a
    // soldier must have line of sight to the moving soldier." Default `turning = to_shoot`: a
    // soldier turns to shoot, so a Machine Gunner facing away cannot React; `free`: it turns
    // to face the mover and may.
    let mut g = game(&["armor_plated@10,5"], &["machine_gunner@20,30"], &[]);
    g.soldier_mut(1).facing = (0, 1);
    act(&mut g, "move u0 n");
    roll(&mut g, &[2]);
    assert!(matches!(g.now.phase, Phase::Activate { side: 1, .. }));
    let mut f = game_with(
        &["armor_plated@10,5"],
        &["machine_gunner@20,30"],
        &[],
        &[("turning", "free")],
    );
    f.soldier_mut(1).facing = (0, 1);
    act(&mut f, "move u0 n");
    roll(&mut f, &[2]);
    allowed(&f, "react u1");
    // A wall still blocks its line.
    let mut w = game_with(
        &["armor_plated@10,5"],
        &["machine_gunner@10,30"],
        &[[5.0, 20.0, 15.0, 22.0]],
        &[("turning", "free")],
    );
    act(&mut w, "move u0 n");
    roll(&mut w, &[2]);
    assert!(matches!(w.now.phase, Phase::Activate { side: 1, .. }));
}

#[test]
fn serm_move_commando_turn_once_by_option() {
    // The Assault Commando's card: "needs not declare a direction and may turn during a
    // Move"; SERM-MOVE: "Movement is only conducted in a straight line". Default
    // `commando_turn = aim_after_roll`: it rolls, then goes one straight line, exactly its
    // roll (not "at most"); `turn_once`: it may also turn once on the way.
    let mut c = game(&["assault_commando@10,5"], &["armor_plated@30,30"], &[]);
    act(&mut c, "move u0");
    roll(&mut c, &[3, 2]);
    refused(&mut c, "aim e turn 2 n", "SERM-MOVE");
    act(&mut c, "aim e");
    assert_eq!(inches(&c, 0), (15.0, 5.0), "exactly its roll of 5");
    let mut t = game_with(
        &["assault_commando@10,5"],
        &["armor_plated@30,30"],
        &[],
        &[("commando_turn", "turn_once")],
    );
    act(&mut t, "move u0");
    roll(&mut t, &[3, 2]);
    refused(&mut t, "aim e turn 5 n", "SERM-MOVE");
    act(&mut t, "aim e turn 2 n");
    assert_eq!(inches(&t, 0), (12.0, 8.0), "2 east, then 3 north");
    assert!(t.soldier(0).facing.1 > 0 && t.soldier(0).facing.0 == 0);
    // An enemy on its second leg is contacted and killed (SERM-MOVE).
    let mut k = game_with(
        &["assault_commando@10,5"],
        &["armor_plated@12,8.5", "ranger@30,30"],
        &[],
        &[("commando_turn", "turn_once")],
    );
    act(&mut k, "move u0");
    roll(&mut k, &[3, 2]);
    act(&mut k, "aim e turn 2 u1");
    // The Ranger may React: the stop points run along both legs.
    if matches!(k.now.phase, Phase::ReactChoice { .. }) {
        act(&mut k, "pass");
    }
    assert!(!k.soldier(1).alive);
}

#[test]
fn serm_move_toward_an_enemy_or_a_wind_never_a_friend() {
    // SERM-MOVE: "Declare the direction of travel"; SERM-REACT-H: "if the Move targets a
    // soldier, that soldier is the only one that can React". A Move is declared along a
    // wind or toward an enemy (it then targets it); toward a friend it is refused, or a
    // friend with no React could be "targeted" so that no enemy but a Ranger may React.
    let mut g = game(
        &["armor_plated@10,5", "machine_gunner@20,5"],
        &["armor_plated@30,30"],
        &[],
    );
    refused(&mut g, "move u0 u1", "SERM-MOVE");
    allowed(&g, "move u0 u2");
    allowed(&g, "move u0 nne");
}

#[test]
fn serm_move_activation_limit_ends_by_limit_the_safety_limit_too() {
    // SERM-MOVE and the house rule `activations`: the text plays "until" one side is gone;
    // the simulation commands' safety limit (`Serm::info().safety_limit`, the option's value
    // 200) ends a game by this limit, marked `by_limit` so a simulation counts it as
    // unfinished, neither a win nor a draw.
    let (key, value) = Serm::info().safety_limit.expect("SERM has a safety limit");
    assert_eq!((key.as_str(), value.as_str()), ("activations", "200"));
    let mut g = game_with(
        &["armor_plated@10,5", "armor_plated@20,5"],
        &["armor_plated@30,30"],
        &[],
        &[("activations", "200")],
    );
    g.now.activations = 199;
    act(&mut g, "move u0 n");
    roll(&mut g, &[1]);
    let r = g.result().expect("over at the limit");
    assert!(r.by_limit, "stopped by the limit");
    assert_eq!(r.ranks, [1, 2], "more soldiers left ranks first");
    // Without the option the same game goes on.
    let mut n = game(
        &["armor_plated@10,5", "armor_plated@20,5"],
        &["armor_plated@30,30"],
        &[],
    );
    n.now.activations = 199;
    act(&mut n, "move u0 n");
    roll(&mut n, &[1]);
    assert!(n.result().is_none());
}
