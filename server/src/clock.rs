//! Time as the services see it: the system clock in production, a settable one in tests
//! (lockouts and token expiry are tested without sleeping).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

#[derive(Clone, Debug)]
pub enum Clock {
    System,
    Fixed(Arc<AtomicI64>),
}

impl Clock {
    /// Unix seconds.
    pub fn now(&self) -> i64 {
        match self {
            Clock::System => crate::seed::now_unix(),
            Clock::Fixed(t) => t.load(Ordering::SeqCst),
        }
    }

    pub fn fixed(at: i64) -> Clock {
        Clock::Fixed(Arc::new(AtomicI64::new(at)))
    }

    /// Moves a fixed clock forward; the system clock cannot be moved.
    pub fn advance(&self, secs: i64) {
        if let Clock::Fixed(t) = self {
            t.fetch_add(secs, Ordering::SeqCst);
        }
    }
}
