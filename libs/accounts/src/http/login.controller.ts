import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiParamOptions, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public, requestOrigin } from '@app/platform';
import { PasswordLoginUseCase } from '../application/credentials/password-login.use-case';
import { AccountsError } from '../domain/errors';
import { PasswordLoginResponse, presentPasswordLogin } from './password-login.presenter';
import { DEVICE_COOKIE, requestCookie, setSessionCookie } from './session-cookie';
import { PasswordLoginRequestDto } from './password-login.request.dto';
import { PasswordLoginResponseDto } from './password-login.response.dto';

/**
 * The trusted-device cookie, documented as the cookie parameter it is (swagger's ApiParam
 * takes any location; its type only names the path).
 */
const ApiDeviceCookie = () =>
  ApiParam({
    name: DEVICE_COOKIE,
    in: 'cookie',
    required: false,
    schema: { type: 'string' },
    description:
      'a trusted device (set by POST /api/v0/tfa/ with remember_device): for a user with 2FA, ' +
      "the user's own active device answers like a login without 2FA (a session, no tfa_secret); " +
      "any other value (another user's, revoked, expired) changes nothing",
  } as ApiParamOptions);

@ApiTags('users')
@Controller('api/v0/users')
export class LoginController {
  constructor(private readonly passwordLogin: PasswordLoginUseCase) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Password login',
    description:
      'Without 2FA: a session key (body, cookie and X-Session-Key header). With 2FA: tfa_required, a tfa_secret ' +
      'opening a 10-minute login challenge, and the methods to choose from; from a trusted device of the ' +
      'user (the gm_device cookie), the session as without 2FA.',
  })
  @ApiDeviceCookie()
  @ApiOkResponse({
    type: PasswordLoginResponseDto,
    description: 'session or second-factor challenge',
  })
  async login(
    @Body() body: PasswordLoginRequestDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PasswordLoginResponse> {
    const login = body.username ?? body.email;
    if (!login)
      throw new AccountsError('bad_request', 'Invalid request: username or email is required');
    const result = await this.passwordLogin.execute({
      login,
      password: body.password,
      clientAddress: request.ip ?? 'unknown',
      deviceToken: requestCookie(request, DEVICE_COOKIE),
      origin: requestOrigin(request),
    });
    if (result.kind === 'session') setSessionCookie(response, result.sessionKey, result.expiresAt);
    return presentPasswordLogin(result);
  }
}
