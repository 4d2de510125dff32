import { slotProblems } from '@app/platform/testing';
import { DELIVERY_LEDGER_SCRIPTS } from './redis-delivery-ledger';

/** The ledger's scripts run on a Redis Cluster: each touches only the one key it is given. */
describe('delivery ledger scripts on a cluster', () => {
  const keys = ['a1'.padEnd(64, '7') + '-1', 'notice-1000001', 'f0e1d2c3-2'];
  const uses = keys.flatMap((key) => DELIVERY_LEDGER_SCRIPTS(key));

  it.each(uses.map((use) => [use.name, use] as const))('%s is slot-safe', (_name, use) => {
    expect(slotProblems(use)).toEqual([]);
  });
});
