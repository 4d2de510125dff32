import { presentSecondFactorMethod } from '@app/accounts';
import { TfaStatusResult } from '../application/methods/get-tfa-status.use-case';
import { TfaStatusResponseDto } from './dto/tfa-status.response.dto';

/** GET status. */
export function presentTfaStatus(status: TfaStatusResult): TfaStatusResponseDto {
  return {
    success: true,
    tfa_enabled: status.tfaEnabled,
    tfa_status: status.tfaStatus,
    methods: status.methods.map(presentSecondFactorMethod),
    backup_codes_remaining: status.backupCodesRemaining,
    new_method_authorized: status.newMethodAuthorized,
  };
}
