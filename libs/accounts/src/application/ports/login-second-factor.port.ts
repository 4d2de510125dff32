/**
 * Opens the 10-minute login challenge for an account with 2FA. Implemented by the
 * identity-tfa context; accounts only knows that a second factor exists.
 */
export abstract class LoginSecondFactor {
  abstract openLoginChallenge(
    userId: number,
  ): Promise<{ secret: string; methods: Array<Record<string, unknown>> }>;
}
