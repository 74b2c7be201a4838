//! Dice notation: parsing `"4d6kh3 + 2"` into an [`Expr`], printing it back, and its exact
//! distribution.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::dist::{Cmp, Dist, DistError, SumBuilder};
use crate::pool::Keep;

/// Whether a term is added or subtracted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sign {
    /// `+`
    Plus,
    /// `-`
    Minus,
}

/// One group of identical dice and what to do with them: `3d6`, `d6!2`, `4d6kh3`, `6d6>=5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DiceTerm {
    /// How many dice (`N` in `NdS`), `1..=Expr::MAX_DICE`.
    pub count: u32,
    /// Faces per die (`S`), `1..=Expr::MAX_SIDES`.
    pub sides: u32,
    /// `Some(depth)` for exploding dice (`!` is depth [`Expr::DEFAULT_EXPLODE_DEPTH`]).
    pub explode: Option<u32>,
    /// Keep only the highest or lowest `k` dice (`1 <= k <= count`).
    pub keep: Option<Keep>,
    /// Count the (kept) dice meeting a target instead of adding them up.
    pub success: Option<(Cmp, i64)>,
    /// The term's value multiplied by this (`2d6x10`, the damage notation of ms-d20's
    /// text); 1 when not written, `1..=Expr::MAX_TIMES`.
    pub times: u32,
}

/// A term of an expression: a constant or a group of dice. Constants are never negative;
/// the sign is carried beside the term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A whole number, `0..=Expr::MAX_CONSTANT`.
    Constant(i64),
    /// Dice.
    Dice(DiceTerm),
}

/// A dice expression as players write it, e.g. `2d6+1d4-2`, `4d6kh3`, `3d6!`, `6d6>=5`.
///
/// Parse it with [`str::parse`] (or [`Expr::from_str`]); [`fmt::Display`] prints it back in
/// canonical form (`"d6 + 2"` prints as `1d6+2`), which parses to the same `Expr`.
///
/// Grammar (whitespace allowed between tokens, letters in either case):
///
/// ```text
/// expr    := [+|-] term { (+|-) term }
/// term    := INT | [INT] d INT [explode] [keep] [success]
/// explode := ! [INT]            depth, default 9 (icepool's default), at most 20
/// keep    := (kh | kl | k) INT  keep highest / lowest K of the N dice (k = kh)
/// success := (>= | > | <= | <) INT   the term is the number of (kept) dice meeting it
/// times   := (x | *) INT         the term's value multiplied (`2d6x10`: 20 to 120 by tens)
/// ```
///
/// Limits: at most [`Expr::MAX_DICE`] dice of at most [`Expr::MAX_SIDES`] sides per term,
/// explode depth at most [`Expr::MAX_EXPLODE_DEPTH`], numbers at most
/// [`Expr::MAX_CONSTANT`], at most [`Expr::MAX_TERMS`] terms.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Expr {
    terms: Vec<(Sign, Term)>,
}

/// Why a dice expression did not parse: a message and the 1-based character column where
/// the problem is (one past the end when the input stopped too early).
///
/// Displays as e.g. `expected a number of sides after 'd' at column 3 in "2d"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    message: String,
    column: usize,
    input: String,
}

impl ParseError {
    /// What was wrong, without the position.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// 1-based column (in characters) of the problem.
    pub fn column(&self) -> usize {
        self.column
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at column {} in {:?}",
            self.message, self.column, self.input
        )
    }
}

impl std::error::Error for ParseError {}

/// Operation budget of [`Expr::try_dist`]: about two seconds on one core (1000d1000, the
/// largest single term of plain dice, is 3.5e9 by this count and takes ~2 s).
const WORK_LIMIT: f64 = 4e9;
/// Largest number of outcome slots [`Expr::try_dist`] lets a distribution reach.
const SPAN_LIMIT: f64 = (1u64 << 23) as f64;

