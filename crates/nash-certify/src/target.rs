//! The certificate file made from a finished resumable build's files: written beside its
//! target under a name of this process's own, then renamed onto the target, so that a failed
//! write leaves neither a half-written certificate nor the build's files behind.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::CertifyError;
use crate::journal::Partial;
use crate::sink::Streamed;

/// The form of a certificate file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Form {
    /// The binary form ([`nash_proof::Certificate::to_bytes`]).
    Binary,
    /// The JSON form ([`nash_proof::Certificate::to_json`]).
    Json,
}

/// Where a certificate is written before it is renamed onto `target`: `.NAME.PID.tmp` in the
/// target's directory (the same file system, so the rename is atomic).
fn temporary(target: &Path) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    target.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

impl Partial {
    /// Writes the certificate of a finished build (`made`, whose nodes are in `self.nodes`) to
    /// `target` in `form`, then removes the build's files; the bytes written. On failure the
    /// temporary file and the build's files are removed, and nothing is left at `target` but
    /// what was there before.
    pub fn write_certificate(
        &self,
        made: &Streamed,
        target: &Path,
        form: Form,
    ) -> Result<u64, CertifyError> {
        let tmp = temporary(target);
        let written = match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => self
                .write_to(made, file, form)
                .map_err(|e| CertifyError::Target(format!("{}: {e}", target.display())))
                .and_then(|n| {
                    std::fs::rename(&tmp, target)
                        .map(|()| n)
                        .map_err(|e| CertifyError::Target(format!("{}: {e}", target.display())))
                }),
            Err(e) => Err(CertifyError::Target(format!("{}: {e}", tmp.display()))),
        };
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        let removed = self.remove();
        let n = written?;
        removed.map_err(|e| CertifyError::Write(format!("{}: {e}", self.nodes.display())))?;
        Ok(n)
    }

    /// Writes the head of `made` and the spooled nodes to `file` in `form`; the bytes written.
    fn write_to(&self, made: &Streamed, file: File, form: Form) -> Result<u64, String> {
        let head = made.head.binary_head(made.nodes);
        let mut out = BufWriter::new(file);
        let read = |e: std::io::Error| format!("cannot read {}: {e}", self.nodes.display());
        match form {
            Form::Json => {
                let mut bytes = head;
                bytes.extend(std::fs::read(&self.nodes).map_err(read)?);
                let lazy = nash_proof::Lazy::new(&bytes).map_err(|e| e.to_string())?;
                lazy.write_json(&mut out).map_err(|e| e.to_string())?;
            }
            Form::Binary => {
                // The head, then the spooled nodes as they are: copied, not read into memory
                // (the empty 8x8 board's run to hundreds of megabytes).
                let mut nodes = File::open(&self.nodes).map_err(read)?;
                out.write_all(&head).map_err(|e| e.to_string())?;
                std::io::copy(&mut nodes, &mut out).map_err(|e| e.to_string())?;
            }
        }
        out.flush().map_err(|e| e.to_string())?;
        let file = out.into_inner().map_err(|e| e.to_string())?;
        file.sync_all().map_err(|e| e.to_string())?;
        Ok(file.metadata().map_err(|e| e.to_string())?.len())
    }
}
