import { AccountsError } from '../../domain/errors';
import { Injectable, Optional } from '@nestjs/common';
import { RequestOrigin, UnitOfWork } from '@app/platform';
import { sessionOriginOf } from '../../domain/session';
import { User } from '../../domain/user';
import { CredentialIssuer } from './credential-issuer.service';
import { LoginChallenge, LoginSecondFactor } from '../ports/login-second-factor.port';
import { LoginThrottle, ThrottleScope } from '../ports/login-throttle.port';
import { PasswordHasher } from '../ports/password-hasher.port';
import { TrustedDeviceLogin } from '../ports/trusted-device-login.port';
import { UserRepository } from '../ports/user.repository.port';

export interface PasswordLoginCommand {
  login: string;
  password: string;
  clientAddress: string;
  /** The token of the browser's trusted-device cookie, if it sent one. */
  deviceToken?: string;
  origin: RequestOrigin;
}

export type PasswordLoginResult =
  | { kind: 'session'; user: User; sessionKey: string; expiresAt: Date }
  | {
      kind: 'second_factor';
      user: User;
      tfaSecret: string;
      methods: LoginChallenge['methods'];
    };

const INVALID = 'Invalid username or password.';

/**
 * Username-or-email + password. Every failure looks the same (no user enumeration) and
 * costs the same time. Attempts are counted before the password is checked, so a parallel
 * burst gets no more password checks than the budget (docs/decisions.md "Password login"):
 * per user (username and email share the count; an unknown name counts on its own), per
 * (user, address) and per client address; or, for a client presenting a trusted device of
 * that very user, on that device's own budget, which no stranger's failures touch (OWASP
 * "device cookies"), so guessing from elsewhere cannot lock the owner out. With 2FA on, the
 * trusted device (identity-tfa's, through TrustedDeviceLogin) also stands in for the second
 * factor; anything else about the cookie changes nothing.
 */
@Injectable()
export class PasswordLoginUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly issuer: CredentialIssuer,
    private readonly uow: UnitOfWork,
    @Optional() private readonly secondFactor?: LoginSecondFactor,
    @Optional() private readonly trustedDevices?: TrustedDeviceLogin,
  ) {}

  async execute(command: PasswordLoginCommand): Promise<PasswordLoginResult> {
    const found = await this.users.findByLogin(command.login);
    const scope = await this.throttleScope(found?.user ?? null, command);
    if (!(await this.throttle.admit(scope)))
      throw new AccountsError(
        'login_throttled',
        'Too many failed login attempts; try again later.',
      );
    const valid = await this.hasher.verify(found?.passwordHash ?? null, command.password);
    if (!found || !valid) throw new AccountsError('login_failed', INVALID);
    await this.throttle.succeeded(scope);
    const user = found.user;
    // A hash made with older parameters is replaced while the password is at hand.
    const stored = found.passwordHash!;
    if (this.hasher.needsRehash(stored))
      await this.users.replacePasswordHash(
        user.id,
        stored,
        await this.hasher.hash(command.password),
      );
    if (user.tfaStatus !== 'disabled') {
      if (!this.secondFactor)
        throw new AccountsError('service_unavailable', 'Two-factor authentication is unavailable.');
      const trusted = await this.viaTrustedDevice(user, command);
      if (trusted) return { kind: 'session', user, ...trusted };
      const challenge = await this.secondFactor.openLoginChallenge(user);
      return {
        kind: 'second_factor',
        user,
        tfaSecret: challenge.secret,
        methods: challenge.methods,
      };
    }
    const session = await this.issuer.issueSession(user.id, {
      origin: sessionOriginOf(command.origin),
    });
    return { kind: 'session', user, ...session };
  }

  /**
   * Where this attempt counts. A known user's trusted device (the cookie checked before the
   * password, without recording anything) has a budget of its own; everyone else shares
   * the user's, is counted per (user, address) too (so the owner's right password forgives
   * the owner's own typos, never a stranger's failures elsewhere) and per address.
   */
  private async throttleScope(
    user: User | null,
    command: PasswordLoginCommand,
  ): Promise<ThrottleScope> {
    const address = `addr:${command.clientAddress}`;
    if (!user) {
      const name = `login:${command.login.toLowerCase()}`;
      return { keys: [name, address], own: name };
    }
    const { deviceToken } = command;
    if (deviceToken && user.tfaStatus !== 'disabled' && this.trustedDevices) {
      const deviceId = await this.trustedDevices.recognise(user, deviceToken);
      if (deviceId !== null) return { keys: [`device:${deviceId}`], own: `device:${deviceId}` };
    }
    const userKey = `user:${user.id}`;
    const fromHere = `user-addr:${user.id}:${command.clientAddress}`;
    return { keys: [userKey, fromHere, address], own: fromHere, within: userKey };
  }

  /** The session a trusted device earns: issued in the transaction that records its use. */
  private async viaTrustedDevice(
    user: User,
    command: PasswordLoginCommand,
  ): Promise<{ sessionKey: string; expiresAt: Date } | null> {
    const { deviceToken } = command;
    if (!deviceToken || !this.trustedDevices) return null;
    const devices = this.trustedDevices;
    return this.uow.run(async () =>
      (await devices.accept(user, deviceToken, command.origin))
        ? this.issuer.issueSession(user.id, { origin: sessionOriginOf(command.origin, true) })
        : null,
    );
  }
}
