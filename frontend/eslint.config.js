// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Every folder under src/features is a feature; none may import another. */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const SHARED = ['components', 'config', 'hooks', 'lib', 'testing'];

/**
 * Imports flow one way: shared → features → app (bulletproof-react).
 *
 * The store is the one place that composes the features' slices: each feature
 * keeps its slice in `src/features/<name>/store/`, and `src/stores` may import
 * those folders and nothing else of a feature. A slice file imports only
 * shared code (never the store, nor the rest of its feature), so the store
 * can be used by shared code and features alike without a cycle.
 * @type {{ target: string, from: string, except?: string[], message: string }[]}
 */
const zones = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message:
      'A feature may not import another feature; move shared code to src/components, src/lib or src/hooks.',
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'Features may not import from src/app.',
  },
  ...SHARED.map((dir) => ({
    target: `./src/${dir}`,
    from: ['./src/features', './src/app'],
    message: 'Shared code may not import features or the app.',
  })).flatMap(({ from, ...zone }) => from.map((f) => ({ ...zone, from: f }))),
  ...features.map((feature) => ({
    target: './src/stores',
    from: `./src/features/${feature}`,
    except: ['./store'],
    message:
      "The store may import only a feature's slice files (src/features/<name>/store), to compose them.",
  })),
  {
    target: './src/stores',
    from: './src/app',
    message: 'The store may not import from src/app.',
  },
  ...features.flatMap((feature) => [
    {
      target: `./src/features/${feature}/store`,
      from: './src/stores',
      message: 'A slice file may not import the store: src/stores/app-store.ts composes it.',
    },
    {
      target: `./src/features/${feature}/store`,
      from: `./src/features/${feature}`,
      except: ['./store'],
      message:
        'A slice file holds state and actions only: it may not import its feature’s API calls or components.',
    },
  ]),
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'coverage',
      'test-results',
      'playwright-report',
      'src/lib/api/schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': {
        typescript: { project: ['./tsconfig.app.json', './tsconfig.node.json'] },
        node: true,
      },
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import/no-restricted-paths': ['error', { zones }],
      'import/no-duplicates': 'error',
      'import/no-self-import': 'error',
      'import/first': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Command-line scripts report on the console.
    files: ['scripts/**/*.mjs'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      // The store is imported by shared code and composes the features' slices;
      // a cycle through it would leave a module half-initialised at start-up.
      'import/no-cycle': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../*'],
              message: 'Use the @/ alias instead of climbing out of a folder.',
            },
          ],
          paths: [
            {
              name: '@/lib/api/client',
              message:
                'Call the server through callApi (@/lib/api/call-api), which maps every answer to an ApiResult.',
            },
          ],
        },
      ],
    },
  },
);
