//! `cargo xtask hexgui`: a real HexGui window with `nash htp` attached, on a virtual X display,
//! driven by xdotool. First every record of [`records`] that `nash` writes is opened in HexGui,
//! which must read it as the same game; then a 9x9 game record with a HexGui swap is loaded, a cell is clicked,
//! genmove, the inferior-cell hint, a solve stopped with Stop, a move back and forth, then
//! every entry of the analysis menu from HexGui's Analyze dialog.
//! Screenshots go to `target/hexgui/`. It fails when HexGui's log shows an error answer or a
//! disconnect, or when a `showboard` answer differs from the position the commands HexGui sent
//! make (replayed with nash-board, HTP's swap being Benzene's).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use nash_board::{Color, Move, Position, WideBitboard};

mod records;

/// Arguments of `cargo xtask hexgui`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The `nash` binary to attach; by default `cargo build --release -p nash-cli` builds it.
    #[arg(long)]
    nash: Option<PathBuf>,
    /// The HexGui jar (HexGui is not part of this repository: download it, or set NASH_HEXGUI_JAR).
    #[arg(long, env = "NASH_HEXGUI_JAR", value_name = "FILE")]
    jar: PathBuf,
    /// The X display number Xvfb serves.
    #[arg(long, default_value_t = 77)]
    display: u32,
    /// Where the screenshots and HexGui's log go.
    #[arg(long, default_value = "target/hexgui")]
    out: PathBuf,
}

/// The record HexGui opens: 9x9, Black's e5 answered by HexGui's swap (the stone stays, White
/// moves again), then d6 and c7.
const GAME: &str = "(;FF[4]AP[HexGui:0.9]GM[11]SZ[9];B[e5];W[swap-pieces];W[d6];B[c7])\n";

/// Toolbar buttons of HexGui 0.9's window on a fresh 1280x1024 screen (x, y in pixels).
const BACK: (u32, u32) = (296, 66);
const FORWARD: (u32, u32) = (330, 66);
const GENMOVE: (u32, u32) = (563, 66);
const STOP: (u32, u32) = (598, 66);
const HINT: (u32, u32) = (689, 66);
const SOLVE: (u32, u32) = (723, 66);

/// The centre of a cell (column, row from 0) of the 9x9 board in that window.
fn cell_xy(col: u32, row: u32) -> (u32, u32) {
    let x = 133.0 + 37.9 * f64::from(col) + 19.0 * f64::from(row);
    let y = 200.6 + 33.0 * f64::from(row);
    (x.round() as u32, y.round() as u32)
}

