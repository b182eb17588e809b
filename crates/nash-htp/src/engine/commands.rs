//! The one table of HTP commands: each command's name, its handler and its entry in HexGui's
//! analysis menu. `list_commands`, `known_command`, the dispatch and both analysis menus are
//! read from it, so a command is named once.

use nash_search::SolverKind;

use super::{analyze, benzene, book, db, game, no_args, solver, stats, stream, Engine};
use crate::protocol::Command;
use crate::HtpError;

/// A command's handler: the engine, and the command with its arguments.
pub(super) type Handler = fn(&mut Engine, &Command) -> Result<String, HtpError>;

/// A command's line in HexGui's analysis menu, `type/label/command args`.
pub(super) struct MenuEntry {
    /// Where the line comes in the menu (the menu groups commands otherwise than
    /// `list_commands`).
    pub(super) place: u8,
    /// The answer's type, which says how HexGui shows it (`param`, `plist`, `inferior`, ...).
    pub(super) kind: &'static str,
    /// The menu label.
    pub(super) label: &'static str,
    /// What follows the command's name: `%m` stands for the colour to move, `%c` for the
    /// chosen colour, `%P` for two chosen cells, `%r` for a file chosen to read.
    pub(super) args: &'static str,
}

/// One command of the table.
pub(super) struct Entry {
    /// The name `list_commands` gives.
    pub(super) name: &'static str,
    /// What answers it.
    pub(super) run: Handler,
    /// Its line in the analysis menu, if it has one.
    pub(super) menu: Option<MenuEntry>,
}

/// Writes the command table: `COMMANDS` (the names, in the order of `list_commands`) and
/// `TABLE` (the names with their handlers and menu entries), from one list of rows
/// `"name" => handler, menu(place, "type", "label", "args");` (the menu part optional).
macro_rules! commands {
    ($($name:literal => $run:expr $(, menu($place:literal, $kind:literal, $label:literal, $args:literal))?;)*) => {
        /// Every command the engine knows, in the order `list_commands` gives them.
        pub const COMMANDS: &[&str] = &[$($name),*];

        /// Every command with its handler and menu entry, in the order of [`COMMANDS`].
        pub(super) const TABLE: &[Entry] = &[$(Entry {
            name: $name,
            run: $run,
            menu: commands!(@menu $($place, $kind, $label, $args)?),
        }),*];
    };
    (@menu) => { None };
    (@menu $place:literal, $kind:literal, $label:literal, $args:literal) => {
        Some(MenuEntry { place: $place, kind: $kind, label: $label, args: $args })
    };
}

