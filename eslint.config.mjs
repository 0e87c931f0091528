// typescript-eslint with type information. Beyond the recommended sets, the rules kept are the ones that catch
// bugs this codebase can have: a promise nobody awaits or one passed where a callback is expected, what is
// never used, and imports that say whether they are only types.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const unusedVars = {
  args: 'after-used',
  argsIgnorePattern: '^_',
  varsIgnorePattern: '^_',
  destructuredArrayIgnorePattern: '^_',
  caughtErrors: 'none',
};
const nodeGlobals = {
  process: 'readonly',
  console: 'readonly',
  require: 'readonly',
  module: 'writable',
  __dirname: 'readonly',
  URL: 'readonly',
  Buffer: 'readonly',
};
// The console's page script runs in the browser.
const browserGlobals = {
  document: 'readonly',
  window: 'readonly',
  fetch: 'readonly',
  Node: 'readonly',
  URLSearchParams: 'readonly',
  EventSource: 'readonly',
  setTimeout: 'readonly',
  setInterval: 'readonly',
  clearTimeout: 'readonly',
  clearInterval: 'readonly',
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'src/generated/', 'coverage/', '.cache/'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    languageOptions: { parserOptions: { project: ['./tsconfig.check.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise-returning listener is fine where the emitter ignores what it returns (Node's EventEmitter).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', unusedVars],
      // Files with decorators are skipped by the rule itself: Nest's injection reads their imports at run time.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // `import x = require()` is TypeScript's CommonJS import; plain require is kept for package.json and for
      // the CLI's own JavaScript (bin/, scripts/), which has no types to import.
      '@typescript-eslint/no-require-imports': [
        'error',
        { allowAsImport: true, allow: ['package\\.json$', '/bin/', '/scripts/'] },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: nodeGlobals },
    rules: { 'no-unused-vars': ['error', unusedVars] },
  },
  { files: ['**/*.js', '**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  { files: ['src/console/assets/**/*.js'], languageOptions: { sourceType: 'script', globals: browserGlobals } },
);
