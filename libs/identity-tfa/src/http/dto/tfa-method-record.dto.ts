import { ApiProperty } from '@nestjs/swagger';
import { SecondFactorMethodRecord } from '@app/accounts';
import { METHOD_TYPES, TfaMethodType } from '../../domain/tfa-method';
import { TFA_POLICY } from '../../domain/tfa-policy';

/**
 * The 2FA method record (docs/identity-tfa.md) for OpenAPI: never a TOTP secret. Bodies are made by
 * accounts' presentSecondFactorMethod, the one presenter of this record (the password
 * login offers it too); `implements` keeps this schema and that shape in step.
 */
export class TfaMethodRecordDto implements SecondFactorMethodRecord {
  @ApiProperty({ type: 'integer', example: 55, description: 'send as tfa_method_id' })
  id: number;

  @ApiProperty({ type: 'integer', description: 'owning user' })
  user_id: number;

  @ApiProperty({ enum: METHOD_TYPES, description: 'email is never a stored method' })
  method: TfaMethodType;

  @ApiProperty({ maxLength: TFA_POLICY.labelMaxLength, example: 'Work phone' })
  label: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '********4567',
    description: 'SMS methods: masked, only the last 4 digits visible; null for TOTP',
  })
  phone_number: string | null;

  @ApiProperty()
  is_primary: boolean;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'current failed-attempt count; back to 0 once a lockout has run out',
  })
  fail_count: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'unix seconds when the lockout ends; null when not locked',
  })
  locked_until: number | null;

  @ApiProperty({ type: 'integer', description: 'unix seconds' })
  created_at: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'unix seconds of the last successful verification; null if never used',
  })
  last_used: number | null;
}
