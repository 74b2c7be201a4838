//! Property-style checks over many generated expressions, and the parser against garbage.
//! Randomness comes from the crate's own seeded [`Roller`], so every run checks the same
//! cases.

use battlemat_dice::{Cmp, Dist, Expr, Roller};

/// A random expression small enough for exact odds in a blink, covering every feature.
fn random_expr(r: &mut Roller) -> String {
    const SIDES: [u32; 10] = [1, 2, 3, 4, 6, 8, 10, 12, 20, 100];
    let terms = r.roll(3);
    let mut s = String::new();
    for i in 0..terms {
        match (i, r.roll(4)) {
            (0, 1) => s.push('-'),
            (0, _) => {}
            (_, 1) => s.push_str(" - "),
            _ => s.push('+'),
        }
        if r.roll(5) == 1 {
            s.push_str(&(r.roll(30) - 1).to_string());
            continue;
        }
        let count = r.roll(6);
        let sides = SIDES[r.roll(SIDES.len() as u32) as usize - 1];
        if count > 1 || r.roll(2) == 1 {
            s.push_str(&count.to_string());
        }
        s.push_str(&format!("d{sides}"));
        if sides <= 20 && r.roll(4) == 1 {
            s.push('!');
            if r.roll(3) > 1 {
                s.push_str(&(r.roll(4) - 1).to_string());
            }
        }
        if r.roll(3) == 1 {
            s.push_str(["kh", "kl", "k"][r.roll(3) as usize - 1]);
            s.push_str(&r.roll(count).to_string());
        }
        if r.roll(4) == 1 {
            s.push_str([">=", ">", "<=", "<"][r.roll(4) as usize - 1]);
            s.push_str(&r.roll(sides + 1).to_string());
        }
    }
    s
}

fn exprs(n: usize, seed: u64) -> Vec<(String, Expr)> {
    let mut r = Roller::new(seed, 0);
    (0..n)
        .map(|_| {
            let s = random_expr(&mut r);
            let e = s
                .parse()
                .unwrap_or_else(|err| panic!("generated {s:?} must parse: {err}"));
            (s, e)
        })
        .collect()
}

#[test]
fn total_probability_is_one() {
    for (s, e) in exprs(400, 1) {
        let d = e.try_dist().unwrap_or_else(|err| panic!("{s}: {err}"));
        assert!((d.total() - 1.0).abs() < 1e-12, "{s}: total {}", d.total());
        assert!(
            d.iter().all(|(_, p)| (0.0..=1.0 + 1e-12).contains(&p)),
            "{s}"
        );
        let sum: f64 = d.iter().map(|(_, p)| p).sum();
        assert!((sum - d.total()).abs() < 1e-15, "{s}");
        // Outcomes strictly increasing, inside min..=max, ends non-zero.
        let outs: Vec<i64> = d.iter().map(|(x, _)| x).collect();
        assert!(outs.windows(2).all(|w| w[0] < w[1]), "{s}");
        assert_eq!((outs[0], outs[outs.len() - 1]), (d.min(), d.max()), "{s}");
        // Tail queries agree with the point probabilities.
        let mid = (d.min() + d.max()) / 2;
        assert!(
            (d.p_ge(mid) + d.p_le(mid - 1) - d.total()).abs() < 1e-12,
            "{s}"
        );
        // Versus itself is symmetric and sums to one.
        let o = d.versus(&d);
        assert!(
            (o.win - o.lose).abs() < 1e-12 && (o.win + o.tie + o.lose - 1.0).abs() < 1e-12,
            "{s}"
        );
        // Display round-trips.
        assert_eq!(e.to_string().parse::<Expr>().as_ref(), Ok(&e), "{s}");
    }
}

#[test]
fn rolled_totals_lie_in_the_support() {
    let mut roller = Roller::new(2, 0);
    for (s, e) in exprs(300, 2) {
        let d = e.dist();
        for _ in 0..100 {
            let rolled = e.roll(&mut roller);
            assert!(
                d.p_eq(rolled.total) > 0.0,
                "{s}: rolled {rolled}, impossible by the odds"
            );
            assert_eq!(rolled.terms.len(), e.terms().len());
            let signed: i64 = rolled
                .terms
                .iter()
                .map(|t| {
                    if t.sign == battlemat_dice::Sign::Minus {
                        -t.value
                    } else {
                        t.value
                    }
                })
                .sum();
            assert_eq!(signed, rolled.total, "{rolled}");
        }
    }
}

