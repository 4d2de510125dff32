import { slotProblems } from '@app/platform/testing';
import { LOGIN_THROTTLE_SCRIPTS } from './redis-login-throttle';

describe('login throttle scripts on a cluster', () => {
  it.each(LOGIN_THROTTLE_SCRIPTS.map((use) => [use.name, use] as const))(
    '%s is slot-safe',
    (_name, use) => {
      expect(slotProblems(use)).toEqual([]);
    },
  );
});
