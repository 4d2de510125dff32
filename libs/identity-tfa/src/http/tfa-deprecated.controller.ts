import { Body, Controller, UseGuards, Header, HttpCode, Post } from '@nestjs/common';
import { PersonalContextGuard } from './personal-context.guard';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, SecretOrBearer } from '@app/platform';
import { ConfirmNewMethodRequestDto, SendSmsRequestDto } from './dto/tfa-requests.dto';
import { requirePersonalUserId } from './tfa-caller';
import { TfaResponses } from './tfa-responses';

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
  test(@CurrentPrincipal() principal: Principal | undefined, @Body() body: SendSmsRequestDto) {
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
  testSubmit(@CurrentPrincipal() principal: Principal, @Body() body: ConfirmNewMethodRequestDto) {
    return this.responses.confirmNew(requirePersonalUserId(principal), body, true);
  }

  @Post('resend')
  @HttpCode(200)
  @SecretOrBearer()
  @Header('Deprecation', 'true')
  @Header('Link', '</api/v0/tfa/sms/resend/>; rel="successor-version"')
  @ApiOperation({ summary: 'Deprecated: use POST /api/v0/tfa/sms/resend/', deprecated: true })
  resend(@CurrentPrincipal() principal: Principal | undefined, @Body() body: SendSmsRequestDto) {
    return this.responses.resendSms(principal, body);
  }
}
