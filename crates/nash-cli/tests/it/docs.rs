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
