import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const repo = fileURLToPath(new URL('.', import.meta.url));
const folders = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

/**
 * Server layers every feature may use directly: the database, the HTTP plumbing, the job queue
 * and the test helpers. Every other folder of src/server is a feature, and the files of one
 * feature reach another only through its public entry, `index.ts`. The files at the top of
 * src/server (app, api, main, server, deps) assemble the features and may import any of them.
 */
const SERVER_LAYERS = ['db', 'http', 'jobs', 'testing'];
const serverFeatures = folders('./src/server/').filter((f) => !SERVER_LAYERS.includes(f));

/** One zone per feature: no file outside it imports anything of it but its public entries. */
const featureZones = (root, features, entries = ['index.ts']) =>
  features.map((f) => ({
    target: `${root}/!(${f})/**/*`,
    from: `${root}/${f}`,
    except: entries.map((e) => `./${e}`),
    message: `Another feature's files are private: import ${root.slice(2)}/${f} through its public entry, ${entries.map((e) => `${f}/${e}`).join(' or ')}.`,
  }));

/**
 * The browser's features (src/web/features/*) follow the same rule with up to three entries, so
 * that a page's chunk carries only what it uses (docs/ARCHITECTURE.md#layers): `index.ts`, light,
 * for the site's frame and the islands, which load on every page; `pages.ts` for the parts other
 * features' pages embed; `tabs.ts` for the dashboard's tabs (docs/decisions/0013).
 */
const WEB_ENTRIES = ['index.ts', 'pages.ts', 'tabs.ts'];
const webFeatures = folders('./src/web/features/');

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', '.test-data/**', 'src/server/db/migrations/**', 'bench/results/**', 'src/server/testing/lint-fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '!**/server/api'], message: 'The browser and core never import server code.' },
            // The one exception: the API's type, erased at build time, for the typed client (src/web/lib/api.ts).
            { group: ['**/server/api'], allowTypeImports: true, message: 'The browser and core take only the API type from the server (import type).' },
          ],
        },
      ],
    },
  },
  {
    // Module graph: no import cycles anywhere in the application code (type-only imports are
    // erased at build time and do not count).
    files: ['src/**/*.{ts,tsx}', 'sandbox/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Tests and the test helpers may reach into any feature to set up what they check.
    files: ['src/server/*/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/server/testing/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: repo, zones: featureZones('./src/server', serverFeatures) }] },
  },
  {
    files: ['src/web/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: repo, zones: featureZones('./src/web/features', webFeatures, WEB_ENTRIES) }] },
  },
  {
    // The browser may name the server's route types (a typed API client), never import its code.
    files: ['src/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/server/**'], allowTypeImports: true, message: 'The browser never imports server code; only its types.' }],
          // A page's first download carries no sonner (docs/decisions/0024).
          paths: [{ name: 'sonner', allowTypeImports: true, message: 'Raise notices with src/web/lib/toast.ts, which fetches sonner when one is raised.' }],
        },
      ],
      // Nor loads it itself: the notification area mounts when lib/toast.ts raises the first notice.
      'no-restricted-syntax': [
        'error',
        { selector: "ImportExpression[source.value='sonner']", message: 'Raise notices with src/web/lib/toast.ts: it loads sonner and mounts the notification area.' },
      ],
    },
  },
  {
    // The two modules that load sonner on demand, and tests that render its notification area.
    files: ['src/web/lib/toast.ts', 'src/web/app/Notifications.tsx', 'src/web/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**'], allowTypeImports: true, message: 'The browser never imports server code; only its types.' }] },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['src/server/**', 'sandbox/**', 'e2e/**', 'bench/**', 'scripts/**', '*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
