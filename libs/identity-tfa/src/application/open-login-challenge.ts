import { Injectable } from '@nestjs/common';
import { LoginSecondFactor, UserRepository } from '@app/accounts';
import { maskPhone } from '../domain/tfa-method';
import { ChallengeService } from './challenge.service';
import { MethodRecords } from './method-records';
import { TfaMethodRepository } from './ports/tfa-method.repository.port';

/** The password login's second step: a login challenge and the methods to choose from. */
@Injectable()
export class OpenLoginChallenge extends LoginSecondFactor {
  constructor(
    private readonly challenges: ChallengeService,
    private readonly methods: TfaMethodRepository,
    private readonly users: UserRepository,
    private readonly records: MethodRecords,
  ) {
    super();
  }

  async openLoginChallenge(
    userId: number,
  ): Promise<{ secret: string; methods: Array<Record<string, unknown>> }> {
    const { secret } = await this.challenges.open(userId, 'login');
    const methods = await this.records.of(userId, await this.methods.listByUser(userId));
    if (methods.length === 0) {
      const user = await this.users.findById(userId);
      if (user?.tfaStatus === 'legacy' && user.phoneNumber)
        methods.push({
          id: null,
          method: 'sms',
          phone_number: maskPhone(user.phoneNumber),
          legacy: true,
        });
    }
    return { secret, methods };
  }
}
