import { Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { SecretKeeper } from '@app/platform';
import { SmsAntiFraudSettings } from './sms-anti-fraud-settings';

export type SmsCounterVerdict =
  | 'admitted'
  /** Too many accounts already used this number recently. */
  | 'preauth_phone_cap'
  /** The user or the number used up its SMS budget for the window. */
  | 'sms_rate_limited'
  /** The number got a code moments ago: the caller should resend instead. */
  | 'tfa_challenge_exists';

export interface SmsSendAttempt {
  userId: number;
  /** Canonical E.164. */
  destination: string;
  /** A resend of an existing challenge's code is exempt from the minimum interval. */
  resend: boolean;
  nowMs: number;
}

/** What an admitted send changed, so that a send which did not happen can be undone. */
export interface RecordedSend {
  userId: number;
  numberFingerprint: string;
  member: string;
  nowMs: number;
  previousLast: string | null;
  previousAccountScore: string | null;
}

export type SmsCounterOutcome =
  | { verdict: 'admitted'; record: RecordedSend }
  | { verdict: Exclude<SmsCounterVerdict, 'admitted'> };

/*
 * Two budgets, two hash slots: the user's (tagged by user id) and the number's (its three
 * keys share the tag {<number fingerprint>}). Each is checked and recorded by one script,
 * atomic within its slot, so concurrent requests in any number of api processes never
 * slip past a limit between a check and its increment. The user's budget is taken first;
 * when the number's then refuses, the user's record is removed again (refund). Between the
 * two steps a concurrent request may see the user's budget one fuller than it ends up:
 * the error is always towards refusing, never towards admitting a send over a limit.
 * Sliding windows are sorted sets scored by time; the caller's clock supplies "now".
 */
const USER_CHECK_AND_RECORD = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return 1`;

/*
 * The number's side. ARGV[9] says whether the user's budget was full, so the verdicts keep
 * their order: the accounts-per-number cap first, then either budget, then the minimum
 * interval. Records only when every check passed.
 */
const NUMBER_CHECK_AND_RECORD = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local accountWindow = tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - accountWindow)
if not redis.call('ZSCORE', KEYS[3], ARGV[7]) and redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then
  return 'preauth_phone_cap'
end
if ARGV[10] == '1' or redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 'sms_rate_limited'
end
local minInterval = tonumber(ARGV[4])
if minInterval > 0 then
  local last = redis.call('GET', KEYS[2])
  if last and now - tonumber(last) < minInterval and now >= tonumber(last) then
    return 'tfa_challenge_exists'
  end
end
local previousLast = redis.call('GET', KEYS[2]) or ''
local previousScore = redis.call('ZSCORE', KEYS[3], ARGV[7]) or ''
redis.call('ZADD', KEYS[1], now, ARGV[8])
redis.call('SET', KEYS[2], now)
redis.call('ZADD', KEYS[3], now, ARGV[7])
redis.call('PEXPIRE', KEYS[1], window)
redis.call('PEXPIRE', KEYS[2], ARGV[9])
redis.call('PEXPIRE', KEYS[3], accountWindow)
return {'admitted', previousLast, previousScore}`;

const USER_REFUND = `
redis.call('ZREM', KEYS[1], ARGV[1])
return 1`;

/* Undoes one admitted send on the number's side, leaving every later send's record as it is. */
const NUMBER_REFUND = `
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('GET', KEYS[2]) == ARGV[2] then
  if ARGV[3] == '' then redis.call('DEL', KEYS[2]) else redis.call('SET', KEYS[2], ARGV[3], 'KEEPTTL') end
end
if redis.call('ZSCORE', KEYS[3], ARGV[5]) == ARGV[2] then
  if ARGV[4] == '' then redis.call('ZREM', KEYS[3], ARGV[5]) else redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5]) end
end
return 1`;

/** The user's SMS budget. */
export const userSmsKey = (userId: number) => `tfa:sms:user:{u${userId}}`;

/** The number's budget, last new send and accounts, in one hash slot. */
export const numberSmsKeys = (number: string) => [
  `tfa:sms:number:{${number}}`,
  `tfa:sms:last:{${number}}`,
  `tfa:sms:accounts:{${number}}`,
];

/** Every script with the keys it is called with, for the hash-slot check (redis-scripts.spec). */
export const SMS_COUNTER_SCRIPTS = (userId: number, number: string) => [
  { name: 'USER_CHECK_AND_RECORD', lua: USER_CHECK_AND_RECORD, keys: [userSmsKey(userId)] },
  { name: 'NUMBER_CHECK_AND_RECORD', lua: NUMBER_CHECK_AND_RECORD, keys: numberSmsKeys(number) },
  { name: 'USER_REFUND', lua: USER_REFUND, keys: [userSmsKey(userId)] },
  { name: 'NUMBER_REFUND', lua: NUMBER_REFUND, keys: numberSmsKeys(number) },
];

/**
 * SMS send counters in Redis, shared by every api process. Numbers appear in key names
 * only as keyed fingerprints, so a Redis dump does not list users' phone numbers.
 */
@Injectable()
export class RedisSmsSendCounters {
  constructor(
    private readonly redis: Redis,
    private readonly secrets: SecretKeeper,
    private readonly settings: SmsAntiFraudSettings,
  ) {}

  async checkAndRecord(attempt: SmsSendAttempt): Promise<SmsCounterOutcome> {
    const number = this.secrets.fingerprint('sms-destination', attempt.destination);
    const { settings } = this;
    const member = `${attempt.nowMs}:${randomUUID()}`;
    const userAdmitted =
      (await this.redis.eval(
        USER_CHECK_AND_RECORD,
        1,
        userSmsKey(attempt.userId),
        String(attempt.nowMs),
        String(settings.windowMs),
        String(settings.perUserLimit),
        member,
      )) === 1;
    const refundUser = () =>
      userAdmitted ? this.refundUser(attempt.userId, member).catch(() => undefined) : undefined;
    let answer: Exclude<SmsCounterVerdict, 'admitted'> | ['admitted', string, string];
    try {
      answer = (await this.redis.eval(
        NUMBER_CHECK_AND_RECORD,
        3,
        ...numberSmsKeys(number),
        String(attempt.nowMs),
        String(settings.windowMs),
        String(settings.perDestinationLimit),
        String(attempt.resend ? 0 : settings.minIntervalMs),
        String(settings.accountWindowMs),
        String(settings.accountsPerNumber),
        String(attempt.userId),
        member,
        String(Math.max(settings.windowMs, settings.minIntervalMs)),
        userAdmitted ? '0' : '1',
      )) as typeof answer;
    } catch (error) {
      await refundUser();
      throw error;
    }
    if (!Array.isArray(answer)) {
      await refundUser();
      return { verdict: answer };
    }
    return {
      verdict: 'admitted',
      record: {
        userId: attempt.userId,
        numberFingerprint: number,
        member,
        nowMs: attempt.nowMs,
        previousLast: answer[1] || null,
        previousAccountScore: answer[2] || null,
      },
    };
  }

  async refund(record: RecordedSend): Promise<void> {
    await this.redis.eval(
      NUMBER_REFUND,
      3,
      ...numberSmsKeys(record.numberFingerprint),
      record.member,
      String(record.nowMs),
      record.previousLast ?? '',
      record.previousAccountScore ?? '',
      String(record.userId),
    );
    await this.refundUser(record.userId, record.member);
  }

  private async refundUser(userId: number, member: string): Promise<void> {
    await this.redis.eval(USER_REFUND, 1, userSmsKey(userId), member);
  }
}
