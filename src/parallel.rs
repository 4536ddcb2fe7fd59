//! Per-chapter work spread over the machine's cores, results in input order.
//!
//! Deserialising the book's items, reading chapters, reading their claims, running the checks,
//! rendering shortcodes and splicing are each a map over independent items (book items,
//! chapters, or checks), so [`map`] runs them on scoped threads that take the
//! next item from a shared counter, and puts the results back in the order of the items: the
//! output never depends on the number of threads. Books under [`PARALLEL_FROM`] bytes of
//! Markdown stay on the calling thread; `MDBOOK_CONTRACT_THREADS` sets the number of threads
//! whatever the size (`1`: all on the calling thread), for measuring.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// Below this many bytes of Markdown, a second thread costs more than it saves (starting it,
/// its own allocator arena, cold caches). Measured on 2 cores with `MDBOOK_CONTRACT_THREADS`:
/// two threads were 15 % slower on an 85 KB book, and 9 % faster at 400 KB and 10 to 14 % at
/// 1 MB; the threshold sits between.
pub const PARALLEL_FROM: usize = 256 << 10;

/// The number of threads for `work` bytes of Markdown: `MDBOOK_CONTRACT_THREADS` when that is a
/// positive number, else one below [`PARALLEL_FROM`], else one per core this process may use.
pub fn threads(work: usize) -> usize {
    let configured = std::env::var("MDBOOK_CONTRACT_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<NonZeroUsize>().ok());
    if let Some(threads) = configured {
        return threads.get();
    }
    if work < PARALLEL_FROM {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// `f` applied to every item, on up to [`threads`]`(work)` threads, `work` being the bytes of
/// Markdown the items stand for; `init` makes each thread's state (a cache, say), which `f`
/// gets mutably.
pub fn map<T, S, R>(
    items: &[T],
    work: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize, &T) -> R + Sync,
) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    let threads = threads(work).min(items.len());
    if threads <= 1 {
        let mut state = init();
        return items
            .iter()
            .enumerate()
            .map(|(i, item)| f(&mut state, i, item))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut state = init();
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            done.push((i, f(&mut state, i, item)));
        }
    };
    let mut slots: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut place = |done: Vec<(usize, R)>| {
            for (i, result) in done {
                slots[i] = Some(result);
            }
        };
        place(work());
        for helper in helpers {
            match helper.join() {
                Ok(done) => place(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    slots
        .into_iter()
        .map(|slot| slot.expect("every item is taken by one thread"))
        .collect()
}

/// `f` applied to every item in place, on up to [`threads`]`(work)` threads (see [`map`]).
pub fn for_each_mut<T: Send>(items: &mut [T], work: usize, f: impl Fn(usize, &mut T) + Sync) {
    if threads(work) <= 1 {
        for (i, item) in items.iter_mut().enumerate() {
            f(i, item);
        }
        return;
    }
    // Each item is taken by one thread only; the lock, taken once per item, is how the borrow
    // checker is told so.
    let items: Vec<Mutex<&mut T>> = items.iter_mut().map(Mutex::new).collect();
    map(
        &items,
        work,
        || (),
        |(), i, item| {
            let mut item = item.lock().unwrap_or_else(PoisonError::into_inner);
            f(i, &mut item);
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_order_of_the_items() {
        let items: Vec<usize> = (0..1000).collect();
        for work in [0, PARALLEL_FROM] {
            let squares = map(
                &items,
                work,
                || 0usize,
                |calls, i, x| {
                    *calls += 1;
                    assert_eq!(i, *x);
                    x * x
                },
            );
            assert_eq!(squares, items.iter().map(|x| x * x).collect::<Vec<_>>());
        }
        assert!(map(&[] as &[u8], PARALLEL_FROM, || (), |_, _, x| *x).is_empty());
    }

    #[test]
    fn every_item_is_edited_once_in_place() {
        for work in [0, PARALLEL_FROM] {
            let mut items: Vec<usize> = (0..1000).collect();
            for_each_mut(&mut items, work, |i, x| {
                assert_eq!(i, *x);
                *x *= 2;
            });
            assert_eq!(items, (0..1000).map(|x| x * 2).collect::<Vec<_>>());
        }
    }
}
