import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, CurrentPrincipal, Principal } from '@app/platform';
import { ChangeUserSettingsUseCase } from '../application/users/change-user-settings.use-case';
import { AccountsError } from '../domain/errors';
import { ApiAccountsErrors } from './accounts-route-errors';
import { UserSettingsRequestDto, UserSettingsResponseDto } from './user-settings.dto';
import { GetCurrentUserUseCase } from '../application/users/get-current-user.use-case';
import { UserResponseDto } from './user.response.dto';
import { presentUser } from './user.presenter';

@ApiTags('users')
@ApiBearerAuth()
@Controller('api/v0/users')
export class UsersController {
  constructor(
    private readonly getCurrentUser: GetCurrentUserUseCase,
    private readonly changeSettings: ChangeUserSettingsUseCase,
  ) {}

  /** Served at /api/v0/users/current and /api/v0/users/current/ (the public client omits the slash). */
  @Get('current')
  @Access('user_read', 'api.user.show')
  @ApiOperation({ summary: 'The authenticated user' })
  @ApiOkResponse({ type: UserResponseDto })
  async current(@CurrentPrincipal() principal: Principal): Promise<UserResponseDto> {
    return presentUser(await this.getCurrentUser.execute(principal.userId, principal.teamId));
  }

  /**
   * `vastai set user --file f.json` sends the file's JSON object here. The low-balance
   * setting is kept; the public client's other keys are refused by name
   * (docs/spend-guards.md "The low-balance setting").
   */
  @Put()
  @Access('user_write', 'api.user.update')
  @ApiOperation({
    summary: "Change the caller's settings (`set user`)",
    description:
      'balance_threshold (a number >= 0, at most 2 decimals) and balance_threshold_enabled ' +
      '(a boolean); every other key, those of the public client this service does not keep ' +
      'included (ssh_key, billaddress_*, autobill_threshold, phone_number, ...), is a 400 naming it.',
  })
  @ApiBody({ type: UserSettingsRequestDto })
  @ApiOkResponse({ type: UserSettingsResponseDto })
  @ApiAccountsErrors.described('a key not kept, or a bad value', 'bad_request')
  async update(
    @CurrentPrincipal() principal: Principal,
    @Body() body: unknown,
  ): Promise<UserSettingsResponseDto> {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new AccountsError('bad_request', 'the body must be a JSON object');
    const user = await this.changeSettings.execute(
      principal.userId,
      body as Record<string, unknown>,
    );
    return { success: true, user: presentUser(user) };
  }
}
