import { TFA_POLICY } from './tfa-policy';

/**
 * What a wrong code is counted against. Email and backup codes count too, although they
 * are never method records: every channel that compares a secret has a budget.
 */
export type FailureChannel = 'totp' | 'sms' | 'email' | 'backup_code';

/** The failures recorded against one channel of one user. */
export interface ChannelFailures {
  /** When each counted wrong code was compared (ms), oldest first, within the window. */
  failuresMs: number[];
  lockedUntilMs: number | null;
}

/**
 * A user's verification state: one entry per channel, plus the user-wide lock that the
 * sum over all channels can set.
 */
export interface FailureLedger {
  channels: Partial<Record<FailureChannel, ChannelFailures>>;
  userLockedUntilMs: number | null;
}

export interface Lock {
  /** The wrong codes that led to it, as the client is told (fail_count). */
  failCount: number;
  lockedUntilMs: number;
}

export const emptyLedger = (): FailureLedger => ({ channels: {}, userLockedUntilMs: null });

/** Failures that still count at `nowMs`: those within the trailing window. */
export function recentFailures(entry: ChannelFailures | undefined, nowMs: number): number[] {
  if (!entry) return [];
  return entry.failuresMs.filter((at) => at > nowMs - TFA_POLICY.failureWindowMs && at <= nowMs);
}

function totalRecent(ledger: FailureLedger, nowMs: number): number {
  return Object.values(ledger.channels).reduce(
    (sum, entry) => sum + recentFailures(entry, nowMs).length,
    0,
  );
}

/**
 * The lock that refuses a verification on `channel` now, if any: the channel's own, or
 * the user-wide one. Checked before any code is compared.
 */
export function activeLock(
  ledger: FailureLedger,
  channel: FailureChannel,
  nowMs: number,
): Lock | null {
  const entry = ledger.channels[channel];
  if (entry?.lockedUntilMs && entry.lockedUntilMs > nowMs)
    return { failCount: entry.failuresMs.length, lockedUntilMs: entry.lockedUntilMs };
  if (ledger.userLockedUntilMs && ledger.userLockedUntilMs > nowMs)
    return { failCount: totalRecent(ledger, nowMs), lockedUntilMs: ledger.userLockedUntilMs };
  return null;
}

/**
 * Records one wrong code compared on `channel`. The failure that reaches the channel's
 * budget locks the channel, the one that reaches the user-wide budget locks every
 * channel, each for the lock period. A lock's failures stay recorded until it ends, so
 * a later failure never restarts a count that the lock itself should have cleared.
 */
export function recordFailure(
  ledger: FailureLedger,
  channel: FailureChannel,
  nowMs: number,
): { ledger: FailureLedger; failCount: number; lock: Lock | null } {
  const failuresMs = [...recentFailures(ledger.channels[channel], nowMs), nowMs];
  const lockedUntilMs = nowMs + TFA_POLICY.methodLockMs;
  const channelLocked = failuresMs.length >= TFA_POLICY.maxChannelFailures;
  const next: FailureLedger = {
    channels: {
      ...ledger.channels,
      [channel]: { failuresMs, lockedUntilMs: channelLocked ? lockedUntilMs : null },
    },
    userLockedUntilMs: ledger.userLockedUntilMs,
  };
  const total = totalRecent(next, nowMs);
  const userLocked = total >= TFA_POLICY.maxUserFailures;
  if (userLocked) next.userLockedUntilMs = lockedUntilMs;
  const lock = channelLocked
    ? { failCount: failuresMs.length, lockedUntilMs }
    : userLocked
      ? { failCount: total, lockedUntilMs }
      : null;
  return { ledger: next, failCount: failuresMs.length, lock };
}

/** A correct code clears its channel's count (never a lock: a locked channel compares nothing). */
export function recordSuccess(ledger: FailureLedger, channel: FailureChannel): FailureLedger {
  if (!ledger.channels[channel]) return ledger;
  return {
    ...ledger,
    channels: { ...ledger.channels, [channel]: { failuresMs: [], lockedUntilMs: null } },
  };
}

/** The fail_count and locked_until of a method record, as of `nowMs`. */
export function channelView(
  ledger: FailureLedger,
  channel: FailureChannel,
  nowMs: number,
): { failCount: number; lockedUntilMs: number | null } {
  const lock = activeLock(ledger, channel, nowMs);
  if (lock) return lock;
  return { failCount: recentFailures(ledger.channels[channel], nowMs).length, lockedUntilMs: null };
}

/** Rounded up: a client never sees a lock end earlier than the real one. */
export function lockEndSeconds(lockedUntilMs: number | null): number | null {
  return lockedUntilMs === null ? null : Math.ceil(lockedUntilMs / 1000);
}

/**
 * The extra body fields of `tfa_locked` and a configured method's
 * `2fa_verification_failed`: the channel's failures and when its lock ends (epoch seconds).
 */
export function lockDetails(
  failCount: number,
  lockedUntilMs: number | null,
): { fail_count: number; locked_until: number | null } {
  return { fail_count: failCount, locked_until: lockEndSeconds(lockedUntilMs) };
}
