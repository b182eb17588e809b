//! Nash in the browser: the board, the solver and the player behind a small C ABI of UTF-8
//! JSON strings, built for `wasm32-unknown-unknown` and driven by the static page in `page/`
//! (`cargo xtask web` builds both into a folder; docs/web.md).
//!
//! The ABI, all a host needs and no binding generator: [`nash_alloc`] a buffer, write a JSON
//! request into it, [`nash_call`] it (which frees it and returns the answer's length), read
//! the answer at [`nash_answer`]. A request is `{"cmd": NAME, ...}` with a command of
//! [`commands`]; the answer is `{"ok": ...}` or `{"error": "one line naming the input"}`.
//! The module imports one function, `nash.performance_now` (see `nash_board::clock`).
//!
//! The same requests run natively through [`call`], which is how the tests check them.

use std::cell::RefCell;

mod commands;
mod game;

pub use commands::{call, commands, Command};

thread_local! {
    /// The last answer, kept until the next call so that the host can read it.
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for a request (null when `len` is 0 or too large).
#[no_mangle]
pub extern "C" fn nash_alloc(len: usize) -> *mut u8 {
    if len == 0 || len > isize::MAX as usize {
        return std::ptr::null_mut();
    }
    let mut buf = std::mem::ManuallyDrop::new(Vec::<u8>::with_capacity(len));
    buf.as_mut_ptr()
}

/// Frees a buffer that [`nash_alloc`] returned for `len` bytes and that was not called.
///
/// # Safety
///
/// `ptr` must come from `nash_alloc(len)` and not have been freed or passed to [`nash_call`].
#[no_mangle]
pub unsafe extern "C" fn nash_free(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        // SAFETY: by the contract, `ptr` is a live allocation of capacity `len`.
        drop(unsafe { Vec::from_raw_parts(ptr, 0, len) });
    }
}

/// Answers the request of `len` bytes at `ptr` (a buffer of [`nash_alloc`]`(len)`, which this
/// frees), keeps the answer and returns its length in bytes.
///
/// # Safety
///
/// `ptr` must come from `nash_alloc(len)`, hold `len` initialised bytes, and not be used again.
#[no_mangle]
pub unsafe extern "C" fn nash_call(ptr: *mut u8, len: usize) -> usize {
    let request = if ptr.is_null() {
        Vec::new()
    } else {
        // SAFETY: by the contract, `ptr` is an allocation of capacity `len` with `len` bytes
        // written; ownership passes to this vector, which frees it.
        unsafe { Vec::from_raw_parts(ptr, len, len) }
    };
    let answer = match std::str::from_utf8(&request) {
        Ok(text) => call(text),
        Err(_) => commands::error_answer("the request is not UTF-8"),
    };
    ANSWER.with(|a| {
        let mut a = a.borrow_mut();
        *a = answer.into_bytes();
        a.len()
    })
}

/// Where the last answer's bytes are (valid until the next [`nash_call`]).
#[no_mangle]
pub extern "C" fn nash_answer() -> *const u8 {
    ANSWER.with(|a| a.borrow().as_ptr())
}

/// rand's default features pull getrandom, which on `wasm32-unknown-unknown` builds only with
/// a source of entropy named. Nash never draws entropy (every player is seeded), so the
/// source refuses.
#[cfg(target_arch = "wasm32")]
fn no_entropy(_buf: &mut [u8]) -> Result<(), getrandom::Error> {
    Err(getrandom::Error::UNSUPPORTED)
}

#[cfg(target_arch = "wasm32")]
getrandom::register_custom_getrandom!(no_entropy);
