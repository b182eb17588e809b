//! The certificate and its two file forms: postcard binary behind a magic header, and JSON.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::io::Write;

use nash_board::{Cell, Color};
use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

/// The version of the certificate format this crate writes and reads.
pub const VERSION: u32 = 1;

/// The first bytes of a binary certificate: the format's name, then the version (`u32`,
/// little-endian), then the postcard encoding of a [`Certificate`].
const MAGIC: &[u8; 8] = b"NASHPRF\0";

/// The format's name in the JSON form's `format` field.
const JSON_FORMAT: &str = "nash-proof";

/// A claimed result with its proof: a position, the player who wins it, and that player's
/// strategy as a graph of [`Node`]s.
///
/// `nodes` is listed children first: a node refers only to nodes before it, and the last node
/// is the root, which stands for the position itself. A node may be shared by several parents
/// (a transposition); the checker checks it again wherever it is reached in another position.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Certificate {
    /// Columns of the board.
    pub cols: u8,
    /// Rows of the board.
    pub rows: u8,
    /// Black's stones.
    pub black: Vec<At>,
    /// White's stones.
    pub white: Vec<At>,
    /// The player to move.
    pub to_move: Side,
    /// The player the certificate proves to win.
    pub winner: Side,
    /// The strategy, children first; the root is the last node.
    pub nodes: Vec<Node>,
}

/// One step of the winner's strategy, read in the position where it is reached.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Node {
    /// The winner has connected their edges.
    Won,
    /// The checker's own exhaustive search decides the position, which has at most
    /// [`crate::SEARCH_LIMIT`] empty cells.
    Search,
    /// The winner, to move, plays `at`.
    Play {
        /// The winner's move.
        at: At,
        /// The node of the position after it.
        next: u32,
    },
    /// The loser is given every empty cell outside `keep` (which must leave out at least one):
    /// the winner's strategy from `next` wins even then. `keep` is the carrier.
    Restrict {
        /// The empty cells that stay empty.
        keep: Vec<At>,
        /// The node of the restricted position.
        next: u32,
    },
    /// The winner has a virtual connection between their two edges: a full one (a strategy
    /// that connects even with the loser to move), or a semi one with the winner to move. The
    /// steps derive it by the rules of H-search (Anshelevich 2000), each from earlier steps;
    /// the last step is the connection. The checker recomputes every step's ends and carrier.
    Vc {
        /// The derivation, children first.
        steps: Vec<Step>,
    },
    /// The loser is to move: one answer of the winner's strategy for each empty cell, in the
    /// position after the loser plays there.
    Replies {
        /// Each empty cell with the node of the position after the loser's move to it.
        replies: Vec<(At, u32)>,
    },
    /// The loser is to move, and the winner has strategies that each win whatever the loser
    /// plays outside their carrier: an opponent-oblivious strategy (Hayward and Toft, as in
    /// Chen 2025 Theorem 8). Each option is a carrier `keep` and the node of the winner's strategy,
    /// winner to move, once the loser owns every empty cell outside `keep` (the loser's move
    /// among them). No empty cell may be in every option's carrier, so every move of the loser
    /// is answered by some option.
    Cover {
        /// Each option's carrier and the node of its strategy.
        options: Vec<(Vec<At>, u32)>,
    },
}

impl Node {
    /// The node's entries: one, and one for each cell, node reference and step it holds. The
    /// checker's [`crate::budget`] is counted in them, and checking the node in one position
    /// costs as many steps.
    pub fn entries(&self) -> u64 {
        let len = |n: usize| n as u64;
        1 + match self {
            Node::Won | Node::Search => 0,
            Node::Play { .. } => 1,
            Node::Restrict { keep, .. } => len(keep.len()) + 1,
            Node::Vc { steps } => steps
                .iter()
                .map(|s| match s {
                    Step::Touch(..) | Step::And(..) => 1,
                    Step::Or(list) => len(list.len()).max(1),
                })
                .sum(),
            Node::Replies { replies } => len(replies.len()),
            Node::Cover { options } => options.iter().map(|(keep, _)| len(keep.len()) + 1).sum(),
        }
    }
}

