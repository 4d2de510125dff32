import { slotProblems } from '../../testing/redis-slots';
import { RATE_LIMITER_SCRIPTS } from './redis-rate-limiter';

describe('rate limiter scripts on a cluster', () => {
  it.each(RATE_LIMITER_SCRIPTS.map((use) => [use.name, use] as const))(
    '%s is slot-safe',
    (_name, use) => {
      expect(slotProblems(use)).toEqual([]);
    },
  );
});
