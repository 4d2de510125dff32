import { TfaStatus, User, UserSettingsChange } from '../../domain/user';

export interface NewUser {
  id?: number;
  email: string;
  username?: string | null;
  fullName?: string;
  passwordHash?: string | null;
  emailVerified?: boolean;
  isAdmin?: boolean;
  phoneNumber?: string | null;
  tfaStatus?: TfaStatus;
  credit?: number;
}

export interface UserWithPassword {
  user: User;
  passwordHash: string | null;
}

export abstract class UserRepository {
  abstract findById(id: number): Promise<User | null>;
  abstract findByLogin(usernameOrEmail: string): Promise<UserWithPassword | null>;
  abstract create(user: NewUser): Promise<User>;
  /** Insert or replace by explicit id (fixtures). */
  abstract upsert(user: NewUser & { id: number }): Promise<User>;
  abstract setTfaState(userId: number, enabled: boolean, status: TfaStatus): Promise<void>;
  abstract setSmsFraudFlag(userId: number, flaggedAt: Date | null): Promise<boolean>;
  /** Replaces the password hash of a user that has one (a rehash with today's parameters). */
  abstract replacePasswordHash(userId: number, expected: string, hash: string): Promise<void>;
  /** Applies the settings given; the user as it now is, or null when there is none. */
  abstract changeSettings(userId: number, change: UserSettingsChange): Promise<User | null>;
}
