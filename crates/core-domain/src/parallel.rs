//! The two-thread splits' shared step: joining the helper thread of a scope.

/// The result of a scoped helper thread. A panic there is a bug, re-raised on the calling
/// thread as it would have been raised by the sequential path.
pub(crate) fn rejoin<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}
