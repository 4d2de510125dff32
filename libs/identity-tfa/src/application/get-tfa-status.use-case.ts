import { Injectable } from '@nestjs/common';
import { AddMethodGate } from './add-method-gate';
import { MethodRecords } from './method-records';
import { BackupCodeRepository } from './ports/backup-code.repository.port';
import { TfaMethodRepository } from './ports/tfa-method.repository.port';
import { TfaUserLookup } from './tfa-user-lookup';

@Injectable()
export class GetTfaStatusUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly methods: TfaMethodRepository,
    private readonly backupCodes: BackupCodeRepository,
    private readonly gate: AddMethodGate,
    private readonly records: MethodRecords,
  ) {}

  async execute(userId: number): Promise<Record<string, unknown>> {
    const user = await this.lookup.user(userId);
    const methods = await this.methods.listByUser(userId);
    return {
      tfa_enabled: user.tfaEnabled,
      tfa_status: user.tfaStatus,
      methods: await this.records.of(userId, methods),
      backup_codes_remaining: await this.backupCodes.countUnused(userId),
      new_method_authorized: await this.gate.isGranted(userId),
    };
  }
}
