//! Why a command failed: each variant becomes the one-line text of a `?` answer.

use nash_board::{BoardSizeError, Color, ParseColorError, ParseMoveError, PlayError};

/// A command that could not be carried out. The engine answers `? <message>` and keeps running.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum HtpError {
    /// No command of this name.
    #[error("unknown command")]
    UnknownCommand,
    /// A line that held an id but no command.
    #[error("missing command name")]
    MissingCommand,
    /// The wrong number of arguments.
    #[error("{command} expects {expected}, got {got:?}")]
    Arguments {
        /// The command.
        command: String,
        /// What it takes, as `color` or `N or C R`.
        expected: &'static str,
        /// The arguments that were given, joined by spaces.
        got: String,
    },
    /// An argument that is not a colour.
    #[error(transparent)]
    Color(#[from] ParseColorError),
    /// An argument that is not a move.
    #[error(transparent)]
    Move(#[from] ParseMoveError),
    /// A move that cannot be played here.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// A board size Nash does not support.
    #[error(transparent)]
    BoardSize(#[from] BoardSizeError),
    /// An argument that is neither a cell nor an edge.
    #[error("expected a cell or an edge, got {0:?}")]
    NotACell(String),
    /// An argument that should be a number.
    #[error("invalid number {0:?}")]
    Number(String),
    /// `undo` with nothing to take back.
    #[error("cannot undo: no move to take back")]
    NothingToUndo,
    /// A file that could not be read.
    #[error("cannot read {path:?}: {reason}")]
    Read {
        /// The path as given.
        path: String,
        /// The operating system's reason.
        reason: String,
    },
    /// An SGF file that does not describe a Hex game Nash can load.
    #[error("cannot load {path:?}: {reason}")]
    Sgf {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A parameter name the command does not have.
    #[error("unknown parameter {0:?}")]
    UnknownParameter(String),
    /// A parameter value out of range.
    #[error("invalid value {value:?} for {name}: {reason}")]
    ParameterValue {
        /// The parameter.
        name: String,
        /// The value given.
        value: String,
        /// The accepted range.
        reason: String,
    },
    /// A move after one player has connected.
    #[error("the game is over: {0} has won")]
    GameOver(Color),
    /// `final_score` before either player has connected.
    #[error("cannot score: the game is not over")]
    GameNotOver,
    /// A solve that hit its budget before deciding every move.
    #[error("undecided within the budget ({reason}): {cells}")]
    Undecided {
        /// Why the solver stopped.
        reason: String,
        /// The moves left undecided.
        cells: String,
    },
    /// A command whose machinery this build lacks.
    #[error("{0} is not available in this build")]
    NotAvailable(&'static str),
    /// `nash-solve-stats` before any solve.
    #[error("no solve yet: dfpn-solve-state or dfs-solve-state first")]
    NoSolve,
    /// `player-stats` before any move was generated.
    #[error("no move generated yet: genmove or reg_genmove first")]
    NoMove,
    /// A database command with no database open.
    #[error("no open database: dfpn-open-db FILE first")]
    NoDb,
    /// A book command with no book open.
    #[error("no open book: book-open FILE first")]
    NoBook,
    /// The solved-position database refused (a conflict, or the disk).
    #[error("{0}")]
    Db(String),
    /// A command whose machinery panicked; the position is left as it was before the command.
    #[error("internal error in {command}: {message}")]
    Internal {
        /// The command.
        command: String,
        /// The panic message.
        message: String,
    },
}

impl From<nash_db::DbError> for HtpError {
    fn from(e: nash_db::DbError) -> HtpError {
        HtpError::Db(e.to_string())
    }
}
