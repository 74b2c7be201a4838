//! The evaluation the AIs use (`Game::evaluate`, `src/ai.rs`): what each mission rewards
//! where a unit stands, and cover. Each test compares the same army in two places, so the
//! difference is the position's alone.

mod common;

use battlemat_core::Game;
use battlemat_sd_era::SdEra;
use battlemat_sd_era::state::Body;
use common::*;

/// The first body matching `what`.
fn body(g: &SdEra, what: impl Fn(&Body) -> bool) -> u8 {
    (0..g.now.units.len())
        .find(|&i| what(&g.now.units[i].body))
        .expect("a body") as u8
}

/// `seat`'s first unit (mission bodies such as balls and bombs come before the armies).
fn unit_of(g: &SdEra, seat: u8) -> u8 {
    (0..g.now.units.len())
        .find(|&i| g.now.units[i].owner == Some(seat) && g.now.units[i].is_unit())
        .expect("a unit") as u8
}

/// SDE-KOTH.2 ("A unit on the hill may spend 1 action to collect a token"): holding the hill
/// is worth much more than standing at its foot, and the closer to the hill the better.
#[test]
fn sde_koth_2_a_unit_on_the_hill_evaluates_well_above_one_at_its_foot() {
    let placed = |y: f64| {
        let mut g = game(
            "king_of_the_hill",
            &[&["gundam"], &["magella_attack"]],
            vec![hill(3.0, 3.0, 0.5, 1)],
            &[],
        );
        begin(&mut g, 0);
        put(&mut g, 0, 3.0, y);
        put(&mut g, 1, 0.3, 5.7);
        g
    };
    let top = placed(3.0);
    let foot = placed(2.3);
    let far = placed(0.5);
    assert!(top.on_hill(0) && !foot.on_hill(0));
    assert!(
        top.evaluate(0) > foot.evaluate(0) + 0.05,
        "on the hill {} against at its foot {}",
        top.evaluate(0),
        foot.evaluate(0)
    );
    assert!(top.evaluate(1) < foot.evaluate(1));
    assert!(foot.evaluate(0) > far.evaluate(0), "closer is better");
}

/// SDE-SOCCER.2 ("A player earns 1 token each time they shoot or melee the soccer ball into
/// any opponent's goal"): the ball near the opponent's goal is worth more than near one's
/// own, with the units as far from where they would kick it in both.
#[test]
fn sde_soccer_2_a_ball_near_the_opponents_goal_evaluates_higher() {
    let placed = |ball_y: f64| {
        let mut g = game("soccer", &[&["zaku"], &["zaku"]], vec![], &[]);
        begin(&mut g, 0);
        // Seat 0 defends the near edge (y = 0), seat 1 the far one (y = 6).
        let (a, b) = g.goal_of(0).unwrap();
        assert!(a.y == 0 && b.y == 0);
        let (a, b) = g.goal_of(1).unwrap();
        assert!(a.y == ticks(6.0) && b.y == ticks(6.0));
        let ball = body(&g, |b| matches!(b, Body::Ball));
        put(&mut g, ball, 3.0, ball_y);
        // Each unit as far from the spot behind the ball in both cases (out of each
        // other's range).
        let (u0, u1) = (unit_of(&g, 0), unit_of(&g, 1));
        put(&mut g, u0, 0.5, 2.5);
        put(&mut g, u1, 5.5, 3.5);
        g
    };
    let attacking = placed(5.0);
    let defending = placed(1.0);
    assert!(
        attacking.evaluate(0) > defending.evaluate(0) + 0.05,
        "{} against {}",
        attacking.evaluate(0),
        defending.evaluate(0)
    );
    assert!(attacking.evaluate(1) < defending.evaluate(1));
}

/// SDE-KICKBOMB.2 ("All units within 1 stick of an exploding bomb will be hit! … For EACH
/// unit of yours that is hit by the bomb, lose 1 token"): a unit beside a bomb of four
/// explode dice is worse placed than the same unit out of its reach.
#[test]
fn sde_kickbomb_2_a_unit_in_a_big_bombs_reach_evaluates_lower() {
    let placed = |x: f64, y: f64| {
        let mut g = game("kick_bomb", &[&["zaku"], &["zaku"]], vec![], &[]);
        begin(&mut g, 0);
        let bomb = body(&g, |b| matches!(b, Body::Bomb { .. }));
        g.now.units[bomb as usize].body = Body::Bomb { dice: 4 };
        put(&mut g, bomb, 2.5, 2.5);
        let (u0, u1) = (unit_of(&g, 0), unit_of(&g, 1));
        put(&mut g, u0, x, y);
        put(&mut g, u1, 4.5, 4.5);
        g
    };
    let beside = placed(2.5, 1.8);
    let away = placed(0.5, 0.5);
    assert!(
        away.evaluate(0) > beside.evaluate(0) + 0.05,
        "{} against {}",
        away.evaluate(0),
        beside.evaluate(0)
    );
    assert!(away.evaluate(1) < beside.evaluate(1));
}

