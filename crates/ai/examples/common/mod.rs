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
