import { ApiProperty } from '@nestjs/swagger';
import { SECURITY_EVENT_KINDS, SECURITY_EVENT_METHODS } from '../../domain/security-event';
import { SECURITY_MSG } from '../security-messages';

/** Every account-security success body says so; failures carry success false. */
export class SecuritySuccessDto {
  @ApiProperty({ enum: [true] })
  success: true;
}

/** One entry of the security history: never a code, secret or token. */
export class SecurityEventDto {
  @ApiProperty({ type: 'integer', description: 'increases with time; the page order' })
  id: number;

  @ApiProperty({ type: 'integer', description: 'unix seconds' })
  created_at: number;

  @ApiProperty({ enum: SECURITY_EVENT_KINDS })
  kind: string;

  @ApiProperty({
    // OpenAPI 3.0: a nullable enum lists null among its values.
    enum: [...SECURITY_EVENT_METHODS, null],
    nullable: true,
    description: 'the factor the event is about, when one is (null otherwise)',
  })
  method: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'client address of the request (null: an operator command)',
  })
  client_address: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    maxLength: 256,
    description: 'User-Agent of the request, cut to 256 characters ("manage": an operator command)',
  })
  user_agent: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'non-secret facts, by kind: login {trusted_device}; session_revoked {sessions, cause}; ' +
      'device_revoked {devices, cause}; method_updated {method_id, changed}; admin_reset {reason, ...}',
  })
  details: Record<string, unknown>;
}

/** GET tfa/events/. */
export class SecurityEventPageDto extends SecuritySuccessDto {
  @ApiProperty({ type: [SecurityEventDto], description: 'newest first' })
  events: SecurityEventDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'pass as after_token for the next page; null on the last page',
  })
  next_token: string | null;
}

export class TrustedDeviceDto {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty({ type: 'integer', description: 'unix seconds' })
  created_at: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'unix seconds of the last password login it skipped the second factor of',
  })
  last_used: number | null;

  @ApiProperty({ type: 'integer', description: 'unix seconds; the device is forgotten then' })
  expires_at: number;

  @ApiProperty({ type: 'string', nullable: true, maxLength: 256 })
  user_agent: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  client_address: string | null;
}

/** GET tfa/devices/. */
export class TrustedDeviceListDto extends SecuritySuccessDto {
  @ApiProperty({ type: [TrustedDeviceDto], description: 'active devices, newest first' })
  devices: TrustedDeviceDto[];
}

/** DELETE tfa/devices/{id}/. */
export class TrustedDeviceRevokedDto extends SecuritySuccessDto {
  @ApiProperty({ enum: [SECURITY_MSG.deviceRevoked] })
  msg: typeof SECURITY_MSG.deviceRevoked;
}
