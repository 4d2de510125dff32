/**
 * Longest files first, so that no long file starts last and leaves one worker running
 * alone at the end. Jest's own order does that once it has timed a run on this machine
 * (its cache); on a fresh clone it falls back to file size, which says little here: a
 * 240-line file that runs 160 processes outlasts a 1,500-line one. So a file jest has not
 * timed yet takes the duration recorded in test/durations.json (seconds, measured on the
 * 2-core CI machine; refresh it with `node test/support/record-durations.js <jest --json
 * output>`), and a file in neither goes by its size, as before.
 */
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = join(__dirname, '..', '..');

function recordedDurations() {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'test', 'durations.json'), 'utf8'));
  } catch {
    return {};
  }
}

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const recorded = recordedDurations();
    const sorted = super.sort(tests);
    // Failed files keep their place up front, as jest orders them.
    const failed = sorted.filter((test) => this.hasFailed(test));
    const rest = sorted.filter((test) => !this.hasFailed(test));
    const estimate = (test) => {
      if (test.duration != null) return test.duration;
      const seconds = recorded[relative(ROOT, test.path)];
      if (seconds != null) return seconds * 1000;
      // Jest's fallback order, on a comparable scale: about a second per 10 kB.
      return (test.context.hasteFS.getSize(test.path) ?? 0) / 10;
    };
    return [...failed, ...rest.sort((a, b) => estimate(b) - estimate(a))];
  }
}

module.exports = LongestFirstSequencer;
