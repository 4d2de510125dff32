/**
 * Writes test/durations.json (the sequencer's estimates for files jest has not timed) from
 * the output of `npx jest --config jest.config.js --json --outputFile=<file>`: each test
 * file's run time in whole seconds, files of a second or less left out.
 * Usage: node test/support/record-durations.js <file>
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const input = process.argv[2];
if (!input) {
  process.stderr.write('usage: node test/support/record-durations.js <jest --json output>\n');
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(input, 'utf8'));
const durations = Object.fromEntries(
  testResults
    .map((result) => [
      relative(ROOT, result.name),
      Math.round((result.endTime - result.startTime) / 1000),
    ])
    .filter(([, seconds]) => seconds > 1)
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(join(ROOT, 'test', 'durations.json'), `${JSON.stringify(durations, null, 2)}\n`);
process.stdout.write(`test/durations.json: ${Object.keys(durations).length} files\n`);
