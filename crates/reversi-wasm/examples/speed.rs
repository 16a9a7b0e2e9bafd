//! The browser engine's benchmark requests answered natively, for the speed comparison of
//! docs/engine.md ("The engine in the browser"): one JSON request per argument, each answer
//! printed with its wall time. `cargo run --release -p reversi-wasm --example speed -- REQUEST…`
fn main() {
    let mut session = reversi_wasm::Session::new();
    for request in std::env::args().skip(1) {
        let t = std::time::Instant::now();
        let answer = session.handle(&request);
        println!("{:.1} ms\t{answer}", t.elapsed().as_secs_f64() * 1e3);
    }
}
