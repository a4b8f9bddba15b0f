//! Interrupts: SIGINT/SIGTERM (the command line's handler calls [`interrupt`]) make the run
//! loop stop at the end of the cycle it is in, record that state and report the interruption.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by [`interrupt`].
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks every run of this process to stop at the end of its current cycle.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// True once [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}
