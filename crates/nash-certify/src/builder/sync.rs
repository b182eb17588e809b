//! The builder's files and progress: the journal and spool synced about every minute, the
//! re-solves recorded, and a progress line when asked for.

use std::io::Write;
use std::time::{Duration, Instant};

use nash_board::{BitSet, Cell};

use super::Builder;
use crate::cpu::thread_cpu;
use crate::error::CertifyError;
use crate::sink::Out;

/// How often a build syncs its files and, if it shows its progress, writes a line.
const PROGRESS_EVERY: Duration = Duration::from_secs(60);

impl<B: BitSet> Builder<'_, B> {
    /// The build's CPU time so far, over all runs (wall time where the system does not tell
    /// the thread's).
    pub(super) fn cpu(&self) -> Duration {
        let now = match (thread_cpu(), self.cpu_start) {
            (Some(now), Some(start)) => now.saturating_sub(start),
            _ => self.start.elapsed(),
        };
        self.cpu_before + now + self.threads_cpu
    }

    /// Records the CPU time in the journal and flushes the spool and the journal.
    pub(crate) fn sync(&mut self) -> Result<(), CertifyError> {
        let cpu = self.cpu();
        let write = |e: std::io::Error| CertifyError::Write(e.to_string());
        if let Out::Spool(s) = &mut self.out {
            s.get_mut().flush().map_err(write)?;
        }
        if let Some(j) = &mut self.journal {
            j.cpu(cpu).map_err(write)?;
            j.flush().map_err(write)?;
        }
        Ok(())
    }

    /// About every minute: the files synced (with the CPU time so far in the journal), and a
    /// progress line if asked for.
    pub(super) fn tick(&mut self) -> Result<(), CertifyError> {
        if !(self.progress || self.journal.is_some()) || self.synced.elapsed() < PROGRESS_EVERY {
            return Ok(());
        }
        self.synced = Instant::now();
        self.sync()?;
        if !self.progress {
            return Ok(());
        }
        let bytes = match &self.out {
            Out::Spool(s) => self.kept_bytes + s.bytes(),
            Out::Memory(_) => 0,
        };
        // Where the build is: the first moves of the line it is writing, and the option of
        // each of the first covers on it (the options are written one after another; each
        // takes cells out of those in every carrier, and the cover ends when none is left).
        let at: Vec<String> = self.line.iter().take(4).map(Cell::to_string).collect();
        let cover = match self.covers.split_first() {
            Some(((k, n), deeper)) => {
                let deeper: String =
                    deeper.iter().take(2).map(|(k, n)| format!(", then {k} ({n})")).collect();
                format!("; covers: option {k} ({n} cells in every carrier before it){deeper}")
            }
            None => String::new(),
        };
        eprintln!(
            "certificate: {} nodes written ({:.1} MB), {:.0} s of CPU, {} re-solves ({} from \
             the journal, {} with fill-in{}), at {}{cover}",
            self.closed.len(),
            bytes as f64 / 1e6,
            self.cpu().as_secs_f64(),
            self.solves,
            self.journaled,
            self.filled,
            match self.given_up() {
                t if t.is_zero() => String::new(),
                t => format!(" after {:.0} s of CPU without it", t.as_secs_f64()),
            },
            if at.is_empty() { "the root".to_string() } else { at.join(" ") }
        );
        Ok(())
    }

    /// The CPU time the threads spent in re-solves given up for the worker with fill-in (in
    /// this run of the build).
    pub(crate) fn given_up(&self) -> Duration {
        self.workers.iter().map(|w| w.given_up).sum()
    }

    /// Records that `pos`'s key has node `id`, in the journal too.
    pub(super) fn remember(&mut self, key: u128, id: u32) -> Result<(), CertifyError> {
        if self.made.insert(key, id) != Some(id) {
            if let Some(j) = &mut self.journal {
                j.made(key, id).map_err(|e| CertifyError::Write(e.to_string()))?;
            }
        }
        Ok(())
    }
}
