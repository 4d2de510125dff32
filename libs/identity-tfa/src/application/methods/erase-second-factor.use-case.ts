import { Injectable } from '@nestjs/common';
import { ErasedSecondFactor, SecondFactorEraser } from '@app/account-security';
import { BackupCodeRepository } from '../ports/backup-code.repository.port';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';

/**
 * Account security's SecondFactorEraser port (so its one operation carries the port's
 * name), for the operator's reset: every method of the user removed and every unused
 * backup code revoked (soft-deleted), in the caller's unit of work, under the user's lock
 * the caller holds.
 */
@Injectable()
export class EraseSecondFactorUseCase extends SecondFactorEraser {
  constructor(
    private readonly methods: TfaMethodRepository,
    private readonly backupCodes: BackupCodeRepository,
  ) {
    super();
  }

  async eraseAll(userId: number, now: Date): Promise<ErasedSecondFactor> {
    const methods = await this.methods.listByUser(userId);
    for (const method of methods) await this.methods.delete(method.id);
    const backupCodesRevoked = await this.backupCodes.countUnused(userId);
    await this.backupCodes.softDeleteAll(userId, now);
    return { methodsRemoved: methods.length, backupCodesRevoked };
  }
}
