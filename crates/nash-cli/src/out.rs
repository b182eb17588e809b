//! Standard output for every subcommand. A closed pipe (`nash show … | head -1`) ends the
//! process quietly and successfully, where `println!` would panic; any other write error ends
//! it with one line on stderr. The `out!` and `outln!` macros are `print!` and `println!`
//! with this behaviour (clippy's `print_stdout` lint keeps the plain ones out of this crate).

use std::io::Write;

/// Writes formatted text to standard output; see the module docs for errors.
pub fn write(args: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    // Flushed every time, so that a prompt without a newline shows before the input is read.
    if let Err(e) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            // The reader has all it wanted.
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {}", crate::input::lowercase_first(&e));
        std::process::exit(1);
    }
}

/// `print!` to standard output, a closed pipe ending the process quietly.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}

/// `println!` to standard output, a closed pipe ending the process quietly.
macro_rules! outln {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
