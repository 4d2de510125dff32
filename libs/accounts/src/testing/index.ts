/** Fakes of the accounts ports and their kit, for use-case tests here and in other contexts. */
export * from './accounts-kit';
export * from './fake-password-hasher';
export * from './in-memory-credential-cache';
export * from './in-memory-credentials';
export * from './in-memory-login-throttle';
export * from './in-memory-team-store';
export * from './in-memory-users';
export * from './recording-api-key-audit';
export * from './recording-login-second-factor';
export * from './recording-session-audit';
export * from './recording-session-revocation';
export * from './recording-trusted-device-login';
export * from './recording-trusted-device-revocation';
export * from './test-users';
