//! Integration tests for nash-htp: scripted sessions through the library, and random input.
//! (Sessions through the `nash htp` binary are nash-cli's tests.)

mod commands;
mod consistency;
mod fuzz;
mod hexgui;
mod input;
mod limits;
mod play;
mod session;

use nash_board::alloc_count::CountingAllocator;
use nash_htp::Engine;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Runs `input` through a fresh engine and returns everything it wrote.
pub fn transcript(input: &str) -> String {
    let mut out = Vec::new();
    Engine::new().run(input.as_bytes(), &mut out).expect("in-memory I/O does not fail");
    String::from_utf8(out).expect("answers are UTF-8")
}

/// Splits a transcript into its answers (each without the empty line that ends it).
pub fn answers(transcript: &str) -> Vec<String> {
    assert!(transcript.is_empty() || transcript.ends_with("\n\n"), "unterminated: {transcript:?}");
    transcript.split_terminator("\n\n").map(|a| a.to_owned()).collect()
}

/// The commands of a scripted session, each with the answer it must get (without the final
/// empty line): runs them all in one engine and compares answer by answer.
pub fn check_session(steps: &[(&str, &str)]) {
    let input: String = steps.iter().map(|(c, _)| format!("{c}\n")).collect();
    let got = answers(&transcript(&input));
    assert_eq!(got.len(), steps.len(), "one answer per command: {got:#?}");
    for ((cmd, want), got) in steps.iter().zip(&got) {
        assert_eq!(got, want, "answer to {cmd:?}");
    }
}
