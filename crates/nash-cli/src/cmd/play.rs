//! `nash play`: a game in the terminal between a person and a Nash player.
//!
//! The person types cells, `swap`, `undo`, `resign`, `quit` or `help` on standard input, one a
//! line; the board is drawn after every move; the game record is saved as SGF at the end,
//! whatever ended it. Input is read line by line, so a game can be piped in and tested.

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context;
use nash_board::{sgf::GameRecord, AnyPosition, Color, Move};
use nash_htp::protocol::{read_line, Line, MAX_LINE};
use nash_play::eval::PROVEN;
use nash_play::Player;
use nash_play::{decide, DecidedBy};
use nash_search::SolverConfig;

use crate::input::{lowercase_first, BoardSize};

/// Arguments of `nash play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size: N for N×N, or CxR for C columns and R rows.
    #[arg(long, short, default_value = "9", value_name = "N|CxR")]
    size: BoardSize,
    /// The person's colour (Black moves first and connects top and bottom).
    #[arg(long, value_enum, default_value_t = Side::Black)]
    color: Side,
    /// Where to save the game record (default: nash-game-DATE-TIME.sgf here).
    #[arg(long, value_name = "FILE")]
    sgf: Option<PathBuf>,
    /// The person's name in the record.
    #[arg(long, default_value = "human")]
    name: String,
    #[command(flatten)]
    player: crate::player::PlayerArgs,
}

/// The person's colour on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Side {
    Black,
    White,
}

const HELP: &str = "\
type a cell (such as e5) to play it, or:
  swap    swap-pieces as your first move: the opening stone becomes yours, mirrored
  undo    take back your last move and the reply to it
  resign  give up the game
  quit    stop here (the record is saved without a result)
  help    this text";

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// A player connected.
    Connected(Color),
    /// This colour resigned.
    Resigned(Color),
    /// The person stopped, or the input ended.
    Quit,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut pos = AnyPosition::new(args.size.cols, args.size.rows)?;
    let mut player = args.player.build()?;
    let human = match args.color {
        Side::Black => Color::Black,
        Side::White => Color::White,
    };
    let settings = args.player.settings(true);
    let budget = args.player.budget();
    let solver = SolverConfig::default();
    outln!(
        "you play {human} ({}), Nash plays {} with {}; type help for the commands",
        edges(human),
        !human,
        args.player.spec()
    );
    let thinking = std::io::IsTerminal::is_terminal(&std::io::stdout());
    outln!("{pos}");
    // Who made each move, for `undo`: true for the person.
    let mut movers: Vec<bool> = Vec::new();
    let typed = std::io::IsTerminal::is_terminal(&std::io::stdin());
    let mut input = std::io::stdin().lock();
    let mut buf = Vec::new();
    let end = loop {
        if let Some(w) = pos.winner() {
            break End::Connected(w);
        }
        let to_move = pos.to_move();
        if to_move != human {
            if thinking {
                out!("Nash is thinking...");
            }
            let d = decide(&pos, player.as_mut(), &budget, &settings, &solver);
            if thinking {
                // Back to the start of the line, and the notice erased.
                out!("\r\x1b[2K");
            }
            if d.mv == Move::Resign {
                outln!("Nash ({}) resigns", !human);
                break End::Resigned(!human);
            }
            pos.apply_as(to_move, d.mv)?;
            movers.push(false);
            let by = match (d.by, d.choice.value) {
                (DecidedBy::Solver, _) => ", a proven win".to_owned(),
                (_, Some(v)) if v >= PROVEN => ", a proven win".to_owned(),
                (_, Some(v)) if v <= -PROVEN => ", though Nash has proven it lost".to_owned(),
                (_, Some(v)) => format!(", value {v:.3}"),
                (_, None) => String::new(),
            };
            outln!("Nash plays {}{by}", d.mv);
            outln!("{pos}");
            continue;
        }
        out!("your move ({human}): ");
        let line = match read_line(&mut input, &mut buf, MAX_LINE) {
            Ok(Line::Whole) => std::str::from_utf8(&buf).map_err(|_| "not UTF-8 text"),
            Ok(Line::TooLong) => Err("line too long"),
            Ok(Line::End) => {
                outln!();
                break End::Quit;
            }
            Err(e) => {
                // The game so far is still saved.
                outln!();
                eprintln!("warning: cannot read standard input: {}", lowercase_first(&e));
                break End::Quit;
            }
        };
        let word = match line {
            Ok(line) => line.trim(),
            Err(why) => {
                // A bad line is reported and the game goes on.
                if !typed {
                    let shown: String = String::from_utf8_lossy(&buf)
                        .chars()
                        .take(40)
                        .map(|c| if c.is_control() { ' ' } else { c })
                        .collect();
                    outln!("{}", shown.trim());
                }
                outln!("? {why}; type help for the commands");
                continue;
            }
        };
        if !typed {
            // Piped input is not echoed by a terminal: show it, so the transcript reads well.
            outln!("{word}");
        }
        match word {
            "" => {}
            "help" | "?" => outln!("{HELP}"),
            "quit" | "exit" => break End::Quit,
            "resign" => break End::Resigned(human),
            "undo" => {
                if !movers.contains(&true) {
                    outln!("nothing to undo: you have not moved yet");
                    continue;
                }
                // Back to the person's previous turn: the reply, then the person's move.
                while let Some(by_human) = movers.pop() {
                    pos.undo();
                    if by_human {
                        break;
                    }
                }
                outln!("{pos}");
            }
            _ => {
                let mv = if word == "swap" { Ok(Move::SwapPieces) } else { word.parse::<Move>() };
                let played = match mv {
                    Ok(Move::SwapPieces | Move::SwapSides) if !settings.allow_swap => {
                        Err("swapping is off (--no-swap)".to_owned())
                    }
                    Ok(Move::Resign) => break End::Resigned(human),
                    Ok(Move::Pass) => Err("there is no passing in Hex".to_owned()),
                    Ok(mv) => pos.apply_as(human, mv).map(|()| mv).map_err(|e| e.to_string()),
                    Err(_) => Err(format!(
                        "{word:?} is neither a cell nor a command: type a cell such as {}, or \
                         swap, undo, resign, quit or help",
                        example_cell(&pos)
                    )),
                };
                match played {
                    Ok(_) => {
                        movers.push(true);
                        outln!("{pos}");
                    }
                    Err(e) => outln!("? {e}"),
                }
            }
        }
    };
    match end {
        End::Connected(w) if w == human => outln!("you win: {w} has connected"),
        End::Connected(w) => outln!("Nash wins: {w} has connected"),
        End::Resigned(c) => outln!("{} wins by resignation", !c),
        End::Quit => outln!("game stopped"),
    }
    let path = args.sgf.clone().unwrap_or_else(default_sgf_name);
    let record = record(&pos, end, human, &args.name, &args.player.spec(), player.as_ref());
    std::fs::write(&path, record.to_sgf())
        .with_context(|| format!("cannot write the game record to {}", path.display()))?;
    outln!("game record saved to {}", path.display());
    Ok(())
}

