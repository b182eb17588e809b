//! The parts of the `nash` command that the workspace's other tools share: the progress display
//! of long solves (`cargo xtask` shows its progress the same way).

pub mod progress;