/// A process that is killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask is in the workspace");
    // The jar first: nothing is installed or built for a run that cannot start.
    let jar = std::fs::canonicalize(&args.jar).ok().filter(|j| j.is_file()).with_context(|| {
        format!(
            "--jar {}: no such file (give the HexGui jar with --jar FILE or NASH_HEXGUI_JAR)",
            args.jar.display()
        )
    })?;
    install_tools()?;
    let nash = match args.nash {
        Some(p) => {
            std::fs::canonicalize(&p).with_context(|| format!("no nash at {}", p.display()))?
        }
        None => crate::htp::build_nash()?,
    };
    let out = root.join(&args.out);
    std::fs::create_dir_all(out.join("home"))?;
    let game = out.join("game.sgf");
    std::fs::write(&game, GAME)?;
    let display = format!(":{}", args.display);

    let _xvfb = Killed(
        Command::new("Xvfb")
            .args([display.as_str(), "-screen", "0", "1280x1024x24"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start Xvfb")?,
    );
    std::thread::sleep(Duration::from_secs(2));
    // Records Nash writes, each opened in its own HexGui.
    let record_problems = records::check(root, &nash, &jar, &display, &out)?;
    let log_path = out.join("hexgui.log");
    let log_file = std::fs::File::create(&log_path)?;
    let program = format!("{} htp", nash.display());
    let _hexgui = Killed(
        Command::new("java")
            .arg("-jar")
            .arg(&jar)
            .arg("-program")
            .arg(&program)
            .arg(&game)
            .env("DISPLAY", &display)
            // A fresh home: HexGui keeps its preferences (board size, window) there.
            .env("HOME", out.join("home"))
            .stdout(log_file.try_clone()?)
            .stderr(log_file)
            .spawn()
            .context("cannot start java")?,
    );
    let session = Session { display, log: log_path, out: out.clone() };

    session.wait_for("white to move'", 1, Duration::from_secs(60))?;
    session.shot("01-connected")?;
    // White clicks f4; then Generate Computer Move answers for Black.
    session.click(cell_xy(5, 3))?;
    session.wait_for("sending 'play white f4'", 1, Duration::from_secs(10))?;
    session.click(GENMOVE)?;
    session.wait_answer("genmove black", Duration::from_secs(60))?;
    session.shot("02-genmove")?;
    // The hint button: vc-build, drawn as inferior cells.
    session.click(HINT)?;
    session.wait_answer("vc-build", Duration::from_secs(60))?;
    session.shot("03-hint")?;
    // Solve, with progress, then Stop.
    session.click(SOLVE)?;
    session.wait_for("sending 'dfpn-solve-state", 1, Duration::from_secs(10))?;
    std::thread::sleep(Duration::from_secs(4));
    session.shot("04-solving")?;
    session.click(STOP)?;
    session.wait_answer("dfpn-solve-state", Duration::from_secs(20))?;
    session.shot("05-stopped")?;
    // Back one move and forward again: undo, showboard, play, showboard.
    session.click(BACK)?;
    session.click(FORWARD)?;
    session.wait_for("sending 'showboard'", 4, Duration::from_secs(10))?;
    std::thread::sleep(Duration::from_secs(1));
    session.shot("06-end")?;
    session.run_analysis_entries()?;

    let log = std::fs::read_to_string(&session.log)?;
    let mut problems = check_log(&log);
    problems.extend(record_problems);
    for p in &problems {
        eprintln!("{p}");
    }
    println!("screenshots and HexGui's log in {}", out.display());
    if !problems.is_empty() {
        bail!("{} problem(s) in HexGui's log", problems.len());
    }
    if !log.contains("success: 'empty'") {
        bail!("the stopped solve did not answer empty");
    }
    Ok(())
}

/// Installs Xvfb, xdotool and ImageMagick's `import` with apt when one is missing.
fn install_tools() -> anyhow::Result<()> {
    let missing: Vec<&str> = [("Xvfb", "xvfb"), ("xdotool", "xdotool"), ("import", "imagemagick")]
        .into_iter()
        .filter(|(bin, _)| {
            Command::new("sh")
                .args(["-c", &format!("command -v {bin}")])
                .output()
                .map_or(true, |o| !o.status.success())
        })
        .map(|(_, pkg)| pkg)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    println!("installing {}", missing.join(" "));
    let ok = Command::new("apt-get")
        .args(["install", "-y", "-qq", "--no-install-recommends"])
        .args(&missing)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        bail!("cannot install {} (apt-get install as root)", missing.join(" "));
    }
    Ok(())
}

/// HexGui's View menu and its Show Analyze item.
const VIEW_MENU: (u32, u32) = (229, 36);
const SHOW_ANALYZE: (u32, u32) = (287, 100);
/// Where the Analyze dialog is moved (right of the board), and where other dialogs go (below
/// the board, mostly off the screen, clear of the dialog's list).
const ANALYZE_AT: (u32, u32) = (880, 0);
const DIALOGS_AT: (u32, u32) = (480, 950);
/// The centre of the analysis list's first row, and the rows' height, in the moved dialog.
const FIRST_ROW: (u32, u32) = (930, 9);
const ROW_HEIGHT: f64 = 17.0;
/// The Analyze dialog's size once moved: tall enough that its list shows every entry of
/// Nash's menu without scrolling (`ROWS_SHOWN` rows).
const ANALYZE_SIZE: (u32, u32) = (400, 1010);
const ROWS_SHOWN: usize = 56;

/// Windows of the session that are not dialogs an entry opened.
const KNOWN_WINDOWS: &[&str] = &["", "Analyze", "Content window", "FocusProxy"];

struct Session {
    display: String,
    log: PathBuf,
    out: PathBuf,
}

impl Session {
    fn xdotool(&self, args: &[&str]) -> anyhow::Result<()> {
        let status = Command::new("xdotool").args(args).env("DISPLAY", &self.display).status()?;
        if !status.success() {
            bail!("xdotool {} failed", args.join(" "));
        }
        Ok(())
    }

    fn click(&self, (x, y): (u32, u32)) -> anyhow::Result<()> {
        self.xdotool(&["mousemove", &x.to_string(), &y.to_string(), "click", "1"])?;
        std::thread::sleep(Duration::from_millis(500));
        Ok(())
    }

