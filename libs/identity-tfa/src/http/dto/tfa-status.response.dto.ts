import { ApiProperty } from '@nestjs/swagger';
import { TFA_STATUSES, TfaStatus } from '@app/accounts';
import { TfaMethodRecordDto } from './tfa-method-record.dto';
import { TfaSuccessDto } from './tfa-success.dto';

export class TfaStatusResponseDto extends TfaSuccessDto {
  @ApiProperty({ description: 'true for enabled and legacy 2FA alike' })
  tfa_enabled: boolean;

  @ApiProperty({ enum: TFA_STATUSES, description: 'tells legacy 2FA apart from enabled' })
  tfa_status: TfaStatus;

  @ApiProperty({ type: [TfaMethodRecordDto], description: 'empty when 2FA is off (or legacy)' })
  methods: TfaMethodRecordDto[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'unused backup codes' })
  backup_codes_remaining: number;

  @ApiProperty({ description: 'true during the 30-minute add-method authorization window' })
  new_method_authorized: boolean;
}
