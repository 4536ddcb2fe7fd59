//! Per-chapter work on rayon's thread pool, for books large enough to pay for it.
//!
//! Parsing the chapters, reading their claims, running the checks and rendering are each a map
//! over independent items; [`map`] runs such a map on rayon's pool (one pool for the whole run,
//! kept across the stages) and returns the results in the order of the items, so the output
//! never depends on the number of threads. Books under [`PARALLEL_FROM`] bytes of Markdown stay
//! on the calling thread, until a stage has started the pool (a large source tree, say): from
//! then on every map runs on it, since its threads are paid for. `MDBOOK_CONTRACT_THREADS=N`
//! sets the number of threads whatever the size (`1`: all on the calling thread), for
//! measuring.

use std::num::NonZeroUsize;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

/// Below this many bytes of Markdown, the calling thread does all the work: see BENCHMARKS.md
/// ("Threads") for the figures this threshold is set from.
pub(crate) const PARALLEL_FROM: usize = 256 << 10;

/// The number of threads `MDBOOK_CONTRACT_THREADS` asks for, if it is a positive number.
fn configured() -> Option<usize> {
    static CONFIGURED: OnceLock<Option<usize>> = OnceLock::new();
    *CONFIGURED.get_or_init(|| {
        let threads = std::env::var("MDBOOK_CONTRACT_THREADS")
            .ok()?
            .trim()
            .parse::<NonZeroUsize>()
            .ok()?
            .get();
        // The global pool takes the number once; when it is already built (in tests, say),
        // the number it has stands.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
        Some(threads)
    })
}

/// How many threads a stage that runs outside rayon's pool (the walk of a source tree, on the
/// `ignore` crate's own threads) uses: `MDBOOK_CONTRACT_THREADS`, else as many as the pool has.
pub(crate) fn threads() -> usize {
    configured().unwrap_or_else(rayon::current_num_threads)
}

/// Whether a map has run on the pool, so that its threads are started.
static STARTED: AtomicBool = AtomicBool::new(false);

/// Whether `work` bytes of Markdown are spread over threads: when there are enough of them to
/// pay for it, or (`started`) when the pool a map started is there to run them.
fn in_parallel(work: usize, started: bool) -> bool {
    match configured() {
        Some(threads) => threads > 1,
        None => (work >= PARALLEL_FROM || started) && rayon::current_num_threads() > 1,
    }
}

/// `f(i, item)` for every item, in the order of the items; on the thread pool when `work`, the
/// bytes of Markdown the items stand for, is large enough (see [`PARALLEL_FROM`]).
pub(crate) fn map<T, R>(items: &[T], work: usize, f: impl Fn(usize, &T) -> R + Sync) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    if in_parallel(work, STARTED.load(Ordering::Relaxed)) {
        STARTED.store(true, Ordering::Relaxed);
        items.par_iter().enumerate().map(|(i, t)| f(i, t)).collect()
    } else {
        items.iter().enumerate().map(|(i, t)| f(i, t)).collect()
    }
}

/// `a()` on the calling thread and `b()` at once on a thread of its own, when `work` bytes is
/// large enough (see [`PARALLEL_FROM`]): two independent stages, such as reading the source
/// tree (whose chapters stay on this thread) and the test results. A panic in `b` is `b`'s
/// caller's, as on one thread.
pub(crate) fn both<A, B>(work: usize, a: impl FnOnce() -> A, b: impl FnOnce() -> B + Send) -> (A, B)
where
    B: Send,
{
    // A thread of its own, not the pool's: its cost is paid each time, whatever a map started.
    if !in_parallel(work, false) {
        return (a(), b());
    }
    std::thread::scope(|scope| {
        let other = scope.spawn(b);
        let first = a();
        match other.join() {
            Ok(second) => (first, second),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_order_of_the_items() {
        let items: Vec<usize> = (0..1000).collect();
        for work in [0, PARALLEL_FROM] {
            let squares = map(&items, work, |i, x| {
                assert_eq!(i, *x);
                x * x
            });
            assert_eq!(squares, items.iter().map(|x| x * x).collect::<Vec<_>>());
        }
        assert!(map(&[] as &[u8], PARALLEL_FROM, |_, x| *x).is_empty());
    }

    #[test]
    fn a_small_book_runs_on_the_pool_only_once_a_map_started_it() {
        if configured().is_some() {
            return; // MDBOOK_CONTRACT_THREADS decides alone.
        }
        let threads = rayon::current_num_threads() > 1;
        assert!(!in_parallel(0, false));
        assert_eq!(in_parallel(0, true), threads);
        assert_eq!(in_parallel(PARALLEL_FROM, false), threads);
    }
}
