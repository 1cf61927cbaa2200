//! Generation progress on stderr: a bar where stderr is a terminal, a line
//! each tenth of a big class pair where it is a file (a log of a long run).

use indicatif::{ProgressBar, ProgressStyle};
use peasant::generate::GenEvent;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Instant;

/// Class pairs smaller than this finish too fast for progress lines in a
/// log.
const LOG_AT_LEAST: u64 = 1 << 24;

pub struct GenProgress {
    terminal: bool,
    /// The class pair being solved, its bar and when it started.
    current: Mutex<Option<(String, ProgressBar, Instant)>>,
}

impl GenProgress {
    pub fn new() -> GenProgress {
        GenProgress {
            terminal: std::io::stderr().is_terminal(),
            current: Mutex::new(None),
        }
    }

    /// Shows one event of a generation run.
    pub fn show(&self, event: GenEvent) {
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        match event {
            GenEvent::Line(line) => {
                if let Some((_, bar, _)) = current.take() {
                    bar.finish_and_clear();
                }
                eprintln!("{line}");
            }
            GenEvent::Progress { what, done, total } => {
                if current.as_ref().is_none_or(|(w, _, _)| w != what) {
                    let bar = if self.terminal {
                        let bar = ProgressBar::new(total);
                        bar.set_style(
                            ProgressStyle::with_template(
                                "{prefix} [{bar:40}] {percent}% {human_pos}/{human_len} {per_sec} eta {eta}",
                            )
                            .expect("a valid template")
                            .progress_chars("=> "),
                        );
                        bar.set_prefix(what.to_string());
                        bar
                    } else {
                        ProgressBar::hidden()
                    };
                    *current = Some((what.to_string(), bar, Instant::now()));
                }
                let (_, bar, start) = current.as_ref().expect("set above");
                if self.terminal {
                    bar.set_position(done);
                    return;
                }
                // A log: one line each tenth of a big class pair.
                let tenth = |x: u64| x * 10 / total.max(1);
                let before = bar.position();
                bar.set_position(done);
                if total >= LOG_AT_LEAST && tenth(done) > tenth(before) && done < total {
                    let secs = start.elapsed().as_secs_f64();
                    eprintln!(
                        "{what}: {}% ({done} of {total}), {:.0} positions/s",
                        tenth(done) * 10,
                        done as f64 / secs.max(1e-9)
                    );
                }
            }
        }
    }
}

impl Drop for GenProgress {
    fn drop(&mut self) {
        if let Some((_, bar, _)) = self
            .current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            bar.finish_and_clear();
        }
    }
}