/// One step of a virtual-connection derivation ([`Node::Vc`]). A connection joins two ends
/// (each a winner's stone or edge, standing for its whole group, or an empty cell counted as the
/// winner's) through a carrier of empty cells; a full one holds against the loser moving first,
/// a semi one needs the winner to move first.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// A full connection with an empty carrier between two ends that touch (their groups are
    /// adjacent or one).
    Touch(End, End),
    /// The AND rule on two full connections with disjoint carriers and one common end (the
    /// midpoint): full through a winner's stone or edge, semi through an empty cell (its key,
    /// added to the carrier).
    And(u32, u32),
    /// The OR rule: connections between the same two ends whose carriers have no common cell
    /// make a full connection with the union of their carriers.
    Or(Vec<u32>),
}

/// An end of a connection: a cell or an edge (`north`, `south`, `west`, `east` in JSON; a
/// column of 255 and the edge's number, in that order, in binary).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct End(pub Cell);

impl fmt::Debug for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Serialize for End {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.as_edge() {
            _ if s.is_human_readable() => s.collect_str(&self.0),
            Some(e) => (255u8, e as u8).serialize(s),
            None => (self.0.col(), self.0.row()).serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for End {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<End, D::Error> {
        if d.is_human_readable() {
            let name = String::deserialize(d)?;
            return name.parse::<Cell>().map(End).map_err(de::Error::custom);
        }
        match <(u8, u8)>::deserialize(d)? {
            (255, e) => nash_board::Edge::ALL
                .get(e as usize)
                .map(|&e| End(Cell::edge(e)))
                .ok_or_else(|| de::Error::custom("no such edge")),
            (col, row) => Cell::new(col, row)
                .map(End)
                .ok_or_else(|| de::Error::custom("cell coordinate out of range")),
        }
    }
}

/// A player, as the certificate writes it (`black` or `white`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Black, who connects top and bottom.
    Black,
    /// White, who connects left and right.
    White,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// A cell of the board in a certificate: its name (`c3`) in JSON, two bytes (column, row) in
/// the binary form. Edges are not cells of a certificate.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct At(pub Cell);

impl fmt::Debug for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Serialize for At {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_str(&self.0)
        } else {
            (self.0.col(), self.0.row()).serialize(s)
        }
    }
}

impl<'de> Deserialize<'de> for At {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<At, D::Error> {
        let cell = if d.is_human_readable() {
            let name = String::deserialize(d)?;
            name.parse::<Cell>().map_err(de::Error::custom)?
        } else {
            let (col, row) = <(u8, u8)>::deserialize(d)?;
            Cell::new(col, row).ok_or_else(|| de::Error::custom("cell coordinate out of range"))?
        };
        if cell.is_edge() {
            return Err(de::Error::custom(format!("{cell} is an edge, not a cell")));
        }
        Ok(At(cell))
    }
}

