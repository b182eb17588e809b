//! The wire format of the Hex Text Protocol (GTP version 2 as Hex tools use it): reading one
//! command line, and writing one answer.
//!
//! A command is `[id] name [arg ...]`; an answer is `=[id] text` for success or `?[id] text`
//! for failure, followed by an empty line. Control characters other than tab are dropped, tabs
//! count as spaces, and everything from `#` on is a comment (GTP 2 spec, s.2.1 and s.2.6).

use std::fmt::Write as _;
use std::io::{self, BufRead};

/// The longest input line read, with its line break: a longer one is answered
/// `? line too long` and the rest of it skipped.
pub const MAX_LINE: usize = 1 << 20;

/// What [`read_line`] read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Line {
    /// A whole line (its line break included, unless the input ended first).
    Whole,
    /// A line over the limit: only its start was kept, the rest was read and dropped.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads one line into `buf` (cleared first), keeping at most `limit` bytes of it: the rest
/// of a longer line is read in the reader's own chunks and dropped, so that a line without
/// end never takes more memory than `limit`.
pub fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>, limit: usize) -> io::Result<Line> {
    buf.clear();
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(match (too_long, buf.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::End,
                (false, false) => Line::Whole,
            });
        }
        let (used, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            let room = limit.saturating_sub(buf.len());
            too_long = used > room;
            buf.extend_from_slice(&chunk[..used.min(room)]);
        }
        input.consume(used);
        if ends {
            return Ok(if too_long { Line::TooLong } else { Line::Whole });
        }
    }
}

/// One command, split into its optional numeric id, its name and its arguments.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Command {
    /// The numeric id the controller gave, echoed in the answer.
    pub id: Option<u64>,
    /// The command name (may be empty when a line held only an id).
    pub name: String,
    /// The arguments, split on whitespace.
    pub args: Vec<String>,
}

/// Cleans a raw line as the protocol asks: control characters other than tab removed, tabs
/// turned into spaces, the comment from `#` on dropped, surrounding whitespace trimmed.
pub fn preprocess(line: &str) -> String {
    let before_comment = line.split('#').next().unwrap_or("");
    let cleaned: String = before_comment
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    cleaned.trim().to_owned()
}

/// Parses one input line; `None` for lines the protocol ignores (empty or comment only).
pub fn parse_line(line: &str) -> Option<Command> {
    let text = preprocess(line);
    let mut words = text.split_whitespace();
    let first = words.next()?;
    let (id, name) = match first.parse::<u64>() {
        Ok(id) if first.bytes().all(|b| b.is_ascii_digit()) => {
            (Some(id), words.next().unwrap_or("").to_owned())
        }
        _ => (None, first.to_owned()),
    };
    Some(Command { id, name, args: words.map(str::to_owned).collect() })
}

/// Formats an answer: `=id text` or `?id text`, then the empty line that ends it.
///
/// The text may span lines (a board diagram, a parameter listing); empty lines inside it are
/// dropped because an empty line ends the answer, and trailing whitespace is trimmed.
pub fn format_answer(id: Option<u64>, result: &Result<String, String>) -> String {
    let (mark, text) = match result {
        Ok(t) => ('=', t.as_str()),
        Err(t) => ('?', t.as_str()),
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push(mark);
    if let Some(id) = id {
        let _ = write!(out, "{id}");
    }
    out.push(' ');
    let text = text.trim_end();
    let mut first = true;
    for line in text.split('\n') {
        let line = line.trim_end_matches('\r');
        if !first {
            if line.trim().is_empty() {
                continue;
            }
            out.push('\n');
        }
        out.push_str(line);
        first = false;
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_parse(line: &str, expected: Option<(Option<u64>, &str, &[&str])>) {
        let got = parse_line(line);
        let want = expected.map(|(id, name, args)| Command {
            id,
            name: name.to_owned(),
            args: args.iter().map(|s| (*s).to_owned()).collect(),
        });
        assert_eq!(got, want, "line {line:?}");
    }

    #[test]
    fn lines_parse_into_id_name_and_arguments() {
        check_parse("", None);
        check_parse("   ", None);
        check_parse("# a comment", None);
        check_parse("name", Some((None, "name", &[])));
        check_parse("11 dfpn-solve-state white", Some((Some(11), "dfpn-solve-state", &["white"])));
        check_parse("play\tb  a1 # here", Some((None, "play", &["b", "a1"])));
        check_parse("7", Some((Some(7), "", &[])));
        check_parse("pl\u{1}ay b a1", Some((None, "play", &["b", "a1"])));
        check_parse("-3 name", Some((None, "-3", &["name"])));
    }

    /// Reads every line of `input` with `limit`, through a reader of 3-byte chunks.
    fn lines(input: &str, limit: usize) -> Vec<(Line, String)> {
        let mut reader = io::BufReader::with_capacity(3, input.as_bytes());
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let line = read_line(&mut reader, &mut buf, limit).expect("read");
            if line == Line::End {
                return out;
            }
            out.push((line, String::from_utf8_lossy(&buf).into_owned()));
        }
    }

    #[test]
    fn lines_over_the_limit_are_cut_and_skipped() {
        let whole = |s: &str| (Line::Whole, s.to_owned());
        let long = |s: &str| (Line::TooLong, s.to_owned());
        assert_eq!(lines("", 8), []);
        assert_eq!(lines("name\nversion", 8), [whole("name\n"), whole("version")]);
        assert_eq!(lines("1234567\nab\n", 8), [whole("1234567\n"), whole("ab\n")]);
        assert_eq!(lines("12345678\nab\n", 8), [long("12345678"), whole("ab\n")]);
        assert_eq!(lines("12 play b a1 a1 a1 a1\nname\n", 8), [long("12 play "), whole("name\n")]);
        assert_eq!(lines("no end to this line", 4), [long("no e")]);
    }

    #[test]
    fn answers_end_with_an_empty_line() {
        assert_eq!(format_answer(None, &Ok(String::new())), "= \n\n");
        assert_eq!(format_answer(Some(12), &Ok("white".into())), "=12 white\n\n");
        assert_eq!(
            format_answer(Some(3), &Err("unknown command".into())),
            "?3 unknown command\n\n"
        );
        assert_eq!(format_answer(None, &Ok("\na\n\nb\n".into())), "= \na\nb\n\n");
    }
}