commands! {
    "protocol_version" => |_, cmd| no_args(cmd).map(|()| "2".to_owned());
    "name" => |_, cmd| no_args(cmd).map(|()| "nash".to_owned());
    "version" => |_, cmd| no_args(cmd).map(|()| env!("CARGO_PKG_VERSION").to_owned());
    "known_command" => known_command;
    "list_commands" => |_, cmd| no_args(cmd).map(|()| COMMANDS.join("\n"));
    "quit" => |_, _| Ok(String::new());
    "boardsize" => game::boardsize;
    "clear_board" => game::clear_board;
    "play" => game::play;
    "undo" => game::undo;
    "showboard" => game::showboard;
    "loadsgf" => game::loadsgf;
    "genmove" => game::genmove;
    "all_legal_moves" => game::all_legal_moves, menu(24, "plist", "All Legal Moves", " %m");
    "final_score" => game::final_score, menu(25, "string", "Final Score", "");
    "time_left" => game::time_left;
    "time_settings" => game::time_settings;
    "hexgui-analyze_commands" => |_, cmd| no_args(cmd).map(|()| analyze_menu(true));
    "param_player" => Engine::param_player, menu(0, "param", "Player Param", "");
    "param_mohex" => Engine::param_benzene, menu(1, "param", "MoHex Param", "");
    "param_wolve" => Engine::param_benzene, menu(2, "param", "Wolve Param", "");
    "param_game" => Engine::param_benzene, menu(3, "param", "Game Param", "");
    "param_dfpn" => Engine::param_dfpn, menu(4, "param", "DFPN Param", "");
    "param_player_ice" => benzene::param_ice;
    "param_solver_ice" => benzene::param_ice;
    "dfpn-clear-tt" => solver::clear_tt, menu(5, "none", "DFPN Clear TT", "");
    "dfpn-solve-state" => |e, cmd| solver::solve_state(e, cmd, SolverKind::Dfpn),
        menu(6, "string", "DFPN Solve State", " %m");
    "dfpn-solver-find-winning" => |e, cmd| solver::find_winning(e, cmd, SolverKind::Dfpn),
        menu(7, "plist", "DFPN Find Winning", " %m");
    "dfs-solve-state" => |e, cmd| solver::solve_state(e, cmd, SolverKind::Pattern),
        menu(9, "string", "DFS Solve State", " %m");
    "nash-solve-stats" => solver::solve_stats;
    "compute-inferior" => analyze::inferior, menu(10, "inferior", "Compute Inferior", " %m");
    "compute-fillin" => analyze::inferior, menu(11, "inferior", "Compute Fillin", " %m");
    "compute-dead" => analyze::inferior, menu(12, "inferior", "Compute Dead", " %m");
    "inferior-reasons" => analyze::inferior_reasons, menu(13, "string", "Inferior Reasons", " %m");
    "vc-build" => analyze::vc_build, menu(14, "inferior", "VC Build", " %m");
    "vc-get-mustplay" => analyze::mustplay, menu(15, "inferior", "VC Get Mustplay", " %m");
    "vc-between-cells" => analyze::vc_between, menu(16, "vc", "VC Between Cells", " %c %P");
    "vc-between-cells-full" => analyze::vc_between,
        menu(17, "vc", "VC Between Cells Full", " %c %P");
    "vc-between-cells-semi" => analyze::vc_between,
        menu(18, "vc", "VC Between Cells Semi", " %c %P");
    "dfpn-get-pv" => |e, cmd| solver::principal_variation(e, cmd, SolverKind::Dfpn),
        menu(8, "var", "DFPN Get PV", " %m");
    "eval-twod" => analyze::cell_values, menu(19, "pspairs", "Show TwoDistance", " %c");
    "eval-resist-cells" => analyze::cell_values, menu(20, "pspairs", "Show Cell Energy", " %m");
    "vc-h-scores" => analyze::cell_values, menu(21, "pspairs", "Show H-Scores", " %m");
    "player-scores" => game::player_scores, menu(22, "pspairs", "Player Scores", " %m");
    "player-search" => game::player_scores, menu(23, "gfx", "Player Search", " %m");
    "nash-analyze" => stream::analyze;
    "nash-analyze-gfx" => stream::analyze_gfx, menu(26, "gfx", "Analyze", " %m");
    "gogui_analyze_commands" => |_, cmd| no_args(cmd).map(|()| analyze_menu(false));
    // The regression move, the solvers' other commands, the database and the book.
    "reg_genmove" => stats::reg_genmove;
    "player-stats" => stats::player_stats, menu(27, "string", "Player Stats", "");
    "dfs-solver-find-winning" => |e, cmd| solver::find_winning(e, cmd, SolverKind::Pattern),
        menu(28, "plist", "DFS Find Winning", " %m");
    "dfs-get-pv" => |e, cmd| solver::principal_variation(e, cmd, SolverKind::Pattern),
        menu(29, "var", "DFS Get PV", " %m");
    "dfpn-get-bounds" => solver::bounds, menu(30, "string", "DFPN Get Bounds", " %m");
    "dfpn-open-db" => db::open_db, menu(31, "none", "DFPN Open DB", " %r");
    "dfpn-close-db" => db::close_db, menu(34, "none", "DFPN Close DB", "");
    "dfpn-merge-db" => db::merge_db, menu(32, "none", "DFPN Merge DB", " %r");
    "dfpn-db-stat" => db::db_stat, menu(33, "string", "DFPN DB Stats", "");
    "book-open" => book::open, menu(35, "none", "Book Open", " %r");
    "book-close" => book::close, menu(39, "none", "Book Close", "");
    "book-stat" => book::stat, menu(36, "string", "Book Stats", "");
    "book-depths" => book::depths, menu(37, "pspairs", "Book Depths", "");
    "book-scores" => book::scores, menu(38, "pspairs", "Book Scores", "");
}

