import { ApiProperty } from '@nestjs/swagger';
import { MSG } from '../tfa-messages';
import { TfaSuccessDto } from './tfa-success.dto';

const SECRET_DESCRIPTION =
  'tfa_secret of the challenge the code was sent on; send it back as `secret` with the code. ' +
  '22 letters and digits (0-9A-Za-z), so it never starts with "-" on a command line';
const SECRET_EXAMPLE = '4vQm0JYcLZr8TnWd2kHbXe';

/** POST sms, sms/resend and email (and the deprecated test and resend). */
export class CodeSentResponseDto extends TfaSuccessDto {
  @ApiProperty({
    example: MSG.resent,
    description: `"${MSG.smsSent}" (sms), "${MSG.resent}" (resend), "${MSG.emailSent}" (email)`,
  })
  msg: string;

  @ApiProperty({ description: SECRET_DESCRIPTION, example: SECRET_EXAMPLE })
  secret: string;
}

/** POST totp-setup: nothing is stored until confirm-new proves the app has the secret. */
export class TotpSetupResponseDto extends TfaSuccessDto {
  @ApiProperty({
    pattern: '^[A-Z2-7]+$',
    example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    description: 'base32 TOTP secret, for manual entry and for confirm-new',
  })
  secret: string;

  @ApiProperty({
    pattern: '^otpauth://totp/',
    example:
      'otpauth://totp/GPU%20Marketplace:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=GPU+Marketplace&algorithm=SHA1&digits=6&period=30',
    description: 'otpauth:// URI for an authenticator app (no QR image is produced)',
  })
  provisioning_uri: string;
}

/** POST authorize-new-method with a code flow: the code went out on a new challenge. */
export class AuthorizationChallengeResponseDto extends TfaSuccessDto {
  @ApiProperty({
    description: `${SECRET_DESCRIPTION} (PUT authorize-new-method)`,
    example: SECRET_EXAMPLE,
  })
  secret: string;
}

/** The 30-minute add-method window is open (the client matches this msg exactly). */
export class AuthorizationGrantedResponseDto extends TfaSuccessDto {
  @ApiProperty({ enum: [MSG.authorized] })
  msg: typeof MSG.authorized;
}
