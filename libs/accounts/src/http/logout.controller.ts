import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access, CurrentPrincipal, Principal, requestOrigin, SecurityWrite } from '@app/platform';
import { LogoutUseCase } from '../application/sessions/logout.use-case';
import { LogoutResponseDto } from './logout.response.dto';
import { SESSION_COOKIE } from './session-cookie';

@ApiTags('users')
@ApiBearerAuth()
@Controller('api/v0/users')
export class LogoutController {
  constructor(private readonly logout: LogoutUseCase) {}

  @Post('logout')
  @Access('user_write', 'api.user.logout')
  @SecurityWrite()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Log out',
    description:
      'Ends the session whose key is the Bearer token (and clears the session cookie). A later ' +
      'request with that key answers 404 auth_error "Session expired. Please log in again.". ' +
      'An API key is refused with 400 bad_request: it is not a session.',
  })
  @ApiOkResponse({ type: LogoutResponseDto, description: 'the session has ended' })
  async logOut(
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<LogoutResponseDto> {
    await this.logout.execute(principal, requestOrigin(request));
    response.clearCookie(SESSION_COOKIE, {
      httpOnly: true,
      secure: true,
      sameSite: 'strict',
      path: '/',
    });
    return { success: true };
  }
}
