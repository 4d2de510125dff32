import { LoginChallenge, LoginSecondFactor } from '../application/ports/login-second-factor.port';
import { User } from '../domain/user';

/** Answers a fixed challenge and records whom it was opened for. */
export class RecordingLoginSecondFactor extends LoginSecondFactor {
  readonly openedFor: User[] = [];

  constructor(private readonly challenge: LoginChallenge = { secret: 'tfa-secret', methods: [] }) {
    super();
  }

  async openLoginChallenge(user: User): Promise<LoginChallenge> {
    this.openedFor.push(user);
    return this.challenge;
  }
}
