//! `cargo xtask web`: the browser page built into a folder (nash-web's module for
//! `wasm32-unknown-unknown` and the page's files), and with `--check`, the page driven in
//! headless Chromium and its answers compared with the `nash` binary's.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, ensure, Context};
use serde_json::{json, Value};

/// Arguments of `cargo xtask web`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The folder the page is built into.
    #[arg(long, default_value = "target/web")]
    out: PathBuf,
    /// Then serve the folder on a localhost port, drive the page in headless Chromium, and
    /// compare its solves with `nash solve --threads 1` and `nash winning`.
    #[arg(long)]
    check: bool,
    /// Serve the folder on this localhost port until interrupted, to open the page.
    #[arg(long, value_name = "PORT", conflicts_with = "check")]
    serve: Option<u16>,
    /// The Chromium binary for `--check` (Debian's: `apt-get install chromium`).
    #[arg(long, env = "NASH_CHROMIUM", default_value = "/usr/bin/chromium")]
    chromium: PathBuf,
    /// The `nash` binary `--check` compares with; by default `cargo build --release -p nash-cli`
    /// builds it.
    #[arg(long)]
    nash: Option<PathBuf>,
}

const TARGET: &str = "wasm32-unknown-unknown";

/// The positions `--check` solves in the page and with the CLI: a name and the record the page
/// imports (the CLI reads the same text).
const POSITIONS: &[(&str, &str)] = &[
    ("empty 7x7", "(;FF[4]GM[11]SZ[7])"),
    ("7x7 after d4 c5", "(;FF[4]GM[11]SZ[7];B[d4];W[c5])"),
    ("6x6 after a1", "(;FF[4]GM[11]SZ[6];B[a1])"),
    ("5x5 set up, White to move", "(;FF[4]GM[11]SZ[5]AB[c3][b2]AW[b4]PL[W])"),
    ("4x4 after b2 c2 b3", "(;FF[4]GM[11]SZ[4];B[b2];W[c2];B[b3])"),
];

/// The page's analysis checked on a board beyond the solver: 11x11 after the centre.
const ANALYSE: (&str, u64) = ("(;FF[4]GM[11]SZ[11];B[f6])", 300);
/// A solve long enough to be stopped part way: the empty 9x9 board.
const STOP: &str = "(;FF[4]GM[11]SZ[9])";

pub fn run(args: Args) -> anyhow::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask is in the workspace");
    let out = root.join(&args.out);
    build(root, &out)?;
    eprintln!("web: the page is in {} (open index.html through a web server)", out.display());
    if let Some(port) = args.serve {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .with_context(|| format!("cannot listen on 127.0.0.1:{port}"))?;
        eprintln!("web: serving http://127.0.0.1:{port}/ (Ctrl-C ends)");
        serve(&listener, &out);
        return Ok(());
    }
    if args.check {
        check(&args, &out)?;
    }
    Ok(())
}

/// Builds the module and copies it with the page's files into `out`.
fn build(root: &Path, out: &Path) -> anyhow::Result<()> {
    ensure_target()?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // No debug information in the module: the page downloads it.
    let status = Command::new(cargo)
        .args(["build", "--release", "--lib", "-p", "nash-web", "--target", TARGET])
        .args(["--config", "profile.release.debug=false", "--config", "profile.release.strip=true"])
        .current_dir(root)
        .status()
        .context("cannot run cargo")?;
    ensure!(status.success(), "cargo build -p nash-web --target {TARGET} failed");
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    };
    let wasm = target.join(TARGET).join("release").join("nash_web.wasm");
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    std::fs::copy(&wasm, out.join("nash.wasm"))
        .with_context(|| format!("cannot copy {}", wasm.display()))?;
    let page = root.join("crates/nash-web/page");
    for entry in std::fs::read_dir(&page).with_context(|| format!("{}", page.display()))? {
        let path = entry?.path();
        if path.is_file() {
            let to = out.join(path.file_name().expect("a file has a name"));
            std::fs::copy(&path, &to).with_context(|| format!("cannot copy {}", path.display()))?;
        }
    }
    let bytes = std::fs::metadata(out.join("nash.wasm"))?.len();
    eprintln!("web: nash.wasm {:.1} MiB", bytes as f64 / (1 << 20) as f64);
    Ok(())
}

