// Fails when src/lib/api/schema.d.ts is not what `npm run gen:api` makes from
// ../openapi.yaml today, so API types can never drift from the contract.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const spec = join(root, '..', 'openapi.yaml');
const committed = join(root, 'src', 'lib', 'api', 'schema.d.ts');
const bin = join(root, 'node_modules', '.bin', 'openapi-typescript');

if (!existsSync(spec)) {
  console.error(`check:api: ${spec} is missing; the backend generates it.`);
  process.exit(1);
}
if (!existsSync(committed)) {
  console.error(`check:api: ${committed} is missing; run \`npm run gen:api\`.`);
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'brandops-api-'));
try {
  const fresh = join(dir, 'schema.d.ts');
  execFileSync(bin, [spec, '-o', fresh], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (readFileSync(fresh, 'utf8') !== readFileSync(committed, 'utf8')) {
    console.error(
      'check:api: src/lib/api/schema.d.ts is stale: openapi.yaml changed. Run `npm run gen:api` in frontend/ and commit the result.',
    );
    process.exit(1);
  }
  console.log('check:api: src/lib/api/schema.d.ts matches openapi.yaml');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