/// The exact mean and the mean of 20,000 seeded rolls agree within 3σ/√n.
#[test]
fn empirical_means_match_exact_means() {
    let fixed = [
        "3d6",
        "2d6+1d4-2",
        "1d4-3",
        "4d6kh3",
        "5d10kl2",
        "2d20kh1",
        "d6!2",
        "3d6!",
        "6d6>=5",
        "10d6>4",
        "4d6!2kh3",
        "5d10kl2<4",
        "d100",
        "1d20+5-2d4",
    ];
    let n = 20_000;
    for (i, s) in fixed.iter().enumerate() {
        let e: Expr = s.parse().unwrap();
        let d = e.dist();
        let mut roller = Roller::new(1000 + i as u64, 3);
        let sum: i64 = (0..n).map(|_| e.roll(&mut roller).total).sum();
        let empirical = sum as f64 / n as f64;
        let bound = 3.0 * d.std_dev() / (n as f64).sqrt();
        assert!(
            (empirical - d.mean()).abs() <= bound,
            "{s}: rolled mean {empirical}, exact {}, bound {bound}",
            d.mean()
        );
    }
}

/// Every face frequency of a keep-highest roll, against the exact odds (chi-square-ish:
/// each count within 4σ of its expectation).
#[test]
fn empirical_frequencies_match_exact_odds() {
    for (s, seed) in [("4d6kh3", 5), ("2d6!1", 6), ("6d6>=5", 7)] {
        let e: Expr = s.parse().unwrap();
        let d = e.dist();
        let n = 30_000;
        let mut counts = std::collections::HashMap::<i64, u32>::new();
        let mut roller = Roller::new(seed, 0);
        for _ in 0..n {
            *counts.entry(e.roll(&mut roller).total).or_default() += 1;
        }
        for (x, p) in d.iter() {
            let expected = p * n as f64;
            let sigma = (n as f64 * p * (1.0 - p)).sqrt();
            let got = f64::from(counts.get(&x).copied().unwrap_or(0));
            assert!(
                (got - expected).abs() <= 4.0 * sigma + 1.0,
                "{s} at {x}: {got} vs {expected}"
            );
        }
    }
}

#[test]
fn dist_maths() {
    let d6 = Dist::die(6);
    let three = d6.repeat_sum(3);
    assert!((three.mean() - 10.5).abs() < 1e-12);
    assert!((three.std_dev() - 2.958_039_891_549_808).abs() < 1e-12);
    assert!((three.p_eq(10) - 27.0 / 216.0).abs() < 1e-15);
    assert!((three.p_ge(16) - 10.0 / 216.0).abs() < 1e-15);
    let kh = d6.keep_highest(4, 3);
    assert!((kh.mean() - 12.244_598_765_432_098).abs() < 1e-12);
    assert_eq!((kh.min(), kh.max()), (3, 18));
    assert!((kh.p_eq(18) - 21.0 / 1296.0).abs() < 1e-15);
    // Sum of iid copies by repeat_sum equals repeated add, and mean/variance add up.
    let a = Dist::exploding_die(4, 2).repeat_sum(5);
    let mut b = Dist::constant(0);
    for _ in 0..5 {
        b = b.add(&Dist::exploding_die(4, 2));
    }
    for (x, p) in a.iter() {
        assert!((p - b.p_eq(x)).abs() < 1e-15);
    }
    let one = Dist::exploding_die(4, 2);
    assert!((a.mean() - 5.0 * one.mean()).abs() < 1e-12);
    assert!((a.std_dev().powi(2) - 5.0 * one.std_dev().powi(2)).abs() < 1e-10);
    // Binomial success count.
    let s = d6.count_successes(10, Cmp::Gt, 4);
    assert!((s.mean() - 10.0 / 3.0).abs() < 1e-12);
    assert!((s.p_eq(0) - (2.0f64 / 3.0).powi(10)).abs() < 1e-15);
    // Sub and neg.
    let diff = three.sub(&d6.repeat_sum(2));
    assert!((diff.mean() - 3.5).abs() < 1e-12);
    let vs = three.versus(&d6.repeat_sum(2));
    assert!((vs.win - diff.p_ge(1)).abs() < 1e-15);
    assert!((vs.tie - diff.p_eq(0)).abs() < 1e-15);
    assert!((vs.lose - diff.p_le(-1)).abs() < 1e-15);
    // A big sum stays normalised and accurate.
    let big = Dist::die(100).repeat_sum(100);
    assert!((big.total() - 1.0).abs() < 1e-12);
    assert!((big.mean() - 5050.0).abs() < 1e-9);
    assert!((big.std_dev() - (100.0 * (100.0f64 * 100.0 - 1.0) / 12.0).sqrt()).abs() < 1e-9);
    // Tails stay positive and sane: P(100d100 = 100) = 100^-100.
    assert!((big.p_eq(100) / 1e-200 - 1.0).abs() < 1e-12);
}

