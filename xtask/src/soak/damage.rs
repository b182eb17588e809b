//! Database damage: a small database file (the 4x4 and 5x5 winning sets) with one bit flipped,
//! bit by bit (a random sample when time is short), and cut at every length. `db stats`,
//! `db export` and `db verify` must not panic; an export must keep every position but the one
//! whose record was hit (a flip) or every position of the records before the cut (a
//! truncation); `db verify` must fail on damage; and a writer opening the damaged file must
//! keep what it holds.

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use anyhow::{bail, Context};
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::child::{self, Input, Run};
use super::{verdict, Ctx};

/// The file's header: magic and version (docs/db.md, "The file").
const HEADER: usize = 12;

/// The longest one command on the small file may take.
const CAP: Duration = Duration::from_secs(20);

/// Where the file's records end, in order, from its framing (length, checksum, payload);
/// `None` when it is not a well-formed database file.
fn record_ends(bytes: &[u8]) -> Option<Vec<usize>> {
    if bytes.len() < HEADER || &bytes[..8] != b"NASHSDB\0" {
        return None;
    }
    let mut ends = Vec::new();
    let mut at = HEADER;
    while at < bytes.len() {
        let len = u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize;
        at = at.checked_add(8 + len).filter(|&e| e <= bytes.len())?;
        ends.push(at);
    }
    Some(ends)
}

/// The positions of an export (its size and position columns), or `None` when the export
/// failed.
fn positions(run: &Run) -> Option<BTreeSet<String>> {
    if !run.status.success() || run.killed.is_some() {
        return None;
    }
    let text = run.stdout_text();
    Some(
        text.lines()
            .skip(1)
            .filter_map(|l| {
                let mut cols = l.split('\t');
                Some(format!("{} {}", cols.next()?, cols.next()?))
            })
            .collect(),
    )
}

/// The tallies of one kind of damage.
#[derive(Default)]
struct Tally {
    runs: usize,
    panics: usize,
    /// Damaged copies that lost more than they may.
    losing: usize,
    /// Positions lost beyond what the damage may take, summed.
    lost: usize,
    /// Positions an export gave that the file never held.
    invented: usize,
    /// Damage that `db verify` passed (exit 0), outside the last record.
    verify_passed: usize,
    /// Writers that left the file with fewer positions than they found.
    writer_losses: usize,
    writers: usize,
    /// Copies refused as a whole with an error (a damaged header).
    refused: usize,
}

impl Tally {
    fn ok(&self) -> bool {
        self.panics == 0
            && self.losing == 0
            && self.invented == 0
            && self.verify_passed == 0
            && self.writer_losses == 0
    }
}

struct Damage<'a> {
    ctx: &'a Ctx,
    copy: std::path::PathBuf,
    copy_arg: String,
}

impl Damage<'_> {
    fn nash(&self, args: &[&str]) -> anyhow::Result<Run> {
        child::run(&self.ctx.nash, args, &self.ctx.scratch, Input::Null, self.ctx.bounds(CAP))
    }

    fn export(&self) -> anyhow::Result<Run> {
        self.nash(&["db", "export", &self.copy_arg])
    }
}

pub fn run(ctx: &Ctx) -> anyhow::Result<usize> {
    let db = ctx.scratch.join("small.db");
    let db_arg = db.to_string_lossy().into_owned();
    for size in ["4", "5"] {
        let r = child::run(
            &ctx.nash,
            &["winning", "--size", size, "--db", &db_arg],
            &ctx.scratch,
            Input::Null,
            ctx.bounds(CAP),
        )?;
        if !r.status.success() {
            bail!("nash winning --size {size} --db {db_arg} failed: {}", r.first_error_line(200));
        }
    }
    let bytes = std::fs::read(&db).with_context(|| format!("cannot read {db_arg}"))?;
    let Some(ends) = record_ends(&bytes) else {
        bail!("{db_arg} is not framed as docs/db.md says")
    };
    let copy = ctx.scratch.join("damaged.db");
    let d = Damage { ctx, copy_arg: copy.to_string_lossy().into_owned(), copy };
    std::fs::copy(&db, &d.copy)?;
    let Some(all) = positions(&d.export()?) else { bail!("cannot export the undamaged {db_arg}") };
    println!(
        "database damage: {} ({} bytes, {} records, {} positions; 4x4 and 5x5 winning sets)",
        db.display(),
        bytes.len(),
        ends.len(),
        all.len()
    );

    // The positions the records before each record end hold, as a truncation must keep them.
    let mut before: HashMap<usize, BTreeSet<String>> = HashMap::new();
    before.insert(HEADER, BTreeSet::new());

    let mut rng = rand::rngs::StdRng::seed_from_u64(ctx.seed);
    let mut bits: Vec<usize> = (0..bytes.len() * 8).collect();
    bits.shuffle(&mut rng);
    let mut lengths: Vec<usize> = (0..bytes.len()).collect();
    lengths.shuffle(&mut rng);
    let (mut flips, mut cuts) = (Tally::default(), Tally::default());
    let (mut next_bit, mut next_len) = (0, 0);
    let last_start = ends.len().checked_sub(2).map_or(HEADER, |i| ends[i]);
    // Flips and cuts take turns, so that a short run samples both.
    while ctx.left() > CAP.min(Duration::from_secs(2)) {
        if next_bit < bits.len() && (next_bit <= next_len * 4 || next_len == lengths.len()) {
            let bit = bits[next_bit];
            next_bit += 1;
            flip(&d, &bytes, bit, bit / 8 >= last_start, &all, &mut flips)?;
        } else if next_len < lengths.len() {
            let len = lengths[next_len];
            next_len += 1;
            let kept = ends.iter().rev().find(|&&e| e <= len).copied().unwrap_or(0);
            if len >= HEADER && !before.contains_key(&kept) {
                std::fs::write(&d.copy, &bytes[..kept])?;
                match positions(&d.export()?) {
                    Some(p) => before.insert(kept, p),
                    None => bail!("cannot export {db_arg} cut after a whole record at {kept}"),
                };
            }
            let must_keep = if len < HEADER { BTreeSet::new() } else { before[&kept].clone() };
            cut(&d, &bytes, len, &must_keep, &mut cuts)?;
        } else {
            break;
        }
    }
    println!(
        "  {:<34} {:>6} {:>6} {:>7} {:>9} {:>8} {:>9} {:>8} {:>8}  verdict",
        "damage", "runs", "panics", "losing", "lost", "invented", "verify 0", "writers", "refused"
    );
    let rows = [
        (format!("bit flips ({} of {} bits)", next_bit, bits.len()), &flips),
        (format!("truncations ({} of {} lengths)", next_len, lengths.len()), &cuts),
    ];
    for (name, t) in &rows {
        println!(
            "  {:<34} {:>6} {:>6} {:>7} {:>9} {:>8} {:>9} {:>8} {:>8}  {}",
            name,
            t.runs,
            t.panics,
            t.losing,
            t.lost,
            t.invented,
            t.verify_passed,
            format!("{}/{}", t.writer_losses, t.writers),
            t.refused,
            verdict(t.ok())
        );
    }
    println!(
        "  (losing: copies that lost a position beyond the record hit or past the cut; lost: those \
         positions; verify 0: damage `db verify` passed; writers: losses/runs of a writer after damage)"
    );
    Ok(rows.iter().filter(|(_, t)| !t.ok()).count())
}

