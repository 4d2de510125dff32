import { Injectable } from '@nestjs/common';
import { RandomSource } from '@app/platform';
import { TFA_POLICY, TfaSettings } from '../../domain/tfa-policy';
import { encodeBase32, provisioningUri } from '../../domain/totp';
import { TfaUserLookup } from '../login/tfa-user-lookup.service';

export interface TotpSetup {
  /** Base32, for manual entry and for confirm-new. */
  secret: string;
  /** otpauth:// URI for an authenticator app. */
  provisioningUri: string;
}

/**
 * A fresh 160-bit secret for the user's authenticator app. Nothing is stored: the
 * secret comes back in confirm-new together with a code, which proves the app has it.
 */
@Injectable()
export class SetupTotpUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly random: RandomSource,
    private readonly settings: TfaSettings,
  ) {}

  async execute(userId: number): Promise<TotpSetup> {
    const user = await this.lookup.user(userId);
    const secret = encodeBase32(this.random.bytes(TFA_POLICY.totpSecretBytes));
    return {
      secret,
      provisioningUri: provisioningUri(this.settings.totpIssuer, user.email, secret),
    };
  }
}