/// A little xorshift to make garbage without depending on the dice under test.
fn garbage(state: &mut u64) -> String {
    const ALPHABET: &[char] = &[
        '0', '1', '2', '3', '6', '9', 'd', 'D', 'k', 'K', 'h', 'l', 'L', '!', '<', '>', '=', '+',
        '-', ' ', '\t', '%', 'F', 'x', '*', '(', ')', 'é', '٣', '\u{0}', '\u{200b}', '😀',
    ];
    let mut next = || {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    };
    let len = (next() % 24) as usize;
    (0..len)
        .map(|_| {
            let x = next();
            if x % 17 == 0 {
                char::from_u32((x >> 8) as u32 % 0x11_0000).unwrap_or('?')
            } else {
                ALPHABET[(x >> 8) as usize % ALPHABET.len()]
            }
        })
        .collect()
}

#[test]
fn parser_never_panics_on_garbage() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut parsed = 0;
    let extra = [
        "9".repeat(400),
        format!("{}d6", "9".repeat(30)),
        "d".repeat(50),
        "1+".repeat(200),
        "-".repeat(10),
        "1d1!20kh1>=1".to_string(),
        "\u{feff}2d6".to_string(),
    ];
    let inputs: Vec<String> = (0..600).map(|_| garbage(&mut state)).chain(extra).collect();
    for input in &inputs {
        match input.parse::<Expr>() {
            Ok(e) => {
                parsed += 1;
                assert_eq!(e.to_string().parse::<Expr>().as_ref(), Ok(&e), "{input:?}");
            }
            Err(err) => {
                let chars = input.chars().count();
                assert!((1..=chars + 1).contains(&err.column()), "{input:?}: {err}");
                assert!(!err.message().is_empty());
                assert!(
                    err.to_string()
                        .contains(&format!("column {}", err.column()))
                );
            }
        }
    }
    // The generator makes a few valid ones too, so both paths are exercised.
    assert!(parsed > 5, "only {parsed} garbage strings parsed");
}

/// A sum too wide to check term by term against anything else: `1000d1000` (646,007
/// outcomes left after the tails underflow) against what must hold of any sum of fair dice.
/// Not a timing test: the speed is measured in `benches/dice.rs`.
#[test]
fn wide_sum_is_right() {
    let (n, s) = (1000i64, 1000i64);
    let d: Expr = format!("{n}d{s}").parse().expect("valid");
    let d = d.try_dist().expect("1000d1000 is within the limits");
    assert!((d.total() - 1.0).abs() < 1e-9, "total {}", d.total());
    let mean = (n * (s + 1)) as f64 / 2.0;
    assert!((d.mean() - mean).abs() < 1e-6 * mean, "mean {}", d.mean());
    let var = n as f64 * ((s * s - 1) as f64 / 12.0);
    assert!((d.std_dev() - var.sqrt()).abs() < 1e-6 * var.sqrt());
    // Symmetric about the mean: the outcome n(s+1) - x is as likely as x.
    assert_eq!(d.min() + d.max(), n * (s + 1));
    let top = d.p_eq(n * (s + 1) / 2);
    for x in (d.min()..=d.max()).step_by(997) {
        let (a, b) = (d.p_eq(x), d.p_eq(n * (s + 1) - x));
        assert!((a - b).abs() <= 1e-9 * top.max(a), "at {x}: {a} vs {b}");
        assert!(a > 0.0, "no gaps in a sum of fair dice, at {x}");
    }
    // Peaking at the middle outcome n(s+1)/2, its two neighbours alike.
    let mid = n * (s + 1) / 2;
    let (left, right) = (d.p_eq(mid - 1), d.p_eq(mid + 1));
    assert!(top > left && top > right && (left - right).abs() <= 1e-12 * top);
    assert!(d.p_eq(d.min()) < d.p_eq(d.min() + 1000));
    assert!(top > d.p_eq(mid - 5000));
}
