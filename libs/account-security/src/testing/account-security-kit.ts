import { User } from '@app/accounts';
import { accountsKit, RecordingSessionRevocation } from '@app/accounts/testing';
import {
  ManualClock,
  SeededRandomSource,
  SnapshotUnitOfWork,
  testSecretKeeper,
} from '@app/platform/testing';
import { AccountLookup } from '../application/account-lookup.service';
import { DeviceTrust } from '../application/devices/device-trust.service';
import { SecurityEventLog } from '../application/events/security-event-log.service';
import { AccountSecuritySettings } from '../domain/account-security-settings';
import {
  InMemorySecurityEventRepository,
  InMemorySecurityNoticeRepository,
  InMemoryTrustedDeviceRepository,
  RecordingSecurityNoticeQueue,
} from './in-memory-account-security.fakes';
import { InMemorySecondFactor, RecordingUserSecurityLock } from './in-memory-user-security.fakes';

/**
 * The account-security application layer wired to in-memory fakes, a manual clock and
 * seeded randomness, as the module wires the adapters. Other contexts' kits build on it
 * (tfaTestKit records its events through this one's log), passing their clock, randomness
 * and unit of work so that one failed unit of work takes back the rows of both.
 */
export function accountSecurityKit(
  options: {
    clock?: ManualClock;
    uow?: SnapshotUnitOfWork;
    random?: SeededRandomSource;
    secrets?: ReturnType<typeof testSecretKeeper>;
    accounts?: ReturnType<typeof accountsKit>;
  } = {},
) {
  const clock = options.clock ?? new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const random = options.random ?? new SeededRandomSource(42);
  const secrets = options.secrets ?? testSecretKeeper();
  const uow = options.uow ?? new SnapshotUnitOfWork();
  const events = new InMemorySecurityEventRepository();
  const notices = new InMemorySecurityNoticeRepository(events);
  const devices = new InMemoryTrustedDeviceRepository();
  const secondFactor = new InMemorySecondFactor();
  uow.join(events, notices, devices, secondFactor);
  const noticeQueue = new RecordingSecurityNoticeQueue();
  const lock = new RecordingUserSecurityLock(uow);
  const accounts = options.accounts ?? accountsKit(clock);
  const { users } = accounts;
  const sessions = new RecordingSessionRevocation();
  const settings = Object.assign(new AccountSecuritySettings(), {
    messageBrand: 'GPU Marketplace',
    trustedDeviceDays: 30,
    securityEventRetentionDays: 400,
    noticeRetrySeconds: 60,
  });

  const eventLog = new SecurityEventLog(events, notices, noticeQueue, uow, clock);
  const deviceTrust = new DeviceTrust(devices, eventLog, secrets, random, settings, uow, clock);
  const lookup = new AccountLookup(users);

  /** A user with 2FA on (its status unless told otherwise). */
  const addUser = (id = 7, partial: Partial<User> = {}) =>
    users.add({ id, tfaEnabled: true, tfaStatus: 'enabled', ...partial });

  /** The user's events, oldest first, as `kind` or `kind:method` (what most specs check). */
  const eventKinds = (userId: number) =>
    events.rows
      .filter((event) => event.userId === userId)
      .map((event) => (event.method ? `${event.kind}:${event.method}` : event.kind));

  return {
    clock,
    random,
    secrets,
    uow,
    events,
    notices,
    noticeQueue,
    devices,
    secondFactor,
    lock,
    users,
    sessions,
    settings,
    eventLog,
    deviceTrust,
    lookup,
    addUser,
    eventKinds,
  };
}

export type AccountSecurityKit = ReturnType<typeof accountSecurityKit>;

/** Where unit-test requests come from. */
export const ORIGIN = { address: '203.0.113.7', userAgent: 'unit-test/1.0' } as const;