/// SDE-SIGHT ("if you can't see the target because of cover in the way, you can't attack
/// them"), in SHOOTING GALLERY where every stun is a token (SDE-GALLERY.2): a unit behind a
/// wall from the enemy's long gun is better placed than the same unit in its sights.
#[test]
fn sde_sight_a_unit_behind_cover_evaluates_higher_than_in_the_open() {
    let placed = |x: f64| {
        let mut g = game(
            "shooting_gallery",
            &[&["zaku", "zaku", "zaku"], &["gelgoog", "zaku", "zaku"]],
            vec![wall(1.5, 1.8, 2.5, 2.2)],
            &[],
        );
        begin(&mut g, 0);
        put(&mut g, 0, x, 1.0);
        put(&mut g, 1, 0.2, 0.2);
        put(&mut g, 2, 1.0, 0.2);
        put(&mut g, 3, 2.0, 3.5);
        put(&mut g, 4, 0.2, 3.8);
        put(&mut g, 5, 3.8, 3.8);
        g
    };
    let hidden = placed(2.0);
    let open = placed(3.5);
    assert!(!hidden.shootable(0) && open.shootable(0));
    assert!(hidden.evaluate(0) > open.evaluate(0));
    assert!(hidden.evaluate(1) < open.evaluate(1));
}

/// SDE-RANGE ("For each additional STICK of range beyond the first, deduct one die from the
/// attacker's roll"): a one-die unit within the range of an enemy's two dice (but the enemy
/// out of its own) is worse placed than one past it; a stunned unit cannot be attacked at all
/// (SDE-KB2).
#[test]
fn sde_range_a_unit_out_of_the_enemys_range_evaluates_higher() {
    let placed = |y: f64| {
        let mut g = game(
            "shooting_gallery",
            &[
                &["magella_attack", "zaku", "zaku"],
                &["zaku", "zaku", "zaku"],
            ],
            vec![],
            &[],
        );
        begin(&mut g, 0);
        for (u, x) in [(1, 0.2), (2, 3.8)] {
            put(&mut g, u, x, 0.2);
        }
        for (u, x) in [(3, 2.0), (4, 0.2), (5, 3.8)] {
            put(&mut g, u, x, 3.8);
        }
        put(&mut g, 0, 2.0, y);
        g
    };
    let near = placed(2.0);
    let far = placed(1.0);
    assert!(near.shootable(0) && !far.shootable(0));
    assert!(!near.shootable(3), "one die does not reach past a stick");
    assert!(far.evaluate(0) > near.evaluate(0));
    assert!(far.evaluate(1) < near.evaluate(1));
    let mut stunned = near.clone();
    stunned.now.units[0].stunned = true;
    assert!(!stunned.shootable(0));
}

/// SDE-ZONES.2 ("To reveal a blip, you must touch it as part of your move"): a unit wants the
/// nearest blip of the open zone, whichever it is — not one blip picked for the whole side
/// (the lowest id's once was, and sent both sides to the blip nearer seat 0's start). Zone
/// 1's blips stand at y = 1, x = 1.125, 2.375, 3.625 and 4.875 (u0..u3); a unit beside the
/// last one is better placed than one in the open between the middle two.
#[test]
fn sde_zones_2_a_unit_beside_any_blip_evaluates_higher_than_one_between_them() {
    let placed = |x: f64, y: f64| {
        let mut g = game("zones", &[&["gm"], &["gm"]], vec![], &[]);
        battlemat_core::testing::roll(&mut g, &[0]); // zone 1's card: asteroids
        begin(&mut g, 0);
        let (mine, theirs) = (unit_of(&g, 0), unit_of(&g, 1));
        put(&mut g, mine, x, y);
        put(&mut g, theirs, 0.3, 0.3);
        g
    };
    let beside = placed(4.875, 0.6);
    let between = placed(3.0, 0.3);
    assert!(
        beside.evaluate(0) > between.evaluate(0),
        "beside a blip {} against between blips {}",
        beside.evaluate(0),
        between.evaluate(0)
    );
}

