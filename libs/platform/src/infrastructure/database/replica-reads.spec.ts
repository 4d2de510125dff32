import { lsnValue, replicaLagSeconds } from './replica-reads';

describe('lsnValue', () => {
  it('orders pg_lsn values as PostgreSQL does (high word, then low word)', () => {
    expect(lsnValue('0/16B3748')).toBe(0x16b3748n);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
    expect(lsnValue('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
  });
});

describe('replicaLagSeconds: how far behind the primary a replica is', () => {
  const at = (second: number, lsn: bigint) => ({ at: second * 1000, lsn });
  // The primary's positions, one a second: idle from 0 to 2, a write at 3, more at 5.
  const positions = [at(0, 100n), at(1, 100n), at(2, 100n), at(3, 180n), at(4, 180n), at(5, 260n)];

  it('is 0 when the replica has replayed the newest position (an idle pair included)', () => {
    expect(replicaLagSeconds(positions, 260n, 5_000, null)).toBe(0);
    expect(replicaLagSeconds([at(0, 100n), at(1, 100n)], 100n, 1_000, 3600)).toBe(0);
  });

  it('is the time since the newest position it has replayed', () => {
    // Replayed up to 180: it has what the primary had at 4 s, not what it wrote by 5 s.
    expect(replicaLagSeconds(positions, 180n, 5_500, null)).toBe(1.5);
    // A WAL receiver cut before the write at 3 s: it replayed all it received (100) and
    // still falls behind from then on.
    expect(replicaLagSeconds(positions, 100n, 5_000, 0)).toBe(3);
  });

  it('is at least the age of the oldest position, or of its last replayed commit, when none is replayed', () => {
    expect(replicaLagSeconds(positions, 50n, 5_000, null)).toBe(5);
    expect(replicaLagSeconds([at(10, 500n)], 400n, 10_010, 42)).toBe(42);
    expect(replicaLagSeconds([], 400n, 10_000, null)).toBe(0);
  });
});
