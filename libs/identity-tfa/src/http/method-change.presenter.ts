import { presentSecondFactorMethod, SecondFactorMethod } from '@app/accounts';
import { ConfirmedMethod } from '../application/methods/confirm-new-method.use-case';
import { RemoveMethodResult } from '../application/methods/remove-method.use-case';
import {
  BackupCodesRegeneratedResponseDto,
  MethodAddedResponseDto,
  MethodRemovedResponseDto,
  MethodUpdatedResponseDto,
  TfaDisabledResponseDto,
} from './dto/method-change.response.dto';
import { MSG } from './tfa-messages';

/** DELETE /tfa/: the methods left, or 2FA off. */
export function presentMethodRemoved(
  result: RemoveMethodResult,
): MethodRemovedResponseDto | TfaDisabledResponseDto {
  return result.disabled
    ? { success: true, msg: MSG.disabled }
    : { success: true, msg: MSG.removed, remaining_methods: result.remainingMethods };
}

/** POST confirm-new (and the deprecated test-submit). */
export function presentMethodAdded(confirmed: ConfirmedMethod): MethodAddedResponseDto {
  return {
    success: true,
    msg: confirmed.method.type === 'sms' ? MSG.smsAdded : MSG.totpAdded,
    method: presentSecondFactorMethod(confirmed.method),
    ...(confirmed.backupCodes ? { backup_codes: confirmed.backupCodes } : {}),
  };
}

/** PUT update. */
export function presentMethodUpdated(method: SecondFactorMethod): MethodUpdatedResponseDto {
  return { success: true, msg: MSG.updated, method: presentSecondFactorMethod(method) };
}

/** PUT regen-backup-codes. */
export function presentBackupCodesRegenerated(codes: string[]): BackupCodesRegeneratedResponseDto {
  return { success: true, msg: MSG.regenerated, backup_codes: codes };
}
