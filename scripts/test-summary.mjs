// Adds up what the test runners printed (vitest's "Tests  N passed" lines, Playwright's "N passed" lines)
// and prints one closing line "N passed, N failed" for the whole run.
import { readFileSync } from 'node:fs';

// eslint-disable-next-line no-control-regex
const strip = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  for (const line of strip(readFileSync(file, 'utf8')).split('\n')) {
    // vitest:      "      Tests  3 failed | 120 passed | 2 skipped (125)"  (turbo may prefix "pkg:test: ")
    // playwright:  "  24 passed (41.2s)", "  1 failed", "  2 skipped"
    const vitest = line.match(/\bTests\s+(.*)\(\d+\)\s*$/);
    const source = vitest
      ? vitest[1]
      : /^\s*(?:\S+:e2e:\s*)?\d+ (passed|failed|flaky|skipped)\b/.test(line)
        ? line
        : '';
    for (const [, n, kind] of source.matchAll(/(\d+) (passed|failed|flaky|skipped)/g)) {
      if (kind === 'passed' || kind === 'flaky') passed += Number(n);
      else if (kind === 'failed') failed += Number(n);
      else skipped += Number(n);
    }
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