/// Flips `bit` in a copy and checks it; `in_last` says the bit is in the last record, whose
/// damage a reader cannot tell from a write cut short.
fn flip(
    d: &Damage<'_>,
    bytes: &[u8],
    bit: usize,
    in_last: bool,
    all: &BTreeSet<String>,
    t: &mut Tally,
) -> anyhow::Result<()> {
    let mut damaged = bytes.to_vec();
    damaged[bit / 8] ^= 1 << (bit % 8);
    std::fs::write(&d.copy, &damaged)?;
    t.runs += 1;
    let stats = d.nash(&["db", "stats", &d.copy_arg])?;
    let export = d.export()?;
    let verify = d.nash(&["db", "verify", &d.copy_arg, "--sample", "1"])?;
    t.panics += [&stats, &export, &verify].iter().filter(|r| r.panicked()).count();
    let header = bit / 8 < HEADER;
    let got = match positions(&export) {
        Some(p) => p,
        None if header && export.one_line_error() => {
            // Another program's file, or another version: refused whole, the file untouched.
            t.refused += 1;
            return Ok(());
        }
        None => BTreeSet::new(),
    };
    // One record holds one position: the record hit may go, nothing else.
    let lost = all.difference(&got).count();
    if lost > 1 {
        t.losing += 1;
        t.lost += lost - 1;
    }
    t.invented += got.difference(all).count();
    if verify.status.success() && !in_last {
        t.verify_passed += 1;
    }
    // Every fourth flip, a writer opens the damaged file and stores a position.
    if t.runs % 4 == 1 {
        t.writers += 1;
        let _ = d.nash(&["solve", "a1", "--size", "2", "--db", &d.copy_arg])?;
        let after = positions(&d.export()?).unwrap_or_default();
        if got.difference(&after).next().is_some() {
            t.writer_losses += 1;
        }
    }
    Ok(())
}

/// Cuts a copy to `len` bytes and checks that every position of `must_keep` is exported.
fn cut(
    d: &Damage<'_>,
    bytes: &[u8],
    len: usize,
    must_keep: &BTreeSet<String>,
    t: &mut Tally,
) -> anyhow::Result<()> {
    std::fs::write(&d.copy, &bytes[..len])?;
    t.runs += 1;
    let export = d.export()?;
    t.panics += usize::from(export.panicked());
    let got = positions(&export).unwrap_or_default();
    let lost = must_keep.difference(&got).count();
    if lost > 0 {
        t.losing += 1;
        t.lost += lost;
    }
    t.invented += got.iter().filter(|p| !must_keep.contains(*p)).count();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_found_by_their_framing() {
        let mut file = b"NASHSDB\0\x01\0\0\0".to_vec();
        for payload in [&b"abc"[..], b"", b"0123456789"] {
            file.extend_from_slice(&(payload.len() as u32).to_le_bytes());
            file.extend_from_slice(&[0; 4]);
            file.extend_from_slice(payload);
        }
        assert_eq!(record_ends(&file), Some(vec![23, 31, 49]));
        assert_eq!(record_ends(&file[..HEADER]), Some(vec![]));
        assert_eq!(record_ends(&file[..48]), None);
        assert_eq!(record_ends(b"SQLite format 3\0"), None);
    }
}
