// Proves the import boundaries still bite. They are only as good as the
// resolver behind them: if it stops resolving `@/...`, the rule silently
// allows everything. This lints snippets placed in real folders and fails
// unless the rule fires exactly where it should. Run by `npm run lint`.
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

const cases = [
  {
    what: 'a feature importing another feature',
    filePath: 'src/features/profile/components/boundary-probe.tsx',
    code: "import { AllUsersPage } from '@/features/users/components/all-users-page';\nexport const probe = AllUsersPage;\n",
    expected: 1,
  },
  {
    what: 'shared code importing the app',
    filePath: 'src/components/boundary-probe.ts',
    code: "import { routes } from '@/app/router';\nexport const probe = routes;\n",
    expected: 1,
  },
  {
    what: 'a feature using shared code',
    filePath: 'src/features/profile/components/boundary-probe.tsx',
    code: "import { paths } from '@/config/paths';\nexport const probe = paths;\n",
    expected: 0,
  },
];

let failed = false;
for (const c of cases) {
  const [result] = await eslint.lintText(c.code, { filePath: c.filePath });
  const hits = (result?.messages ?? []).filter((m) => m.ruleId === 'import/no-restricted-paths');
  const ok = hits.length === c.expected;
  failed ||= !ok;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${c.what}: ${hits.length} boundary error(s), expected ${c.expected}`,
  );
}
if (failed) {
  console.error(
    'The import-boundary rule does not work as configured (check the import resolver).',
  );
  process.exit(1);
}
