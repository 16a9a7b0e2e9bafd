//! Reading the files named on a command line with a size limit, so that a wrong path
//! (`/dev/zero`, a disk image) ends with a clear error instead of eating the memory.

use anyhow::{bail, Context, Result};
use std::io::Read;
use std::path::Path;

/// The largest input file read whole (256 MiB; all of WTHOR is 8 MiB, and the largest GGF
/// archives a few tens of MiB).
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// The bytes of `path`, at most [`MAX_INPUT_BYTES`].
pub fn read_bytes(path: impl AsRef<Path>) -> Result<Vec<u8>> {
    read_limited(path.as_ref(), "", MAX_INPUT_BYTES)
}

/// The text of `path` (UTF-8), at most [`MAX_INPUT_BYTES`].
pub fn read_text(path: impl AsRef<Path>) -> Result<String> {
    let path = path.as_ref();
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        anyhow::anyhow!("{} is not UTF-8 text (byte {} is not)", path.display(), at + 1)
    })
}

/// The bytes of a weights file (`--eval FILE`), named as such when it cannot be read.
pub fn read_weights(path: impl AsRef<Path>) -> Result<Vec<u8>> {
    read_limited(path.as_ref(), "the weights file ", MAX_INPUT_BYTES)
}

/// `role` goes before the path in the message ("cannot read the weights file x.zst: …").
fn read_limited(path: &Path, role: &str, limit: u64) -> Result<Vec<u8>> {
    let cannot = || format!("cannot read {role}{}", path.display());
    let file = std::fs::File::open(path).with_context(cannot)?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .with_context(cannot)?;
    if bytes.len() as u64 > limit {
        bail!(
            "{} is larger than {} MiB, the most a command reads",
            path.display(),
            limit >> 20
        );
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_endless_and_oversized_input() {
        let e = read_limited(Path::new("/dev/zero"), "", 1 << 20)
            .unwrap_err()
            .to_string();
        assert!(e.contains("larger than 1 MiB"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("bad.txt");
        std::fs::write(&f, b"ok\xff").unwrap();
        let e = read_text(&f).unwrap_err().to_string();
        assert!(e.contains("not UTF-8") && e.contains("byte 3"), "{e}");
        std::fs::write(&f, b"f5d6").unwrap();
        assert_eq!(read_text(&f).unwrap(), "f5d6");
    }
}
