//! The AI's erased players on every game of the registry ([`battlemat_ai::AiFor`]).

use battlemat_ai::{AiFor, PlayError, PlayerKind};
use battlemat_dice::Roller;

/// The AI players can finish every scenario of every game: the greedy player against a
/// random one, from a seeded roller.
#[test]
fn greedy_and_random_finish_every_scenario() {
    for (rules, ai) in battlemat_rulesets::all()
        .into_iter()
        .zip(battlemat_rulesets::visit_all(AiFor))
    {
        let info = rules.info();
        for s in &info.scenarios {
            // A game with a limit among its options (an option that can be switched off,
            // "none": rounds, turns, melees, activations) plays its shortest — the test is of
            // finishing, not of long games, and names no game's options.
            let mut options = std::collections::BTreeMap::new();
            for o in info
                .options
                .iter()
                .filter(|o| o.values.iter().any(|v| v == "none"))
            {
                let shortest = o.values.iter().filter_map(|v| v.parse::<u32>().ok()).min();
                if let Some(n) = shortest {
                    options.insert(o.key.clone(), n.to_string());
                }
            }
            let setup = rules.setup(&s.id, &options).unwrap();
            let p = ai
                .play(
                    &setup,
                    &[PlayerKind::Greedy, PlayerKind::Random],
                    &mut Roller::new(7, 0),
                    100_000,
                )
                .unwrap_or_else(|err| panic!("{} {}: {err}", info.id, s.id));
            assert_eq!(
                p.result.ranks.len(),
                s.min_seats as usize,
                "{} {}",
                info.id,
                s.id
            );
        }
    }
}

#[test]
fn every_game_is_found_by_id_and_plays() {
    for id in battlemat_rulesets::ids() {
        let rules = battlemat_rulesets::get(&id).unwrap();
        let ai = battlemat_rulesets::visit(&id, AiFor).unwrap();
        let info = rules.info();
        let scen = &info.scenarios[0].id;
        // Random players under the game's safety limit (they might never end a game).
        let options = info.safety_limit.clone().into_iter().collect();
        let setup = rules.setup(scen, &options).unwrap();
        let p = ai
            .play(
                &setup,
                &[PlayerKind::Random],
                &mut Roller::new(1, 0),
                100_000,
            )
            .unwrap();
        assert_eq!(p.result.ranks.len(), info.min_seats as usize);
        // A prepared setup plays the same game, from the same dice.
        let prepared = ai.prepare(&setup).unwrap();
        let again = prepared
            .play(&[PlayerKind::Random], &mut Roller::new(1, 0), 100_000)
            .unwrap();
        assert_eq!(again, p);
        // Too few steps is a typed error, not a result.
        assert_eq!(
            ai.play(&setup, &[PlayerKind::Random], &mut Roller::new(1, 0), 1),
            Err(PlayError::TooLong { max_steps: 1 })
        );
    }
    assert!(battlemat_rulesets::visit("chess", AiFor).is_err());
}

/// A state of one game handed to another game's AI is refused, typed, not a panic.
#[test]
fn a_state_of_another_game_is_refused() {
    let swtb = battlemat_rulesets::get("swtb").unwrap();
    let setup = swtb
        .setup(&swtb.info().scenarios[0].id, &Default::default())
        .unwrap();
    let mut state = swtb.new_game(&setup).unwrap();
    // Dice until a seat decides (the game may open with a roll; the same face every time
    // could tie forever, so the faces are drawn).
    let mut dice = Roller::new(3, 0);
    while let battlemat_core::ToAct::Chance(c) = state.to_act() {
        let value = c.outcomes[dice.roll(c.outcomes.len() as u32) as usize - 1].value;
        state.apply(&battlemat_core::Step::Roll { value }).unwrap();
    }
    let serm_ai = battlemat_rulesets::visit("serm", AiFor).unwrap();
    assert!(
        serm_ai
            .choose(&*state, PlayerKind::Random, &mut Roller::new(1, 0))
            .is_err()
    );
    assert!(serm_ai.hint(&*state, &mut Roller::new(1, 0)).is_err());
    let swtb_ai = battlemat_rulesets::visit("swtb", AiFor).unwrap();
    assert!(
        swtb_ai
            .choose(&*state, PlayerKind::Random, &mut Roller::new(1, 0))
            .unwrap()
            .is_some()
    );
}