/// The commands that run until the next input line arrives (as `kata-analyze` does): the
/// session raises their cancel flag when it reads one.
pub(crate) const UNTIL_NEXT_LINE: &[&str] = &["nash-analyze"];

/// The analysis types GoGui does not know (HexGui's own): left out of `gogui_analyze_commands`.
const HEXGUI_ONLY_TYPES: &[&str] = &["inferior", "vc"];

/// The command of the table with this name.
pub(super) fn find(name: &str) -> Option<&'static Entry> {
    TABLE.iter().find(|e| e.name == name)
}

fn known_command(_: &mut Engine, cmd: &Command) -> Result<String, HtpError> {
    super::arity(cmd, 1, 1, "a command name")?;
    Ok(COMMANDS.contains(&cmd.args[0].as_str()).to_string())
}

/// The analysis menu, one `type/label/command args` line per entry in menu order: HexGui's
/// whole, or (`hexgui` false) GoGui's, without the types only HexGui knows.
fn analyze_menu(hexgui: bool) -> String {
    let mut entries: Vec<(&MenuEntry, &str)> =
        TABLE.iter().filter_map(|e| e.menu.as_ref().map(|m| (m, e.name))).collect();
    entries.sort_by_key(|(m, _)| m.place);
    let lines = entries
        .iter()
        .filter(|(m, _)| hexgui || !HEXGUI_ONLY_TYPES.contains(&m.kind))
        .map(|(m, name)| format!("{}/{}/{name}{}", m.kind, m.label, m.args));
    lines.collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn menu_places_are_distinct_and_dense() {
        let mut places: Vec<u8> =
            TABLE.iter().filter_map(|e| e.menu.as_ref()).map(|m| m.place).collect();
        places.sort_unstable();
        let n = u8::try_from(places.len()).unwrap();
        assert_eq!(places, (0..n).collect::<Vec<_>>());
    }

    #[test]
    fn the_menu_is_hexguis_list() {
        let expected = "\
param/Player Param/param_player
param/MoHex Param/param_mohex
param/Wolve Param/param_wolve
param/Game Param/param_game
param/DFPN Param/param_dfpn
none/DFPN Clear TT/dfpn-clear-tt
string/DFPN Solve State/dfpn-solve-state %m
plist/DFPN Find Winning/dfpn-solver-find-winning %m
var/DFPN Get PV/dfpn-get-pv %m
string/DFS Solve State/dfs-solve-state %m
inferior/Compute Inferior/compute-inferior %m
inferior/Compute Fillin/compute-fillin %m
inferior/Compute Dead/compute-dead %m
string/Inferior Reasons/inferior-reasons %m
inferior/VC Build/vc-build %m
inferior/VC Get Mustplay/vc-get-mustplay %m
vc/VC Between Cells/vc-between-cells %c %P
vc/VC Between Cells Full/vc-between-cells-full %c %P
vc/VC Between Cells Semi/vc-between-cells-semi %c %P
pspairs/Show TwoDistance/eval-twod %c
pspairs/Show Cell Energy/eval-resist-cells %m
pspairs/Show H-Scores/vc-h-scores %m
pspairs/Player Scores/player-scores %m
gfx/Player Search/player-search %m
plist/All Legal Moves/all_legal_moves %m
string/Final Score/final_score
gfx/Analyze/nash-analyze-gfx %m
string/Player Stats/player-stats
plist/DFS Find Winning/dfs-solver-find-winning %m
var/DFS Get PV/dfs-get-pv %m
string/DFPN Get Bounds/dfpn-get-bounds %m
none/DFPN Open DB/dfpn-open-db %r
none/DFPN Merge DB/dfpn-merge-db %r
string/DFPN DB Stats/dfpn-db-stat
none/DFPN Close DB/dfpn-close-db
none/Book Open/book-open %r
string/Book Stats/book-stat
pspairs/Book Depths/book-depths
pspairs/Book Scores/book-scores
none/Book Close/book-close";
        assert_eq!(analyze_menu(true), expected);
    }
}
