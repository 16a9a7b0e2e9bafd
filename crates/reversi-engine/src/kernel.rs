//! The move-generation kernels a search may be compiled for, and which of them this CPU runs
//! (detected once). The solver, the short searches and the evaluation all ask here.

#[cfg(target_arch = "x86_64")]
use std::sync::atomic::Ordering::Relaxed;

/// Which compiled solver to use. All of them make the same search (the same node counts);
/// they differ in the instructions their move generation may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain 64-bit code.
    Portable,
    /// AVX2 move generation, with BMI2 and POPCNT (checked at run time).
    Avx2,
    /// AVX-512 (F, VL, CD) move generation on top of `Avx2`'s features (checked at run time).
    Avx512,
}

impl Kernel {
    /// The fastest kernel this CPU supports.
    #[inline]
    pub fn best() -> Kernel {
        if Kernel::Avx512.available() {
            Kernel::Avx512
        } else if Kernel::Avx2.available() {
            Kernel::Avx2
        } else {
            Kernel::Portable
        }
    }

    /// Whether this CPU can run the kernel.
    #[inline]
    pub fn available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => detected() & AVX2 != 0,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => detected() & AVX512 != 0,
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }
}

#[cfg(target_arch = "x86_64")]
const AVX2: u8 = 2;
#[cfg(target_arch = "x86_64")]
const AVX512: u8 = 4;

/// The kernels this CPU can run, as bits, detected once: the evaluation asks at every call, and
/// the six feature tests cost 0.7 % of the solver's instructions (FFO #40–44).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn detected() -> u8 {
    let known = FEATURES.load(Relaxed);
    if known != 0 {
        known
    } else {
        detect()
    }
}

#[cfg(target_arch = "x86_64")]
static FEATURES: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

#[cfg(target_arch = "x86_64")]
#[cold]
fn detect() -> u8 {
    let avx2 = std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("popcnt");
    let avx512 = avx2
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512cd");
    // Bit 0 marks the detection done.
    let bits = 1 | if avx2 { AVX2 } else { 0 } | if avx512 { AVX512 } else { 0 };
    FEATURES.store(bits, Relaxed);
    bits
}
