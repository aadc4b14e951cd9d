//! `vonk-site <app.wasm> <pkg-dir> <output-name>`: the browser half of `scripts/build-site.sh`.
//!
//! 1. Splits the compiled hydrate module: every `#[island(lazy)]` (and every lazy route part)
//!    becomes a module of its own in `<pkg-dir>`, loaded on first use, plus the loader
//!    `__wasm_split.______________________.js` and `__wasm_split_manifest.json`, the names
//!    Leptos' `HydrationScripts` asks for. The input must be linked with `--emit-relocs`.
//!    The loader's fetches are then issued a few at a time (see [`pace_fetches`]).
//! 2. Runs wasm-bindgen (`--target web`) on the main module, keeping the linker's exports the
//!    split modules import, and names the result `<output-name>.wasm` / `<output-name>.js`.
//!
//! Prints the wasm files written, one per line, for `wasm-opt`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, input, pkg_dir, name] = args.as_slice() else {
        eprintln!("usage: vonk-site <app.wasm> <pkg-dir> <output-name>");
        return ExitCode::from(2);
    };
    match run(Path::new(input), Path::new(pkg_dir), name) {
        Ok(files) => {
            for file in files {
                println!("{}", file.display());
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("vonk-site: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(input: &Path, pkg_dir: &Path, name: &str) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    std::fs::create_dir_all(pkg_dir)?;
    let input_wasm = std::fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let main_split = input.with_file_name(format!("{name}_split.wasm"));
    let main_module = format!("./{name}.js");

    let split = wasm_split_cli_support::transform({
        let mut opts = wasm_split_cli_support::Options::new(&input_wasm);
        opts.output_dir = pkg_dir;
        opts.main_out_path = &main_split;
        opts.main_module = &main_module;
        opts.link_name = "./__wasm_split.______________________.js";
        opts
    })
    .map_err(|e| format!("splitting {}: {e:#}", input.display()))?;
    drop(input_wasm);
    let loader = pkg_dir.join("__wasm_split.______________________.js");
    let paced = pace_fetches(&std::fs::read_to_string(&loader)?).map_err(|e| format!("{}: {e}", loader.display()))?;
    std::fs::write(&loader, paced)?;
    std::fs::write(pkg_dir.join("__wasm_split_manifest.json"), serde_json::to_string_pretty(&split.prefetch_map)?)?;

    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&main_split)
        .web(true)?
        .out_name(name)
        .keep_lld_exports(true)
        .demangle(false)
        .typescript(false)
        .generate(pkg_dir)
        .map_err(|e| format!("wasm-bindgen: {e:#}"))?;
    // Leptos' hydration script loads `<name>.wasm`.
    let main_wasm = pkg_dir.join(format!("{name}.wasm"));
    std::fs::rename(pkg_dir.join(format!("{name}_bg.wasm")), &main_wasm)?;

    let mut files = vec![main_wasm];
    files.extend(split.split_modules);
    Ok(files)
}

/// What the loader fetches a module with, as the splitter writes it.
const FETCH: &str = "const src = fetch(new URL(";
const PACED_FETCH: &str = "const src = __vonkPacedFetch(new URL(";

/// Issues queued fetches a few milliseconds' worth per task, yielding to the browser in between
/// (a message to itself: no timer clamping).
const PACER: &str = r#"
const __vonkFetchQueue = [];
let __vonkFetchPacing = false;
const __vonkFetchPace = new MessageChannel();
__vonkFetchPace.port1.onmessage = () => {
    const until = performance.now() + 4;
    do __vonkFetchQueue.shift()(); while (__vonkFetchQueue.length && performance.now() < until);
    if (__vonkFetchQueue.length) __vonkFetchPace.port2.postMessage(null); else __vonkFetchPacing = false;
};
function __vonkPacedFetch(url) {
    return new Promise((resolve, reject) => {
        __vonkFetchQueue.push(() => fetch(url).then(resolve, reject));
        if (!__vonkFetchPacing) { __vonkFetchPacing = true; __vonkFetchPace.port2.postMessage(null); }
    });
}
"#;

/// The splitter's loader starts every module an island needs at once: the chat's island needs
/// 85 (most of them a few hundred bytes), and those `fetch` calls, run in one task, blocked a
/// phone's main thread for 130 ms (Chromium at 4x CPU slowdown). Paced, each task issues what
/// fits in 4 ms and the browser paints and answers input in between; `instantiateStreaming`
/// takes the promise of the response as it took the response. Fails when the loader does not
/// look as expected (a new splitter version), so the build does not quietly go back.
fn pace_fetches(loader: &str) -> Result<String, String> {
    let fetches = loader.matches(FETCH).count();
    if fetches == 0 || loader.matches("fetch(").count() != fetches {
        return Err(format!("expected every fetch of the split loader to read `{FETCH}…` ({fetches} did)"));
    }
    let Some((imports, rest)) = loader.split_once('\n') else { return Err("the split loader has one line".into()) };
    if !imports.starts_with("import ") {
        return Err("the split loader does not start with its import".into());
    }
    Ok(format!("{imports}\n{PACER}{}", rest.replace(FETCH, PACED_FETCH)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOADER: &str = r#"import { initSync } from "./vonk.js";
const __chunk_17 = makeLoad(() => {
    const src = fetch(new URL("./chunk_17.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []);
export const __wasm_split_load_chat = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_chat.wasm", import.meta.url));
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_17]));
"#;

    #[test]
    fn every_module_is_fetched_paced() {
        let paced = pace_fetches(LOADER).unwrap();
        assert!(paced.starts_with("import { initSync } from \"./vonk.js\";\n"));
        assert_eq!(paced.matches("__vonkPacedFetch(new URL(\"./").count(), 2);
        assert_eq!(paced.matches("fetch(").count(), 1, "only the pacer calls fetch itself");
        assert!(paced.contains("function __vonkPacedFetch(url)"));
        assert!(paced.contains("instantiateStreaming(src, imports)"));
    }

    #[test]
    fn a_loader_of_another_shape_is_refused() {
        assert!(pace_fetches(&LOADER.replace(FETCH, "const src = fetch(\"")).is_err());
        assert!(pace_fetches(&format!("{LOADER}fetch(other);\n")).is_err());
        assert!(pace_fetches("import { initSync } from \"./vonk.js\";\n").is_err());
        assert!(pace_fetches(&LOADER.replacen("import", "// import", 1)).is_err());
    }
}
