import { Body, Controller, UseGuards, Header, HttpCode, Post, Type } from '@nestjs/common';
import { PersonalContextGuard } from './personal-context.guard';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, SecretOrBearer } from '@app/platform';
import { CodeSentResponseDto } from './dto/code-challenge.response.dto';
import { MethodAddedResponseDto } from './dto/method-change.response.dto';
import { ConfirmNewMethodRequestDto, SendSmsRequestDto } from './dto/tfa-requests.dto';
import { ApiTfaErrors } from './tfa-api-errors';
import { requirePersonalUserId } from './tfa-caller';
import { TfaResponses } from './tfa-responses';
import { TFA_ROUTE_ERRORS } from './tfa-route-errors';

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

/** Still active for old clients; each behaves as its replacement and says so in a header. */
@ApiTags('tfa (deprecated)')
@ApiBearerAuth()
@UseGuards(PersonalContextGuard)
@Controller('api/v0/tfa')
export class TfaDeprecatedController {
  constructor(private readonly responses: TfaResponses) {}

  @Post('test')
  @HttpCode(200)
  @SecretOrBearer()
  @Header('Deprecation', 'true')
  @Header('Link', '</api/v0/tfa/sms/>; rel="successor-version"')
  @ApiOperation({ summary: 'Deprecated: use POST /api/v0/tfa/sms/', deprecated: true })
  @ApiDeprecatedOkResponse(CodeSentResponseDto, '/api/v0/tfa/sms/')
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.sendSms)
  test(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: SendSmsRequestDto,
  ): Promise<CodeSentResponseDto> {
    return this.responses.sendSms(principal, body);
  }

  @Post('test-submit')
  @HttpCode(200)
  @Header('Deprecation', 'true')
  @Header('Link', '</api/v0/tfa/confirm-new/>; rel="successor-version"')
  @ApiOperation({
    summary: 'Deprecated: use POST /api/v0/tfa/confirm-new/ (legacy accounts: untracked_2fa_found)',
    deprecated: true,
  })
  @ApiDeprecatedOkResponse(MethodAddedResponseDto, '/api/v0/tfa/confirm-new/')
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.confirmNewMethodRejectingLegacy)
  testSubmit(@CurrentPrincipal() principal: Principal, @Body() body: ConfirmNewMethodRequestDto) {
    return this.responses.confirmNew(requirePersonalUserId(principal), body, true);
  }

  @Post('resend')
  @HttpCode(200)
  @SecretOrBearer()
  @Header('Deprecation', 'true')
  @Header('Link', '</api/v0/tfa/sms/resend/>; rel="successor-version"')
  @ApiOperation({ summary: 'Deprecated: use POST /api/v0/tfa/sms/resend/', deprecated: true })
  @ApiDeprecatedOkResponse(CodeSentResponseDto, '/api/v0/tfa/sms/resend/')
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.resendSms)
  resend(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: SendSmsRequestDto,
  ): Promise<CodeSentResponseDto> {
    return this.responses.resendSms(principal, body);
  }
}