/// The centre cell of the board, as an example of a cell in the help for a bad word.
fn example_cell(pos: &AnyPosition) -> String {
    nash_board::Cell::new((pos.cols() / 2) as u8, (pos.rows() / 2) as u8)
        .map_or_else(|| "a1".to_owned(), |c| c.to_string())
}

/// The edges a colour connects, for the greeting.
fn edges(c: Color) -> &'static str {
    match c {
        Color::Black => "top to bottom",
        Color::White => "left to right",
    }
}

/// The game record: the moves, the players' names and the result.
fn record(
    pos: &AnyPosition,
    end: End,
    human: Color,
    name: &str,
    spec: &str,
    player: &dyn Player,
) -> GameRecord {
    let mut rec = pos.record();
    let nash = format!("nash {}", spec.split(':').next().unwrap_or(spec));
    let (black, white) =
        if human == Color::Black { (name, nash.as_str()) } else { (nash.as_str(), name) };
    rec.properties.push(("PB".into(), black.to_owned()));
    rec.properties.push(("PW".into(), white.to_owned()));
    // The player's every setting, for the record's reader who wants to play it again.
    rec.properties.push(("GC".into(), format!("Nash's player: {}", player.spec())));
    rec.properties.push(("DT".into(), date_time(now_secs()).0));
    match end {
        End::Connected(w) => rec.properties.push(("RE".into(), format!("{}+", w.letter()))),
        End::Resigned(c) => {
            rec.moves.push((c, Move::Resign));
            rec.properties.push(("RE".into(), format!("{}+R", (!c).letter())));
        }
        End::Quit => {}
    }
    rec
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// `nash-game-YYYYMMDD-HHMMSS.sgf`, in UTC.
fn default_sgf_name() -> PathBuf {
    let (date, time) = date_time(now_secs());
    PathBuf::from(format!("nash-game-{}-{}.sgf", date.replace('-', ""), time.replace(':', "")))
}

/// The UTC date (`YYYY-MM-DD`) and time (`HH:MM:SS`) of a Unix time, by the proleptic
/// Gregorian calendar (days to civil date, in 400-year eras).
fn date_time(secs: u64) -> (String, String) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        format!("{year:04}-{month:02}-{day:02}"),
        format!("{:02}:{:02}:{:02}", rem / 3600, rem / 60 % 60, rem % 60),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date_time(0), ("1970-01-01".into(), "00:00:00".into()));
        assert_eq!(date_time(951_782_400), ("2000-02-29".into(), "00:00:00".into()));
        assert_eq!(date_time(1_795_000_000), ("2026-11-18".into(), "11:06:40".into()));
    }
}
