import { Injectable } from '@nestjs/common';
import { RandomSource, SecretKeeper } from '@app/platform';

/**
 * The worker API key of a group. Stored only encrypted, with the group id as associated
 * data: a ciphertext copied onto another group's row does not decrypt.
 */
@Injectable()
export class EndpointGroupKeys {
  constructor(
    private readonly random: RandomSource,
    private readonly secrets: SecretKeeper,
  ) {}

  generate(): string {
    return this.random.token(256);
  }

  seal(groupId: number, apiKey: string): string {
    return this.secrets.encrypt(apiKey, aad(groupId));
  }

  /** null when the ciphertext does not belong to this group or its key was retired. */
  open(groupId: number, ciphertext: string): string | null {
    return this.secrets.decrypt(ciphertext, aad(groupId));
  }
}

function aad(groupId: number): string {
  return `endpoint-group:${groupId}:api-key`;
}
