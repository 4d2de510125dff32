import { TfaMethod, TfaMethodType } from '../../domain/tfa-method';

export interface NewTfaMethod {
  userId: number;
  type: TfaMethodType;
  label: string;
  phoneNumber: string | null;
  isPrimary: boolean;
  lastTotpStep: number | null;
}

export abstract class TfaMethodRepository {
  abstract listByUser(userId: number): Promise<TfaMethod[]>;
  abstract findById(id: number): Promise<TfaMethod | null>;
  /** null when the user already has a method of that type (one per type). */
  abstract create(method: NewTfaMethod): Promise<TfaMethod | null>;
  abstract setTotpSecret(methodId: number, ciphertext: string): Promise<void>;
  abstract update(
    methodId: number,
    changes: { label?: string; isPrimary?: boolean },
  ): Promise<TfaMethod>;
  /** Makes `methodId` the only primary method of its user. */
  abstract makeOnlyPrimary(userId: number, methodId: number): Promise<void>;
  abstract delete(methodId: number): Promise<void>;
  /** A successful verification with this method: its last use. */
  abstract recordUse(methodId: number, now: Date): Promise<void>;
  /**
   * Compare-and-set of the last accepted TOTP step, recording the method's use (`usedAt`)
   * with it; false, and nothing changed, when `step` is not newer.
   */
  abstract advanceTotpStep(methodId: number, step: number, usedAt: Date): Promise<boolean>;
}
