import { Controller, Delete, Get, Param, Query, Req, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Access, CurrentPrincipal, Principal, requestOrigin, SecurityWrite } from '@app/platform';
import { ListSecurityEventsUseCase } from '../application/events/list-security-events.use-case';
import { ListTrustedDevicesUseCase } from '../application/devices/list-trusted-devices.use-case';
import { RevokeTrustedDeviceUseCase } from '../application/devices/revoke-trusted-device.use-case';
import { SECURITY_EVENT_POLICY } from '../domain/security-event';
import {
  presentDeviceRevoked,
  presentSecurityEventPage,
  presentTrustedDevices,
} from './account-security.presenter';
import { parseDeviceId, parseSecurityEventsQuery, RawQuery } from './account-security.request';
import {
  SecurityEventPageDto,
  TrustedDeviceListDto,
  TrustedDeviceRevokedDto,
} from './dto/account-security.response.dto';
import { PersonalContextGuard, requirePersonalUserId } from './security-caller';
import { ApiSecurityErrors, SECURITY_ROUTE_ERRORS } from './security-route-errors';

/**
 * The account-security routes (docs/identity-tfa.md "Security events", "Trusted devices"):
 * the caller's security events and trusted devices. Served under tfa/ with the 2FA routes,
 * whose paths, tag and operation ids (the class's name) they keep; personal context only,
 * like every 2FA route.
 */
@ApiTags('tfa')
@ApiBearerAuth()
@UseGuards(PersonalContextGuard)
@Controller('api/v0/tfa')
export class TfaSecurityController {
  constructor(
    private readonly listEvents: ListSecurityEventsUseCase,
    private readonly listDevices: ListTrustedDevicesUseCase,
    private readonly revokeDevice: RevokeTrustedDeviceUseCase,
  ) {}

  @Get('events')
  @Access('user_read', 'api.tfa.events')
  @ApiOperation({
    summary: 'Your security events, newest first (keyset-paginated)',
    description:
      '2FA enabled or disabled, methods added, removed or changed, backup codes regenerated ' +
      'or used, locks, 2FA logins, sessions ended, admin resets, trusted devices. Never a ' +
      'code or a secret. See docs/identity-tfa.md "Security events".',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: `integer >= 1, default ${SECURITY_EVENT_POLICY.defaultPageSize}, served at most ${SECURITY_EVENT_POLICY.maxPageSize}`,
  })
  @ApiQuery({
    name: 'after_token',
    required: false,
    description: 'next_token of the previous page',
  })
  @ApiOkResponse({ type: SecurityEventPageDto })
  @ApiSecurityErrors(...SECURITY_ROUTE_ERRORS.securityEvents)
  async events(
    @CurrentPrincipal() principal: Principal,
    @Query() query: RawQuery,
  ): Promise<SecurityEventPageDto> {
    const userId = requirePersonalUserId(principal);
    const parsed = parseSecurityEventsQuery(query);
    return presentSecurityEventPage(await this.listEvents.execute({ userId, ...parsed }));
  }

  @Get('devices')
  @Access('user_read', 'api.tfa.devices')
  @ApiOperation({
    summary: 'Your trusted devices (active ones, newest first)',
    description:
      'Browsers remembered by a logged-out 2FA login with remember_device: a password login ' +
      'from one skips the second factor until it expires or is revoked.',
  })
  @ApiOkResponse({ type: TrustedDeviceListDto })
  @ApiSecurityErrors(...SECURITY_ROUTE_ERRORS.trustedDevices)
  async devices(@CurrentPrincipal() principal: Principal): Promise<TrustedDeviceListDto> {
    return presentTrustedDevices(await this.listDevices.execute(requirePersonalUserId(principal)));
  }

  @Delete('devices/:id')
  @Access('user_write', 'api.tfa.device_revoke')
  @SecurityWrite()
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({
    summary: 'Revoke a trusted device',
    description:
      'The device needs the second factor again. An id that is not one of your active ' +
      'devices (unknown, another user’s, already revoked) is 404 not_found.',
  })
  @ApiOkResponse({ type: TrustedDeviceRevokedDto })
  @ApiSecurityErrors(...SECURITY_ROUTE_ERRORS.revokeTrustedDevice)
  async revoke(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
    @Req() request: Request,
  ): Promise<TrustedDeviceRevokedDto> {
    await this.revokeDevice.execute({
      userId: requirePersonalUserId(principal),
      deviceId: parseDeviceId(rawId),
      origin: requestOrigin(request),
    });
    return presentDeviceRevoked();
  }
}
