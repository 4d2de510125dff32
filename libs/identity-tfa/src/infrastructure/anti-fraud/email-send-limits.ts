import { Injectable } from '@nestjs/common';
import { ConfigReader, Environment, RateLimiter, SecretKeeper } from '@app/platform';
import {
  EmailSendingPolicy,
  EmailSendPermit,
  EmailSendRequest,
} from '../../application/ports/email-sending-policy.port';
import { TfaError } from '../../domain/errors';

/** EMAIL_LIMIT_PER_USER, EMAIL_LIMIT_PER_ADDRESS, EMAIL_LIMIT_WINDOW_SECONDS (docs/delivery.md). */
export class EmailSendLimits {
  perUserLimit: number;
  perAddressLimit: number;
  windowSeconds: number;
}

export function loadEmailSendLimits(env: Environment): EmailSendLimits {
  const read = new ConfigReader(env);
  const limits = new EmailSendLimits();
  limits.perUserLimit = read.integer('EMAIL_LIMIT_PER_USER', 5, 1, 10_000);
  limits.perAddressLimit = read.integer('EMAIL_LIMIT_PER_ADDRESS', 5, 1, 10_000);
  limits.windowSeconds = read.integer('EMAIL_LIMIT_WINDOW_SECONDS', 600, 1, 7 * 86_400);
  read.done();
  return limits;
}

const REFUSAL = 'Too many email codes requested; wait a few minutes before trying again.';

/**
 * Email codes per user and per address within a sliding window, in the platform's shared
 * limiter (Redis), so every api process counts the same sends. The user's budget is taken
 * first; when the address's then refuses, the user's is given back: no budget ever admits
 * past its limit. Addresses appear in key names only as keyed fingerprints.
 */
@Injectable()
export class EmailSendLimitsPolicy extends EmailSendingPolicy {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly secrets: SecretKeeper,
    private readonly limits: EmailSendLimits,
  ) {
    super();
  }

  async assertMaySend(request: EmailSendRequest): Promise<EmailSendPermit> {
    const window = this.limits.windowSeconds;
    const user = await this.limiter.acquire('tfa_email_user', `u${request.userId}`, {
      limit: this.limits.perUserLimit,
      windowSeconds: window,
    });
    if (!user.admitted) throw new TfaError('sms_rate_limited', REFUSAL);
    const address = this.secrets.fingerprint(
      'email-destination',
      request.destination.trim().toLowerCase(),
    );
    let taken;
    try {
      taken = await this.limiter.acquire('tfa_email_address', address, {
        limit: this.limits.perAddressLimit,
        windowSeconds: window,
      });
    } catch (error) {
      await user.giveBack().catch(() => undefined);
      throw error;
    }
    if (!taken.admitted) {
      await user.giveBack().catch(() => undefined);
      throw new TfaError('sms_rate_limited', REFUSAL);
    }
    const forAddress = taken;
    return {
      refund: async () => {
        await forAddress.giveBack();
        await user.giveBack();
      },
    };
  }
}
