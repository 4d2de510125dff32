import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { VERIFICATION_CHANNELS } from '../../domain/tfa-method';

const CODE_PATTERN = /^\d{6}$/;

/**
 * An optional field: absent, or JSON null, which means the same (docs/identity-tfa.md,
 * "Missing and malformed values"). class-validator's IsOptional already skips null; the
 * transform makes the use cases see it as absent too, instead of a null they never expect.
 */
export const OptionalOrNull = (transform: (value: unknown) => unknown = (value) => value) =>
  applyDecorators(
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (value === null ? undefined : transform(value))),
  );
/** The backup-code alphabet (no 0, 1, I, O), 12 symbols, dashes and spaces anywhere. */
const BACKUP_CODE_PATTERN = /^[\s-]*(?:[A-HJ-NP-Za-hj-np-z2-9][\s-]*){12}$/;

/**
 * A method id: an integer, or a string of digits (the public client sends `--method-id`
 * as a JSON string "55" but `tfa update` as an int). Anything else is a 400.
 */
export const MethodIdField = (name: string, description: string) =>
  applyDecorators(
    ApiPropertyOptional({
      oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\d+$' }],
      description,
    }),
    OptionalOrNull((value) =>
      typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value,
    ),
    IsInt({ message: `${name} must be an integer or a string of digits` }),
    Min(1),
  );

export const TfaMethodField = (description = 'sms, totp or email') =>
  applyDecorators(
    ApiPropertyOptional({ enum: VERIFICATION_CHANNELS, description }),
    OptionalOrNull(),
    IsIn(VERIFICATION_CHANNELS as unknown as string[]),
  );

/**
 * A code is exactly 6 digits: anything else is refused as bad_request before it can be
 * compared or counted. A missing code is the use case's missing_auth_value.
 */
export const CodeField = (required = false) =>
  applyDecorators(
    required
      ? ApiProperty({
          example: '123456',
          pattern: CODE_PATTERN.source,
          description: 'the 6-digit code',
        })
      : ApiPropertyOptional({
          example: '123456',
          pattern: CODE_PATTERN.source,
          description: 'the 6-digit code',
        }),
    OptionalOrNull(),
    IsString(),
    Matches(CODE_PATTERN, { message: 'code must be exactly 6 digits' }),
  );

export const SecretField = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ description }),
    OptionalOrNull(),
    IsString(),
    MinLength(1),
    MaxLength(256),
  );

export const BackupCodeField = () =>
  applyDecorators(
    ApiPropertyOptional({
      example: 'ABCD-EFGH-JKLM',
      pattern: BACKUP_CODE_PATTERN.source,
      description: 'single-use backup code (case-insensitive; dashes and spaces optional)',
    }),
    OptionalOrNull(),
    IsString(),
    MaxLength(64),
    Matches(BACKUP_CODE_PATTERN, { message: 'backup_code must look like XXXX-XXXX-XXXX' }),
  );

export const PhoneField = () =>
  applyDecorators(
    ApiPropertyOptional({ example: '+15551234567', description: 'E.164' }),
    OptionalOrNull(),
    IsString(),
    Matches(/^\+[1-9]\d{6,14}$/, {
      message: 'phone_number must be in E.164 format, e.g. +15551234567',
    }),
  );

export const LabelField = () =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: 30 }),
    OptionalOrNull(),
    IsString(),
    MaxLength(30),
  );