/// A file that is not a certificate this crate can read.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// Neither the binary header nor a JSON object.
    #[error("not a nash proof certificate (no NASHPRF header and no JSON object)")]
    NotACertificate,
    /// A JSON object whose `format` is not `nash-proof`.
    #[error("not a nash proof certificate (JSON format {0:?})")]
    OtherFormat(String),
    /// A certificate of another version.
    #[error("certificate format version {found}, this program reads version {VERSION}")]
    Version {
        /// The version the file declares.
        found: u32,
    },
    /// The binary body does not decode.
    #[error("corrupt binary certificate: {0}")]
    Binary(#[from] postcard::Error),
    /// The JSON does not decode.
    #[error("corrupt JSON certificate: {0}")]
    Json(#[from] serde_json::Error),
    /// A node count beyond what a node reference can name.
    #[error("corrupt binary certificate: {0} nodes")]
    Count(u64),
    /// Bytes after the last node.
    #[error("corrupt binary certificate: {0} bytes after the last node")]
    Trailing(usize),
    /// Writing failed.
    #[error("cannot write the certificate: {0}")]
    Io(#[from] std::io::Error),
}

/// What the binary form holds before the nodes: a [`Certificate`]'s fields, the count of
/// `nodes` where postcard puts a sequence's length.
#[derive(Serialize, Deserialize)]
struct Head<A> {
    cols: u8,
    rows: u8,
    black: A,
    white: A,
    to_move: Side,
    winner: Side,
    nodes: usize,
}

/// Appends the postcard encoding of `value` to `out`.
fn encode<T: Serialize>(value: &T, out: &mut Vec<u8>) {
    // Encoding into a vector fails only for types serde cannot describe; ours are plain.
    if let Ok(v) = postcard::to_extend(value, std::mem::take(out)) {
        *out = v;
    }
}

/// The nodes of a binary certificate written as they are made, for certificates too large to
/// hold in memory as [`Node`]s: each node's postcard encoding goes to `out` (a spool) at once.
/// [`Certificate::binary_head`] with [`Spool::len`], then the spool's bytes, make the same
/// file as [`Certificate::to_bytes`].
#[derive(Debug)]
pub struct Spool<W: Write> {
    out: W,
    count: u32,
    bytes: u64,
    buf: Vec<u8>,
}

impl<W: Write> Spool<W> {
    /// A spool writing to `out`.
    pub fn new(out: W) -> Spool<W> {
        Spool { out, count: 0, bytes: 0, buf: Vec::new() }
    }

    /// Writes `node`, the next one; its index.
    pub fn push(&mut self, node: &Node) -> std::io::Result<u32> {
        self.buf.clear();
        encode(node, &mut self.buf);
        self.out.write_all(&self.buf)?;
        self.bytes += self.buf.len() as u64;
        self.count += 1;
        Ok(self.count - 1)
    }

    /// The nodes written.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether no node was written.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The bytes written.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The spool's writer.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// The spool's writer, to flush it.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Reads the whole nodes at the start of a spool's bytes, at most `limit` of them, each
    /// given to `f` with its index; the number read and the bytes they take. A tail cut short
    /// (a node whose writing a kill interrupted) ends the reading: postcard's encoding is
    /// self-delimiting, so a node's prefix never reads as a node.
    pub fn scan(bytes: &[u8], limit: usize, mut f: impl FnMut(u32, &Node)) -> (usize, usize) {
        let mut rest = bytes;
        let mut count = 0;
        while count < limit && count < u32::MAX as usize {
            let Ok((node, after)) = postcard::take_from_bytes::<Node>(rest) else {
                break;
            };
            f(count as u32, &node);
            rest = after;
            count += 1;
        }
        (count, bytes.len() - rest.len())
    }
}

/// A binary certificate read without decoding its nodes until they are asked for: the head as
/// a [`Certificate`] with no nodes, and where each node starts in the bytes (8 bytes a node
/// instead of the node itself, which in memory takes many times its encoding).
pub struct Lazy<'a> {
    /// The position and winner; `nodes` is empty.
    pub head: Certificate,
    body: &'a [u8],
    starts: Vec<u64>,
    entries: u64,
}

impl<'a> Lazy<'a> {
    /// Reads a binary certificate's head and finds its nodes (each is decoded once to find
    /// where it ends, then dropped).
    pub fn new(bytes: &'a [u8]) -> Result<Lazy<'a>, FormatError> {
        let rest = bytes.strip_prefix(MAGIC.as_slice()).ok_or(FormatError::NotACertificate)?;
        let (version, body) = rest.split_at_checked(4).ok_or(FormatError::NotACertificate)?;
        let found = u32::from_le_bytes(version.try_into().unwrap_or_default());
        if found != VERSION {
            return Err(FormatError::Version { found });
        }
        let (head, mut rest): (Head<Vec<At>>, _) = postcard::take_from_bytes(body)?;
        let count = head.nodes;
        if count > u32::MAX as usize {
            return Err(FormatError::Count(count as u64));
        }
        let body = rest;
        let mut starts = Vec::with_capacity(count.min(body.len()));
        let mut entries = 0u64;
        for _ in 0..count {
            starts.push((body.len() - rest.len()) as u64);
            let (node, after) = postcard::take_from_bytes::<Node>(rest)?;
            entries = entries.saturating_add(node.entries());
            rest = after;
        }
        if !rest.is_empty() {
            return Err(FormatError::Trailing(rest.len()));
        }
        let head = Certificate {
            cols: head.cols,
            rows: head.rows,
            black: head.black,
            white: head.white,
            to_move: head.to_move,
            winner: head.winner,
            nodes: Vec::new(),
        };
        Ok(Lazy { head, body, starts, entries })
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Node `id`, decoded.
    pub fn node(&self, id: u32) -> Option<Node> {
        let at = *self.starts.get(id as usize)? as usize;
        postcard::take_from_bytes::<Node>(&self.body[at..]).ok().map(|(n, _)| n)
    }

    /// The JSON form, written node by node.
    pub fn write_json<W: Write>(&self, out: &mut W) -> Result<(), FormatError> {
        let nodes =
            (0..self.len() as u32).map(|id| self.node(id).ok_or(FormatError::Count(u64::from(id))));
        self.head.write_json(nodes, out)
    }
}

impl fmt::Debug for Lazy<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Lazy({:?}, {} nodes in {} bytes)", self.head, self.len(), self.body.len())
    }
}

/// Where the checker finds a certificate's nodes: in memory, or decoded on demand.
pub trait Nodes {
    /// The number of nodes.
    fn count(&self) -> usize;
    /// Node `id`, if there is one.
    fn get(&self, id: u32) -> Option<Cow<'_, Node>>;
    /// The sum of [`Node::entries`] over the nodes.
    fn entries(&self) -> u64;
}

impl Nodes for [Node] {
    fn count(&self) -> usize {
        self.len()
    }

    fn get(&self, id: u32) -> Option<Cow<'_, Node>> {
        <[Node]>::get(self, id as usize).map(Cow::Borrowed)
    }

    fn entries(&self) -> u64 {
        self.iter().map(Node::entries).fold(0, u64::saturating_add)
    }
}

