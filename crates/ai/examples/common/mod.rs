//! What the examples share: running a generic function for a game named on the command line.

/// `with_game!(name, run(args…))` calls `run::<G>(args…)` for the game called `name`.
macro_rules! with_game {
    ($game:expr, $run:ident ( $($arg:expr),* $(,)? )) => {
        match $game {
            "swtb" => $run::<battlemat_swtb::Swtb>($($arg),*),
            "sd-era" => $run::<battlemat_sd_era::SdEra>($($arg),*),
            "abaoaqu" => $run::<battlemat_abaoaqu::AbaoAqu>($($arg),*),
            "ms-d20" => $run::<battlemat_ms_d20::MsD20>($($arg),*),
            "serm" => $run::<battlemat_serm::Serm>($($arg),*),
            other => eprintln!("{other}: the games are swtb, sd-era, abaoaqu, ms-d20, serm"),
        }
    };
}
pub(crate) use with_game;

/// Play `g` to its end: its dice rolled with `roller`, each decision `decide(state, seat,
/// roller)`'s action, every step by the trusted path.
#[allow(dead_code)] // not every example plays whole games
pub(crate) fn play_to_end<G: battlemat_core::Game>(
    g: &mut G,
    roller: &mut battlemat_dice::Roller,
    mut decide: impl FnMut(&G, battlemat_core::Seat, &mut battlemat_dice::Roller) -> G::Action,
) {
    use battlemat_core::{Next, Step};
    let mut events = Vec::new();
    loop {
        let step = match g.next() {
            Next::Over => break,
            Next::Chance(o) => Step::Roll {
                value: o.roll(roller),
            },
            Next::Decide(seat) => Step::Act {
                seat,
                action: decide(g, seat, roller),
            },
        };
        events.clear();
        g.apply_trusted(&step, &mut events).expect("a legal step");
    }
}
