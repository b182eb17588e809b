//! What docs/formats.md and docs/htp.md show is what the programs print.

use std::path::Path;
use std::process::{Command, Stdio};

fn doc(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The first fenced block after the line starting with `heading`.
fn block_after(text: &str, heading: &str) -> String {
    let mut lines = text.lines().skip_while(|l| !l.starts_with(heading));
    lines.next().unwrap_or_else(|| panic!("no {heading:?}"));
    let block: Vec<&str> = lines
        .skip_while(|l| !l.starts_with("```"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .collect();
    block.join("\n")
}

#[test]
fn the_diagram_of_formats_md_is_what_nash_show_prints() {
    let shown = block_after(&doc("formats.md"), "## Board diagrams");
    let out = Command::new(env!("CARGO_BIN_EXE_nash"))
        .args(["show", "b2 a3", "--size", "3"])
        .output()
        .expect("nash runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), shown);
}

/// The answers of `nash htp` to these commands, without their `= ` and final empty line.
fn htp(commands: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_nash"))
        .arg("htp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(commands.as_bytes())?;
            child.wait_with_output()
        })
        .expect("nash htp runs");
    String::from_utf8_lossy(&out.stdout)
        .split_terminator("\n\n")
        .map(|a| a.trim_start_matches("= ").to_owned())
        .collect()
}

#[test]
fn the_listings_of_htp_md_are_what_the_engine_answers() {
    let text = doc("htp.md");
    let answers = htp("hexgui-analyze_commands\nlist_commands\nparam_player\n");
    assert_eq!(answers[0], block_after(&text, "`hexgui-analyze_commands` lists"));
    assert_eq!(
        answers[2].trim_start_matches('\n'),
        block_after(&text, "The listing of a new engine")
    );
    // list_commands starts right after `= `, one command per line, as htp.md says.
    assert!(answers[1].starts_with("protocol_version\nname\n"), "{}", answers[1]);
    assert!(text.contains("(`= protocol_version`, then one command per line)"));
    for name in answers[1].lines() {
        assert!(text.contains(&format!("`{name}")), "htp.md does not document {name}");
    }
}

/// The crate names a manifest lists under `[dependencies]` (Nash's own crates only).
fn nash_dependencies(manifest: &str) -> Vec<String> {
    manifest
        .lines()
        .skip_while(|l| l.trim() != "[dependencies]")
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .filter(|name| name.starts_with("nash-"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_crate_table_of_architecture_md_is_every_direct_dependency() {
    let table = block_after(&doc("ARCHITECTURE.md"), "## Bird's-eye view");
    let mut lines = table.lines();
    let header = lines.next().expect("a header line");
    // Each column's crate, by the position of its name in the header.
    let columns: Vec<(usize, String)> = header
        .split_whitespace()
        .map(|name| (header.find(&format!(" {name}")).unwrap() + 1, format!("nash-{name}")))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut rows = 0;
    for line in lines {
        let krate = line.split_whitespace().next().expect("a crate name");
        let drawn: Vec<String> = line
            .char_indices()
            .filter(|&(_, c)| c == 'x')
            .filter(|&(i, _)| i >= krate.len())
            .map(|(i, _)| {
                let (_, name) = columns
                    .iter()
                    .find(|(at, name)| (*at..*at + name.len() - 5).contains(&i))
                    .unwrap_or_else(|| panic!("an x outside every column: {line:?}"));
                name.clone()
            })
            .collect();
        let dir =
            if krate == "xtask" { root.join("xtask") } else { root.join("crates").join(krate) };
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("a manifest");
        let mut declared = nash_dependencies(&manifest);
        let mut drawn = drawn;
        declared.sort();
        drawn.sort();
        assert_eq!(drawn, declared, "the row of {krate} in ARCHITECTURE.md");
        rows += 1;
    }
    let crates = std::fs::read_dir(root.join("crates")).expect("crates/").count();
    assert_eq!(rows, crates + 1, "one row per crate and xtask");
}

#[test]
fn the_analysis_session_of_htp_md_runs() {
    // The example session's commands, sent at once: `nash-analyze` stops at the next line
    // (here at once, as `genmove` is read already), and every answer has the listing's form.
    let block = block_after(&doc("htp.md"), "their lines once, when they have answered");
    let commands: Vec<&str> = block
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('=') && !l.starts_with("info") && *l != "...")
        .collect();
    assert_eq!(commands, ["boardsize 9", "play b e5", "nash-analyze 10", "genmove w"]);
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    let answers = htp(&input);
    assert_eq!(answers.len(), commands.len(), "{answers:?}");
    for line in answers[2].lines().skip(1) {
        assert!(line.starts_with("info move ") && line.contains(" pv "), "{line}");
    }
    assert!(answers[2].starts_with('='), "{:?}", answers[2]);
    assert_eq!(answers[3].len(), 2, "genmove answers a cell of 9x9: {:?}", answers[3]);
}
