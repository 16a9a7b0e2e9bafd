//! Rate limiting: token buckets, one per client address for HTTP and one per websocket.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// A token bucket: `burst` tokens at most, refilled at `rate` per second; each request takes one.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: f64) -> TokenBucket {
        TokenBucket {
            tokens: burst,
            last: Instant::now(),
            rate,
            burst,
        }
    }

    /// Takes a token at `now`; false when the bucket is empty.
    pub fn take_at(&mut self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Takes a token now.
    pub fn take(&mut self) -> bool {
        self.take_at(Instant::now())
    }
}

/// One token bucket per client address.
#[derive(Debug)]
pub struct RateLimiter {
    buckets: Mutex<HashMap<IpAddr, TokenBucket>>,
    rate: f64,
    burst: f64,
}

impl RateLimiter {
    /// A limiter allowing `rate` requests per second per address, in bursts of up to `burst`.
    pub fn new(rate: f64, burst: f64) -> RateLimiter {
        RateLimiter {
            buckets: Mutex::new(HashMap::new()),
            rate,
            burst,
        }
    }

    /// Whether `ip` may make one more request now.
    pub fn check(&self, ip: IpAddr) -> bool {
        let Ok(mut buckets) = self.buckets.lock() else {
            return true;
        };
        let now = Instant::now();
        if buckets.len() > 100_000 {
            // Forget the clients whose buckets have filled up again.
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, b| now.saturating_duration_since(b.last).as_secs_f64() * rate < burst);
        }
        buckets
            .entry(ip)
            .or_insert_with(|| TokenBucket::new(self.rate, self.burst))
            .take_at(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn bucket_empties_and_refills() {
        let mut b = TokenBucket::new(10.0, 3.0);
        let t = Instant::now();
        assert!(b.take_at(t) && b.take_at(t) && b.take_at(t));
        assert!(!b.take_at(t));
        assert!(b.take_at(t + Duration::from_millis(150)));
        let limiter = RateLimiter::new(1.0, 2.0);
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(limiter.check(ip) && limiter.check(ip));
        assert!(!limiter.check(ip));
        assert!(limiter.check("10.0.0.1".parse().unwrap()));
    }
}
