import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const here = import.meta.dirname;
const folders = (dir) =>
  readdirSync(`${here}/${dir}`, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

/**
 * Architecture boundaries (docs/ARCHITECTURE.md), checked on resolved files:
 * - web: a feature never imports another feature; shared folders import neither features nor the app shell;
 * - server: a module reaches another module only through that module's service (`*.service.ts`) or `index.ts`.
 */
const webFeatures = folders('apps/web/src/features');
const serverModules = folders('apps/server/src/modules');
const boundaryZones = [
  ...webFeatures.map((feature) => ({
    target: `./apps/web/src/features/${feature}`,
    from: './apps/web/src/features',
    except: [`./${feature}`],
    message: 'A feature does not import another feature: move what both need to a shared folder (components/, lib/).',
  })),
  {
    target: ['./apps/web/src/components', './apps/web/src/lib', './apps/web/src/config', './apps/web/src/test'],
    from: ['./apps/web/src/features', './apps/web/src/app'],
    message: 'Shared web code does not import features or the app shell.',
  },
  ...serverModules.map((mod) => ({
    target: `./apps/server/src/modules/${mod}/**/!(*.test).ts`,
    from: serverModules.filter((m) => m !== mod).map((m) => `./apps/server/src/modules/${m}/**`),
    // Glob exceptions are matched against absolute paths.
    except: [`${here}/apps/server/src/modules/*/*.service.ts`, `${here}/apps/server/src/modules/*/index.ts`],
    message: 'A server module reaches another module only through its service (*.service.ts) or index.ts.',
  })),
];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.test-results/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false, arguments: false } },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'off',
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: here, zones: boundaryZones }] },
  },
  {
    // Plain JavaScript (the scripts, the server's build, this file): the recommended rules, without type information.
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**', 'bench/**', 'tools/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
