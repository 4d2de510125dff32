/**
 * Account security: the user's security events and their notices, trusted devices, and the
 * operator's reset of two-factor authentication. Other contexts record through
 * SecurityEventLog and DeviceTrust, and the two-factor context implements SecondFactorEraser.
 */
export {
  AccountSecurityModule,
  AccountSecurityPortsModule,
  AccountSecurityWorkerModule,
} from './account-security.module';
export { DeviceTrust, IssuedDevice } from './application/devices/device-trust.service';
export {
  SecurityEventInput,
  SecurityEventLog,
} from './application/events/security-event-log.service';
export {
  ErasedSecondFactor,
  SecondFactorEraser,
} from './application/ports/second-factor-eraser.port';
export { SecurityErrorResponseDto } from './http/dto/security-error.response.dto';
export { UserSecurityLock } from './application/ports/user-security-lock.port';
export type {
  DeviceRevocationCause,
  SecurityEvent,
  SecurityEventKind,
  SecurityEventMethod,
  SessionEndCause,
} from './domain/security-event';
export { deviceLifetimeSeconds, TrustedDevice } from './domain/trusted-device';
