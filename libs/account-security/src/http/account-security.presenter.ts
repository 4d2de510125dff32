import { SecurityEventPage } from '../application/events/list-security-events.use-case';
import { SecurityEvent } from '../domain/security-event';
import { TrustedDevice } from '../domain/trusted-device';
import {
  SecurityEventDto,
  SecurityEventPageDto,
  TrustedDeviceDto,
  TrustedDeviceListDto,
  TrustedDeviceRevokedDto,
} from './dto/account-security.response.dto';
import { SECURITY_MSG } from './security-messages';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function presentSecurityEvent(event: SecurityEvent): SecurityEventDto {
  return {
    id: event.id,
    created_at: seconds(event.occurredAt),
    kind: event.kind,
    method: event.method,
    client_address: event.origin.address,
    user_agent: event.origin.userAgent,
    details: { ...event.details },
  };
}

/** GET tfa/events/. */
export function presentSecurityEventPage(page: SecurityEventPage): SecurityEventPageDto {
  return {
    success: true,
    events: page.events.map(presentSecurityEvent),
    next_token: page.nextToken,
  };
}

export function presentTrustedDevice(device: TrustedDevice): TrustedDeviceDto {
  return {
    id: device.id,
    created_at: seconds(device.createdAt),
    last_used: device.lastUsedAt ? seconds(device.lastUsedAt) : null,
    expires_at: seconds(device.expiresAt),
    user_agent: device.userAgent,
    client_address: device.clientAddress,
  };
}

/** GET tfa/devices/. */
export function presentTrustedDevices(devices: TrustedDevice[]): TrustedDeviceListDto {
  return { success: true, devices: devices.map(presentTrustedDevice) };
}

/** DELETE tfa/devices/{id}/. */
export function presentDeviceRevoked(): TrustedDeviceRevokedDto {
  return { success: true, msg: SECURITY_MSG.deviceRevoked };
}
