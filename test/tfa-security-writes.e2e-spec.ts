import { createTestUser, startApi, TestApi } from '@test/support/api';
import { listEvents, revokeDevice, storedEvents } from '@test/support/account-security';
import { enableTotp } from '@test/support/tfa';
import { updateMethod } from '@test/support/tfa-requests';

/**
 * Every route that records a security event counts against one budget per user
 * (docs/identity-tfa.md "Security events", SECURITY_WRITES_PER_USER per
 * SECURITY_WRITES_WINDOW_SECONDS): a flood of PUT tfa/update/ (no factor needed) cannot
 * fill the user's history.
 */
describe('security writes are bounded per user', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMITS: 'on' });
  });
  afterAll(() => api.close());

  it('a 10 s flood of PUT tfa/update/ records at most the budget; every event route shares it; others are served', async () => {
    const user = await createTestUser(api);
    const totp = await enableTotp(api, user);
    const deadline = Date.now() + 10_000;
    const answers: Record<string, number> = {};
    let label = 0;
    const flood = async () => {
      while (Date.now() < deadline) {
        const response = await updateMethod(api, user.auth, {
          tfa_method_id: totp.methodId,
          label: `label ${label++}`,
        });
        answers[response.status] = (answers[response.status] ?? 0) + 1;
      }
    };
    await Promise.all([flood(), flood(), flood(), flood()]);

    const updated = (await storedEvents(api, user.id)).filter(
      (event) => event.kind === 'method_updated',
    );
    expect(updated.length).toBe(answers[200]);
    // Enrolment took its own places in the same budget (authorization, confirm-new).
    expect(updated.length).toBeLessThanOrEqual(30 - 2);
    expect(updated.length).toBeGreaterThan(0);

    const refused = await updateMethod(api, user.auth, {
      tfa_method_id: totp.methodId,
      label: 'one more',
    });
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(
      /^Too many account security changes: at most 30 per 600 s per user; retry in \d+ s$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(600);
    // Another route that writes events shares the budget; routes that only read do not.
    expect((await revokeDevice(api, user.auth, 999_999)).status).toBe(429);
    expect((await listEvents(api, user.auth)).status).toBe(200);

    const other = await createTestUser(api);
    const otherTotp = await enableTotp(api, other);
    expect(
      (await updateMethod(api, other.auth, { tfa_method_id: otherTotp.methodId, label: 'mine' }))
        .status,
    ).toBe(200);
  });

  it('a refused request gives its place back: a malformed update costs nothing', async () => {
    const user = await createTestUser(api);
    const totp = await enableTotp(api, user);
    for (let i = 0; i < 40; i++) {
      const malformed = await updateMethod(api, user.auth, {
        tfa_method_id: totp.methodId,
        label: 'x'.repeat(31),
      });
      expect(malformed.status).toBe(400);
    }
    const served = await updateMethod(api, user.auth, {
      tfa_method_id: totp.methodId,
      label: 'fine',
    });
    expect(served.status).toBe(200);
  });
});
