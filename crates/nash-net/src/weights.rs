//! The weights file: a net's architecture and parameters, versioned and checksummed.
//!
//! ```text
//! magic      b"NASHNET\0"
//! version    u32 LE
//! header     u32 LE length, then postcard(Header): plane set id, filters, blocks, hidden,
//!            parameter count
//! params     f32 LE, in the net's layout order
//! crc32      u32 LE of every byte before it
//! ```
//!
//! Reading checks all of it, so a wrong, truncated or damaged file is an error that names the
//! file, never a panic or a silently broken net. Saving writes a temporary file beside the
//! target, syncs it and renames it over, so a crash leaves the old file or the new one whole.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::net::{Arch, Net};
use crate::planes::PlaneSet;
use crate::NetError;

/// The first eight bytes of every weights file.
pub const MAGIC: &[u8; 8] = b"NASHNET\0";

/// The format version this program reads and writes.
pub const VERSION: u32 = 1;

/// The longest header accepted (a longer length field is damage).
const MAX_HEADER: usize = 256;

/// The architecture as stored.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
struct Header {
    planes: u8,
    filters: u32,
    blocks: u32,
    hidden: u32,
    params: u64,
}

/// The bytes of a weights file for `net`.
pub fn to_bytes(net: &Net) -> Vec<u8> {
    let arch = net.arch();
    let header = Header {
        planes: arch.planes.id(),
        filters: arch.filters as u32,
        blocks: arch.blocks as u32,
        hidden: arch.hidden as u32,
        params: net.params().len() as u64,
    };
    let header = postcard::to_allocvec(&header).expect("a header always serializes");
    let mut out = Vec::with_capacity(20 + header.len() + 4 * net.params().len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(&header);
    for p in net.params() {
        out.extend_from_slice(&p.to_le_bytes());
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The net of a weights file's bytes; `path` names the file in errors.
pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Net, NetError> {
    let path_buf = || path.to_path_buf();
    let damaged = |why: String| NetError::Damaged { path: path_buf(), why };
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(NetError::NotWeights { path: path_buf() });
    }
    let u32_at = |at: usize| -> Option<u32> {
        bytes.get(at..at + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    };
    let found = u32_at(8).ok_or_else(|| damaged("truncated header".into()))?;
    if found != VERSION {
        return Err(NetError::Version { path: path_buf(), found });
    }
    let header_len = u32_at(12).ok_or_else(|| damaged("truncated header".into()))? as usize;
    if header_len > MAX_HEADER || bytes.len() < 16 + header_len + 4 {
        return Err(damaged("truncated header".into()));
    }
    let body = bytes.len() - 4;
    let crc = u32_at(body).expect("length checked");
    if crc32fast::hash(&bytes[..body]) != crc {
        return Err(damaged("checksum mismatch: truncated or corrupt".into()));
    }
    let header: Header = postcard::from_bytes(&bytes[16..16 + header_len])
        .map_err(|e| damaged(format!("unreadable header: {e}")))?;
    let planes = PlaneSet::from_id(header.planes)
        .ok_or_else(|| damaged(format!("unknown plane set {}", header.planes)))?;
    let arch = Arch {
        planes,
        filters: header.filters as usize,
        blocks: header.blocks as usize,
        hidden: header.hidden as usize,
    };
    arch.check().map_err(|e| damaged(e.to_string()))?;
    let data = &bytes[16 + header_len..body];
    if header.params != arch.param_count() as u64 || data.len() as u64 != 4 * header.params {
        return Err(damaged(format!(
            "{} bytes of parameters for {arch}, which needs {}",
            data.len(),
            4 * arch.param_count()
        )));
    }
    let params: Vec<f32> =
        data.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
    if params.iter().any(|p| !p.is_finite()) {
        return Err(damaged("a parameter is not finite".into()));
    }
    Net::from_params(arch, params).map_err(|e| damaged(e.to_string()))
}

/// Reads the net of the weights file `path`.
pub fn load(path: &Path) -> Result<Net, NetError> {
    let bytes =
        std::fs::read(path).map_err(|source| NetError::Io { path: path.to_path_buf(), source })?;
    from_bytes(&bytes, path)
}

/// Writes `net` to `path` atomically: a temporary file beside it, synced, renamed over it.
pub fn save(net: &Net, path: &Path) -> Result<(), NetError> {
    let mut tmp = PathBuf::from(path);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    tmp.set_file_name(format!(".{name}.tmp"));
    let io_err = |source| NetError::Io { path: path.to_path_buf(), source };
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(&to_bytes(net))?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_err(e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net() -> Net {
        Net::random(Arch { planes: PlaneSet::Basic, filters: 3, blocks: 1, hidden: 4 }, 9)
    }

    #[test]
    fn round_trip() {
        let dir = std::env::temp_dir().join(format!("nash-net-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.nnw");
        let n = net();
        n.save(&path).unwrap();
        assert_eq!(Net::load(&path).unwrap(), n);
        // Saving again replaces the file whole.
        let m = Net::random(n.arch(), 10);
        m.save(&path).unwrap();
        assert_eq!(Net::load(&path).unwrap(), m);
        assert!(!dir.join(".w.nnw.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_files_are_one_line_errors_naming_the_file() {
        let path = Path::new("net.nnw");
        let good = to_bytes(&net());
        let check = |bytes: &[u8], want: &str| {
            let err = from_bytes(bytes, path).unwrap_err().to_string();
            assert!(err.starts_with("net.nnw: "), "{err}");
            assert!(err.contains(want), "{err} lacks {want}");
            assert!(!err.contains('\n'));
        };
        check(b"", "not a Nash weights file");
        check(b"NASHSMP\0\x01\0\0\0", "not a Nash weights file");
        let mut v2 = good.clone();
        v2[8] = 2;
        check(&v2, "version 2");
        for cut in [9, 14, 20, good.len() / 2, good.len() - 1] {
            check(&good[..cut], "damaged");
        }
        for at in [13, 17, good.len() / 2, good.len() - 2] {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            check(&bad, "damaged");
        }
        let missing = load(Path::new("/nonexistent/net.nnw")).unwrap_err().to_string();
        assert!(missing.starts_with("/nonexistent/net.nnw: "), "{missing}");
    }
}
