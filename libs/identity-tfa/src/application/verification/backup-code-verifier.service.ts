import { Injectable } from '@nestjs/common';
import { User } from '@app/accounts';
import { Clock, DomainError, SecretKeeper } from '@app/platform';
import {
  BACKUP_CODE_PURPOSE,
  backupCodeMaterial,
  normalizeBackupCode,
} from '../../domain/backup-codes';
import { TfaError } from '../../domain/errors';
import { BackupCodeRepository } from '../ports/backup-code.repository.port';
import { Comparison, FactorVerifier, Verified } from './verification-flow.service';

/**
 * One of the user's single-use backup codes, spent by the comparison itself: the row lock
 * of the consuming UPDATE decides, and it commits or rolls back with the action.
 */
export class BackupCode implements FactorVerifier {
  readonly channel = 'backup_code' as const;

  constructor(
    private readonly backupCodes: BackupCodeRepository,
    private readonly clock: Clock,
    private readonly userId: number,
    /** Every digest the code may be stored under (codes made before a key rotation too). */
    private readonly digests: string[],
  ) {}

  /** Spends the code when it matches (consume marks it used). */
  async verify(): Promise<Comparison> {
    for (const digest of this.digests)
      if (await this.backupCodes.consume(this.userId, digest, this.clock.now())) return 'match';
    for (const digest of this.digests)
      if (await this.backupCodes.wasUsed(this.userId, digest)) return 'replay';
    return 'wrong';
  }

  /** Nothing left to spend: the comparison consumed the code. */
  async spend(): Promise<boolean> {
    return true;
  }

  async retire(): Promise<void> {}

  async verified(): Promise<Verified> {
    return { kind: 'backup_code', remaining: await this.backupCodes.countUnused(this.userId) };
  }

  wrongCode(): DomainError {
    return new TfaError('invalid_backup_code', 'Invalid backup code.');
  }

  replayedCode(): DomainError {
    return new TfaError('invalid_backup_code', 'This backup code was already used.');
  }
}

/** The backup-code factor: checks the code's shape and makes the request's BackupCode. */
@Injectable()
export class BackupCodeVerifier {
  constructor(
    private readonly backupCodes: BackupCodeRepository,
    private readonly secrets: SecretKeeper,
    private readonly clock: Clock,
  ) {}

  /** @throws bad_request when `given` cannot be a backup code (nothing is counted) */
  factor(user: User, given: string): BackupCode {
    const normalized = normalizeBackupCode(given);
    if (normalized === null)
      throw new TfaError('bad_request', 'Invalid request: backup_code must be XXXX-XXXX-XXXX');
    const digests = this.secrets.fingerprints(
      BACKUP_CODE_PURPOSE,
      backupCodeMaterial(user.id, normalized),
    );
    return new BackupCode(this.backupCodes, this.clock, user.id, digests);
  }
}
