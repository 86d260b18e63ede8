// Lint rules: typescript-eslint strict type-checked, plus the boundaries of
// ../shared/design/STYLE.md (pure libraries never import the bus or each other).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';

/** Folders that form the pure-library layer and what each may not import. */
const LIBRARY_BOUNDARIES = [
  {
    from: 'src/core',
    forbid: [
      'bus',
      'component',
      'k8s',
      'templating',
      'haproxy',
      'controller',
      'webhook',
      'observability',
      'cli',
      'testing',
    ],
  },
  {
    from: 'src/bus',
    forbid: [
      'component',
      'k8s',
      'templating',
      'haproxy',
      'controller',
      'webhook',
      'cli',
      'testing',
    ],
  },
  {
    from: 'src/k8s',
    forbid: ['bus', 'component', 'templating', 'haproxy', 'controller', 'webhook', 'cli'],
  },
  {
    from: 'src/templating',
    forbid: ['bus', 'component', 'k8s', 'controller', 'webhook', 'cli', 'testing'],
  },
  {
    from: 'src/haproxy',
    forbid: ['bus', 'component', 'k8s', 'templating', 'controller', 'webhook', 'cli'],
  },
  {
    from: 'src/component',
    forbid: ['k8s', 'templating', 'haproxy', 'controller', 'webhook', 'cli', 'testing'],
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'tools/**', 'coverage/**', 'test/golden/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: [
                'describe',
                'it',
                'test',
                'suite',
                'before',
                'after',
                'beforeEach',
                'afterEach',
              ],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/resolver': { node: { extensions: ['.ts', '.js'] } },
    },
  },
  ...LIBRARY_BOUNDARIES.map(({ from, forbid }) => ({
    files: [`${from}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: forbid.map((dir) => ({
            group: [`**/${dir}/**`, `**/${dir}`],
            message: `${from} is a pure library layer and must not import src/${dir} (see ../shared/design/STYLE.md).`,
          })),
        },
      ],
    },
  })),
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  prettier,
);
