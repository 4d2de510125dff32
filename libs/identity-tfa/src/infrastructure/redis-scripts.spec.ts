import { slotProblems } from '@app/platform/testing';
import { SMS_COUNTER_SCRIPTS } from './anti-fraud/redis-sms-send-counters';
import { CHALLENGE_STORE_SCRIPTS } from './redis/redis-challenge-store';

/**
 * Every multi-key Redis step of the 2FA stores runs on a Redis Cluster: the keys of one
 * call share a hash slot, and no script touches a key it was not given.
 */
describe('2FA Redis scripts on a cluster', () => {
  // Key material as the stores make it: hex fingerprints and numeric user ids, several of
  // each so that a tag that only works by chance for one value is caught.
  const fingerprints = ['a1', 'f0e1d2c3b4a5968778695a4b3c2d1e0f', 'ffffffff', '00'].map((seed) =>
    seed.padEnd(64, '7'),
  );
  const uses = fingerprints.flatMap((fingerprint, i) => [
    ...CHALLENGE_STORE_SCRIPTS(fingerprint, fingerprints[(i + 1) % fingerprints.length], 17 + i),
    ...SMS_COUNTER_SCRIPTS(1000 + i, fingerprint),
  ]);

  it.each(uses.map((use) => [use.name, use] as const))('%s is slot-safe', (_name, use) => {
    expect(slotProblems(use)).toEqual([]);
  });

  it('the check finds a key built inside a script and keys in different slots', () => {
    expect(
      slotProblems({
        name: 'old CONSUME',
        lua: `local recent = 'tfa:recent-sms:' .. userId
redis.call('DEL', KEYS[1])
if redis.call('GET', recent) == ARGV[2] then redis.call('DEL', recent) end`,
        keys: ['tfa:challenge:abc', 'tfa:secret:abc'],
      }),
    ).toEqual([
      'old CONSUME: keys tfa:challenge:abc, tfa:secret:abc span 2 hash slots',
      "old CONSUME: GET touches 'recent', which is not one of its KEYS",
      "old CONSUME: DEL touches 'recent', which is not one of its KEYS",
    ]);
    expect(
      slotProblems({ name: 'too few', lua: `redis.call('SET', KEYS[2], 1)`, keys: ['a'] }),
    ).toEqual(['too few: SET uses KEYS[2] but is called with 1 keys']);
  });
});
