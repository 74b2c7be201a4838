//! Rolling an [`Expr`] with a [`Roller`] and recording every die.

use std::cmp::Reverse;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::expr::{DiceTerm, Expr, Sign, Term};
use crate::pool::Keep;
use crate::roll::Roller;

/// The record of one roll of an [`Expr`]: every die face, which dice were kept, and the
/// total. Displays as e.g. `4d6kh3: [6, 5, 3, (1)] = 14`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rolled {
    /// What was rolled.
    pub expr: Expr,
    /// One entry per term of `expr`, in order.
    pub terms: Vec<RolledTerm>,
    /// The result: the sum of the signed term values.
    pub total: i64,
}

/// One term of a [`Rolled`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolledTerm {
    /// Whether the term is added or subtracted.
    pub sign: Sign,
    /// The term's value before its sign: the constant, the sum of the kept dice, or the
    /// number of kept dice meeting the target, times the term's multiplier (`2d6x10`).
    pub value: i64,
    /// The dice in the order rolled (empty for a constant).
    pub dice: Vec<RolledDie>,
}

/// One die of a [`RolledTerm`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolledDie {
    /// Every face rolled: one, or more when the die exploded (`[6, 6, 2]`).
    pub faces: Vec<u32>,
    /// The die's value: the sum of its faces.
    pub total: i64,
    /// Whether the die counts (false when dropped by keep highest/lowest).
    pub kept: bool,
    /// For a success count, whether the die met the target.
    pub success: Option<bool>,
}

impl Expr {
    /// Rolls the dice, drawing faces from `roller` term by term, die by die (an exploding
    /// die's extra rolls right after it). Ties for keep highest/lowest go to the die rolled
    /// first. The total always lies within `self.dist().min()..=self.dist().max()`.
    pub fn roll(&self, roller: &mut Roller) -> Rolled {
        let terms: Vec<RolledTerm> = self
            .terms()
            .iter()
            .map(|&(sign, term)| match term {
                Term::Constant(c) => RolledTerm {
                    sign,
                    value: c,
                    dice: Vec::new(),
                },
                Term::Dice(t) => roll_dice(sign, &t, roller),
            })
            .collect();
        let total = terms
            .iter()
            .map(|t| match t.sign {
                Sign::Plus => t.value,
                Sign::Minus => -t.value,
            })
            .sum();
        Rolled {
            expr: self.clone(),
            terms,
            total,
        }
    }
}

fn roll_dice(sign: Sign, t: &DiceTerm, roller: &mut Roller) -> RolledTerm {
    let mut dice: Vec<RolledDie> = (0..t.count)
        .map(|_| {
            let mut faces = vec![roller.roll(t.sides)];
            if let Some(depth) = t.explode {
                // faces.len() - 1 extra rolls so far; the last allowed one never explodes.
                while faces.len() <= depth as usize && faces.last() == Some(&t.sides) {
                    faces.push(roller.roll(t.sides));
                }
            }
            let total = faces.iter().map(|&f| i64::from(f)).sum();
            RolledDie {
                faces,
                total,
                kept: true,
                success: None,
            }
        })
        .collect();
    if let Some(keep) = t.keep {
        let mut order: Vec<usize> = (0..dice.len()).collect();
        match keep {
            Keep::Highest(_) => order.sort_by_key(|&i| Reverse(dice[i].total)),
            Keep::Lowest(_) => order.sort_by_key(|&i| dice[i].total),
        }
        for (rank, &i) in order.iter().enumerate() {
            dice[i].kept = rank < keep.count() as usize;
        }
    }
    let value = match t.success {
        Some((cmp, target)) => {
            for d in &mut dice {
                d.success = Some(cmp.test(d.total, target));
            }
            dice.iter()
                .filter(|d| d.kept && d.success == Some(true))
                .count() as i64
        }
        None => dice.iter().filter(|d| d.kept).map(|d| d.total).sum(),
    } * i64::from(t.times);
    RolledTerm { sign, value, dice }
}

impl fmt::Display for RolledDie {
    /// `5`, `6+6+2` when exploded, `(1)` when dropped, `6*` for a counted success.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.kept {
            f.write_str("(")?;
        }
        for (i, face) in self.faces.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{face}")?;
        }
        if !self.kept {
            f.write_str(")")?;
        } else if self.success == Some(true) {
            f.write_str("*")?;
        }
        Ok(())
    }
}

