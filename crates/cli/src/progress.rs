//! Progress on stderr for long runs (`sim`, `tournament`, `balance`): an indicatif bar on a
//! terminal; elsewhere (a log, a pipe) a line every few seconds (`BATTLEMAT_PROGRESS_SECS`,
//! default 5). Either way the run ends with its count and elapsed time.

use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub struct Progress {
    bar: ProgressBar,
    total: u64,
    what: &'static str,
    plain: bool,
    every: u64,
    start: Instant,
    done: AtomicU64,
    last_line: Mutex<Instant>,
}

impl Progress {
    /// `total` things called `what` ("games").
    pub fn new(total: u64, what: &'static str) -> Progress {
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
