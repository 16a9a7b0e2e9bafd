//! The front end's files as the browser receives them: fingerprinted, compressed once, and
//! answered with `304 Not Modified` when the browser already holds them.
//!
//! One fingerprint covers the whole set (every file, the generated `meta.js`, the page): the
//! page asks for `/static/FINGERPRINT/js/app.js`, and since the modules import each other by
//! relative paths, every module and page module loaded on demand comes from the same
//! fingerprinted folder. Those answers are cached for a year (`immutable`): a new build has a
//! new fingerprint, so a repeat visit downloads only the page and the API's answers. Files
//! asked for without the fingerprint (or with an old one, by a page loaded before an upgrade)
//! are served as they are now, revalidated every time (`no-cache` with an `ETag`).
//!
//! Each file is gzip-compressed once, on first use, at the best level; a browser that accepts
//! gzip gets that copy.

use std::collections::HashMap;
use std::io::Write;
use std::sync::OnceLock;

use axum::body::Bytes;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::extract::Conditional;

/// Files smaller than this go uncompressed (the headers would cost more than the saving).
const MIN_COMPRESS: usize = 512;

/// How long a fingerprinted file may be kept: a year, never revalidated.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Everything else: kept, but revalidated (with its `ETag`) before each use.
const REVALIDATE: &str = "no-cache";

/// One file: its bytes, its gzip copy (when that is smaller), its type and its entity tag.
pub struct Asset {
    body: Bytes,
    gzip: Option<Bytes>,
    content_type: &'static str,
    etag: HeaderValue,
}

impl Asset {
    /// `body` of type `content_type`, with its gzip copy and its tag made now.
    pub fn new(body: impl Into<Bytes>, content_type: &'static str) -> Asset {
        let body: Bytes = body.into();
        let digest = Sha256::digest(&body);
        let etag = format!("\"{}\"", hex(&digest[..12]));
        Asset {
            gzip: gzip(&body).map(Bytes::from),
            etag: HeaderValue::from_str(&etag).expect("hex is a valid header value"),
            body,
            content_type,
        }
    }

    /// The answer to a GET of this file: `304` when the browser's copy is current, the gzip
    /// copy when it takes gzip, the file otherwise; cached for a year when `immutable`.
    pub fn answer(&self, cond: &Conditional, immutable: bool) -> Response {
        let cache = HeaderValue::from_static(if immutable { IMMUTABLE } else { REVALIDATE });
        let mut resp = if cond.matches(&self.etag) {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            match (&self.gzip, cond.gzip) {
                (Some(z), true) => {
                    let mut r = z.clone().into_response();
                    r.headers_mut()
                        .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
                    r
                }
                _ => self.body.clone().into_response(),
            }
        };
        let h = resp.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(self.content_type));
        h.insert(header::CACHE_CONTROL, cache);
        h.insert(header::ETAG, self.etag.clone());
        h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        resp
    }

    /// The file's bytes (uncompressed).
    pub fn body(&self) -> &[u8] {
        &self.body
    }
}

