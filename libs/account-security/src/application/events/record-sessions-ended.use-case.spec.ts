import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';
import { RecordSessionsEndedUseCase } from './record-sessions-ended.use-case';

describe('RecordSessionsEndedUseCase', () => {
  it('records session_revoked with the count and the cause accounts gave; nothing for none', async () => {
    const kit = accountSecurityKit();
    const audit = new RecordSessionsEndedUseCase(kit.eventLog);
    await audit.sessionsEnded(7, { count: 0, cause: 'operator', origin: ORIGIN });
    await audit.sessionsEnded(7, { count: 1, cause: 'logout', origin: ORIGIN });
    expect(kit.events.rows).toEqual([
      expect.objectContaining({
        userId: 7,
        kind: 'session_revoked',
        method: null,
        details: { sessions: 1, cause: 'logout' },
        origin: ORIGIN,
      }),
    ]);
  });
});
