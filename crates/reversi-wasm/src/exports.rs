//! The module's exports for the worker: memory for a request, one call, the answer's bytes.
//! The worker writes a request into memory from `rv_alloc`, calls `rv_call` (which frees it and
//! returns the answer's length), reads the answer at `rv_answer` and the next call replaces it.

use crate::Session;
use std::cell::RefCell;

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    static ANSWER: RefCell<String> = const { RefCell::new(String::new()) };
}

/// `len` bytes for a request.
#[no_mangle]
pub extern "C" fn rv_alloc(len: usize) -> *mut u8 {
    let mut v = Vec::<u8>::with_capacity(len.max(1));
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Answers the request of `len` bytes at `ptr` (from [`rv_alloc`], freed here); returns the
/// answer's length in bytes.
///
/// # Safety
/// `ptr` must come from `rv_alloc(len)` with `len` bytes written.
#[no_mangle]
pub unsafe extern "C" fn rv_call(ptr: *mut u8, len: usize) -> usize {
    // SAFETY: the caller's promise above: `ptr` is a live allocation of capacity `len.max(1)`
    // holding `len` initialised bytes.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let answer = match std::str::from_utf8(&bytes) {
        Ok(text) => SESSION.with(|s| s.borrow_mut().get_or_insert_with(Session::new).handle(text)),
        Err(_) => crate::error("request: not UTF-8"),
    };
    ANSWER.with(|a| {
        *a.borrow_mut() = answer;
        a.borrow().len()
    })
}

/// The last answer's bytes (valid until the next call).
#[no_mangle]
pub extern "C" fn rv_answer() -> *const u8 {
    ANSWER.with(|a| a.borrow().as_ptr())
}
