//! `vonk-site <app.wasm> <pkg-dir> <output-name>`: the browser half of `scripts/build-site.sh`.
//!
//! 1. Splits the compiled hydrate module: every `#[island(lazy)]` (and every lazy route part)
//!    becomes a module of its own in `<pkg-dir>`, loaded on first use, plus the loader
//!    `__wasm_split.______________________.js` and `__wasm_split_manifest.json`, the names
//!    Leptos' `HydrationScripts` asks for. The input must be linked with `--emit-relocs`.
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

fn run(
    input: &Path,
    pkg_dir: &Path,
    name: &str,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
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
    std::fs::write(
        pkg_dir.join("__wasm_split_manifest.json"),
        serde_json::to_string_pretty(&split.prefetch_map)?,
    )?;

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