impl Nodes for Lazy<'_> {
    fn count(&self) -> usize {
        self.len()
    }

    fn get(&self, id: u32) -> Option<Cow<'_, Node>> {
        self.node(id).map(Cow::Owned)
    }

    fn entries(&self) -> u64 {
        self.entries
    }
}

/// The JSON form's header, read before the body.
#[derive(Deserialize)]
struct JsonHeader {
    format: String,
    version: u32,
}

impl Certificate {
    /// The binary form: the magic header, the version, and the postcard encoding.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.binary_head(self.nodes.len());
        for node in &self.nodes {
            encode(node, &mut out);
        }
        out
    }

    /// The binary form's bytes before the nodes, for a certificate of `count` nodes (whatever
    /// `nodes` holds): the magic header, the version, the position, the winner and the count.
    /// The postcard encoding of each node follows them, as a [`Spool`] writes it.
    pub fn binary_head(&self, count: usize) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        let head = Head {
            cols: self.cols,
            rows: self.rows,
            black: &self.black,
            white: &self.white,
            to_move: self.to_move,
            winner: self.winner,
            nodes: count,
        };
        encode(&head, &mut out);
        out
    }

    /// The JSON form: one object with `format`, `version`, the position and the claimed
    /// winner, then `nodes` with one node per line.
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        // Writing to a vector cannot fail, and JSON is UTF-8.
        let _ = self.write_json(self.nodes.iter().map(Ok), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// The JSON form of this certificate's head with `nodes` (whatever `self.nodes` holds),
    /// written node by node.
    pub fn write_json<N: Borrow<Node>, W: Write>(
        &self,
        nodes: impl Iterator<Item = Result<N, FormatError>>,
        out: &mut W,
    ) -> Result<(), FormatError> {
        writeln!(
            out,
            "{{\"format\":\"{JSON_FORMAT}\",\"version\":{VERSION},\"cols\":{},\"rows\":{},\
             \"black\":{},\"white\":{},\"to_move\":{},\"winner\":{},\"nodes\":[",
            self.cols,
            self.rows,
            json(&self.black),
            json(&self.white),
            json(&self.to_move),
            json(&self.winner),
        )?;
        for (i, n) in nodes.enumerate() {
            if i > 0 {
                out.write_all(b",\n")?;
            }
            serde_json::to_writer(&mut *out, n?.borrow())?;
        }
        out.write_all(b"\n]}\n")?;
        Ok(())
    }

    /// Reads either form (JSON when the first non-blank byte is `{`), checking the format's
    /// name and version first.
    pub fn from_bytes(bytes: &[u8]) -> Result<Certificate, FormatError> {
        if let Some(rest) = bytes.strip_prefix(MAGIC.as_slice()) {
            let (version, body) = rest.split_at_checked(4).ok_or(FormatError::NotACertificate)?;
            let found = u32::from_le_bytes(version.try_into().unwrap_or_default());
            if found != VERSION {
                return Err(FormatError::Version { found });
            }
            return Ok(postcard::from_bytes(body)?);
        }
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(FormatError::NotACertificate);
        }
        let header: JsonHeader = serde_json::from_slice(bytes)?;
        if header.format != JSON_FORMAT {
            return Err(FormatError::OtherFormat(header.format));
        }
        if header.version != VERSION {
            return Err(FormatError::Version { found: header.version });
        }
        Ok(serde_json::from_slice(bytes)?)
    }
}

/// The compact JSON text of a part of a certificate.
fn json<T: Serialize>(value: &T) -> String {
    // The parts are plain data with string keys: serde_json cannot fail on them.
    serde_json::to_string(value).unwrap_or_default()
}
