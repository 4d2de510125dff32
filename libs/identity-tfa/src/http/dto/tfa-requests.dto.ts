import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { VerificationChannel, VERIFICATION_CHANNELS } from '../../domain/tfa-method';
import {
  BackupCodeField,
  CodeField,
  LabelField,
  MethodIdField,
  OptionalOrNull,
  PhoneField,
  SecretField,
  TfaMethodField,
} from './fields';

/** Fields shared by every request that proves a second factor. */
export class FactorRequestDto {
  @TfaMethodField('verification method; defaults to sms')
  tfa_method?: VerificationChannel;

  @CodeField()
  code?: string;

  @SecretField('tfa_secret of the send-code step (SMS and email)')
  secret?: string;

  @MethodIdField('tfa_method_id', 'disambiguates several methods of one type')
  tfa_method_id?: number;

  @BackupCodeField()
  backup_code?: string;
}

export class TfaLoginRequestDto extends FactorRequestDto {
  @ApiPropertyOptional({
    default: false,
    description: 'request an admin session (admin users only)',
  })
  @OptionalOrNull()
  @IsBoolean()
  admin?: boolean;

  @ApiPropertyOptional({
    default: false,
    description:
      'logged out only (tfa_secret, no Bearer token): remember this browser as a trusted ' +
      'device (the gm_device cookie); a later password login from it skips the second factor. ' +
      'With a Bearer token: 400 bad_request',
  })
  @OptionalOrNull()
  @IsBoolean()
  remember_device?: boolean;
}

export class RemoveMethodRequestDto extends FactorRequestDto {
  @MethodIdField('target_id', 'method to remove; required with backup_code')
  target_id?: number;
}

export class RegenerateBackupCodesRequestDto extends FactorRequestDto {}

export class SendSmsRequestDto {
  @PhoneField()
  phone_number?: string;

  @MethodIdField('tfa_method_id', "send to this method's number")
  tfa_method_id?: number;

  @SecretField('tfa_secret of the password login (required without a Bearer token)')
  secret?: string;
}

export class SendEmailRequestDto {
  @SecretField('an existing tfa_secret')
  secret?: string;
}

export class StartAuthorizationRequestDto {
  @TfaMethodField('method that authorizes; forced to email for a user without methods')
  tfa_method?: VerificationChannel;

  @MethodIdField('tfa_method_id', 'required when several methods of one type exist')
  tfa_method_id?: number;

  @BackupCodeField()
  backup_code?: string;
}

export class ConfirmAuthorizationRequestDto {
  @CodeField()
  code?: string;

  @SecretField('secret returned by POST authorize-new-method')
  secret?: string;
}

export class ConfirmNewMethodRequestDto {
  @ApiProperty({ enum: VERIFICATION_CHANNELS, description: 'sms or totp (email cannot be added)' })
  @IsIn(VERIFICATION_CHANNELS as unknown as string[])
  tfa_method: VerificationChannel;

  @CodeField(true)
  code?: string;

  @ApiProperty({
    description: 'tfa_secret of the SMS challenge, or the base32 secret from totp-setup',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  secret: string;

  @PhoneField()
  phone_number?: string;

  @LabelField()
  label?: string;
}

export class UpdateMethodRequestDto {
  @MethodIdField('tfa_method_id', 'method to update')
  tfa_method_id?: number;

  @TfaMethodField('used when exactly one method of that type exists (sms or totp)')
  tfa_method?: VerificationChannel;

  @LabelField()
  label?: string;

  @ApiPropertyOptional()
  @OptionalOrNull()
  @IsBoolean()
  is_primary?: boolean;
}
