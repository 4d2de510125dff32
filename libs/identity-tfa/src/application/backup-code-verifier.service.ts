import { Injectable } from '@nestjs/common';
import { User } from '@app/accounts';
import { Clock, SecretKeeper } from '@app/platform';
import {
  BACKUP_CODE_PURPOSE,
  backupCodeMaterial,
  normalizeBackupCode,
} from '../domain/backup-codes';
import { TfaError } from '../domain/errors';
import { BackupCodeRepository } from './ports/backup-code.repository.port';
import { Attempt } from './verification-flow.service';

/** The backup-code factor: one of the user's single-use codes, spent by marking it used. */
@Injectable()
export class BackupCodeVerifier {
  constructor(
    private readonly backupCodes: BackupCodeRepository,
    private readonly secrets: SecretKeeper,
    private readonly clock: Clock,
  ) {}

  /** @throws bad_request when `given` cannot be a backup code (nothing is counted) */
  attempt(user: User, given: string): Attempt {
    const normalized = normalizeBackupCode(given);
    if (normalized === null)
      throw new TfaError('bad_request', 'Invalid request: backup_code must be XXXX-XXXX-XXXX');
    // Every digest the code may be stored under (codes made before a key rotation too).
    const digests = this.secrets.fingerprints(
      BACKUP_CODE_PURPOSE,
      backupCodeMaterial(user.id, normalized),
    );
    return {
      channel: 'backup_code',
      verified: async () => ({
        kind: 'backup_code',
        remaining: await this.backupCodes.countUnused(user.id),
      }),
      // The row lock of the consuming UPDATE decides; it commits or rolls back with the action.
      compare: async () => {
        for (const digest of digests)
          if (await this.backupCodes.consume(user.id, digest, this.clock.now())) return 'match';
        for (const digest of digests)
          if (await this.backupCodes.wasUsed(user.id, digest)) return 'replay';
        return 'wrong';
      },
      spend: async () => true,
      wrong: () => new TfaError('invalid_backup_code', 'Invalid backup code.'),
      replay: () => new TfaError('invalid_backup_code', 'This backup code was already used.'),
    };
  }
}
