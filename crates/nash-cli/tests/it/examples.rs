//! Every command example of README.md and of `nash --help` (and each subcommand's `--help`)
//! runs and succeeds, so that what a new user copies works.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The workspace root, where README.md and testdata/ live.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One command line of an example, split as a POSIX shell would for the simple forms the
/// examples use: words, double- and single-quoted words, a leading `NAME=value`, and `< FILE`.
#[derive(Debug)]
struct Example {
    line: String,
    env: Vec<(String, String)>,
    args: Vec<String>,
    stdin: Option<String>,
}

/// The words of `line`, and whether every quote was closed.
fn words(line: &str) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, '#') if word.is_none() => break,
            (None, c) if c.is_whitespace() => out.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word);
    (out, quote.is_none())
}

/// The example on `line`, if it is a `nash` command (`cargo run … -- ARGS` counts as `nash
/// ARGS`).
fn example(line: &str) -> Option<Example> {
    let (w, closed) = words(line.trim());
    let mut w = w.into_iter().peekable();
    let mut env = Vec::new();
    while let Some((name, value)) = w.peek().and_then(|s| s.split_once('=')) {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
            break;
        }
        env.push((name.to_owned(), value.to_owned()));
        w.next();
    }
    let rest: Vec<String> = w.collect();
    let args: Vec<String> = match rest.first().map(String::as_str) {
        Some("nash") => rest[1..].to_vec(),
        Some("cargo") if rest.get(1).map(String::as_str) == Some("run") => {
            let dashes = rest.iter().position(|a| a == "--")?;
            rest[dashes + 1..].to_vec()
        }
        _ => return None,
    };
    assert!(closed, "unclosed quote in example {line:?}");
    let (args, stdin) = match args.iter().position(|a| a == "<") {
        Some(i) => (args[..i].to_vec(), args.get(i + 1).cloned()),
        None => (args, None),
    };
    Some(Example { line: line.trim().to_owned(), env, args, stdin })
}

/// Runs an example in a scratch directory (so that nothing it writes lands in the checkout),
/// with paths under testdata/ pointing at the workspace's.
fn run(ex: &Example, scratch: &Path) {
    let fix = |a: &String| {
        if a.starts_with("testdata/") {
            root().join(a).to_string_lossy().into_owned()
        } else {
            a.clone()
        }
    };
    let stdin = match &ex.stdin {
        Some(f) => Stdio::from(std::fs::File::open(root().join(f)).expect("example's input")),
        None => Stdio::null(),
    };
    let out = Command::new(env!("CARGO_BIN_EXE_nash"))
        .args(ex.args.iter().map(fix))
        .envs(ex.env.iter().map(|(k, v)| (k, v)))
        .current_dir(scratch)
        .stdin(stdin)
        .output()
        .expect("nash runs");
    assert!(
        out.status.success(),
        "example `{}` failed ({}): {}",
        ex.line,
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nash-examples-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

#[test]
fn readme_examples_run() {
    let text = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let mut in_shell = false;
    let mut examples = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_shell = line.trim() == "```sh";
            continue;
        }
        if in_shell {
            examples.extend(example(line));
        }
    }
    // The first lines of the README are the main job on its built-in default.
    assert_eq!(examples.first().map(|e| e.args.as_slice()), Some(&["solve".to_owned()][..]));
    assert!(examples.len() >= 15, "only {} examples found in README.md", examples.len());
    let scratch = scratch_dir("readme");
    for ex in &examples {
        run(ex, &scratch);
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn help_examples_run() {
    let help = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_nash")).args(args).output().expect("nash");
        assert!(out.status.success(), "nash {args:?}");
        String::from_utf8(out.stdout).expect("utf-8 help")
    };
    let top = help(&["--help"]);
    let mut texts = vec![top.clone()];
    // Each subcommand listed under "Commands:" (but `help` itself).
    let subcommands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|s| s != "help")
        .collect();
    assert!(subcommands.len() >= 6, "{subcommands:?}");
    for sub in &subcommands {
        let text = help(&[sub, "--help"]);
        assert!(text.contains("Examples:"), "nash {sub} --help has no examples");
        texts.push(text);
    }
    let examples: Vec<Example> = texts.iter().flat_map(|t| t.lines()).filter_map(example).collect();
    assert!(examples.len() >= 15, "only {} examples in the help", examples.len());
    let scratch = scratch_dir("help");
    for ex in &examples {
        run(ex, &scratch);
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn example_lines_split_like_a_shell() {
    let ex = example(r#"RUST_LOG=debug nash show "b3 swap-pieces c3" -s 5 < in.sgf  # note"#)
        .expect("an example");
    assert_eq!(ex.env, [("RUST_LOG".to_owned(), "debug".to_owned())]);
    assert_eq!(ex.args, ["show", "b3 swap-pieces c3", "-s", "5"]);
    assert_eq!(ex.stdin.as_deref(), Some("in.sgf"));
    let ex = example("cargo run --release -p nash-cli -- solve   # the default").expect("cargo");
    assert_eq!(ex.args, ["solve"]);
    assert!(example("cargo test --workspace").is_none());
    assert!(example("nashville").is_none());
}
