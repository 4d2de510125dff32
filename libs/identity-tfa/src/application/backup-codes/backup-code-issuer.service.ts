import { Injectable } from '@nestjs/common';
import { RandomSource, SecretKeeper } from '@app/platform';
import {
  BACKUP_CODE_PURPOSE,
  backupCodeMaterial,
  generateBackupCode,
  normalizeBackupCode,
} from '../../domain/backup-codes';
import { TFA_POLICY } from '../../domain/tfa-policy';
import { BackupCodeRepository } from '../ports/backup-code.repository.port';

/** A fresh set of 10 codes replaces the old one; only keyed digests are stored. */
@Injectable()
export class BackupCodeIssuer {
  constructor(
    private readonly codes: BackupCodeRepository,
    private readonly random: RandomSource,
    private readonly secrets: SecretKeeper,
  ) {}

  async issue(userId: number): Promise<string[]> {
    const plain = new Set<string>();
    while (plain.size < TFA_POLICY.backupCodesPerSet)
      plain.add(generateBackupCode((max) => this.random.int(max)));
    const codes = [...plain];
    await this.codes.replaceSet(
      userId,
      codes.map((code) =>
        this.secrets.fingerprint(
          BACKUP_CODE_PURPOSE,
          backupCodeMaterial(userId, normalizeBackupCode(code)!),
        ),
      ),
    );
    return codes;
  }
}
