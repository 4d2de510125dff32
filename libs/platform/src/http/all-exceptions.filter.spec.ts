import type { Request } from 'express';
import { AllExceptionsFilter, isConnectionLoss } from './all-exceptions.filter';
import { ErrorCatalog } from './error-catalog';

/** What is answered 503 service_unavailable ("retry later") instead of 500. */
describe('isConnectionLoss', () => {
  const replyError = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });

  it.each([
    "READONLY You can't write against a read only replica.",
    'LOADING Redis is loading the dataset in memory',
    'MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no',
    'CLUSTERDOWN The cluster is down',
    'TRYAGAIN Multiple keys request during rehashing of slot',
    'MOVED 3999 127.0.0.1:6381',
    'ASK 3999 127.0.0.1:6381',
    "ERR Error running script (call to f_1): @user_script:1: READONLY You can't write against a read only replica.",
    "Cluster isn't ready and enableOfflineQueue options is false",
    'None of startup nodes is available',
    'Failed to refresh slots cache.',
    'Too many Cluster redirections. Last error: Error: Connection is closed.',
    'All sentinels are unreachable. Retrying from scratch after 10ms.',
    "Stream isn't writeable and enableOfflineQueue options is false",
  ])('maps "%s" to 503', (message) => {
    expect(isConnectionLoss(replyError(message))).toBe(true);
  });

  it.each([
    "CROSSSLOT Keys in request don't hash to the same slot",
    "ERR wrong number of arguments for 'set' command",
    'WRONGTYPE Operation against a key holding the wrong kind of value',
    'Cannot read properties of undefined',
  ])('leaves "%s" a server error (a bug, not an outage)', (message) => {
    expect(isConnectionLoss(replyError(message))).toBe(false);
  });
});

/** PostgreSQL out of connection slots is load, answered like an exhausted pool. */
describe('AllExceptionsFilter on a database without connection slots', () => {
  const filter = new AllExceptionsFilter(new ErrorCatalog());
  const request = { method: 'GET', url: '/api/v0/charges/' } as Request;

  it.each([
    ['53300', 'sorry, too many clients already'],
    ['53300', 'remaining connection slots are reserved for non-replication superuser connections'],
    ['57P03', 'the database system is starting up'],
  ])(
    'answers %s (%s) 503 service_unavailable with Retry-After, also as a query error',
    (code, message) => {
      const raw = Object.assign(new Error(message), { code });
      const wrapped = Object.assign(new Error(message), { driverError: raw });
      for (const error of [raw, wrapped]) {
        const envelope = filter.toEnvelope(error, request);
        expect(envelope.status).toBe(503);
        expect(envelope.headers).toEqual({ 'Retry-After': '1' });
        expect(envelope.body).toMatchObject({ success: false, error: 'service_unavailable' });
      }
    },
  );
});