impl fmt::Display for RolledTerm {
    /// The constant, or the dice in brackets: `[6, 5, 3, (1)]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.dice.is_empty() {
            return write!(f, "{}", self.value);
        }
        f.write_str("[")?;
        for (i, d) in self.dice.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("]")
    }
}

impl fmt::Display for Rolled {
    /// `2d6+1d4-2: [3, 4] + [2] - 2 = 7`; a multiplied term `2d6x10: [3, 4]x10 = 70`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.expr)?;
        let times = |i: usize| match self.expr.terms().get(i) {
            Some((_, Term::Dice(d))) => d.times,
            _ => 1,
        };
        for (i, t) in self.terms.iter().enumerate() {
            match (i, t.sign) {
                (0, Sign::Plus) => {}
                (0, Sign::Minus) => f.write_str("-")?,
                (_, Sign::Plus) => f.write_str(" + ")?,
                (_, Sign::Minus) => f.write_str(" - ")?,
            }
            write!(f, "{t}")?;
            if times(i) != 1 {
                write!(f, "x{}", times(i))?;
            }
        }
        write!(f, " = {}", self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(s: &str) -> Expr {
        s.parse().unwrap()
    }

    #[test]
    fn display_marks_dropped_exploded_and_successes() {
        let mut r = Roller::new(0, 0);
        // Seed 0 stream 0 d6 faces start 3, 2, 2, 6, 5, 1, 1, 1, 4, 6, ...
        let rolled = expr("4d6kh3").roll(&mut r);
        assert_eq!(rolled.to_string(), "4d6kh3: [3, 2, (2), 6] = 11");
        let rolled = expr("2d6!+1d6-2").roll(&mut r);
        assert_eq!(rolled.to_string(), "2d6!+1d6-2: [5, 1] + [1] - 2 = 5");
        let rolled = expr("3d6!>=4").roll(&mut r);
        assert_eq!(rolled.to_string(), "3d6!>=4: [1, 4*, 6+4*] = 2");
        assert_eq!(rolled.terms[0].dice[2].faces, vec![6, 4]);
        let rolled = expr("-1d6").roll(&mut Roller::new(0, 0));
        assert_eq!(rolled.to_string(), "-1d6: -[3] = -3");
        // ms-d20's damage notation: the dice, then the multiplier.
        let rolled = expr("2d6x10+5").roll(&mut Roller::new(0, 0));
        assert_eq!(rolled.to_string(), "2d6x10+5: [3, 2]x10 + 5 = 55");
    }

    #[test]
    fn explosion_respects_depth() {
        let mut r = Roller::new(3, 1);
        for _ in 0..200 {
            let rolled = expr("d2!3").roll(&mut r);
            let faces = &rolled.terms[0].dice[0].faces;
            assert!(faces.len() <= 4);
            assert!(faces[..faces.len() - 1].iter().all(|&f| f == 2));
            if faces.len() < 4 {
                assert_eq!(faces.last(), Some(&1));
            }
        }
        let rolled = expr("d1!5").roll(&mut r);
        assert_eq!(rolled.total, 6);
    }

    #[test]
    fn keep_lowest_ties_go_to_first_rolled() {
        let mut r = Roller::new(11, 0);
        for _ in 0..100 {
            let rolled = expr("5d3kl2").roll(&mut r);
            let dice = &rolled.terms[0].dice;
            let kept: Vec<i64> = dice.iter().filter(|d| d.kept).map(|d| d.total).collect();
            assert_eq!(kept.len(), 2);
            let mut all: Vec<i64> = dice.iter().map(|d| d.total).collect();
            all.sort_unstable();
            assert_eq!(kept.iter().sum::<i64>(), all[0] + all[1]);
            assert_eq!(rolled.total, all[0] + all[1]);
        }
    }

    #[test]
    fn serde_round_trip() {
        let rolled = expr("4d6!kh3>=4+2").roll(&mut Roller::new(1, 2));
        let json = serde_json::to_string(&rolled).unwrap();
        assert_eq!(serde_json::from_str::<Rolled>(&json).unwrap(), rolled);
    }
}
