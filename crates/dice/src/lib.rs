//! Dice for Battlemat: seeded rolling, dice notation, and exact odds.
//!
//! ```
//! use battlemat_dice::{Expr, Roller};
//!
//! let attack: Expr = "4d6kh3 + 2".parse()?;
//! let odds = attack.dist();
//! assert!((odds.mean() - (15869.0 / 1296.0 + 2.0)).abs() < 1e-12);
//! let hit_chance = odds.p_ge(14);
//!
//! let mut roller = Roller::new(7, 0);
//! let rolled = attack.roll(&mut roller);
//! println!("{rolled}  (needed 14: {:.1}% chance)", 100.0 * hit_chance);
//! assert!((odds.min()..=odds.max()).contains(&rolled.total));
//! # Ok::<(), battlemat_dice::ParseError>(())
//! ```
//!
//! # The pieces
//!
//! - [`Roller`]: the seeded source of faces (ChaCha8 with our own rejection sampling, frozen
//!   by golden vectors so saved games replay forever).
//! - [`Expr`]: dice notation as players write it (`2d6+1d4-2`, `4d6kh3`, `3d6!`, `6d6>=5`),
//!   parsed by hand with errors that give the column; [`Expr::roll`] gives a [`Rolled`] that
//!   records every face, and [`Expr::dist`] the exact [`Dist`].
//! - [`Dist`]: an exact distribution over `i64` outcomes, with sums, keep highest/lowest,
//!   success counts, exploding dice, statistics and opposed-roll odds ([`Dist::versus`]).
//!
//! # Why exact distributions, by convolution, over integers, in `f64`
//!
//! A referee is asked two kinds of question: "roll this" and "what are my chances". The
//! second is asked by players weighing a charge, and by the AI weighing hundreds of moves a
//! turn, so the answer must be *right* (a player who sees "58%" and then loses three times in
//! a row will check) and *cheap*.
//!
//! Every outcome in these games is an integer, so a distribution is a dense vector of
//! probabilities indexed by outcome minus the smallest outcome. The sum of independent
//! terms is the convolution of their vectors. A die is one run of equal probabilities, so
//! adding a die to a running sum is a sliding-window sum of the running sum, not a full
//! product: the whole of `100d6` is ~10⁵ additions. The window sums use the van Herk /
//! Gil-Werman block trick rather than a running "add the new, subtract the old" sum, so that
//! only non-negative numbers are ever added and a tail probability of 1e-30 is still right
//! to a few ulps instead of drowning in the cancellation error of the bulk. `NdS` still
//! costs about N²·S/2 additions (each die is added across the running sum, up to N·S wide),
//! which is the nature of exact convolution; what is kept off it is everything else: the
//! window sums are streamed a few blocks at a time instead of whole-width scratch arrays,
//! no buffer is zero-filled only to be overwritten, and underflowed tails are trimmed by
//! moving an offset, not by shifting the vector (`1000d1000`: 1.5 s to 0.7 s). Keep
//! highest/lowest is a dynamic programme over the sorted multiset of rolls (outcomes from the
//! top down, with binomial counts of dice per outcome), so `4d6kh3` never enumerates the
//! 1296 rolls and `20d6kh10` stays small where enumeration would need 3.6·10¹⁵ rolls.
//! Success counts are binomials, computed by the ratio recurrence from the mode.
//!
//! Probabilities are `f64`. Each result is a sum of products of non-negative numbers, so the
//! relative rounding error grows only with the number of terms in each sum: for the
//! expressions people type (up to a few hundred dice) every probability is within 1e-12 of
//! the exact rational value, which the golden tests check against icepool's exact
//! fractions.
//!
//! ## Rejected: Monte-Carlo
//!
//! Simulating a million rolls gives each probability to about ±0.1% (σ = √(p(1-p)/n)), costs
//! more than the exact answer for ordinary expressions, is hopeless for the rare events that
//! decide a game (a 1-in-10⁵ critical), and answers differently on every call unless seeded,
//! which makes the AI's choices jitter. It remains what [`Expr::roll`] is for: tests use it
//! to check that the exact distribution and the dice actually rolled agree.
//!
//! ## Rejected: exact rationals (BigRational)
//!
//! Fractions would make every probability exact, as icepool's are. But denominators grow as
//! sidesⁿ (`10d10` already needs 10¹⁰, `30d6` 2·10²³, `3d6!` 6³⁰), so each operation becomes
//! a big-integer multiply, tens to thousands of times slower than `f64`, and allocation
//! heavy, for precision nobody can use: a probability is shown to a player with a few
//! digits, and the AI compares expected values. It would also bring a bignum dependency. The
//! `f64` answer differs from the exact fraction by less than 1e-12, the golden tests pin
//! that, and when exact fractions are wanted icepool is the tool to run offline.
//!
//! ## Rejected: floating-point FFT convolution
//!
//! Fast for wide distributions, but its error is absolute (~1e-16 × the largest
//! probability) and spread over every outcome: tails become noise and can go negative.
//! The run-length sliding-window convolution already makes dice cheap without that.
//!
//! ## Limits
//!
//! The notation caps a term at 1000 dice of 1000 sides, explode depth 20, 100 terms, so
//! rolling is always cheap. Exact odds of the extreme corners (`1000d1000kh500`) would still
//! take minutes: [`Expr::try_dist`] estimates the work first and refuses those.

#![warn(missing_docs)]

mod dist;
mod expr;
mod pool;
mod roll;
mod rolled;

pub use dist::{Cmp, Dist, DistError, MAX_WEIGHTS_SPAN, Opposed};
pub use expr::{DiceTerm, Expr, ParseError, Sign, Term};
pub use pool::Keep;
pub use roll::{Roller, RollerPosition};
pub use rolled::{Rolled, RolledDie, RolledTerm};
