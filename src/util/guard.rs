//! A bug must not cost the book: [`catch`] runs one piece of work (one check, one shortcode's
//! rendering) and turns a panic inside it into a [`Panic`], which the caller reports as an
//! `internal-error` finding naming what failed, while everything else still runs.
//!
//! The panic hook is chained once per process: inside [`catch`] it records the message and
//! where in this crate it was raised instead of printing them (the finding says it, and a
//! build's terminal gets no backtrace); outside it, the previous hook runs as before.
//!
//! [`fault`] is how the tests make a piece of work fail on purpose, since no input is known
//! to: `MDBOOK_CONTRACT_FAULT=CHECK` makes that check panic when it reads its first chapter
//! (or, for a check that reads no chapter, when it ends), and `MDBOOK_CONTRACT_FAULT=render`
//! makes the rendering of every shortcode panic.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{LazyLock, Once};

/// A panic caught by [`catch`]: its message, with the place in this crate's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Panic(pub(crate) String);

thread_local! {
    /// Whether this thread is inside [`catch`].
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    /// What the hook recorded of the last panic inside [`catch`].
    static CAUGHT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `work`; a panic inside it comes back as a [`Panic`], not printed.
pub(crate) fn catch<T>(work: impl FnOnce() -> T) -> Result<T, Panic> {
    install_hook();
    let outer = GUARDED.replace(true);
    let result = panic::catch_unwind(AssertUnwindSafe(work));
    GUARDED.set(outer);
    result.map_err(|payload| {
        let recorded = CAUGHT.take();
        Panic(recorded.unwrap_or_else(|| message(&*payload)))
    })
}

/// Panics when `MDBOOK_CONTRACT_FAULT` names `what` (see the module's doc).
pub(crate) fn fault(what: &str) {
    static FAULT: LazyLock<Option<String>> =
        LazyLock::new(|| std::env::var("MDBOOK_CONTRACT_FAULT").ok());
    if FAULT.as_deref() == Some(what) {
        panic!("a fault injected by MDBOOK_CONTRACT_FAULT={what}");
    }
}

fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if GUARDED.get() {
                let text = message(info.payload());
                let text = match info.location() {
                    Some(at) => format!("{text} (at {}:{}:{})", at.file(), at.line(), at.column()),
                    None => text,
                };
                CAUGHT.set(Some(text));
            } else {
                previous(info);
            }
        }));
    });
}

fn message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_comes_back_with_its_message_and_place() {
        let caught = catch(|| {
            let text = "a\u{a0}b";
            let _ = &text[..2];
        })
        .unwrap_err();
        assert!(caught.0.contains("is not a char boundary"), "{caught:?}");
        assert!(caught.0.contains(concat!(file!(), ":")), "{caught:?}");
        assert_eq!(catch(|| 7), Ok(7));
    }

    #[test]
    fn a_nested_catch_leaves_the_outer_one_guarded() {
        let outer = catch(|| {
            let inner = catch(|| panic!("inner"));
            assert!(inner.is_err());
            panic!("outer");
        });
        assert!(outer.unwrap_err().0.starts_with("outer"));
    }
}