impl Expr {
    /// Most dice in one term.
    pub const MAX_DICE: u32 = 1000;
    /// Most sides of a die.
    pub const MAX_SIDES: u32 = 1000;
    /// Deepest explosion (`!D`).
    pub const MAX_EXPLODE_DEPTH: u32 = 20;
    /// Depth of a bare `!`, as in icepool.
    pub const DEFAULT_EXPLODE_DEPTH: u32 = 9;
    /// Largest constant or target number.
    pub const MAX_CONSTANT: i64 = 1_000_000_000_000;
    /// Most terms in an expression.
    pub const MAX_TERMS: usize = 100;
    /// Largest multiplier of a term (`x1000`).
    pub const MAX_TIMES: u32 = 1000;

    /// The terms with their signs, in the order written.
    pub fn terms(&self) -> &[(Sign, Term)] {
        &self.terms
    }

    /// The exact distribution of the expression's total.
    ///
    /// Every expression the parser accepts has one, but the extreme ones (`1000d1000kh500`,
    /// many terms of `1000d1000!20`) take minutes and gigabytes: for input typed by a
    /// person, use [`Expr::try_dist`].
    pub fn dist(&self) -> Dist {
        let mut constant = 0i64;
        let mut acc: Option<Dist> = None;
        let mut dice: Vec<(Dist, u32)> = Vec::new();
        for &(sign, term) in &self.terms {
            match term {
                Term::Constant(c) => match sign {
                    Sign::Plus => constant += c,
                    Sign::Minus => constant -= c,
                },
                Term::Dice(t) if t.keep.is_none() && t.success.is_none() && t.times == 1 => {
                    let die = t.die();
                    dice.push((if sign == Sign::Minus { die.neg() } else { die }, t.count));
                }
                Term::Dice(t) => {
                    let d = t.pool_dist();
                    let d = if sign == Sign::Minus { d.neg() } else { d };
                    acc = Some(match acc {
                        None => d,
                        Some(a) => a.add(&d),
                    });
                }
            }
        }
        // Pools first (their distributions are irregular, so convolving them costs their
        // width times the accumulator's), then single dice one at a time: a fair die is one
        // run of equal probability, so each costs only the accumulator's width.
        let start = match acc {
            None => Dist::constant(constant),
            Some(a) => a.add(&Dist::constant(constant)),
        };
        let mut acc = SumBuilder::new(start);
        for (die, count) in &dice {
            for _ in 0..*count {
                acc.add(die);
            }
        }
        acc.finish()
    }

    /// The exact distribution, unless computing it would take more than about two seconds
    /// or a few hundred MiB (by an estimate made before starting; the estimate is
    /// conservative for wide exploding dice, whose far tails underflow and are dropped).
    ///
    /// # Errors
    /// [`DistError::TooComplex`] for expressions such as `1000d1000kh500`.
    pub fn try_dist(&self) -> Result<Dist, DistError> {
        let (work, span) = self.estimate_work();
        // Memory counts as work: going over the span limit is going over the budget.
        let work = work.max(span / SPAN_LIMIT * WORK_LIMIT);
        if work > WORK_LIMIT {
            return Err(DistError::TooComplex {
                work,
                limit: WORK_LIMIT,
            });
        }
        Ok(self.dist())
    }

