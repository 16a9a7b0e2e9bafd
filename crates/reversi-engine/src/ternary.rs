//! Reading a line of squares as a number in base 3: the evaluation's pattern indices and the
//! stability code's edge indices both count an own disc as 1 and an opponent's as 2.

/// Binary to "base 3 with digits 0/1": `TERNARY[b] = Σ bit_k · 3^k` (the pattern readings of
/// the evaluation and the stability code's edge index).
pub(crate) static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut k = 0;
        while k < 10 {
            if b >> k & 1 == 1 {
                v += 3u32.pow(k);
            }
            k += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};
