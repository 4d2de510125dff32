import { Body, Controller, UseGuards, Delete, Get, HttpCode, Post, Put, Res } from '@nestjs/common';
import { PersonalContextGuard } from './personal-context.guard';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { presentUser, setSessionCookie } from '@app/accounts';
import { CapConcurrency, CurrentPrincipal, Principal, SecretOrBearer } from '@app/platform';
import { CompleteLoginUseCase } from '../application/complete-login.use-case';
import { ConfirmMethodAuthorizationUseCase } from '../application/confirm-method-authorization.use-case';
import { GetTfaStatusUseCase } from '../application/get-tfa-status.use-case';
import { RegenerateBackupCodesUseCase } from '../application/regenerate-backup-codes.use-case';
import { RemoveMethodUseCase } from '../application/remove-method.use-case';
import { SendEmailCodeUseCase } from '../application/send-email-code.use-case';
import { SetupTotpUseCase } from '../application/setup-totp.use-case';
import { StartMethodAuthorizationUseCase } from '../application/start-method-authorization.use-case';
import { UpdateMethodUseCase } from '../application/update-method.use-case';
import {
  ConfirmAuthorizationRequestDto,
  ConfirmNewMethodRequestDto,
  RegenerateBackupCodesRequestDto,
  RemoveMethodRequestDto,
  SendEmailRequestDto,
  SendSmsRequestDto,
  StartAuthorizationRequestDto,
  TfaLoginRequestDto,
  UpdateMethodRequestDto,
} from './dto/tfa-requests.dto';
import {
  AuthorizationChallengeResponseDto,
  AuthorizationGrantedResponseDto,
  CodeSentResponseDto,
  TotpSetupResponseDto,
} from './dto/code-challenge.response.dto';
import {
  BackupCodesRegeneratedResponseDto,
  MethodAddedResponseDto,
  MethodRemovedResponseDto,
  MethodUpdatedResponseDto,
  TfaDisabledResponseDto,
} from './dto/method-change.response.dto';
import { TfaLoginResponseDto } from './dto/tfa-login.response.dto';
import { TfaStatusResponseDto } from './dto/tfa-status.response.dto';
import { ApiOkResponseOneOf } from './api-ok-one-of';
import { ApiTfaErrors } from './tfa-api-errors';
import { personalUserId, requirePersonalUserId } from './tfa-caller';
import { MSG } from './tfa-messages';
import { factorOf, TfaResponses } from './tfa-responses';
import { TFA_ROUTE_ERRORS } from './tfa-route-errors';

@ApiTags('tfa')
@ApiBearerAuth()
@UseGuards(PersonalContextGuard)
@Controller('api/v0/tfa')
export class TfaController {
  constructor(
    private readonly status: GetTfaStatusUseCase,
    private readonly login: CompleteLoginUseCase,
    private readonly removeMethod: RemoveMethodUseCase,
    private readonly sendEmail: SendEmailCodeUseCase,
    private readonly setupTotp: SetupTotpUseCase,
    private readonly startAuthorization: StartMethodAuthorizationUseCase,
    private readonly confirmAuthorization: ConfirmMethodAuthorizationUseCase,
    private readonly updateMethod: UpdateMethodUseCase,
    private readonly regenerate: RegenerateBackupCodesUseCase,
    private readonly responses: TfaResponses,
  ) {}