    /// Rough operation count and largest span of [`Expr::dist`], following its steps.
    fn estimate_work(&self) -> (f64, f64) {
        let mut work = 0.0;
        let mut acc_span = 1.0f64;
        let mut acc_runs = 1.0f64;
        let mut max_span = 1.0f64;
        let mut singles: Vec<(f64, f64, f64)> = Vec::new();
        for &(_, term) in &self.terms {
            let Term::Dice(t) = term else { continue };
            let die = t.die();
            let width = (die.max() - die.min()) as f64;
            let (n, m) = (f64::from(t.count), die.iter().count() as f64);
            let runs = die.run_count() as f64;
            if t.keep.is_none() && t.success.is_none() && t.times == 1 {
                singles.push((width, runs, n));
                continue;
            }
            let term_span = match (t.keep, t.success) {
                (_, Some(_)) => {
                    work += n + m;
                    n + 1.0
                }
                (Some(keep), None) => {
                    let k = f64::from(keep.count());
                    // Σ_{c<k} (k - c + 1)(c·width + 1) per outcome, plus the binomials.
                    work += m * (k * k * k * width / 6.0 + k * k + k * n);
                    max_span = max_span.max(k * k * width);
                    k * width + 1.0
                }
                // A multiplied sum: the sum itself (as for single dice), then spread out.
                (None, None) => {
                    work += (runs + 6.0) * n * (n + 1.0) / 2.0 * width;
                    n * width + 1.0
                }
            };
            // Multiplied, the term's outcomes lie `times` apart.
            let term_span = (term_span - 1.0) * f64::from(t.times) + 1.0;
            max_span = max_span.max(term_span);
            work += acc_runs.min(term_span) * (acc_span + term_span);
            acc_span += term_span - 1.0;
            acc_runs = acc_span;
        }
        for (width, runs, n) in singles {
            // Each die: window sums (two passes) for each distinct run length (at most 2),
            // plus one multiply-add per run over the accumulator.
            let per_die = runs + 6.0;
            work += per_die * (n * acc_span + n * (n + 1.0) / 2.0 * width);
            acc_span += n * width;
        }
        (work, max_span.max(acc_span))
    }
}

impl DiceTerm {
    /// The distribution of one die of this term (exploded if it explodes).
    pub(crate) fn die(&self) -> Dist {
        match self.explode {
            Some(depth) => Dist::exploding_die(self.sides, depth),
            None => Dist::die(self.sides),
        }
    }

    /// The distribution of the whole term (multiplied by `times`).
    pub(crate) fn pool_dist(&self) -> Dist {
        let d = self.unscaled_dist();
        if self.times == 1 {
            d
        } else {
            d.times(i64::from(self.times))
        }
    }

    /// The distribution of the term before its multiplier.
    fn unscaled_dist(&self) -> Dist {
        let die = self.die();
        match (self.keep, self.success) {
            (None, None) => die.repeat_sum(self.count),
            (Some(Keep::Highest(k)), None) => die.keep_highest(self.count, k),
            (Some(Keep::Lowest(k)), None) => die.keep_lowest(self.count, k),
            (None, Some((cmp, t))) => die.count_successes(self.count, cmp, t),
            (Some(keep), Some((cmp, t))) => die.count_kept_successes(self.count, keep, cmp, t),
        }
    }
}

impl fmt::Display for DiceTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.explode {
            Some(Expr::DEFAULT_EXPLODE_DEPTH) => f.write_str("!")?,
            Some(d) => write!(f, "!{d}")?,
            None => {}
        }
        match self.keep {
            Some(Keep::Highest(k)) => write!(f, "kh{k}")?,
            Some(Keep::Lowest(k)) => write!(f, "kl{k}")?,
            None => {}
        }
        if let Some((cmp, t)) = self.success {
            write!(f, "{cmp}{t}")?;
        }
        if self.times != 1 {
            write!(f, "x{}", self.times)?;
        }
        Ok(())
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Constant(c) => write!(f, "{c}"),
            Term::Dice(d) => write!(f, "{d}"),
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (sign, term)) in self.terms.iter().enumerate() {
            match (i, sign) {
                (0, Sign::Plus) => {}
                (_, Sign::Plus) => f.write_str("+")?,
                (_, Sign::Minus) => f.write_str("-")?,
            }
            write!(f, "{term}")?;
        }
        Ok(())
    }
}

impl FromStr for Expr {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Expr, ParseError> {
        Parser {
            input: s,
            chars: s.chars().collect(),
            pos: 0,
        }
        .expr()
    }
}

impl TryFrom<String> for Expr {
    type Error = ParseError;

    fn try_from(s: String) -> Result<Expr, ParseError> {
        s.parse()
    }
}

impl From<Expr> for String {
    fn from(e: Expr) -> String {
        e.to_string()
    }
}

/// Hand-written recursive-descent parser over the characters of the input.
struct Parser<'a> {
    input: &'a str,
    chars: Vec<char>,
    /// Index into `chars` of the next character.
    pos: usize,
}