/// Adds the wasm32 target with rustup when the toolchain lacks it.
fn ensure_target() -> anyhow::Result<()> {
    let Ok(listed) = Command::new("rustup").args(["target", "list", "--installed"]).output() else {
        // No rustup: the toolchain must have the target itself.
        return Ok(());
    };
    if String::from_utf8_lossy(&listed.stdout).lines().any(|l| l.trim() == TARGET) {
        return Ok(());
    }
    eprintln!("web: rustup target add {TARGET}");
    let status = Command::new("rustup").args(["target", "add", TARGET]).status()?;
    ensure!(status.success(), "rustup target add {TARGET} failed");
    Ok(())
}

/// Serves the files of `dir` over HTTP/1.0 GET, one connection at a time, forever.
fn serve(listener: &TcpListener, dir: &Path) {
    for stream in listener.incoming().flatten() {
        if let Err(e) = answer(stream, dir) {
            eprintln!("web: {e}");
        }
    }
}

fn answer(mut stream: TcpStream, dir: &Path) -> anyhow::Result<()> {
    let mut line = String::new();
    let mut reader = BufReader::new(stream.try_clone()?);
    reader.read_line(&mut line)?;
    // The headers are read and ignored.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let name = if path == "/" { "index.html" } else { path.trim_start_matches('/') };
    let file = dir.join(name);
    // Only plain names inside the folder.
    let safe =
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    let body = if safe { std::fs::read(&file).ok() } else { None };
    match body {
        Some(body) => {
            let kind = match file.extension().and_then(|e| e.to_str()) {
                Some("html") => "text/html; charset=utf-8",
                Some("js" | "mjs") => "text/javascript",
                Some("css") => "text/css",
                Some("wasm") => "application/wasm",
                _ => "application/octet-stream",
            };
            write!(
                stream,
                "HTTP/1.0 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
                body.len()
            )?;
            stream.write_all(&body)?;
        }
        None => write!(
            stream,
            "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )?,
    }
    Ok(())
}

fn check(args: &Args, out: &Path) -> anyhow::Result<()> {
    ensure!(
        args.chromium.is_file(),
        "chromium not found at {} (apt-get install chromium, or give --chromium)",
        args.chromium.display()
    );
    let nash = match &args.nash {
        Some(p) => p.clone(),
        None => crate::htp::build_nash()?,
    };
    let listener = TcpListener::bind(("127.0.0.1", 0)).context("cannot listen on localhost")?;
    let port = listener.local_addr()?.port();
    let dir = out.to_path_buf();
    std::thread::spawn(move || serve(&listener, &dir));

    let positions: Vec<Value> =
        POSITIONS.iter().map(|(name, sgf)| json!({ "name": name, "sgf": sgf })).collect();
    let config = json!({
        "url": format!("http://127.0.0.1:{port}/index.html"),
        "chromium": args.chromium,
        "positions": positions,
        "analyse": { "sgf": ANALYSE.0, "playouts": ANALYSE.1 },
        "stop": { "sgf": STOP },
        "bad_sgf": "(;FF[4]GM[11]SZ[5];B[k9])",
    });
    let config_path = out.join("check-config.json");
    std::fs::write(&config_path, serde_json::to_string_pretty(&config)?)?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web/check.mjs");
    eprintln!("web: driving the page in {}", args.chromium.display());
    let run =
        Command::new("node").arg(&script).arg(&config_path).output().context("cannot run node")?;
    let _ = std::fs::remove_file(&config_path);
    if !run.status.success() {
        bail!("the page check failed: {}", String::from_utf8_lossy(&run.stderr).trim());
    }
    let page: Value = serde_json::from_slice(&run.stdout).context("the page check's answer")?;

    let mut failures = Vec::new();
    let load_ms = page["load_ms"].as_f64().unwrap_or(f64::NAN);
    println!("page loaded in {:.0} ms", load_ms);
    println!(
        "{:<28} {:>8} {:>10} {:>10} {:>10} {:>8}  winning moves",
        "position", "winner", "page ms", "cli ms", "page/cli", "nodes"
    );
    let mut target = None;
    for (i, (name, sgf)) in POSITIONS.iter().enumerate() {
        let got = &page["positions"][i];
        if let Some(e) = got["error"].as_str() {
            failures.push(format!("{name}: the page says {e}"));
            continue;
        }
        let cli_started = Instant::now();
        let solved =
            nash_json(&nash, &["solve", "--threads", "1", "--tt-mib", "128", "--json", sgf])?;
        let cli_ms = cli_started.elapsed().as_secs_f64() * 1000.0;
        let winning = nash_json(&nash, &["winning", "--threads", "1", "--json", sgf])?;
        let page_winner = got["solve"]["winner"].as_str().unwrap_or("none");
        let cli_winner = solved["winner"].as_str().unwrap_or("none");
        if page_winner != cli_winner {
            failures
                .push(format!("{name}: the page says {page_winner} wins, nash solve {cli_winner}"));
        }
        let set = |v: &Value| -> Vec<String> {
            let mut s: Vec<String> = v
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c.as_str().map(str::to_owned))
                .collect();
            s.sort();
            s
        };
        let (page_set, cli_set) = (set(&got["winning"]["winning"]), set(&winning["winning"]));
        if page_set != cli_set {
            failures.push(format!(
                "{name}: the page's winning moves {} against nash winning's {}",
                page_set.join(" "),
                cli_set.join(" ")
            ));
        }
        if let Some(mv) = got["solve"]["winning_move"].as_str() {
            if !cli_set.iter().any(|c| c == mv) {
                failures.push(format!(
                    "{name}: the page's winning move {mv} is not one of nash winning's"
                ));
            }
            if !got["solve"]["carrier"].as_array().is_some_and(|c| c.iter().any(|x| x == mv)) {
                failures.push(format!("{name}: the page's carrier lacks its winning move {mv}"));
            }
        }
        let shown = got["shown"]["winning"].as_str().unwrap_or("");
        if !page_set.is_empty() && shown.split_whitespace().count() < page_set.len() {
            failures.push(format!("{name}: the page shows winning moves {shown:?}"));
        }
        // Like for like: the page's request for the value and its line (the worker's clock),
        // against the whole `nash solve --threads 1` command.
        let page_ms = got["solve"]["time_ms"].as_f64().unwrap_or(f64::NAN);
        let ratio = page_ms / cli_ms;
        println!(
            "{name:<28} {page_winner:>8} {page_ms:>10.0} {cli_ms:>10.0} {ratio:>10.2} {:>8}  {}",
            got["solve"]["nodes"],
            page_set.join(" ")
        );
        if got["solve"]["nodes"] != solved["stats"]["nodes"] {
            println!(
                "  nodes differ: page {} against nash solve {}",
                got["solve"]["nodes"], solved["stats"]["nodes"]
            );
        }
        if i == 0 {
            let solve_wall = got["solve_wall_ms"].as_f64().unwrap_or(f64::NAN);
            target = Some((load_ms + solve_wall, cli_ms, ratio));
        }
    }
    if let Some((page_total, cli_ms, ratio)) = target {
        println!(
            "empty 7x7: the page loaded and answered the solve in {:.2} s; nash solve --threads 1 took \
             {:.2} s; the solve in the page took {ratio:.2}x the CLI's time (target at most 3x)",
            page_total / 1000.0,
            cli_ms / 1000.0
        );
        if ratio.is_nan() || ratio > 3.0 {
            failures
                .push(format!("empty 7x7: the page took {ratio:.2}x the CLI's time, more than 3x"));
        }
    }
    let a = &page["analyse"];
    let mv = a["move"].as_str().unwrap_or("");
    let pv_ok = a["pv"].as_array().is_some_and(|pv| pv.first().is_some_and(|m| m == mv));
    println!(
        "11x11 after f6, analysed with {} playouts: {mv} ({} ms), pv {}",
        ANALYSE.1, a["time_ms"], a["pv"]
    );
    if mv.is_empty() || !pv_ok || !a["scores"].as_array().is_some_and(|s| !s.is_empty()) {
        failures.push(format!("analyse: the page answered {a}"));
    }
    let s = &page["stop"];
    println!(
        "stop during a 9x9 solve: {} after {:.0} ms",
        s["ended"],
        s["stop_ms"].as_f64().unwrap_or(f64::NAN)
    );
    if s["busy"] != "yes" || s["ended"] != "stopped" || s["after"] != "no" {
        failures.push(format!("stop: the page answered {s}"));
    }
    let bad = page["bad_sgf"].as_str().unwrap_or("");
    println!("a record with k9 on 5x5: {bad}");
    if !bad.contains("k9") {
        failures.push(format!("a bad record: the page says {bad:?}"));
    }
    if !failures.is_empty() {
        bail!("the page disagrees:\n  {}", failures.join("\n  "));
    }
    println!("the page agrees with nash on {} positions", POSITIONS.len());
    Ok(())
}

/// `nash ARGS` answering JSON on standard output.
fn nash_json(nash: &Path, args: &[&str]) -> anyhow::Result<Value> {
    let out = Command::new(nash)
        .args(args)
        .output()
        .with_context(|| format!("cannot run {}", nash.display()))?;
    ensure!(
        out.status.success(),
        "nash {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr).trim()
    );
    serde_json::from_slice(&out.stdout)
        .with_context(|| format!("nash {}: not JSON", args.join(" ")))
}
