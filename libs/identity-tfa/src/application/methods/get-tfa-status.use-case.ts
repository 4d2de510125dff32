import { Injectable } from '@nestjs/common';
import { SecondFactorMethod, TfaStatus } from '@app/accounts';
import { AddMethodGate } from './add-method-gate.service';
import { MethodRecords } from './method-records.service';
import { BackupCodeRepository } from '../ports/backup-code.repository.port';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';
import { TfaUserLookup } from '../login/tfa-user-lookup.service';

export interface TfaStatusResult {
  /** True for enabled and legacy 2FA alike. */
  tfaEnabled: boolean;
  tfaStatus: TfaStatus;
  methods: SecondFactorMethod[];
  backupCodesRemaining: number;
  /** Inside the 30-minute add-method window. */
  newMethodAuthorized: boolean;
}

/** GET status: the user's 2FA state, methods with their failure counts, and the window. */
@Injectable()
export class GetTfaStatusUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly methods: TfaMethodRepository,
    private readonly backupCodes: BackupCodeRepository,
    private readonly gate: AddMethodGate,
    private readonly records: MethodRecords,
  ) {}

  async execute(userId: number): Promise<TfaStatusResult> {
    const user = await this.lookup.user(userId);
    const methods = await this.methods.listByUser(userId);
    return {
      tfaEnabled: user.tfaEnabled,
      tfaStatus: user.tfaStatus,
      methods: await this.records.describeAll(userId, methods),
      backupCodesRemaining: await this.backupCodes.countUnused(userId),
      newMethodAuthorized: await this.gate.isGranted(userId),
    };
  }
}