    fn shot(&self, name: &str) -> anyhow::Result<()> {
        let file = self.out.join(format!("{name}.png"));
        let status = Command::new("import")
            .args(["-window", "root", "-crop", "1100x900+0+0"])
            .arg(&file)
            .env("DISPLAY", &self.display)
            .status()?;
        if !status.success() {
            bail!("screenshot {name} failed");
        }
        Ok(())
    }

    /// Runs every entry of HexGui's analysis menu, by double-clicking it in
    /// the Analyze dialog, two cells chosen for the entries that need them and a file typed
    /// into the chooser of those that ask for one; an entry still
    /// running after five seconds is stopped. Parameter dialogs are cancelled, other windows
    /// moved off the board; a screenshot of each display.
    fn run_analysis_entries(&self) -> anyhow::Result<()> {
        let log = std::fs::read_to_string(&self.log)?;
        let at = log.find("success: 'param/").context("no analysis menu in HexGui's log")?;
        let menu: Vec<String> = log[at + "success: '".len()..]
            .lines()
            .take_while(|l| !l.starts_with("controller:"))
            .map(|l| l.trim_end_matches('\'').to_owned())
            .filter(|l| l.contains('/'))
            .collect();
        self.click(VIEW_MENU)?;
        self.click(SHOW_ANALYZE)?;
        std::thread::sleep(Duration::from_secs(1));
        let (x, y) = ANALYZE_AT;
        self.xdotool(&[
            "search",
            "--name",
            "^Analyze$",
            "windowmove",
            &x.to_string(),
            &y.to_string(),
        ])?;
        if menu.len() > ROWS_SHOWN {
            bail!("{} analysis entries, more than the {ROWS_SHOWN} the list shows", menu.len());
        }
        let (w, h) = ANALYZE_SIZE;
        self.xdotool(&[
            "search",
            "--name",
            "^Analyze$",
            "windowsize",
            &w.to_string(),
            &h.to_string(),
        ])?;
        std::thread::sleep(Duration::from_millis(500));
        for (i, entry) in menu.iter().enumerate() {
            let label = entry.split('/').nth(1).unwrap_or_default().to_owned();
            if entry.contains("%P") {
                // Two cells chosen: ctrl-click, then ctrl-shift-click.
                let (ax, ay) = cell_xy(4, 4);
                // e5 and f6: a bridge, so the connection dialog has one to show.
                let (bx, by) = cell_xy(5, 5);
                self.xdotool(&[
                    "mousemove",
                    &ax.to_string(),
                    &ay.to_string(),
                    "keydown",
                    "ctrl",
                    "click",
                    "1",
                    "keyup",
                    "ctrl",
                ])?;
                self.xdotool(&[
                    "mousemove",
                    &bx.to_string(),
                    &by.to_string(),
                    "keydown",
                    "ctrl+shift",
                    "click",
                    "1",
                    "keyup",
                    "ctrl+shift",
                ])?;
                std::thread::sleep(Duration::from_millis(300));
            }
            let answers = self.answers();
            let row_y = FIRST_ROW.1 + (ROW_HEIGHT * i as f64).round() as u32;
            self.xdotool(&[
                "mousemove",
                &FIRST_ROW.0.to_string(),
                &row_y.to_string(),
                "click",
                "--repeat",
                "2",
                "--delay",
                "80",
                "1",
            ])?;
            if entry.contains("%r") || entry.contains("%w") {
                // A file chooser: its name field has the focus; a database in the output
                // folder (created by `dfpn-open-db`, merged into itself, a book it is not).
                std::thread::sleep(Duration::from_millis(1500));
                let file = self.out.join("walk.db");
                self.xdotool(&["type", "--delay", "20", &file.display().to_string()])?;
                self.xdotool(&["key", "Return"])?;
            }
            if self.wait_answers(answers, Duration::from_secs(5)).is_err() {
                self.click(STOP)?;
                self.wait_answers(answers, Duration::from_secs(60))
                    .with_context(|| format!("the analysis entry {label:?}"))?;
            }
            std::thread::sleep(Duration::from_millis(800));
            self.tidy_windows()?;
            let name: String =
                label.to_lowercase().split_whitespace().collect::<Vec<_>>().join("-");
            self.shot(&format!("a{i:02}-{name}"))?;
        }
        Ok(())
    }

    /// The answers (success or error) HexGui's log shows so far.
    fn answers(&self) -> usize {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        log.matches("controller: success:").count() + log.matches("controller: error:").count()
    }