  @Get('status')
  @ApiOperation({ summary: '2FA state: methods, backup codes left, add-method authorization' })
  @ApiOkResponse({ type: TfaStatusResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.status)
  async getStatus(@CurrentPrincipal() principal: Principal): Promise<Record<string, unknown>> {
    return { success: true, ...(await this.status.execute(requirePersonalUserId(principal))) };
  }

  @Post()
  @HttpCode(200)
  @SecretOrBearer()
  @ApiOperation({
    summary: 'Complete the 2FA login',
    description:
      'A code (sms, email, totp) or a backup code. With a Bearer token the new session_key is in the body; ' +
      'logged out (secret only) it is set as an HttpOnly cookie and X-Session-Key header instead.',
  })
  @ApiOkResponse({
    type: TfaLoginResponseDto,
    description: 'user object plus session_key, backup_codes_remaining, legacy_tfa_user',
    headers: {
      'X-Session-Key': {
        description: 'logged out (secret only): the new session key, also set as a cookie',
        schema: { type: 'string' },
      },
    },
  })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.login)
  async completeLogin(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: TfaLoginRequestDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Record<string, unknown>> {
    const userId = personalUserId(principal);
    const result = await this.login.execute({
      userId,
      factor: factorOf(body),
      admin: body.admin ?? false,
    });
    if (userId === undefined) setSessionCookie(response, result.sessionKey, result.expiresAt);
    return {
      success: true,
      ...presentUser(result.user),
      ...(userId !== undefined ? { session_key: result.sessionKey } : {}),
      ...(result.backupCodesRemaining !== undefined
        ? { backup_codes_remaining: result.backupCodesRemaining }
        : {}),
      ...(result.legacy ? { legacy_tfa_user: true } : {}),
    };
  }

  @Delete()
  @ApiOperation({ summary: 'Remove a 2FA method (verified); the last one disables 2FA' })
  @ApiOkResponseOneOf(
    'remaining_methods while methods remain; removing the last one (or on a legacy ' +
      'account) disables 2FA',
    MethodRemovedResponseDto,
    TfaDisabledResponseDto,
  )
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.removeMethod)
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Body() body: RemoveMethodRequestDto,
  ): Promise<MethodRemovedResponseDto | TfaDisabledResponseDto> {
    const result = await this.removeMethod.execute({
      userId: requirePersonalUserId(principal),
      factor: factorOf(body),
      targetId: body.target_id,
      keepSessionId: ownSessionId(principal),
    });
    return result.disabled
      ? { success: true, msg: MSG.disabled }
      : { success: true, msg: MSG.removed, remaining_methods: result.remainingMethods };
  }

  @Post('email')
  @HttpCode(200)
  @SecretOrBearer()
  @ApiOperation({ summary: 'Send a 6-digit code to the verified email' })
  @ApiOkResponse({ type: CodeSentResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.sendEmail)
  async email(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: SendEmailRequestDto,
  ): Promise<CodeSentResponseDto> {
    const { secret } = await this.sendEmail.execute({
      userId: personalUserId(principal),
      secret: body.secret,
    });
    return { success: true, msg: MSG.emailSent, secret };
  }

  @Post('sms')
  @HttpCode(200)
  @SecretOrBearer()
  @ApiOperation({ summary: 'Send a 6-digit code by SMS' })
  @ApiOkResponse({ type: CodeSentResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.sendSms)
  sms(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: SendSmsRequestDto,
  ): Promise<CodeSentResponseDto> {
    return this.responses.sendSms(principal, body);
  }

  @Post('sms/resend')
  @HttpCode(200)
  @SecretOrBearer()
  @ApiOperation({ summary: 'Resend the SMS code of a challenge' })
  @ApiOkResponse({ type: CodeSentResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.resendSms)
  resend(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: SendSmsRequestDto,
  ): Promise<CodeSentResponseDto> {
    return this.responses.resendSms(principal, body);
  }

  @Post('totp-setup')
  @HttpCode(200)
  @ApiOperation({ summary: 'A new TOTP secret and otpauth:// URI (nothing is stored)' })
  @ApiOkResponse({ type: TotpSetupResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.totpSetup)
  async totpSetup(@CurrentPrincipal() principal: Principal): Promise<TotpSetupResponseDto> {
    const result = await this.setupTotp.execute(requirePersonalUserId(principal));
    return { success: true, secret: result.secret, provisioning_uri: result.provisioningUri };
  }

  @Post('authorize-new-method')
  @HttpCode(200)
  @ApiOperation({ summary: 'Step 1 of adding a method: a backup code, or a code challenge' })
  @ApiOkResponseOneOf(
    'a code flow answers the secret of its challenge; a backup code opens the window at once',
    AuthorizationChallengeResponseDto,
    AuthorizationGrantedResponseDto,
  )
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.startAuthorization)
  async authorize(
    @CurrentPrincipal() principal: Principal,
    @Body() body: StartAuthorizationRequestDto,
  ): Promise<AuthorizationChallengeResponseDto | AuthorizationGrantedResponseDto> {
    const result = await this.startAuthorization.execute({
      userId: requirePersonalUserId(principal),
      tfaMethod: body.tfa_method,
      tfaMethodId: body.tfa_method_id,
      backupCode: body.backup_code,
    });
    return result.kind === 'granted'
      ? { success: true, msg: MSG.authorized }
      : { success: true, secret: result.secret };
  }

  @Put('authorize-new-method')
  @ApiOperation({ summary: 'Step 2: the code grants the 30-minute add-method window' })
  @ApiOkResponse({ type: AuthorizationGrantedResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.confirmAuthorization)
  async confirmAuthorize(
    @CurrentPrincipal() principal: Principal,
    @Body() body: ConfirmAuthorizationRequestDto,
  ): Promise<AuthorizationGrantedResponseDto> {
    await this.confirmAuthorization.execute({
      userId: requirePersonalUserId(principal),
      code: body.code,
      secret: body.secret,
    });
    return { success: true, msg: MSG.authorized };
  }

  @Post('confirm-new')
  @HttpCode(200)
  @ApiOperation({ summary: 'Activate a new SMS or TOTP method (backup codes with the first one)' })
  @ApiOkResponse({ type: MethodAddedResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.confirmNewMethod)
  async confirm(
    @CurrentPrincipal() principal: Principal,
    @Body() body: ConfirmNewMethodRequestDto,
  ): Promise<Record<string, unknown>> {
    return this.responses.confirmNew(requirePersonalUserId(principal), body);
  }

  @Put('update')
  @CapConcurrency('tfa_update')
  @ApiOperation({ summary: 'Change the label or primary flag of a method' })
  @ApiOkResponse({ type: MethodUpdatedResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.updateMethod)
  async update(
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateMethodRequestDto,
  ): Promise<Record<string, unknown>> {
    const method = await this.updateMethod.execute({
      userId: requirePersonalUserId(principal),
      tfaMethodId: body.tfa_method_id,
      tfaMethod: body.tfa_method,
      label: body.label,
      isPrimary: body.is_primary,
    });
    return { success: true, msg: MSG.updated, method };
  }

  @Put('regen-backup-codes')
  @ApiOperation({ summary: 'Replace all backup codes (verified); returned once' })
  @ApiOkResponse({ type: BackupCodesRegeneratedResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.regenerateBackupCodes)
  async regen(
    @CurrentPrincipal() principal: Principal,
    @Body() body: RegenerateBackupCodesRequestDto,
  ): Promise<BackupCodesRegeneratedResponseDto> {
    const codes = await this.regenerate.execute({
      userId: requirePersonalUserId(principal),
      factor: factorOf(body),
      keepSessionId: ownSessionId(principal),
    });
    return { success: true, msg: MSG.regenerated, backup_codes: codes };
  }
}

/** The session the caller authenticated with, if any: a 2FA change never logs out its author. */
function ownSessionId(principal: Principal): number | undefined {
  return principal.credentialKind === 'session' ? principal.credentialId : undefined;
}
