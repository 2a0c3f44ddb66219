// Shared by the bench scripts: writes one generated section of a Markdown document (docs/benchmarks.md),
// leaving the other sections, written by other scripts, as they are.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` (markers included) with `section`,
 * or appends `section` when the markers are missing; the result is formatted with the repository's prettier
 * settings so the format check stays green.
 *
 * @param {string} file The Markdown file (created with a "# Benchmarks" heading when missing).
 * @param {string} name The marker name, e.g. `api`.
 * @param {string} section The new section, markers included.
 * @returns {Promise<void>}
 */
export async function writeDocSection(file, name, section) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  const next =
    from !== -1 && to > from
      ? text.slice(0, from) + section + text.slice(to + end.length)
      : `${text.replace(/\s*$/, '')}\n\n${section}\n`;
  let formatted = next;
  try {
    const prettier = await import('prettier');
    const options = (await prettier.resolveConfig(file)) ?? {};
    formatted = await prettier.format(next, { ...options, filepath: file });
  } catch {
    console.warn('prettier is not available: the section is written unformatted.');
  }
  writeFileSync(file, formatted);
  console.log(`Wrote the ${name} section of ${path.relative(repoRoot, file)}.`);
}
