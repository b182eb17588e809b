//! The controller's side of the Hex Text Protocol: an engine as a child process, asked one
//! command at a time with an optional time limit. `regress-tst` runs its suites and
//! `tournament` plays its games through it.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};

/// How long an engine is given to leave after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// A running HTP engine with a thread that reads its answers.
#[derive(Debug)]
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<Option<String>>,
}

impl Engine {
    /// Starts `program` with `args` in `dir`. The engine's standard error goes to ours when
    /// `show_stderr`, else nowhere (some engines log every search there).
    pub fn start(
        program: &Path,
        args: &[String],
        dir: &Path,
        show_stderr: bool,
    ) -> anyhow::Result<Engine> {
        let stderr = if show_stderr { Stdio::inherit() } else { Stdio::null() };
        Ok(Engine::spawn(program, args, dir, stderr)?.0)
    }

    /// Starts `program` with `args` in `dir`, keeping the lines it writes to standard error,
    /// in order, for the caller to read (an engine that logs its statistics there).
    pub fn start_logged(
        program: &Path,
        args: &[String],
        dir: &Path,
    ) -> anyhow::Result<(Engine, Arc<Mutex<Vec<String>>>)> {
        let (engine, stderr) = Engine::spawn(program, args, dir, Stdio::piped())?;
        let log = Arc::new(Mutex::new(Vec::new()));
        if let Some(stderr) = stderr {
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    let Ok(line) = line else { return };
                    log.lock().unwrap_or_else(|e| e.into_inner()).push(line);
                }
            });
        }
        Ok((engine, log))
    }

    fn spawn(
        program: &Path,
        args: &[String],
        dir: &Path,
        stderr: Stdio,
    ) -> anyhow::Result<(Engine, Option<ChildStderr>)> {
        let mut child = Command::new(program)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .with_context(|| format!("cannot start {}", program.display()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take();
        let (tx, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let answer = read_answer(&mut reader);
                let end = answer.is_none();
                if tx.send(answer).is_err() || end {
                    return;
                }
            }
        });
        Ok((Engine { child, stdin, answers }, stderr))
    }

    /// Sends one command; the answer as `Ok(text)`, or `Err(text)` for `?` answers. An error
    /// when the engine gives no answer within `timeout`, exits, or answers out of protocol.
    pub fn ask(
        &mut self,
        command: &str,
        timeout: Option<Duration>,
    ) -> anyhow::Result<Result<String, String>> {
        writeln!(self.stdin, "{command}").context("engine closed its input")?;
        self.stdin.flush().context("engine closed its input")?;
        let raw = match timeout {
            Some(t) => match self.answers.recv_timeout(t) {
                Ok(a) => a,
                Err(RecvTimeoutError::Timeout) => bail!("no answer within {:.1}s", t.as_secs_f64()),
                Err(RecvTimeoutError::Disconnected) => None,
            },
            None => self.answers.recv().ok().flatten(),
        };
        let raw = raw.ok_or_else(|| anyhow!("engine exited"))?;
        parse_answer(&raw)
    }

    /// Stops the engine at once, without asking it to quit (for one that hangs).
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads the lines of one answer up to the empty line that ends it; `None` at end of output.
pub fn read_answer(reader: &mut impl BufRead) -> Option<String> {
    let mut answer = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return (!answer.is_empty()).then_some(answer),
            Ok(_) => {}
        }
        let text = line.trim_end_matches(['\n', '\r']);
        if text.is_empty() {
            if answer.is_empty() {
                continue;
            }
            return Some(answer);
        }
        if !answer.is_empty() {
            answer.push('\n');
        }
        answer.push_str(text);
    }
}

/// Splits `=id text` / `?id text` into the status and the text.
pub fn parse_answer(raw: &str) -> anyhow::Result<Result<String, String>> {
    let mut chars = raw.chars();
    let status = chars.next().ok_or_else(|| anyhow!("empty answer"))?;
    let rest = chars.as_str().trim_start_matches(|c: char| c.is_ascii_digit());
    let text = rest.strip_prefix(' ').unwrap_or(rest).trim().to_owned();
    match status {
        '=' => Ok(Ok(text)),
        '?' => Ok(Err(text)),
        _ => bail!("malformed answer {raw:?}"),
    }
}

/// Builds the release `nash` binary and returns its path, honouring `CARGO_TARGET_DIR`.
pub fn build_nash() -> anyhow::Result<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask is in the workspace");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "-p", "nash-cli"])
        .current_dir(root)
        .status()
        .context("cannot run cargo")?;
    if !status.success() {
        bail!("cargo build --release -p nash-cli failed");
    }
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    };
    let exe = target.join("release").join(format!("nash{}", std::env::consts::EXE_SUFFIX));
    if !exe.is_file() {
        bail!("built nash not found at {}", exe.display());
    }
    Ok(exe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_split_into_status_and_text() {
        assert_eq!(parse_answer("=11 white").unwrap(), Ok("white".to_owned()));
        assert_eq!(parse_answer("= ").unwrap(), Ok(String::new()));
        assert_eq!(parse_answer("?3 unknown command").unwrap(), Err("unknown command".to_owned()));
        assert_eq!(parse_answer("= \na\nb").unwrap(), Ok("a\nb".to_owned()));
        assert!(parse_answer("x").is_err());
        let mut r = "= a\nb\n\n=1 c\n\n".as_bytes();
        assert_eq!(read_answer(&mut r).as_deref(), Some("= a\nb"));
        assert_eq!(read_answer(&mut r).as_deref(), Some("=1 c"));
        assert_eq!(read_answer(&mut r), None);
    }
}
