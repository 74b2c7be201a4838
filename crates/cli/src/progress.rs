//! Progress on stderr for long runs (`sim`, `tournament`, `balance`): an indicatif bar on a
//! terminal; elsewhere (a log, a pipe) a line every few seconds (`BATTLEMAT_PROGRESS_SECS`,
//! default 5). Either way the run ends with its count and elapsed time.
//!
//! Up front, once the first games are done (one per thread, two at most), a run that will
//! take longer than a minute says how long ([`estimate`]): the time those games took, times
//! the games each thread has to play.

use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub struct Progress {
    bar: ProgressBar,
    total: u64,
    what: &'static str,
    threads: usize,
    plain: bool,
    every: u64,
    start: Instant,
    done: AtomicU64,
    last_line: Mutex<Instant>,
}

impl Progress {
    /// `total` things called `what` ("games"), done on `threads` threads.
    pub fn new(total: u64, what: &'static str, threads: usize) -> Progress {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {what}  {{per_sec}}  eta {{eta}}"
            ))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        Progress {
            bar,
            total,
            what,
            threads: threads.max(1),
            plain: !std::io::IsTerminal::is_terminal(&std::io::stderr()),
            every: std::env::var("BATTLEMAT_PROGRESS_SECS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(5),
            start: Instant::now(),
            done: AtomicU64::new(0),
            last_line: Mutex::new(Instant::now()),
        }
    }

    /// One more done (from any thread).
    pub fn tick(&self) {
        self.bar.inc(1);
        let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if n == (self.threads as u64).clamp(1, 2).min(self.total)
            && let Some(words) = estimate(self.start.elapsed(), n, self.total, self.threads)
        {
            self.bar.suspend(|| eprintln!("{words}"));
        }
        if self.plain
            && let Ok(mut last) = self.last_line.lock()
            && last.elapsed().as_secs() >= self.every
        {
            *last = Instant::now();
            eprintln!(
                "{n}/{} {}, {:.0} s",
                self.total,
                self.what,
                self.start.elapsed().as_secs_f64()
            );
        }
    }

    /// Clear the bar and say how long it took: "200 games in 3.10 s (64.5 games/s, 2
    /// threads)".
    pub fn finish(self, threads: usize) -> Duration {
        self.bar.finish_and_clear();
        let elapsed = self.start.elapsed();
        let n = self.done.load(Ordering::Relaxed);
        eprintln!(
            "{n} {} in {:.2} s ({:.1} {}/s, {threads} threads)",
            self.what,
            elapsed.as_secs_f64(),
            n as f64 / elapsed.as_secs_f64().max(1e-9),
            self.what
        );
        elapsed
    }
}

/// What a run will take, when that is more than a minute: `done` of `total` games took
/// `elapsed` (played side by side, one a thread), so each of the `threads` has `total /
/// threads` games of about that length to play.
pub fn estimate(elapsed: Duration, done: u64, total: u64, threads: usize) -> Option<String> {
    let threads = threads.max(1) as f64;
    let done = done.max(1) as f64;
    // The games done ran side by side, so each took about the time elapsed.
    let side_by_side = done.min(threads);
    let per_game = elapsed.as_secs_f64() * side_by_side / done;
    let secs = per_game * (total as f64 / threads).ceil();
    if secs <= 60.0 {
        return None;
    }
    let about = if secs < 3_600.0 {
        format!("{:.0} min", secs / 60.0)
    } else {
        format!("{:.1} hours", secs / 3_600.0)
    };
    Some(format!(
        "estimate: about {about} on {} thread{} for {total} games (the first {} took {:.1} s each)",
        threads as u64,
        if threads as u64 == 1 { "" } else { "s" },
        done as u64,
        per_game
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 400-game run whose first two games took 1.8 s side by side on 2 threads: about
    /// 200 × 1.8 s = 6 min.
    #[test]
    fn a_long_run_is_estimated_and_a_short_one_is_not() {
        let e = estimate(Duration::from_millis(1800), 2, 400, 2).unwrap();
        assert!(
            e.starts_with("estimate: about 6 min on 2 threads for 400 games"),
            "{e}"
        );
        assert!(estimate(Duration::from_millis(100), 2, 400, 2).is_none());
        let e = estimate(Duration::from_secs(30), 1, 400, 1).unwrap();
        assert!(e.contains("3.3 hours on 1 thread "), "{e}");
    }
}
