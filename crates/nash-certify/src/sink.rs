//! Where a certificate's nodes go (into the certificate, to a spool as they are made, or to a
//! resumable build's files), and what a streamed build reports.

use std::io::Write;
use std::time::Duration;

use nash_proof::{Certificate, Node, Spool};

use crate::journal::Partial;

/// Where a certificate's nodes go.
pub(crate) enum Sink<'w> {
    /// Into the certificate.
    Memory,
    /// To a writer, as [`nash_proof::Spool`] writes them.
    Spool(&'w mut dyn Write),
    /// To a resumable build's files.
    Files(&'w Partial),
}

/// Where the builder's nodes go.
pub(crate) enum Out<'w> {
    Memory(Vec<Node>),
    Spool(Spool<&'w mut dyn Write>),
}

/// A certificate whose nodes were written to a spool as they were made.
#[derive(Clone, Debug)]
pub struct Streamed {
    /// The certificate without its nodes (`nodes` is empty).
    pub head: Certificate,
    /// The nodes written.
    pub nodes: usize,
    /// The bytes written to the spool.
    pub bytes: u64,
    /// The positions solved again, and how many of them with fill-in after
    /// [`crate::CertifyConfig::fill_in_beyond`] nodes without.
    pub solves: u64,
    /// See `solves`.
    pub filled: u64,
    /// The CPU time the re-solving threads spent, in this run of the build, on the re-solves
    /// without fill-in that ran out of their `fill_in_beyond` nodes before those with it
    /// (zero where the system does not tell a thread's CPU time).
    pub given_up: Duration,
    /// Of a resumed build ([`crate::certificate_resumable`]): the nodes kept from earlier runs, the
    /// re-solves answered from the journal (counted in `solves`), and the CPU time of the
    /// earlier runs (measured on the building thread; wall time where the system does not
    /// tell).
    pub kept: usize,
    /// See `kept`.
    pub journaled: u64,
    /// See `kept`.
    pub cpu_before: Duration,
    /// The CPU time of this run's re-solving threads when there were several
    /// ([`crate::CertifyConfig::threads`]); the building thread's own is not in it.
    pub threads_cpu: Duration,
}
