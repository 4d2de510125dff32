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
import { CurrentPrincipal, Principal, requestOrigin } from '@app/platform';
import { ListSecurityEventsUseCase } from '../application/list-security-events.use-case';
import { ListTrustedDevicesUseCase } from '../application/list-trusted-devices.use-case';
import { RevokeTrustedDeviceUseCase } from '../application/revoke-trusted-device.use-case';
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
import { PersonalContextGuard } from './personal-context.guard';
import { requirePersonalUserId } from './tfa-caller';
import { ApiTfaErrors, TFA_ROUTE_ERRORS } from './tfa-route-errors';

/**
 * The account-security routes of the 2FA context (docs/identity-tfa.md): the caller's
 * security events and trusted devices. Personal context only, like every 2FA route.
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
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.securityEvents)
  async events(
    @CurrentPrincipal() principal: Principal,
    @Query() query: RawQuery,
  ): Promise<SecurityEventPageDto> {
    const userId = requirePersonalUserId(principal);
    const parsed = parseSecurityEventsQuery(query);
    return presentSecurityEventPage(await this.listEvents.execute({ userId, ...parsed }));
  }

  @Get('devices')
  @ApiOperation({
    summary: 'Your trusted devices (active ones, newest first)',
    description:
      'Browsers remembered by a logged-out 2FA login with remember_device: a password login ' +
      'from one skips the second factor until it expires or is revoked.',
  })
  @ApiOkResponse({ type: TrustedDeviceListDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.trustedDevices)
  async devices(@CurrentPrincipal() principal: Principal): Promise<TrustedDeviceListDto> {
    return presentTrustedDevices(await this.listDevices.execute(requirePersonalUserId(principal)));
  }

  @Delete('devices/:id')
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({
    summary: 'Revoke a trusted device',
    description:
      'The device needs the second factor again. An id that is not one of your active ' +
      'devices (unknown, another user’s, already revoked) is 404 not_found.',
  })
  @ApiOkResponse({ type: TrustedDeviceRevokedDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.revokeTrustedDevice)
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
