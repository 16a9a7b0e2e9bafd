//! From SVG text to files: PNG through resvg, PDF through svg2pdf, with the embedded font.

use resvg::{tiny_skia, usvg};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// One multi-page PDF document.
    #[default]
    Pdf,
    /// SVG, one file per page.
    Svg,
    /// PNG, one file per page.
    Png,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 3] = [Format::Pdf, Format::Svg, Format::Png];

    /// The file extension (without the dot).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Svg => "svg",
            Format::Png => "png",
        }
    }

    /// The format named by a file's extension, if it is one of ours.
    pub fn from_path(path: &Path) -> Option<Format> {
        path.extension()?.to_str()?.parse().ok()
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s.to_ascii_lowercase().as_str() {
            "pdf" => Ok(Format::Pdf),
            "svg" => Ok(Format::Svg),
            "png" => Ok(Format::Png),
            _ => Err(format!("format `{s}` must be `pdf`, `svg` or `png`")),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.extension())
    }
}

/// Why a picture could not be converted.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The SVG did not parse (a bug here: we write it ourselves).
    #[error("SVG error: {0}")]
    Svg(#[from] usvg::Error),
    /// The PNG could not be drawn or encoded.
    #[error("PNG error: {0}")]
    Png(String),
    /// The PDF could not be written.
    #[error("PDF error: {0}")]
    Pdf(String),
    /// Nothing to write.
    #[error("no pages to write")]
    NoPages,
}

/// The font database every picture uses: DejaVu Sans and DejaVu Sans Bold, embedded in the crate.
pub fn fontdb() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(include_bytes!("../fonts/DejaVuSans.ttf").to_vec());
        db.load_font_data(include_bytes!("../fonts/DejaVuSans-Bold.ttf").to_vec());
        db.set_sans_serif_family(crate::svg::FONT);
        Arc::new(db)
    })
    .clone()
}

/// Parses SVG text with the embedded fonts (sizes in px at 96 per inch, as usvg counts them).
pub fn parse_svg(svg: &str) -> Result<usvg::Tree, Error> {
    let options = usvg::Options {
        font_family: crate::svg::FONT.to_string(),
        fontdb: fontdb(),
        ..usvg::Options::default()
    };
    Ok(usvg::Tree::from_str(svg, &options)?)
}

/// Draws an SVG page as PNG at `dpi` pixels per inch.
pub fn svg_to_png(svg: &str, dpi: f32) -> Result<Vec<u8>, Error> {
    let tree = parse_svg(svg)?;
    let scale = dpi / 96.0;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(|| Error::Png("empty".into()))?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| Error::Png(format!("cannot allocate {}×{}", size.width(), size.height())))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| Error::Png(e.to_string()))
}

/// Puts SVG pages into one PDF document, one page each, at their real size (text embedded as
/// subset fonts, so it stays selectable).
pub fn svg_to_pdf(pages: &[String]) -> Result<Vec<u8>, Error> {
    use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref};
    if pages.is_empty() {
        return Err(Error::NoPages);
    }
    let mut alloc = Ref::new(1);
    let catalog_id = alloc.bump();
    let page_tree_id = alloc.bump();
    let mut pdf = Pdf::new();
    let mut page_ids = Vec::new();
    let mut chunks = Vec::new();
    for svg in pages {
        let tree = parse_svg(svg)?;
        let (chunk, svg_id) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| Error::Pdf(e.to_string()))?;
        let mut map = std::collections::HashMap::new();
        let chunk = chunk.renumber(|old| *map.entry(old).or_insert_with(|| alloc.bump()));
        let svg_id = map[&svg_id];
        let page_id = alloc.bump();
        let content_id = alloc.bump();
        // usvg measures in px at 96 per inch; PDF in points at 72.
        let (w, h) = (tree.size().width() * 0.75, tree.size().height() * 0.75);
        let mut page = pdf.page(page_id);
        page.media_box(Rect::new(0.0, 0.0, w, h));
        page.parent(page_tree_id);
        page.contents(content_id);
        page.resources().x_objects().pair(Name(b"S1"), svg_id);
        page.finish();
        let mut content = Content::new();
        content
            .transform([w, 0.0, 0.0, h, 0.0, 0.0])
            .x_object(Name(b"S1"));
        pdf.stream(content_id, &content.finish());
        page_ids.push(page_id);
        chunks.push(chunk);
    }
    pdf.catalog(catalog_id).pages(page_tree_id);
    pdf.pages(page_tree_id)
        .kids(page_ids.iter().copied())
        .count(page_ids.len() as i32);
    for chunk in &chunks {
        pdf.extend(chunk);
    }
    Ok(pdf.finish())
}

/// Encodes SVG pages: a PDF is one file holding every page; SVG and PNG give one file per page.
/// PNG pages are drawn at 150 dpi.
pub fn encode(pages: &[String], format: Format) -> Result<Vec<Vec<u8>>, Error> {
    if pages.is_empty() {
        return Err(Error::NoPages);
    }
    match format {
        Format::Pdf => Ok(vec![svg_to_pdf(pages)?]),
        Format::Svg => Ok(pages.iter().map(|p| p.clone().into_bytes()).collect()),
        Format::Png => pages.iter().map(|p| svg_to_png(p, 150.0)).collect(),
    }
}

/// The files `count` pages go to: `path` itself for the first, then `STEM-2.EXT`, `STEM-3.EXT`, …
/// beside it (for SVG and PNG, which hold one page each).
pub fn page_file_names(path: &Path, count: usize) -> Vec<PathBuf> {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("page");
    let ext = path.extension().and_then(|s| s.to_str());
    (0..count)
        .map(|i| {
            if i == 0 {
                path.to_path_buf()
            } else {
                let name = match ext {
                    Some(e) => format!("{stem}-{}.{e}", i + 1),
                    None => format!("{stem}-{}", i + 1),
                };
                path.with_file_name(name)
            }
        })
        .collect()
}