    fn wait_answers(&self, before: usize, limit: Duration) -> anyhow::Result<()> {
        let start = Instant::now();
        while self.answers() <= before {
            if start.elapsed() > limit {
                bail!("no answer after {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        Ok(())
    }

    /// Cancels parameter dialogs and moves every other new window off the board.
    fn tidy_windows(&self) -> anyhow::Result<()> {
        let out = Command::new("xdotool")
            .args(["search", "--onlyvisible", "--name", ".*"])
            .env("DISPLAY", &self.display)
            .output()?;
        for id in String::from_utf8_lossy(&out.stdout).split_whitespace() {
            let name = self.query(&["getwindowname", id]);
            if KNOWN_WINDOWS.contains(&name.as_str()) || name.starts_with("HexGui") {
                continue;
            }
            if name == "Edit Parameters" {
                // Its Cancel button: about 63% across, 25 pixels above the bottom.
                let geometry = self.query(&["getwindowgeometry", "--shell", id]);
                let get = |k: &str| -> u32 {
                    geometry
                        .lines()
                        .find_map(|l| l.strip_prefix(k))
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0)
                };
                let (x, y, w, h) = (get("X="), get("Y="), get("WIDTH="), get("HEIGHT="));
                self.click((x + w * 63 / 100, (y + h).saturating_sub(25)))?;
            } else {
                let (x, y) = DIALOGS_AT;
                let _ = self.xdotool(&["windowmove", id, &x.to_string(), &y.to_string()]);
            }
        }
        Ok(())
    }

    fn query(&self, args: &[&str]) -> String {
        Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap_or_default()
    }

    /// Waits until `text` occurs `times` times in HexGui's log.
    fn wait_for(&self, text: &str, times: usize, limit: Duration) -> anyhow::Result<()> {
        let start = Instant::now();
        loop {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            if log.matches(text).count() >= times {
                return Ok(());
            }
            if start.elapsed() > limit {
                bail!("HexGui's log has no {text:?} after {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Waits until the command starting with `command` has been answered.
    fn wait_answer(&self, command: &str, limit: Duration) -> anyhow::Result<()> {
        let start = Instant::now();
        loop {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            if let Some(at) = log.rfind(&format!("sending '{command}")) {
                if log[at..].contains("controller: done waiting")
                    && log[at..].contains("controller: ")
                {
                    let rest = &log[at..];
                    if rest.contains("success:") || rest.contains("error:") {
                        std::thread::sleep(Duration::from_millis(500));
                        return Ok(());
                    }
                }
            }
            if start.elapsed() > limit {
                bail!("no answer to {command:?} in HexGui's log after {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

/// The problems HexGui's log shows: error answers, disconnects, and `showboard` answers that
/// differ from the position the commands sent before them make.
fn check_log(log: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for bad in ["Caught error", "Disconnected", "controller: invalid"] {
        for line in log.lines().filter(|l| l.contains(bad)) {
            problems.push(format!("HexGui: {line}"));
        }
    }
    let mut pos: Option<Position<WideBitboard>> = None;
    let mut last: Option<String> = None;
    for Exchange { command, ok, answer, error, interrupted } in exchanges(log) {
        // An error answer is a problem, unless Stop interrupted the command (an interrupted
        // dfpn-solver-find-winning answers `? undecided … (interrupted)`), or it is the
        // protocol's own failure of `final_score` in a game that is not over.
        let unfinished = pos.as_ref().is_some_and(|p| p.winner().is_none());
        let expected = command == "final_score" && unfinished;
        if let Some(line) =
            error.filter(|l| !(interrupted || expected && l.contains("cannot score")))
        {
            problems.push(format!("HexGui: {line} (to {command})"));
        }
        let words: Vec<&str> = command.split_whitespace().collect();
        match (words.as_slice(), &answer) {
            (["boardsize", c, r], _) if ok => {
                pos =
                    c.parse().ok().zip(r.parse().ok()).and_then(|(c, r)| Position::new(c, r).ok());
            }
            (["play", color, mv], _) if ok => apply(&mut pos, color, mv, &mut problems),
            (["genmove", color], Some(mv)) => apply(&mut pos, color, mv.trim(), &mut problems),
            (["undo"], _) if ok => {
                if let Some(p) = pos.as_mut() {
                    p.undo();
                }
            }
            (["showboard"], Some(board)) => {
                if let Some(p) = &pos {
                    let want = p.to_string();
                    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
                    if norm(board) != norm(&want) {
                        problems.push(format!(
                            "showboard after {last:?} differs from the commands' position:\n{board}\nexpected:\n{want}"
                        ));
                    }
                }
            }
            _ => {}
        }
        last = Some(command);
    }
    problems
}

/// One command HexGui sent, as its log shows it.
struct Exchange {
    command: String,
    /// Whether the engine answered it with success.
    ok: bool,
    /// The success answer's text, where the log shows it in one piece (HexGui's threads share
    /// the log: another thread's line may come between `success:` and the text).
    answer: Option<String>,
    /// The error line, when the engine refused it.
    error: Option<String>,
    /// Whether HexGui sent an interrupt while it ran.
    interrupted: bool,
}

/// Every command HexGui's log shows it sent, in order, each with what came back before the
/// next one was sent.
fn exchanges(log: &str) -> Vec<Exchange> {
    const SENDING: &str = "controller: sending '";
    const SUCCESS: &str = "controller: success: '";
    let mut all = Vec::new();
    let mut rest = log;
    while let Some(at) = rest.find(SENDING) {
        rest = &rest[at + SENDING.len()..];
        let Some(end) = rest.find('\'') else { break };
        let command = rest[..end].trim().to_owned();
        let region = &rest[..rest.find(SENDING).unwrap_or(rest.len())];
        let answer = region.find(SUCCESS).map(|ok| {
            let body = &region[ok + SUCCESS.len()..];
            body[..body.find('\'').unwrap_or(body.len())].to_owned()
        });
        let error = region
            .find("controller: error:")
            .map(|e| region[e..].lines().next().unwrap_or_default().to_owned());
        all.push(Exchange {
            command,
            ok: region.contains("controller: success:"),
            answer,
            error,
            interrupted: region.contains("Sending interrupt"),
        });
    }
    all
}

/// Plays an HTP move on the replayed position (HTP's `swap-pieces` is nash-board's
/// `swap-sides`).
fn apply(
    pos: &mut Option<Position<WideBitboard>>,
    color: &str,
    mv: &str,
    problems: &mut Vec<String>,
) {
    let Some(p) = pos.as_mut() else { return };
    let (Ok(color), Ok(mv)) = (color.parse::<Color>(), mv.parse::<Move>()) else {
        problems.push(format!("cannot read the move {color} {mv}"));
        return;
    };
    let mv = if mv == Move::SwapPieces { Move::SwapSides } else { mv };
    if mv == Move::Resign {
        return;
    }
    if let Err(e) = p.apply_as(color, mv) {
        problems.push(format!("{color} {mv}: {e}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOARD: &str =
        "   a  b  c\n1  .  .  .  1\n 2  .  B  .  2\n  3  .  .  .  3\n     a  b  c\nwhite to move";

    #[test]
    fn a_log_whose_boards_follow_the_commands_has_no_problems() {
        let log = format!(
            "controller: sending 'boardsize 3 3'\ncontroller: success: ''\n\
             controller: sending 'play black b2'\ncontroller: success: ''\n\
             controller: sending 'play white swap-pieces'\ncontroller: success: ''\n\
             controller: sending 'showboard'\ncontroller: success: '{BOARD}'\n"
        );
        assert_eq!(check_log(&log), Vec::<String>::new());
    }

    #[test]
    fn errors_and_boards_out_of_step_are_problems() {
        // The board-transform swap would have left a white stone: the board is out of step.
        let log = format!(
            "controller: sending 'boardsize 3 3'\ncontroller: success: ''\n\
             controller: sending 'play black b2'\ncontroller: success: ''\n\
             controller: sending 'play white a1'\ncontroller: error: '? oops'\n\
             controller: sending 'showboard'\ncontroller: success: '{}'\n",
            BOARD.replace('B', "W")
        );
        let problems = check_log(&log);
        assert_eq!(problems.len(), 2, "{problems:#?}");
        assert!(problems[0].contains("controller: error"));
        assert!(problems[1].starts_with("showboard after"));
    }

    #[test]
    fn final_score_may_fail_only_while_the_game_goes_on() {
        let unfinished = "controller: sending 'boardsize 3 3'\ncontroller: success: ''\n\
             controller: sending 'play black b2'\ncontroller: success: ''\n\
             controller: sending 'final_score'\n\
             controller: error: 'cannot score: the game is not over'\n";
        assert_eq!(check_log(unfinished), Vec::<String>::new());
        let over = "controller: sending 'boardsize 1 1'\ncontroller: success: ''\n\
             controller: sending 'play black a1'\ncontroller: success: ''\n\
             controller: sending 'final_score'\n\
             controller: error: 'cannot score: the game is not over'\n";
        assert_eq!(check_log(over).len(), 1);
    }
}
