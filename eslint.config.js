// The lint of every TypeScript file (src/, test/, bench/, console/src/), run by `npm run lint` and so by `npm test`:
// no floating promise (type-aware: typescript-eslint reads each file's tsconfig), no unused import or local, and no
// line over the 120 columns Prettier formats to (comments included; a string, which no formatter may break, aside).
// Unused exports: ts-unused-exports (npm run lint:exports).
import tseslint from 'typescript-eslint';
import stylistic from '@stylistic/eslint-plugin';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-before/**', 'node_modules/**', 'console/build.mjs'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'console/src/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin, '@stylistic': stylistic },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@stylistic/max-len': ['error', { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
    },
  },
);
