// Proves the import boundaries still bite. They are only as good as the
// resolver behind them: if it stops resolving `@/...`, the rule silently
// allows everything. This lints snippets placed in real folders and fails
// unless the rule fires exactly where it should. Run by `npm run lint`.
//
// Each case counts the errors of one rule (`import/no-restricted-paths`
// unless it says otherwise).
import { ESLint } from 'eslint';

// import/no-cycle needs the probe on disk to map its imports; it is not what
// these cases test.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: { rules: { 'import/no-cycle': 'off' } },
});

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
  {
    what: 'a feature using the store',
    filePath: 'src/features/profile/components/boundary-probe.tsx',
    code: "import { useAppStore } from '@/stores/app-store';\nexport const probe = useAppStore;\n",
    expected: 0,
  },
  {
    what: "the store composing a feature's slice file",
    filePath: 'src/stores/boundary-probe.ts',
    code: "import { usersActions } from '@/features/users/store/users-slice';\nexport const probe = usersActions;\n",
    expected: 0,
  },
  {
    what: "the store importing a feature's API calls",
    filePath: 'src/stores/boundary-probe.ts',
    code: "import { loadOrgUsers } from '@/features/users/api/users-api';\nexport const probe = loadOrgUsers;\n",
    expected: 1,
  },
  {
    what: 'the store importing the app',
    filePath: 'src/stores/boundary-probe.ts',
    code: "import { routes } from '@/app/router';\nexport const probe = routes;\n",
    expected: 1,
  },
  {
    what: "a feature importing another feature's slice file",
    filePath: 'src/features/profile/components/boundary-probe.tsx',
    code: "import { usersActions } from '@/features/users/store/users-slice';\nexport const probe = usersActions;\n",
    expected: 1,
  },
  {
    what: "shared code importing a feature's slice file",
    filePath: 'src/hooks/boundary-probe.ts',
    code: "import { usersActions } from '@/features/users/store/users-slice';\nexport const probe = usersActions;\n",
    expected: 1,
  },
  {
    what: 'a slice file importing the store',
    filePath: 'src/features/users/store/boundary-probe.ts',
    code: "import { useAppStore } from '@/stores/app-store';\nexport const probe = useAppStore;\n",
    expected: 1,
  },
  {
    what: "a slice file importing its own feature's API calls",
    filePath: 'src/features/users/store/boundary-probe.ts',
    code: "import { loadOrgUsers } from '../api/users-api';\nexport const probe = loadOrgUsers;\n",
    expected: 1,
  },
  {
    what: 'a feature calling the raw API client instead of callApi',
    filePath: 'src/features/profile/api/boundary-probe.ts',
    code: "import { api } from '@/lib/api/client';\nexport const probe = api;\n",
    rule: 'no-restricted-imports',
    expected: 1,
  },
];

let failed = false;
for (const c of cases) {
  const [result] = await eslint.lintText(c.code, { filePath: c.filePath });
  const rule = c.rule ?? 'import/no-restricted-paths';
  const hits = (result?.messages ?? []).filter((m) => m.ruleId === rule);
  const ok = hits.length === c.expected;
  failed ||= !ok;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${c.what}: ${hits.length} ${rule} error(s), expected ${c.expected}`,
  );
}
if (failed) {
  console.error(
    'The import-boundary rule does not work as configured (check the import resolver).',
  );
  process.exit(1);
}
