/**
 * Writes test/durations.json (the sequencer's estimates for files jest has not timed) from
 * the output of `npx jest --config jest.config.js --json --outputFile=<file>`: each test
 * file's run time in whole seconds, files of a second or less left out.
 * Usage: node test/support/record-durations.js <file>
 * The paths are taken relative to the checkout jest ran in (a clone elsewhere will do).
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, sep } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const input = process.argv[2];
if (!input) {
  process.stderr.write('usage: node test/support/record-durations.js <jest --json output>\n');
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(input, 'utf8'));
// Every test file lies under apps/, libs/ or test/ of the checkout that ran them.
const ranIn = (file) => {
  const parts = file.split(sep);
  const top = parts.findIndex((part) => ['apps', 'libs', 'test'].includes(part));
  return top > 0 ? parts.slice(0, top).join(sep) : dirname(file);
};
const durations = Object.fromEntries(
  testResults
    .map((result) => [
      relative(ranIn(result.name), result.name),
      Math.round((result.endTime - result.startTime) / 1000),
    ])
    .filter(([, seconds]) => seconds > 1)
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(join(ROOT, 'test', 'durations.json'), `${JSON.stringify(durations, null, 2)}\n`);
process.stdout.write(`test/durations.json: ${Object.keys(durations).length} files\n`);
