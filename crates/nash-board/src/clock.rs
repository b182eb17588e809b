//! The monotonic clock every time limit is measured with: [`Instant`] is std's on native
//! targets, and on `wasm32` (where `std::time::Instant::now` panics) one read from a function
//! the host provides, the browser's `performance.now()`.
//!
//! The WebAssembly module imports `performance_now() -> f64` (milliseconds since an origin,
//! monotonic) from the module `nash`; `crates/nash-web/page/nash.js` supplies it.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use host::Instant;

// Built for the tests on native targets too, with std's clock as the host, so that its
// arithmetic is checked where the tests run.
#[cfg(any(target_arch = "wasm32", test))]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod host {
    use std::ops::{Add, AddAssign, Sub, SubAssign};
    use std::time::Duration;

    /// A reading of the host's monotonic clock: the time since the host's origin.
    #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
    pub struct Instant(Duration);

    #[cfg(target_arch = "wasm32")]
    fn millis() -> f64 {
        #[link(wasm_import_module = "nash")]
        extern "C" {
            fn performance_now() -> f64;
        }
        // SAFETY: the import takes nothing and returns a number; it touches no memory of ours.
        unsafe { performance_now() }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn millis() -> f64 {
        static ORIGIN: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        ORIGIN.get_or_init(std::time::Instant::now).elapsed().as_secs_f64() * 1000.0
    }

    impl Instant {
        /// Now. A reading that is not a finite non-negative number counts as the origin.
        pub fn now() -> Instant {
            let ms = millis();
            let ms = if ms.is_finite() && ms > 0.0 { ms } else { 0.0 };
            Instant(Duration::from_secs_f64(ms / 1000.0))
        }

        /// The time since this reading.
        pub fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }

        /// The time from `earlier` to this reading, zero if `earlier` is later.
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }

        /// The time from `earlier` to this reading, zero if `earlier` is later.
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }

        /// The time from `earlier` to this reading, `None` if `earlier` is later.
        pub fn checked_duration_since(&self, earlier: Instant) -> Option<Duration> {
            self.0.checked_sub(earlier.0)
        }

        /// This reading moved `d` later, `None` if that overflows.
        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            self.0.checked_add(d).map(Instant)
        }

        /// This reading moved `d` earlier, `None` before the origin.
        pub fn checked_sub(&self, d: Duration) -> Option<Instant> {
            self.0.checked_sub(d).map(Instant)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d)
        }
    }

    impl AddAssign<Duration> for Instant {
        fn add_assign(&mut self, d: Duration) {
            self.0 += d;
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, d: Duration) -> Instant {
            Instant(self.0.saturating_sub(d))
        }
    }

    impl SubAssign<Duration> for Instant {
        fn sub_assign(&mut self, d: Duration) {
            self.0 = self.0.saturating_sub(d);
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn readings_move_forward_and_add_up() {
            let a = Instant::now();
            let b = a + Duration::from_millis(5);
            assert!(b > a);
            assert_eq!(b - a, Duration::from_millis(5));
            assert_eq!(a - b, Duration::ZERO);
            assert_eq!(a.checked_duration_since(b), None);
            assert_eq!(b.checked_sub(Duration::from_millis(5)), Some(a));
            assert!(Instant::now() >= a);
            assert!(a.elapsed() < Duration::from_secs(60));
        }
    }
}
