import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, CurrentPrincipal, Principal } from '@app/platform';
import { GetCurrentUserUseCase } from '../application/users/get-current-user.use-case';
import { UserResponseDto } from './user.response.dto';
import { presentUser } from './user.presenter';

@ApiTags('users')
@ApiBearerAuth()
@Controller('api/v0/users')
export class UsersController {
  constructor(private readonly getCurrentUser: GetCurrentUserUseCase) {}

  /** Served at /api/v0/users/current and /api/v0/users/current/ (the public client omits the slash). */
  @Get('current')
  @Access('user_read', 'api.user.show')
  @ApiOperation({ summary: 'The authenticated user' })
  @ApiOkResponse({ type: UserResponseDto })
  async current(@CurrentPrincipal() principal: Principal): Promise<UserResponseDto> {
    return presentUser(await this.getCurrentUser.execute(principal.userId, principal.teamId));
  }
}
