//! `hint` in terminal play: the AI's best candidate actions for the seat to act, with
//! their menu numbers and greedy values, the same answer when asked twice.

use assert_cmd::Command;

fn play(args: &[&str], input: &str) -> String {
    let out = Command::cargo_bin("battlemat")
        .unwrap()
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The hint's lines: `NUMBER) TEXT value V`, best first.
fn hinted(text: &str) -> Vec<(usize, String, f64)> {
    text.lines()
        .filter(|l| {
            l.contains(" value ") && l.trim_start().starts_with(|c: char| c.is_ascii_digit())
        })
        .map(|l| {
            let (head, value) = l.split_once(" value ").unwrap();
            let value: f64 = value.split_whitespace().next().unwrap().parse().unwrap();
            let (n, t) = head.trim().split_once(") ").unwrap();
            (n.trim().parse().unwrap(), t.trim().to_string(), value)
        })
        .collect()
}

#[test]
fn hint_lists_the_ais_best_actions_best_first_and_the_number_plays_it() {
    let seats = ["play", "swtb", "--seats", "human,random", "--seed", "5"];
    let text = play(&seats, "hint 3\nhint 3\nquit\n");
    // The first decision (who acts first) has two actions: both are shown.
    assert!(text.contains("The AI's best 2 of 2"), "{text}");
    let lines = hinted(&text);
    assert_eq!(lines.len(), 4, "two lines, twice: {text}");
    assert_eq!(lines[..2], lines[2..], "the same answer when asked twice");
    assert!(
        lines[..2].windows(2).all(|w| w[0].2 >= w[1].2),
        "best first: {lines:?}"
    );
    for (_, _, v) in &lines {
        assert!((-1.0..=1.0).contains(v), "{lines:?}");
    }
    // The number shown is the menu's: typing it takes that action, as typing its text does.
    let (n, action, _) = lines[0].clone();
    let by_number = play(&seats, &format!("hint 1\n{n}\nhistory\nquit\n"));
    let by_text = play(&seats, &format!("{action}\nhistory\nquit\n"));
    assert!(!by_number.contains("Not accepted"), "{by_number}");
    let history = |t: &str| t[t.find("The game so far").expect("a history")..].to_string();
    assert_eq!(history(&by_number), history(&by_text));
    // Bad counts are refused with what is wanted; help names the command.
    let bad = play(&seats, "hint zero\nhelp\nquit\n");
    assert!(bad.contains("hint N: the AI's N best actions"), "{bad}");
    assert!(bad.contains("hint [N]"), "{bad}");
}

#[test]
fn hint_works_in_every_game_through_the_registry() {
    for game in ["sd-era", "abaoaqu", "ms-d20", "serm"] {
        let text = play(
            &["play", game, "--seats", "human,random", "--seed", "3"],
            "hint 2\nquit\n",
        );
        let lines = hinted(&text);
        assert!(!lines.is_empty() && lines.len() <= 2, "{game}: {text}");
    }
}
