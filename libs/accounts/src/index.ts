export * from './domain/user';
export * from './domain/credential';
export * from './domain/session';
export { UserRepository } from './application/ports/user.repository.port';
export { SessionRevocation } from './application/ports/session-revocation.port';
export { SessionAudit } from './application/ports/session-audit.port';
export {
  ApiKeyAudit,
  ApiKeyChange,
  ApiKeyChangeKind,
} from './application/ports/api-key-audit.port';
export {
  DeviceRevoker,
  TrustedDeviceRevocation,
} from './application/ports/trusted-device-revocation.port';
export { TeamAudit, TeamChange, TeamChangeKind } from './application/ports/team-audit.port';
export { TeamInvitationMail } from './application/ports/team-invitation-mail.port';
export {
  TeamInvitationLetters,
  TeamInvitationLetter,
} from './application/teams/team-invitation-letters.service';
export {
  TeamContact,
  TeamContacts,
  TEAM_CONTACT_ROLES,
} from './application/teams/team-contacts.service';
export { TrustedDeviceLogin } from './application/ports/trusted-device-login.port';
export {
  LoginSecondFactor,
  LoginChallenge,
  SecondFactorMethod,
  LegacySecondFactor,
} from './application/ports/login-second-factor.port';
export { CredentialIssuer } from './application/credentials/credential-issuer.service';
export { CreateUserUseCase, CreateUserCommand } from './application/users/create-user.use-case';
export { GetCurrentUserUseCase } from './application/users/get-current-user.use-case';
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
