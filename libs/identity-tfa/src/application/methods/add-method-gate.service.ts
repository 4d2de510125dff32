import { Injectable } from '@nestjs/common';
import { Clock, DomainError } from '@app/platform';
import { TfaError } from '../../domain/errors';
import { TFA_POLICY } from '../../domain/tfa-policy';
import { AuthorizationStore } from '../ports/authorization.store.port';

/** The 30-minute add-method authorization. Fails closed: an unreadable store is a 503. */
@Injectable()
export class AddMethodGate {
  constructor(
    private readonly store: AuthorizationStore,
    private readonly clock: Clock,
  ) {}

  async grant(userId: number): Promise<void> {
    await this.guard(() =>
      this.store.grant(userId, this.clock.nowMs(), TFA_POLICY.authorizationWindowMs),
    );
  }

  async isGranted(userId: number): Promise<boolean> {
    const grantedAt = await this.guard(() => this.store.grantedAt(userId));
    return grantedAt !== null && this.clock.nowMs() < grantedAt + TFA_POLICY.authorizationWindowMs;
  }

  async require(userId: number): Promise<void> {
    if (!(await this.isGranted(userId)))
      throw new TfaError(
        'authorization_required',
        'Adding a 2FA method needs a fresh authorization: call authorize-new-method first.',
      );
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new TfaError(
        'service_unavailable',
        'The authorization store is unavailable; retry shortly.',
      );
    }
  }
}
