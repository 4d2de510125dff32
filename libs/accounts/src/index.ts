export * from './domain/user';
export * from './domain/credential';
export { UserRepository } from './application/ports/user.repository.port';
export { SessionRevocation } from './application/ports/session-revocation.port';
export { SessionAudit } from './application/ports/session-audit.port';
export { TrustedDeviceLogin } from './application/ports/trusted-device-login.port';
export {
  LoginSecondFactor,
  LoginChallenge,
  SecondFactorMethod,
  LegacySecondFactor,
} from './application/ports/login-second-factor.port';
export { CredentialIssuer } from './application/credential-issuer';
export { CreateUserUseCase, CreateUserCommand } from './application/create-user.use-case';
export { GetCurrentUserUseCase } from './application/get-current-user.use-case';
export { presentUser } from './http/user.presenter';
export {
  presentSecondFactorMethod,
  SecondFactorMethodRecord,
} from './http/second-factor-method.presenter';
export { UserResponseDto } from './http/user.response.dto';
export {
  setSessionCookie,
  setDeviceCookie,
  SESSION_COOKIE,
  SESSION_HEADER,
  DEVICE_COOKIE,
} from './http/session-cookie';
export { AccountsModule } from './accounts.module';