/// The gzip copy of `body`, when it is worth sending.
fn gzip(body: &[u8]) -> Option<Vec<u8>> {
    if body.len() < MIN_COMPRESS {
        return None;
    }
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(body).ok()?;
    let out = z.finish().ok()?;
    (out.len() < body.len()).then_some(out)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The whole front end, fingerprinted.
pub struct Assets {
    /// The fingerprint of this build's files (16 hex digits).
    pub fingerprint: String,
    /// The page, its references to `/static/` fingerprinted.
    pub index: Asset,
    /// Every file under `/static/` by its path there (`js/app.js`).
    pub files: HashMap<&'static str, Asset>,
}

impl Assets {
    /// The assets of this build (made once).
    pub fn get() -> &'static Assets {
        static ASSETS: OnceLock<Assets> = OnceLock::new();
        ASSETS.get_or_init(Assets::build)
    }

    fn build() -> Assets {
        let mut sources: Vec<(&'static str, Bytes, &'static str)> = crate::web::STATIC_FILES
            .iter()
            .map(|(p, b, t)| (*p, Bytes::from_static(b.as_bytes()), *t))
            .chain(
                crate::web::BINARY_FILES
                    .iter()
                    .map(|(p, b, t)| (*p, Bytes::from_static(b), *t)),
            )
            .collect();
        sources.push((
            crate::web::META_MODULE,
            Bytes::from(crate::meta::meta_module()),
            crate::web::JS,
        ));
        let mut all = Sha256::new();
        for (path, body, _) in &sources {
            all.update(path.as_bytes());
            all.update([0]);
            all.update(body);
            all.update([0]);
        }
        all.update(crate::web::INDEX_HTML.as_bytes());
        let fingerprint = hex(&all.finalize()[..8]);
        let page = crate::web::INDEX_HTML.replace("\"/static/", &format!("\"/static/{fingerprint}/"));
        Assets {
            index: Asset::new(page, "text/html; charset=utf-8"),
            files: sources
                .into_iter()
                .map(|(p, b, t)| (p, Asset::new(b, t)))
                .collect(),
            fingerprint,
        }
    }

    /// The file at `path` under `/static/`, and whether the path carried this build's
    /// fingerprint (then it may be cached for good). A path with another build's fingerprint
    /// gets today's file, revalidated.
    pub fn find(&self, path: &str) -> Option<(&Asset, bool)> {
        if let Some(rest) = path
            .strip_prefix(self.fingerprint.as_str())
            .and_then(|r| r.strip_prefix('/'))
        {
            return self.files.get(rest).map(|a| (a, true));
        }
        if let Some(a) = self.files.get(path) {
            return Some((a, false));
        }
        let (first, rest) = path.split_once('/')?;
        let old_fingerprint =
            first.len() == self.fingerprint.len() && first.bytes().all(|b| b.is_ascii_hexdigit());
        if old_fingerprint {
            return self.files.get(rest).map(|a| (a, false));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cond(etag: Option<&str>, gzip: bool) -> Conditional {
        Conditional {
            if_none_match: etag.map(str::to_string),
            gzip,
        }
    }

    #[test]
    fn the_page_names_its_files_by_the_fingerprint_and_they_are_found() {
        let a = Assets::get();
        let page = std::str::from_utf8(a.index.body()).unwrap();
        let app = format!("/static/{}/js/app.js", a.fingerprint);
        assert!(page.contains(&app), "{page}");
        assert!(
            !page.contains("\"/static/js/"),
            "an unfingerprinted reference is left"
        );
        let (found, immutable) = a.find(&app["/static/".len()..]).unwrap();
        assert!(immutable);
        assert_eq!(found.body(), a.files["js/app.js"].body());
        // Without the fingerprint, or with another build's: found, revalidated.
        assert!(matches!(a.find("js/app.js"), Some((_, false))));
        assert!(matches!(a.find("0123456789abcdef/js/app.js"), Some((_, false))));
        assert!(a.find("js/nothing.js").is_none());
        assert!(a.find(&format!("{}/../js/app.js", a.fingerprint)).is_none());
    }

    #[test]
    fn answers_compress_and_revalidate() {
        let a = Asset::new("let x = 1;\n".repeat(200), "text/javascript; charset=utf-8");
        let plain = a.answer(&cond(None, false), false);
        assert_eq!(plain.status(), StatusCode::OK);
        assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
        assert_eq!(plain.headers()[header::CACHE_CONTROL], "no-cache");
        let zipped = a.answer(&cond(None, true), true);
        assert_eq!(zipped.headers()[header::CONTENT_ENCODING], "gzip");
        assert_eq!(zipped.headers()[header::CACHE_CONTROL], IMMUTABLE);
        let mut z = flate2::read::GzDecoder::new(&a.gzip.as_ref().unwrap()[..]);
        let mut back = String::new();
        std::io::Read::read_to_string(&mut z, &mut back).unwrap();
        assert_eq!(back.as_bytes(), a.body());
        let tag = plain.headers()[header::ETAG].to_str().unwrap().to_string();
        assert_eq!(
            a.answer(&cond(Some(&tag), true), false).status(),
            StatusCode::NOT_MODIFIED
        );
        assert_eq!(
            a.answer(&cond(Some("\"other\""), true), false).status(),
            StatusCode::OK
        );
        // A small file goes as it is.
        assert!(Asset::new("x", "text/plain").gzip.is_none());
    }
}
