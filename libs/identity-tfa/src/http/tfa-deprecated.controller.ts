import { Body, Controller, UseGuards, Header, HttpCode, Post, Req, Type } from '@nestjs/common';
import { PersonalContextGuard } from './personal-context.guard';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  Access,
  CurrentPrincipal,
  Principal,
  requestOrigin,
  SecretOrBearer,
  SecurityWrite,
} from '@app/platform';
import { ConfirmNewMethodUseCase } from '../application/methods/confirm-new-method.use-case';
import { ResendSmsCodeUseCase } from '../application/challenges/resend-sms-code.use-case';
import { SendSmsCodeUseCase } from '../application/challenges/send-sms-code.use-case';
import { presentSmsResent, presentSmsSent } from './code-challenge.presenter';
import { CodeSentResponseDto } from './dto/code-challenge.response.dto';
import { MethodAddedResponseDto } from './dto/method-change.response.dto';
import { ConfirmNewMethodRequestDto, SendSmsRequestDto } from './dto/tfa-requests.dto';
import { presentMethodAdded } from './method-change.presenter';
import { requirePersonalUserId } from './tfa-caller';
import { ApiTfaErrors, TFA_ROUTE_ERRORS } from './tfa-route-errors';
import { toConfirmNewMethodCommand, toSendSmsCommand } from './tfa.request';

/** The body of the replacement route, with the headers that name it. */
const ApiDeprecatedOkResponse = (type: Type, successor: string) =>
  ApiOkResponse({
    type,
    description: `as ${successor}`,
    headers: {
      Deprecation: { schema: { type: 'string', enum: ['true'] } },
      Link: {
        description: 'the successor route',
        schema: { type: 'string', example: `<${successor}>; rel="successor-version"` },
      },
    },
  });

/**
 * Still active for old clients; each behaves as its replacement (the same use case and
 * presenter as TfaController's route) and says so in a header.
 */
@ApiTags('tfa (deprecated)')
@ApiBearerAuth()
@UseGuards(PersonalContextGuard)
@Controller('api/v0/tfa')
export class TfaDeprecatedController {
  constructor(
    private readonly sendSmsCode: SendSmsCodeUseCase,
    private readonly resendSmsCode: ResendSmsCodeUseCase,
    private readonly confirmNewMethod: ConfirmNewMethodUseCase,
  ) {}

  @Post('test')
  @Access('user_write', 'api.tfa.test')
  @HttpCode(200)
  @SecretOrBearer()
  @Header('Deprecation', 'true')
  @Header('Link', '</api/v0/tfa/sms/>; rel="successor-version"')
  @ApiOperation({ summary: 'Deprecated: use POST /api/v0/tfa/sms/', deprecated: true })
  @ApiDeprecatedOkResponse(CodeSentResponseDto, '/api/v0/tfa/sms/')
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.sendSms)
  async test(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: SendSmsRequestDto,
  ): Promise<CodeSentResponseDto> {
    return presentSmsSent(await this.sendSmsCode.execute(toSendSmsCommand(principal, body)));
  }

  @Post('test-submit')
  @Access('user_write', 'api.tfa.test_submit')
  @HttpCode(200)
  @SecurityWrite()
  @Header('Deprecation', 'true')
  @Header('Link', '</api/v0/tfa/confirm-new/>; rel="successor-version"')
  @ApiOperation({
    summary: 'Deprecated: use POST /api/v0/tfa/confirm-new/ (legacy accounts: untracked_2fa_found)',
    deprecated: true,
  })
  @ApiDeprecatedOkResponse(MethodAddedResponseDto, '/api/v0/tfa/confirm-new/')
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.confirmNewMethodRejectingLegacy)
  async testSubmit(
    @CurrentPrincipal() principal: Principal,
    @Body() body: ConfirmNewMethodRequestDto,
    @Req() request: Request,
  ): Promise<MethodAddedResponseDto> {
    const command = toConfirmNewMethodCommand(
      requirePersonalUserId(principal),
      body,
      requestOrigin(request),
      true,
    );
    return presentMethodAdded(await this.confirmNewMethod.execute(command));
  }

  @Post('resend')
  @Access('user_write', 'api.tfa.resend')
  @HttpCode(200)
  @SecretOrBearer()
  @Header('Deprecation', 'true')
  @Header('Link', '</api/v0/tfa/sms/resend/>; rel="successor-version"')
  @ApiOperation({ summary: 'Deprecated: use POST /api/v0/tfa/sms/resend/', deprecated: true })
  @ApiDeprecatedOkResponse(CodeSentResponseDto, '/api/v0/tfa/sms/resend/')
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.resendSms)
  async resend(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: SendSmsRequestDto,
  ): Promise<CodeSentResponseDto> {
    return presentSmsResent(await this.resendSmsCode.execute(toSendSmsCommand(principal, body)));
  }
}
