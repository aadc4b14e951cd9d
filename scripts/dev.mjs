// `make dev`: the edit loop. Serves the quick build with live reload on, watches the sources and,
// after an edit, rebuilds only the half that changed, restarts the server and lets the open
// pages reload themselves (`VONK_DEV_RELOAD`, `server::http::dev_reload`):
//   - server/, migrations/, locales/ (the server embeds them), app/src/ssr/, app/src/main.rs: the
//     server binary alone;
//   - domain/, the rest of app/src/, style/, public/: server and browser code, the site;
//   - react-widgets/: the widget bundle (Vite), then the site.
// An edit of browser code rebuilds the server first and restarts it (the page reloads with the new
// markup), then the wasm and the site, and restarts again. Each step prints how long the edit
// took to reach the browser.
// Usage (from make): node scripts/dev.mjs   (VONK_ADDR, DATA_DIR as for `make run`)
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const target = process.env.CARGO_TARGET_DIR ?? join(process.env.HOME, '.cache/vonk/target');
const binary = join(target, 'quick/vonk');
const addr = process.env.VONK_ADDR ?? '127.0.0.1:3000';

/** What an edit of `path` (relative to the clone) needs rebuilt, or null for nothing. */
export function kindOf(path) {
  if (/(^|\/)(target|node_modules|\.git|test-results|storybook-static)\//.test(path) || /(^|\/)tests?\//.test(path)) return null;
  if (path.startsWith('react-widgets/src/')) return 'widgets';
  if (/^(server\/src|migrations|locales)\//.test(path) || /^app\/src\/(ssr\/|main\.rs|bin\/)/.test(path)) return 'server';
  if (/^(domain\/src|app\/src|style|public)\//.test(path)) return 'site';
  return null;
}

function run(command, args, env = {}) {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

let server = null;
function start() {
  server = spawn(binary, [], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, VONK_DEV_RELOAD: 'true', VONK_ADDR: addr, VONK_PAYMENTS: process.env.VONK_PAYMENTS ?? 'test' },
  });
}
// The server stops gracefully (open requests finish, the reload streams end at once); one that
// has not stopped after 5 s is killed, so an edit always reaches the browser.
function stop() {
  return new Promise((done) => {
    if (!server || server.exitCode !== null) return done();
    const stopping = server;
    const kill = setTimeout(() => stopping.kill('SIGKILL'), 5000);
    stopping.once('exit', () => {
      clearTimeout(kill);
      done();
    });
    stopping.kill('SIGTERM');
  });
}

// The same command and flags as scripts/build-site.sh's server half, so cargo reuses its work.
const serverBuild = () =>
  run(
    'cargo',
    ['build', '--profile', 'quick', '-p', 'app', '-p', 'vonk-site', '--bin', 'vonk', '--bin', 'vonk-site', '--no-default-features', '--features', 'app/ssr'],
    {
      RUSTFLAGS: '--cfg erase_components',
    },
  );
const siteBuild = () => run('scripts/build-site.sh', [], { VONK_BUILD: 'quick', VONK_DEV: '1' });
const widgetsBuild = () => run('npm', ['run', '--silent', 'build:widgets']);

// What the edits since the last build need, and when the first of them was made.
let pending = new Set();
let firstEdit = 0;
let building = false;
async function rebuild() {
  if (building || pending.size === 0) return;
  building = true;
  const kinds = pending;
  const since = firstEdit;
  pending = new Set();
  const restart = async (what) => {
    await stop();
    start();
    console.log(`\n==> ${what}, server restarted: ${((Date.now() - since) / 1000).toFixed(1)} s after the edit (pages reload when it listens)\n`);
  };
  try {
    if (kinds.has('widgets')) {
      await widgetsBuild();
      await siteBuild();
      await restart('widgets and site rebuilt');
    } else if (kinds.has('site')) {
      // The server half first: the page's new markup is in the browser while the browser code
      // still compiles (an island's own change arrives with the second reload).
      await serverBuild();
      await restart('server rebuilt');
      await siteBuild();
      await restart('browser code rebuilt');
    } else {
      await serverBuild();
      await restart('server rebuilt');
    }
  } catch (error) {
    console.error(`\n==> the build failed (${error.message}); the server keeps running the last good build\n`);
  } finally {
    building = false;
    if (pending.size) setTimeout(rebuild, 0);
  }
}

if (process.argv[2] !== '--classify') {
  start();
  let timer = null;
  watch(root, { recursive: true }, (_, name) => {
    if (!name) return;
    const kind = kindOf(relative(root, join(root, name.toString())));
    if (!kind) return;
    if (pending.size === 0) firstEdit = Date.now();
    pending.add(kind);
    clearTimeout(timer);
    // Editors write a file in several steps: build once they are done.
    timer = setTimeout(rebuild, 150);
  });
  console.log(`==> make dev: serving http://${addr} with live reload; edits rebuild and restart (Ctrl-C stops)`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop().then(() => process.exit(0)));
} else {
  // `node scripts/dev.mjs --classify path…`: what an edit of each path rebuilds (for tests).
  for (const path of process.argv.slice(3)) console.log(`${path}\t${kindOf(path) ?? 'nothing'}`);
}
