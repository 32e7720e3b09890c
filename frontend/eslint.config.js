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

const SHARED = ['components', 'config', 'hooks', 'lib', 'stores', 'testing'];

/**
 * Imports flow one way: shared → features → app (bulletproof-react).
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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../*'],
              message: 'Use the @/ alias instead of climbing out of a folder.',
            },
          ],
        },
      ],
    },
  },
);