/// KING OF THE HILL, seat 0 to act: seat 1's `holder` on the hill (a one-unit hill at (3, 3)),
/// seat 0's `attacker` below it at (3, `y`). The game and the two units.
fn at_the_hill(attacker: &str, holder: &str, y: f64) -> (SdEra, u8, u8) {
    let mut g = game(
        "king_of_the_hill",
        &[&[attacker], &[holder]],
        vec![hill(3.0, 3.0, 0.5, 1)],
        &[],
    );
    begin(&mut g, 0);
    let (a, h) = (unit_of(&g, 0), unit_of(&g, 1));
    put(&mut g, a, 3.0, y);
    put(&mut g, h, 3.0, 3.0);
    assert!(g.on_hill(h));
    (g, a, h)
}

/// SDE-V ("VETERAN ... May re-roll one of your own dice when attacking or defending"): a
/// won shot at a VETERAN on the hill, the VETERAN still to say whether to re-roll, is valued
/// as the fight lies — the VETERAN knocked off the hill — not as if nothing had happened.
#[test]
fn sde_v_a_fight_awaiting_a_veterans_reroll_counts_as_its_dice_lie() {
    let (before, dom, veteran) = at_the_hill("dom", "rick_dias", 2.2);
    let mut g = before.clone();
    battlemat_core::testing::act(&mut g, &format!("shoot u{dom} u{veteran}"));
    battlemat_core::testing::roll(&mut g, &[6, 6, 5, 1, 1, 2]);
    assert_eq!(
        g.next(),
        battlemat_core::Next::Decide(1),
        "the VETERAN is asked"
    );
    assert!(g.on_hill(veteran), "nothing has happened yet");
    let asked = g.evaluate(0);
    assert!(
        asked > before.evaluate(0) + 0.05,
        "the won shot {asked} against before it {}",
        before.evaluate(0)
    );
    // The same as the VETERAN keeping its dice.
    let mut kept = g.clone();
    battlemat_core::testing::act(&mut kept, "keep");
    assert!(!kept.on_hill(veteran));
    assert!(
        (kept.evaluate(0) - asked).abs() < 1e-9,
        "{} {asked}",
        kept.evaluate(0)
    );
}

/// Roll a fight out: every attack die a 6, every defence die a 1 (`att`), or the other way.
fn roll_fight(g: &mut SdEra, att: bool) {
    while let battlemat_core::Next::Chance(_) = g.next() {
        let attacking = match &g.now.phase {
            battlemat_sd_era::state::Phase::Fight(f) => !f.att.done(),
            other => panic!("a die outside a fight: {other:?}"),
        };
        let face = if attacking == att { 6 } else { 1 };
        battlemat_core::testing::roll(g, &[face]);
    }
}

/// SDE-KB1 ("the winner chooses the direction of knockback"), SDE-KOTH.2: a melee won against
/// the unit on the hill, the winner still to choose where it goes, is valued as the winner
/// would choose — the enemy knocked off the hill, the winner's unit taking its place — not
/// as if nothing had happened (one ply of greedy stops at that choice, and would not melee).
#[test]
fn sde_kb1_a_won_melee_awaiting_the_winners_push_counts_as_the_best_push() {
    let (before, mine, theirs) = at_the_hill("gundam", "magella_attack", 2.4);
    assert!(before.next_to(mine, theirs));
    let mut won = before.clone();
    battlemat_core::testing::act(&mut won, &format!("melee u{mine} u{theirs}"));
    roll_fight(&mut won, true);
    assert_eq!(
        won.next(),
        battlemat_core::Next::Decide(0),
        "the winner pushes"
    );
    assert!(won.on_hill(theirs), "nothing has moved yet");
    let mut lost = before.clone();
    battlemat_core::testing::act(&mut lost, &format!("melee u{mine} u{theirs}"));
    roll_fight(&mut lost, false);
    let (w, l) = (won.evaluate(0), lost.evaluate(0));
    assert!(w > l + 0.05, "won {w} against lost {l}");
    assert!(won.evaluate(1) < lost.evaluate(1));
    // The same as the winner's best push by the evaluation, the hill's choice after it too.
    let mut best = f64::MIN;
    for a in won.legal() {
        let mut g = won.clone();
        if g.apply_action(&a, &mut Vec::new()).is_ok() {
            best = best.max(g.evaluate(0));
        }
    }
    assert!((best - w).abs() < 1e-9, "best push {best}, valued {w}");
}