impl Parser<'_> {
    fn error_at(&self, pos: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            message: message.into(),
            column: pos + 1,
            input: self.input.to_owned(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_lower(&self) -> Option<char> {
        self.peek().map(|c| c.to_ascii_lowercase())
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// Describes what is at `pos`, for "unexpected ..." messages.
    fn found(&self) -> String {
        match self.peek() {
            None => "the end".to_owned(),
            Some(c) => format!("{c:?}"),
        }
    }

    fn expr(mut self) -> Result<Expr, ParseError> {
        self.skip_ws();
        if self.peek().is_none() {
            return Err(self.error_at(self.pos, "empty dice expression"));
        }
        let mut sign = match self.peek() {
            Some('+') => {
                self.pos += 1;
                Sign::Plus
            }
            Some('-') => {
                self.pos += 1;
                Sign::Minus
            }
            _ => Sign::Plus,
        };
        let mut terms = Vec::new();
        loop {
            self.skip_ws();
            let term = self.term()?;
            terms.push((sign, term));
            self.skip_ws();
            sign = match self.peek() {
                None => break,
                Some('+') => Sign::Plus,
                Some('-') => Sign::Minus,
                Some(_) => {
                    return Err(self.error_at(
                        self.pos,
                        format!("unexpected {}, expected '+', '-' or the end", self.found()),
                    ));
                }
            };
            if terms.len() >= Expr::MAX_TERMS {
                return Err(self.error_at(
                    self.pos,
                    format!("too many terms (at most {})", Expr::MAX_TERMS),
                ));
            }
            self.pos += 1;
        }
        Ok(Expr { terms })
    }

    /// Digits at `pos`, if any: `(value, start)`. Values too big for `u64` are an error.
    fn number(&mut self) -> Result<Option<(u64, usize)>, ParseError> {
        let start = self.pos;
        let mut value: Option<u64> = Some(0);
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value
                .and_then(|v| v.checked_mul(10))
                .and_then(|v| v.checked_add(u64::from(d)));
            self.pos += 1;
        }
        if self.pos == start {
            return Ok(None);
        }
        match value {
            Some(v) => Ok(Some((v, start))),
            None => Err(self.error_at(start, "number too large")),
        }
    }

    /// A number that must be there, `what` naming it for the error message.
    fn required_number(&mut self, what: &str) -> Result<(u64, usize), ParseError> {
        self.skip_ws();
        match self.number()? {
            Some(n) => Ok(n),
            None => Err(self.error_at(self.pos, format!("expected {what}"))),
        }
    }

    fn term(&mut self) -> Result<Term, ParseError> {
        let start = self.pos;
        let count = self.number()?;
        self.skip_ws();
        if self.peek_lower() != Some('d') {
            return match count {
                Some((c, at)) => {
                    if c > Expr::MAX_CONSTANT as u64 {
                        Err(self.error_at(
                            at,
                            format!("number {c} too large (at most {})", Expr::MAX_CONSTANT),
                        ))
                    } else {
                        Ok(Term::Constant(c as i64))
                    }
                }
                None => Err(self.error_at(
                    start,
                    format!(
                        "unexpected {}, expected a number or dice like '2d6'",
                        self.found()
                    ),
                )),
            };
        }
        self.pos += 1; // 'd'
        let count = match count {
            None => 1,
            Some((0, at)) => return Err(self.error_at(at, "need at least 1 die")),
            Some((c, at)) if c > u64::from(Expr::MAX_DICE) => {
                return Err(self.error_at(
                    at,
                    format!("too many dice: {c} (at most {})", Expr::MAX_DICE),
                ));
            }
            Some((c, _)) => c as u32,
        };
        let (sides, at) = self.required_number("a number of sides after 'd'")?;
        if sides == 0 {
            return Err(self.error_at(at, "a die needs at least 1 side"));
        }
        if sides > u64::from(Expr::MAX_SIDES) {
            return Err(self.error_at(
                at,
                format!("too many sides: {sides} (at most {})", Expr::MAX_SIDES),
            ));
        }
        let sides = sides as u32;

        self.skip_ws();
        let mut explode = None;
        if self.peek() == Some('!') {
            self.pos += 1;
            self.skip_ws();
            let depth = match self.number()? {
                None => Expr::DEFAULT_EXPLODE_DEPTH,
                Some((d, at)) if d > u64::from(Expr::MAX_EXPLODE_DEPTH) => {
                    return Err(self.error_at(
                        at,
                        format!(
                            "explode depth {d} too deep (at most {})",
                            Expr::MAX_EXPLODE_DEPTH
                        ),
                    ));
                }
                Some((d, _)) => d as u32,
            };
            explode = Some(depth);
        }

        self.skip_ws();
        let mut keep = None;
        if self.peek_lower() == Some('k') {
            self.pos += 1;
            let (highest, written) = match self.peek_lower() {
                Some('h') => (true, "kh"),
                Some('l') => (false, "kl"),
                _ => (true, "k"),
            };
            if written.len() == 2 {
                self.pos += 1;
            }
            let (k, at) =
                self.required_number(&format!("how many dice to keep after '{written}'"))?;
            if k == 0 {
                return Err(self.error_at(at, "must keep at least 1 die"));
            }
            if k > u64::from(count) {
                return Err(self.error_at(at, format!("cannot keep {k} of {count} dice")));
            }
            let k = k as u32;
            keep = Some(if highest {
                Keep::Highest(k)
            } else {
                Keep::Lowest(k)
            });
        }

        self.skip_ws();
        let mut success = None;
        if let Some(c @ ('<' | '>')) = self.peek() {
            self.pos += 1;
            let or_equal = self.peek() == Some('=');
            if or_equal {
                self.pos += 1;
            }
            let cmp = match (c, or_equal) {
                ('>', true) => Cmp::Ge,
                ('>', false) => Cmp::Gt,
                ('<', true) => Cmp::Le,
                _ => Cmp::Lt,
            };
            let (t, at) = self.required_number(&format!("a target number after '{cmp}'"))?;
            if t > Expr::MAX_CONSTANT as u64 {
                return Err(self.error_at(
                    at,
                    format!("target {t} too large (at most {})", Expr::MAX_CONSTANT),
                ));
            }
            success = Some((cmp, t as i64));
        }

        self.skip_ws();
        let mut times = 1;
        if let Some('x' | 'X' | '*') = self.peek() {
            let written = self.peek().unwrap_or('x');
            self.pos += 1;
            let (k, at) = self.required_number(&format!("a multiplier after '{written}'"))?;
            if k == 0 {
                return Err(self.error_at(at, "a multiplier is at least 1"));
            }
            if k > u64::from(Expr::MAX_TIMES) {
                return Err(self.error_at(
                    at,
                    format!("multiplier {k} too large (at most {})", Expr::MAX_TIMES),
                ));
            }
            times = k as u32;
        }
        Ok(Term::Dice(DiceTerm {
            count,
            sides,
            explode,
            keep,
            success,
            times,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Expr {
        s.parse()
            .unwrap_or_else(|e| panic!("{s:?} should parse: {e}"))
    }

    fn err(s: &str) -> ParseError {
        match s.parse::<Expr>() {
            Ok(e) => panic!("{s:?} should not parse, got {e}"),
            Err(e) => e,
        }
    }

    fn dice(count: u32, sides: u32) -> DiceTerm {
        DiceTerm {
            count,
            sides,
            explode: None,
            keep: None,
            success: None,
            times: 1,
        }
    }

    #[test]
    fn parses_the_grammar() {
        assert_eq!(
            parse("3d6").terms(),
            &[(Sign::Plus, Term::Dice(dice(3, 6)))]
        );
        assert_eq!(
            parse("d20").terms(),
            &[(Sign::Plus, Term::Dice(dice(1, 20)))]
        );
        assert_eq!(
            parse(" 2D6 + 1d4 - 2 ").terms(),
            &[
                (Sign::Plus, Term::Dice(dice(2, 6))),
                (Sign::Plus, Term::Dice(dice(1, 4))),
                (Sign::Minus, Term::Constant(2)),
            ]
        );
        assert_eq!(
            parse("-1d4+3").terms()[0],
            (Sign::Minus, Term::Dice(dice(1, 4)))
        );
        assert_eq!(parse("+7").terms(), &[(Sign::Plus, Term::Constant(7))]);
        let t = |s: &str| match parse(s).terms()[0].1 {
            Term::Dice(d) => d,
            Term::Constant(_) => panic!("{s} is dice"),
        };
        assert_eq!(t("d6!").explode, Some(9));
        assert_eq!(t("d6!2").explode, Some(2));
        assert_eq!(t("d6!0").explode, Some(0));
        assert_eq!(t("4d6kh3").keep, Some(Keep::Highest(3)));
        assert_eq!(t("4d6k3").keep, Some(Keep::Highest(3)));
        assert_eq!(t("5d10KL2").keep, Some(Keep::Lowest(2)));
        assert_eq!(t("6d6>=5").success, Some((Cmp::Ge, 5)));
        assert_eq!(t("10d6>4").success, Some((Cmp::Gt, 4)));
        assert_eq!(t("3d8<=2").success, Some((Cmp::Le, 2)));
        assert_eq!(t("5d6<3").success, Some((Cmp::Lt, 3)));
        let all = t("4d6!3kl2>=5");
        assert_eq!(
            all,
            DiceTerm {
                count: 4,
                sides: 6,
                explode: Some(3),
                keep: Some(Keep::Lowest(2)),
                success: Some((Cmp::Ge, 5)),
                times: 1,
            }
        );
        assert_eq!(t("4d6 ! 3 kl 2 >= 5"), all);
        assert_eq!(parse("1000d1000!20kh1000>=1000").terms().len(), 1);
        // ms-d20's damage notation: the dice's total times ten.
        assert_eq!(t("2d6x10").times, 10);
        assert_eq!(t("2d6 X 10").times, 10);
        assert_eq!(t("4d6*3").times, 3);
        assert_eq!(t("2d6").times, 1);
    }

    #[test]
    fn displays_canonically_and_round_trips() {
        for (input, canonical) in [
            ("3d6", "3d6"),
            ("d6 + 2", "1d6+2"),
            ("2d6+1d4-2", "2d6+1d4-2"),
            ("-d4", "-1d4"),
            ("+5", "5"),
            ("4D6K3", "4d6kh3"),
            ("5d10kl2", "5d10kl2"),
            ("d6!9", "1d6!"),
            ("d6!2", "1d6!2"),
            ("6d6 >= 5", "6d6>=5"),
            ("4d6!3kl2<5", "4d6!3kl2<5"),
            ("2d6 * 10 + 5", "2d6x10+5"),
            ("2D6X10", "2d6x10"),
        ] {
            let e = parse(input);
            assert_eq!(e.to_string(), canonical);
            assert_eq!(parse(canonical), e);
        }
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = err("2d");
        assert_eq!(
            e.to_string(),
            r#"expected a number of sides after 'd' at column 3 in "2d""#
        );
        assert_eq!(e.column(), 3);
        let cases: &[(&str, usize, &str)] = &[
            ("", 1, "empty dice expression"),
            ("   ", 4, "empty dice expression"),
            (
                "2d6+",
                5,
                "unexpected the end, expected a number or dice like '2d6'",
            ),
            ("2d6 x", 6, "expected a multiplier after 'x'"),
            ("2d6 y", 5, "unexpected 'y', expected '+', '-' or the end"),
            ("2d6x0", 5, "a multiplier is at least 1"),
            ("2d6x1001", 5, "multiplier 1001 too large (at most 1000)"),
            ("10x2", 3, "unexpected 'x', expected '+', '-' or the end"),
            (
                "abc",
                1,
                "unexpected 'a', expected a number or dice like '2d6'",
            ),
            ("2d%", 3, "expected a number of sides after 'd'"),
            ("2d0", 3, "a die needs at least 1 side"),
            ("0d6", 1, "need at least 1 die"),
            ("1001d6", 1, "too many dice: 1001 (at most 1000)"),
            ("3d1001", 3, "too many sides: 1001 (at most 1000)"),
            ("d6!21", 4, "explode depth 21 too deep (at most 20)"),
            ("4d6kh", 6, "expected how many dice to keep after 'kh'"),
            ("4d6k", 5, "expected how many dice to keep after 'k'"),
            ("4d6kl0", 6, "must keep at least 1 die"),
            ("4d6kh5", 6, "cannot keep 5 of 4 dice"),
            ("6d6>=", 6, "expected a target number after '>='"),
            ("6d6<", 5, "expected a target number after '<'"),
            ("99999999999999999999", 1, "number too large"),
            (
                "1000000000001",
                1,
                "number 1000000000001 too large (at most 1000000000000)",
            ),
            (
                "3d6kh2kh1",
                7,
                "unexpected 'k', expected '+', '-' or the end",
            ),
            ("3d6>=4!", 7, "unexpected '!', expected '+', '-' or the end"),
            (
                "2d6 ++ 3",
                6,
                "unexpected '+', expected a number or dice like '2d6'",
            ),
            (
                "é+1",
                1,
                "unexpected 'é', expected a number or dice like '2d6'",
            ),
            (
                "1+é",
                3,
                "unexpected 'é', expected a number or dice like '2d6'",
            ),
        ];
        for &(input, column, message) in cases {
            let e = err(input);
            assert_eq!(
                (e.message(), e.column()),
                (message, column),
                "input {input:?}"
            );
        }
        let many = vec!["1"; Expr::MAX_TERMS + 1].join("+");
        assert!(err(&many).message().starts_with("too many terms"));
        assert!(
            many.rsplit_once('+')
                .is_some_and(|(ok, _)| ok.parse::<Expr>().is_ok())
        );
    }

    #[test]
    fn dist_of_simple_expressions() {
        let d = parse("3d6").dist();
        assert!((d.mean() - 10.5).abs() < 1e-12);
        assert!((d.std_dev() - 35f64.sqrt() / 2.0).abs() < 1e-12);
        let d = parse("1d4-3").dist();
        assert_eq!((d.min(), d.max()), (-2, 1));
        let d = parse("4d6kh3").dist();
        assert!((d.mean() - 15869.0 / 1296.0).abs() < 1e-12);
        let d = parse("-2").dist();
        assert_eq!(d, Dist::constant(-2));
        // `2d6x10`: 2d6's chances on 20, 30, … 120 and nothing between.
        let d = parse("2d6x10").dist();
        let plain = parse("2d6").dist();
        assert_eq!((d.min(), d.max()), (20, 120));
        for v in 2..=12 {
            assert_eq!(d.p_eq(10 * v), plain.p_eq(v));
            assert_eq!(d.p_eq(10 * v + 5), 0.0);
        }
        assert!((d.mean() - 70.0).abs() < 1e-12);
        assert_eq!(d.iter().count(), 11);
        let d = parse("1d6x10+5-1d4").dist();
        assert!((d.mean() - (35.0 + 5.0 - 2.5)).abs() < 1e-12);
        assert!(parse("1000d1000x1000").try_dist().is_err());
    }

    #[test]
    fn try_dist_refuses_monsters_quickly() {
        for monster in [
            "1000d1000kh500",
            "1000d1000!20+1000d1000!20",
            "1000d1000!20kl999",
        ] {
            assert!(
                matches!(parse(monster).try_dist(), Err(DistError::TooComplex { .. })),
                "{monster}"
            );
        }
        for fine in [
            "3d6",
            "100d6",
            "4d6kh3+2d20kl1",
            "10d10!>=8",
            "20d6!2kh10",
            "1d1000!20",
        ] {
            assert!(parse(fine).try_dist().is_ok(), "{fine}");
        }
    }

    #[test]
    fn serde_as_a_string() {
        let e = parse("4d6kh3 + 2");
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(json, r#""4d6kh3+2""#);
        assert_eq!(serde_json::from_str::<Expr>(&json).unwrap(), e);
        assert!(serde_json::from_str::<Expr>(r#""2d""#).is_err());
    }
}
