import { ApiProperty } from '@nestjs/swagger';
import { BACKUP_CODE_ALPHABET } from '../../domain/backup-codes';
import { TFA_POLICY } from '../../domain/tfa-policy';
import { MSG } from '../tfa-messages';
import { TfaMethodRecordDto } from './tfa-method-record.dto';
import { TfaSuccessDto } from './tfa-success.dto';

const CODE_GROUP_PATTERN = `[${BACKUP_CODE_ALPHABET}]{4}`;

/** A full set of backup codes, in plaintext: the only time they are ever shown. */
const BackupCodesProperty = (required: boolean, description: string) =>
  ApiProperty({
    type: 'array',
    items: {
      type: 'string',
      pattern: `^${CODE_GROUP_PATTERN}-${CODE_GROUP_PATTERN}-${CODE_GROUP_PATTERN}$`,
      example: 'ABCD-EFGH-JKLM',
    },
    minItems: TFA_POLICY.backupCodesPerSet,
    maxItems: TFA_POLICY.backupCodesPerSet,
    required,
    description,
  });

/** DELETE /tfa/ when other methods remain. */
export class MethodRemovedResponseDto extends TfaSuccessDto {
  @ApiProperty({ enum: [MSG.removed] })
  msg: typeof MSG.removed;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'methods still configured' })
  remaining_methods: number;
}

/** DELETE /tfa/ of the last method, or on a legacy account: 2FA is off. */
export class TfaDisabledResponseDto extends TfaSuccessDto {
  @ApiProperty({ enum: [MSG.disabled] })
  msg: typeof MSG.disabled;
}

/** POST confirm-new (and the deprecated test-submit). */
export class MethodAddedResponseDto extends TfaSuccessDto {
  @ApiProperty({ enum: [MSG.smsAdded, MSG.totpAdded] })
  msg: string;

  @ApiProperty({ type: TfaMethodRecordDto, description: 'the new method' })
  method: TfaMethodRecordDto;

  @BackupCodesProperty(false, "only with an account's first method")
  backup_codes?: string[];
}

/** PUT update. */
export class MethodUpdatedResponseDto extends TfaSuccessDto {
  @ApiProperty({ example: MSG.updated })
  msg: string;

  @ApiProperty({ type: TfaMethodRecordDto, description: 'the method after the change' })
  method: TfaMethodRecordDto;
}

/** PUT regen-backup-codes: the new set replaces every earlier code. */
export class BackupCodesRegeneratedResponseDto extends TfaSuccessDto {
  @ApiProperty({ example: MSG.regenerated })
  msg: string;

  @BackupCodesProperty(true, 'the new set')
  backup_codes: string[];
}
