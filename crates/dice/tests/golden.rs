//! Exact distributions checked against icepool (golden values made by
//! `tests/data/make_golden.py`, committed as `tests/data/golden.json`; no Python at test
//! time).

use battlemat_dice::{Dist, Expr};
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    generator: String,
    expressions: Vec<GoldenExpr>,
    opposed: Vec<GoldenOpposed>,
}

#[derive(Deserialize)]
struct GoldenExpr {
    expr: String,
    mean: f64,
    sd: f64,
    outcomes: Vec<(i64, f64)>,
}

#[derive(Deserialize)]
struct GoldenOpposed {
    a: String,
    b: String,
    win: f64,
    tie: f64,
    lose: f64,
}

const TOL: f64 = 1e-12;

fn golden() -> Golden {
    let text = include_str!("data/golden.json");
    serde_json::from_str(text).expect("golden.json parses")
}

fn dist(notation: &str) -> Dist {
    let expr: Expr = notation.parse().unwrap_or_else(|e| panic!("{e}"));
    expr.try_dist()
        .unwrap_or_else(|e| panic!("{notation}: {e}"))
}

#[test]
fn golden_file_covers_every_feature() {
    let g = golden();
    assert!(g.generator.contains("icepool"));
    assert!(g.expressions.len() >= 15);
    let all: String = g
        .expressions
        .iter()
        .map(|e| e.expr.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    for feature in ["kh", "kl", "!", ">=", ">", "<=", "<", "+", "-", "k5"] {
        assert!(
            all.contains(feature),
            "no golden expression uses {feature:?}"
        );
    }
}

#[test]
fn distributions_match_icepool() {
    for g in golden().expressions {
        let d = dist(&g.expr);
        for &(outcome, p) in &g.outcomes {
            let got = d.p_eq(outcome);
            assert!(
                (got - p).abs() < TOL,
                "{}: P({outcome}) = {got}, icepool {p}",
                g.expr
            );
        }
        // Nothing outside icepool's support.
        for (outcome, p) in d.iter() {
            if !g.outcomes.iter().any(|&(o, _)| o == outcome) {
                assert!(
                    p < TOL,
                    "{}: P({outcome}) = {p}, icepool says impossible",
                    g.expr
                );
            }
        }
        assert_eq!(d.min(), g.outcomes[0].0, "{}", g.expr);
        assert_eq!(d.max(), g.outcomes[g.outcomes.len() - 1].0, "{}", g.expr);
        assert!(
            (d.total() - 1.0).abs() < TOL,
            "{}: total {}",
            g.expr,
            d.total()
        );
        assert!(
            (d.mean() - g.mean).abs() < 1e-10,
            "{}: mean {} vs {}",
            g.expr,
            d.mean(),
            g.mean
        );
        assert!(
            (d.std_dev() - g.sd).abs() < 1e-10,
            "{}: sd {} vs {}",
            g.expr,
            d.std_dev(),
            g.sd
        );
    }
}

#[test]
fn opposed_rolls_match_icepool() {
    let g = golden();
    assert!(
        g.opposed.iter().any(|o| o.a == "2d6!1" && o.b == "3d6"),
        "exploding opposed roll"
    );
    for o in g.opposed {
        let got = dist(&o.a).versus(&dist(&o.b));
        let what = format!("{} vs {}: {got:?}", o.a, o.b);
        assert!((got.win - o.win).abs() < TOL, "{what} win {}", o.win);
        assert!((got.tie - o.tie).abs() < TOL, "{what} tie {}", o.tie);
        assert!((got.lose - o.lose).abs() < TOL, "{what} lose {}", o.lose);
        // And from the other side.
        let back = dist(&o.b).versus(&dist(&o.a));
        assert!(
            (back.win - o.lose).abs() < TOL && (back.lose - o.win).abs() < TOL,
            "{what}"
        );
    }
}

#[test]
fn api_matches_notation() {
    // The Dist building blocks give the same answers as the parsed notation.
    let d6 = Dist::die(6);
    let same = |a: &Dist, notation: &str| {
        let b = dist(notation);
        assert_eq!((a.min(), a.max()), (b.min(), b.max()), "{notation}");
        for (x, p) in b.iter() {
            assert!((a.p_eq(x) - p).abs() < TOL, "{notation} at {x}");
        }
    };
    same(&d6.repeat_sum(3), "3d6");
    same(&d6.keep_highest(4, 3), "4d6kh3");
    same(&Dist::die(10).keep_lowest(5, 2), "5d10kl2");
    same(&Dist::exploding_die(6, 2), "d6!2");
    same(&d6.count_successes(6, battlemat_dice::Cmp::Ge, 5), "6d6>=5");
    same(
        &d6.repeat_sum(2).add(&Dist::die(4)).sub(&Dist::constant(2)),
        "2d6+1d4-2",
    );
}
