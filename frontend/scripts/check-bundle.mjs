// Bundle budget (issue 3): the JavaScript a browser must load before the
// login page and the dashboard can show is at most 200 KB gzip each.
// "Initial" = the entry chunk, the route's own chunk, and every chunk either
// imports statically (transitively). Lazy chunks (other routes, the icon
// gallery's styles) do not count. Reads dist/.vite/manifest.json from `vite build`.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 200 * 1024;
const dist = new URL('../dist/', import.meta.url).pathname;
const manifestPath = join(dist, '.vite', 'manifest.json');

/** The routes people land on first, by their route module in src/app/routes. */
const ROUTES = {
  login: 'src/app/routes/login.tsx',
  dashboard: 'src/app/routes/dashboard.tsx',
};

if (!existsSync(manifestPath)) {
  console.error(`check:bundle: ${manifestPath} is missing; run \`npm run build\` first.`);
  process.exit(1);
}

/** @type {Record<string, { file: string, isEntry?: boolean, imports?: string[] }>} */
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entryKey) {
  console.error('check:bundle: no entry chunk in the manifest.');
  process.exit(1);
}

/**
 * The chunk and everything it imports statically, as manifest keys.
 * @param {string} key
 * @param {Set<string>} [seen]
 * @returns {Set<string>}
 */
function staticClosure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`check:bundle: ${key} is not in the manifest`);
  seen.add(key);
  for (const imported of chunk.imports ?? []) staticClosure(imported, seen);
  return seen;
}

/** @type {Map<string, number>} */
const gzipSizes = new Map();
/** @param {string} file */
function gzipSize(file) {
  let size = gzipSizes.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
    gzipSizes.set(file, size);
  }
  return size;
}

/** @param {number} bytes */
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
let failed = false;

for (const [name, routeKey] of Object.entries(ROUTES)) {
  if (!manifest[routeKey]) {
    console.error(`check:bundle: the ${name} route (${routeKey}) is not a chunk of its own.`);
    failed = true;
    continue;
  }
  const keys = new Set([...staticClosure(entryKey), ...staticClosure(routeKey)]);
  const files = [...keys]
    .map((key) => manifest[key]?.file ?? '')
    .filter((file) => file.endsWith('.js'));
  const total = files.reduce((sum, file) => sum + gzipSize(file), 0);
  const ok = total <= BUDGET_BYTES;
  failed ||= !ok;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${name}: ${kb(total)} gzip of ${kb(BUDGET_BYTES)} (${files.length} files)`,
  );
  for (const file of files.sort((a, b) => gzipSize(b) - gzipSize(a))) {
    console.log(`       ${kb(gzipSize(file)).padStart(9)}  ${file}`);
  }
}

if (failed) {
  console.error(
    'check:bundle: over budget. Split the route or move heavy code behind a dynamic import.',
  );
  process.exit(1);
}
