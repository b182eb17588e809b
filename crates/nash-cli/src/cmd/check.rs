//! `nash check`: verify a proof certificate with nash-proof's checker.

use std::time::Instant;

use nash_proof::{Certificate, FormatError, Lazy};

/// Arguments of `nash check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The certificate (binary or JSON, as `nash solve --proof` writes it).
    file: std::path::PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let path = args.file.display();
    let bytes = crate::files::read(&args.file, crate::files::CERTIFICATE_LIMIT)?;
    // The binary form is checked with its nodes decoded as they are reached: held in memory,
    // nodes take many times their encoding.
    let start = Instant::now();
    let (cert, nodes, checked) = match Lazy::new(&bytes) {
        Err(FormatError::NotACertificate) => {
            let cert =
                Certificate::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
            let checked = nash_proof::check(&cert);
            let nodes = cert.nodes.len();
            (cert, nodes, checked)
        }
        Err(e) => anyhow::bail!("{path}: {e}"),
        Ok(lazy) => {
            let checked = nash_proof::check_lazy(&lazy);
            (lazy.head.clone(), lazy.len(), checked)
        }
    };
    // A certificate past its budget may hold, but is not accepted: refused, not invalid.
    let checked = checked.map_err(|e| match e.too_costly {
        true => anyhow::anyhow!("refused: {e}"),
        false => anyhow::anyhow!("invalid: {e}"),
    })?;
    outln!(
        "valid: {} wins ({}x{}, {} to move; {} nodes, {} node checks, {} searched, {:.3}s)",
        checked.winner,
        cert.cols,
        cert.rows,
        nash_board::Color::from(cert.to_move),
        nodes,
        checked.visits,
        checked.searched,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
