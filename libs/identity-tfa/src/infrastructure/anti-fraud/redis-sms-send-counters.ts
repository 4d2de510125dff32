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
 * One script checks every counter and, only when all pass, records the send in all of
 * them: concurrent requests in any number of api processes cannot slip past a limit
 * between a check and its increment, and a refused request consumes no budget.
 * Sliding windows are sorted sets scored by time; the caller's clock supplies "now".
 */
const CHECK_AND_RECORD = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local accountWindow = tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - accountWindow)
if not redis.call('ZSCORE', KEYS[4], ARGV[8]) and redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[7]) then
  return 'preauth_phone_cap'
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) or redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then
  return 'sms_rate_limited'
end
local minInterval = tonumber(ARGV[5])
if minInterval > 0 then
  local last = redis.call('GET', KEYS[3])
  if last and now - tonumber(last) < minInterval and now >= tonumber(last) then
    return 'tfa_challenge_exists'
  end
end
local previousLast = redis.call('GET', KEYS[3]) or ''
local previousScore = redis.call('ZSCORE', KEYS[4], ARGV[8]) or ''
redis.call('ZADD', KEYS[1], now, ARGV[9])
redis.call('ZADD', KEYS[2], now, ARGV[9])
redis.call('SET', KEYS[3], now)
redis.call('ZADD', KEYS[4], now, ARGV[8])
redis.call('PEXPIRE', KEYS[1], window)
redis.call('PEXPIRE', KEYS[2], window)
redis.call('PEXPIRE', KEYS[3], ARGV[10])
redis.call('PEXPIRE', KEYS[4], accountWindow)
return {'admitted', previousLast, previousScore}`;

/* Undoes one admitted send, leaving every later send's record as it is. */
const REFUND = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('GET', KEYS[3]) == ARGV[2] then
  if ARGV[3] == '' then redis.call('DEL', KEYS[3]) else redis.call('SET', KEYS[3], ARGV[3], 'KEEPTTL') end
end
if redis.call('ZSCORE', KEYS[4], ARGV[5]) == ARGV[2] then
  if ARGV[4] == '' then redis.call('ZREM', KEYS[4], ARGV[5]) else redis.call('ZADD', KEYS[4], ARGV[4], ARGV[5]) end
end
return 1`;

const keysOf = (userId: number, number: string) => [
  `tfa:sms:user:${userId}`,
  `tfa:sms:number:${number}`,
  `tfa:sms:last:${number}`,
  `tfa:sms:accounts:${number}`,
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
    const answer = (await this.redis.eval(
      CHECK_AND_RECORD,
      4,
      ...keysOf(attempt.userId, number),
      String(attempt.nowMs),
      String(settings.windowMs),
      String(settings.perUserLimit),
      String(settings.perDestinationLimit),
      String(attempt.resend ? 0 : settings.minIntervalMs),
      String(settings.accountWindowMs),
      String(settings.accountsPerNumber),
      String(attempt.userId),
      member,
      String(Math.max(settings.windowMs, settings.minIntervalMs)),
    )) as Exclude<SmsCounterVerdict, 'admitted'> | ['admitted', string, string];
    if (!Array.isArray(answer)) return { verdict: answer };
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
      REFUND,
      4,
      ...keysOf(record.userId, record.numberFingerprint),
      record.member,
      String(record.nowMs),
      record.previousLast ?? '',
      record.previousAccountScore ?? '',
      String(record.userId),
    );
  }
}
