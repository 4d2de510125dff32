import { RequestOrigin } from '@app/platform';

export type ApiKeyChangeKind = 'created' | 'deleted' | 'reset';

/** What a key change tells the user: never the key, only its name and prefix. */
export interface ApiKeyChange {
  kind: ApiKeyChangeKind;
  keyId: number;
  name: string | null;
  prefix: string;
  origin: RequestOrigin;
}

/**
 * Hears about keys created, deleted and reset, for the user's security history and the
 * email notice each one sends. Implemented by the identity-tfa context (its security
 * events); called inside the unit of work of the change.
 */
export abstract class ApiKeyAudit {
  abstract keyChanged(userId: number, change: ApiKeyChange): Promise<void>;
}
