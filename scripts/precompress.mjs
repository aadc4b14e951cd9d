// Writes a gzip (level 9) and a brotli (quality 11) copy beside every text asset and wasm file
// of the built site (`X.gz`, `X.br`), once per build: the server sends them as they are and
// compresses nothing per request. Usage: node scripts/precompress.mjs [site-root]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = process.argv[2] ?? process.env.LEPTOS_SITE_ROOT ?? 'target/site';
const COMPRESSIBLE = /\.(js|mjs|css|wasm|svg|json|webmanifest|html|txt)$/;
// Smaller files gain less than the headers cost.
const MIN_BYTES = 512;

let files = 0;
let before = 0;
let after = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
    } else if (COMPRESSIBLE.test(name) && statSync(path).size >= MIN_BYTES) {
      const data = readFileSync(path);
      const br = brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          [constants.BROTLI_PARAM_MODE]: name.endsWith('.wasm') ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
        },
      });
      writeFileSync(`${path}.br`, br);
      writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
      files += 1;
      before += data.length;
      after += br.length;
    }
  }
}
walk(root);
console.log(`precompressed ${files} files in ${root}: ${before} bytes, ${after} with brotli`);
