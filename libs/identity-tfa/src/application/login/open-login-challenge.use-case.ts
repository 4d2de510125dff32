import { Injectable } from '@nestjs/common';
import { LoginChallenge, LoginSecondFactor, User } from '@app/accounts';
import { describeLegacySms } from '../../domain/tfa-method';
import { ChallengeService } from '../challenges/challenge.service';
import { MethodRecords } from '../methods/method-records.service';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';

/**
 * The password login's second step: a login challenge and the methods to choose from
 * (a legacy account's phone when it has no method rows). It is accounts' LoginSecondFactor
 * port, so its one operation carries the port's name instead of `execute`.
 */
@Injectable()
export class OpenLoginChallengeUseCase extends LoginSecondFactor {
  constructor(
    private readonly challenges: ChallengeService,
    private readonly methods: TfaMethodRepository,
    private readonly records: MethodRecords,
  ) {
    super();
  }

  async openLoginChallenge(user: User): Promise<LoginChallenge> {
    const { secret } = await this.challenges.open(user.id, 'login');
    const methods = await this.records.describeAll(user.id, await this.methods.listByUser(user.id));
    if (methods.length === 0 && user.tfaStatus === 'legacy' && user.phoneNumber)
      return { secret, methods: [describeLegacySms(user.phoneNumber)] };
    return { secret, methods };
  }
}
