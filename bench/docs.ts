import { writeFile } from 'node:fs/promises';
import { log } from './processes';

/**
 * Writes a generated markdown file formatted as `prettier --check` expects (tables padded,
 * lists normalised), so a benchmark run leaves the docs lint-clean. Prettier is a dev
 * dependency: without it the text is written as generated.
 */
export async function writeMarkdown(path: string, text: string): Promise<void> {
  let formatted = text;
  try {
    const prettier = await import('prettier');
    const options = (await prettier.resolveConfig(path)) ?? {};
    formatted = await prettier.format(text, { ...options, filepath: path, parser: 'markdown' });
  } catch (error) {
    log(`prettier unavailable (${(error as Error).message}): ${path} written unformatted`);
  }
  await writeFile(path, formatted);
}
