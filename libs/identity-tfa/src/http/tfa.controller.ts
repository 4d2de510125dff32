import {
  Body,
  Controller,
  UseGuards,
  Delete,
  Get,
  HttpCode,
  Post,
  Put,
  Req,
  Res,
} from '@nestjs/common';
import { PersonalContextGuard } from './personal-context.guard';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { setDeviceCookie, setSessionCookie } from '@app/accounts';
import {
  Access,
  CapConcurrency,
  CurrentPrincipal,
  Principal,
  requestOrigin,
  SecretOrBearer,
  SecurityWrite,
} from '@app/platform';
import { CompleteLoginUseCase } from '../application/login/complete-login.use-case';
import { ConfirmMethodAuthorizationUseCase } from '../application/methods/confirm-method-authorization.use-case';
import { GetTfaStatusUseCase } from '../application/methods/get-tfa-status.use-case';
import { RegenerateBackupCodesUseCase } from '../application/backup-codes/regenerate-backup-codes.use-case';
import { RemoveMethodUseCase } from '../application/methods/remove-method.use-case';
import { ResendSmsCodeUseCase } from '../application/challenges/resend-sms-code.use-case';
import { SendEmailCodeUseCase } from '../application/challenges/send-email-code.use-case';
import { SendSmsCodeUseCase } from '../application/challenges/send-sms-code.use-case';
import { ConfirmNewMethodUseCase } from '../application/methods/confirm-new-method.use-case';
import { SetupTotpUseCase } from '../application/methods/setup-totp.use-case';
import { StartMethodAuthorizationUseCase } from '../application/methods/start-method-authorization.use-case';
import { UpdateMethodUseCase } from '../application/methods/update-method.use-case';
import { deviceLifetimeSeconds } from '@app/account-security';
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
import {
  presentAuthorizationGranted,
  presentAuthorizationStarted,
  presentEmailSent,
  presentSmsResent,
  presentSmsSent,
  presentTotpSetup,
} from './code-challenge.presenter';
import {
  presentBackupCodesRegenerated,
  presentMethodAdded,
  presentMethodRemoved,
  presentMethodUpdated,
} from './method-change.presenter';
import { personalUserId, requirePersonalUserId } from './tfa-caller';
import { presentTfaLogin, TfaLoginResponse } from './tfa-login.presenter';
import { ApiTfaErrors, TFA_ROUTE_ERRORS } from './tfa-route-errors';
import { presentTfaStatus } from './tfa-status.presenter';
import { toConfirmNewMethodCommand, toFactorInput, toSendSmsCommand } from './tfa.request';

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
    private readonly sendSmsCode: SendSmsCodeUseCase,
    private readonly resendSmsCode: ResendSmsCodeUseCase,
    private readonly setupTotp: SetupTotpUseCase,
    private readonly startAuthorization: StartMethodAuthorizationUseCase,
    private readonly confirmAuthorization: ConfirmMethodAuthorizationUseCase,
    private readonly confirmNewMethod: ConfirmNewMethodUseCase,
    private readonly updateMethod: UpdateMethodUseCase,
    private readonly regenerate: RegenerateBackupCodesUseCase,
  ) {}

  @Get('status')
  @Access('user_read', 'api.tfa.status')
  @ApiOperation({ summary: '2FA state: methods, backup codes left, add-method authorization' })
  @ApiOkResponse({ type: TfaStatusResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.status)
  async getStatus(@CurrentPrincipal() principal: Principal): Promise<TfaStatusResponseDto> {
    return presentTfaStatus(await this.status.execute(requirePersonalUserId(principal)));
  }

  @Post()
  @Access('user_write', 'api.tfa.login')
  @HttpCode(200)
  @SecretOrBearer()
  @SecurityWrite()
  @ApiOperation({
    summary: 'Complete the 2FA login',
    description:
      'A code (sms, email, totp) or a backup code. With a Bearer token the new session_key is in the body; ' +
      'logged out (secret only) it is set as an HttpOnly cookie and X-Session-Key header instead. ' +
      'Logged out, remember_device: true also sets the gm_device cookie (a trusted device: a later ' +
      'password login from this browser skips the second factor); with a Bearer token it is 400 bad_request.',
  })
  @ApiOkResponse({
    type: TfaLoginResponseDto,
    description: 'user object plus session_key, backup_codes_remaining, legacy_tfa_user',
    headers: {
      'X-Session-Key': {
        description: 'logged out (secret only): the new session key, also set as a cookie',
        schema: { type: 'string' },
      },
      'Set-Cookie': {
        description:
          'logged out: gm_session (HttpOnly; Secure; SameSite=Strict; Path=/), and with ' +
          'remember_device gm_device (HttpOnly; Secure; SameSite=Strict; ' +
          'Path=/api/v0/users/login; Max-Age of TFA_TRUSTED_DEVICE_DAYS days)',
        schema: { type: 'string' },
      },
    },
  })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.login)
  async completeLogin(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: TfaLoginRequestDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TfaLoginResponse> {
    const userId = personalUserId(principal);
    const result = await this.login.execute({
      userId,
      factor: toFactorInput(body),
      admin: body.admin ?? false,
      rememberDevice: body.remember_device ?? false,
      origin: requestOrigin(request),
    });
    if (userId === undefined) setSessionCookie(response, result.sessionKey, result.expiresAt);
    if (result.trustedDevice)
      setDeviceCookie(
        response,
        result.trustedDevice.token,
        deviceLifetimeSeconds(result.trustedDevice.device),
      );
    return presentTfaLogin(result, userId !== undefined);
  }

  @Delete()
  @Access('user_write', 'api.tfa.delete')
  @SecurityWrite()
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
    @Req() request: Request,
  ): Promise<MethodRemovedResponseDto | TfaDisabledResponseDto> {
    const result = await this.removeMethod.execute({
      userId: requirePersonalUserId(principal),
      factor: toFactorInput(body),
      targetId: body.target_id,
      keepSessionId: ownSessionId(principal),
      origin: requestOrigin(request),
    });
    return presentMethodRemoved(result);
  }

  @Post('email')
  @Access('user_write', 'api.tfa.email')
  @HttpCode(200)
  @SecretOrBearer()
  @ApiOperation({ summary: 'Send a 6-digit code to the verified email' })
  @ApiOkResponse({ type: CodeSentResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.sendEmail)
  async email(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: SendEmailRequestDto,
  ): Promise<CodeSentResponseDto> {
    const sent = await this.sendEmail.execute({
      userId: personalUserId(principal),
      secret: body.secret,
    });
    return presentEmailSent(sent);
  }

  @Post('sms')
  @Access('user_write', 'api.tfa.sms')
  @HttpCode(200)
  @SecretOrBearer()
  @ApiOperation({ summary: 'Send a 6-digit code by SMS' })
  @ApiOkResponse({ type: CodeSentResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.sendSms)
  async sms(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: SendSmsRequestDto,
  ): Promise<CodeSentResponseDto> {
    return presentSmsSent(await this.sendSmsCode.execute(toSendSmsCommand(principal, body)));
  }

  @Post('sms/resend')
  @Access('user_write', 'api.tfa.sms_resend')
  @HttpCode(200)
  @SecretOrBearer()
  @ApiOperation({ summary: 'Resend the SMS code of a challenge' })
  @ApiOkResponse({ type: CodeSentResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.resendSms)
  async resend(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: SendSmsRequestDto,
  ): Promise<CodeSentResponseDto> {
    return presentSmsResent(await this.resendSmsCode.execute(toSendSmsCommand(principal, body)));
  }

  @Post('totp-setup')
  @Access('user_write', 'api.tfa.totp_setup')
  @HttpCode(200)
  @ApiOperation({ summary: 'A new TOTP secret and otpauth:// URI (nothing is stored)' })
  @ApiOkResponse({ type: TotpSetupResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.totpSetup)
  async totpSetup(@CurrentPrincipal() principal: Principal): Promise<TotpSetupResponseDto> {
    return presentTotpSetup(await this.setupTotp.execute(requirePersonalUserId(principal)));
  }

  @Post('authorize-new-method')
  @Access('user_write', 'api.tfa.authorize_new_method')
  @HttpCode(200)
  @SecurityWrite()
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
    @Req() request: Request,
  ): Promise<AuthorizationChallengeResponseDto | AuthorizationGrantedResponseDto> {
    const result = await this.startAuthorization.execute({
      userId: requirePersonalUserId(principal),
      origin: requestOrigin(request),
      tfaMethod: body.tfa_method,
      tfaMethodId: body.tfa_method_id,
      backupCode: body.backup_code,
    });
    return presentAuthorizationStarted(result);
  }

  @Put('authorize-new-method')
  @Access('user_write', 'api.tfa.authorize_new_method_confirm')
  @SecurityWrite()
  @ApiOperation({ summary: 'Step 2: the code grants the 30-minute add-method window' })
  @ApiOkResponse({ type: AuthorizationGrantedResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.confirmAuthorization)
  async confirmAuthorize(
    @CurrentPrincipal() principal: Principal,
    @Body() body: ConfirmAuthorizationRequestDto,
    @Req() request: Request,
  ): Promise<AuthorizationGrantedResponseDto> {
    await this.confirmAuthorization.execute({
      userId: requirePersonalUserId(principal),
      origin: requestOrigin(request),
      code: body.code,
      secret: body.secret,
    });
    return presentAuthorizationGranted();
  }

  @Post('confirm-new')
  @Access('user_write', 'api.tfa.confirm_new')
  @HttpCode(200)
  @SecurityWrite()
  @ApiOperation({ summary: 'Activate a new SMS or TOTP method (backup codes with the first one)' })
  @ApiOkResponse({ type: MethodAddedResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.confirmNewMethod)
  async confirm(
    @CurrentPrincipal() principal: Principal,
    @Body() body: ConfirmNewMethodRequestDto,
    @Req() request: Request,
  ): Promise<MethodAddedResponseDto> {
    const command = toConfirmNewMethodCommand(
      requirePersonalUserId(principal),
      body,
      requestOrigin(request),
    );
    return presentMethodAdded(await this.confirmNewMethod.execute(command));
  }

  @Put('update')
  @Access('user_write', 'api.tfa.update')
  @CapConcurrency('tfa_update')
  @SecurityWrite()
  @ApiOperation({ summary: 'Change the label or primary flag of a method' })
  @ApiOkResponse({ type: MethodUpdatedResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.updateMethod)
  async update(
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpdateMethodRequestDto,
    @Req() request: Request,
  ): Promise<MethodUpdatedResponseDto> {
    const method = await this.updateMethod.execute({
      userId: requirePersonalUserId(principal),
      origin: requestOrigin(request),
      tfaMethodId: body.tfa_method_id,
      tfaMethod: body.tfa_method,
      label: body.label,
      isPrimary: body.is_primary,
    });
    return presentMethodUpdated(method);
  }

  @Put('regen-backup-codes')
  @Access('user_write', 'api.tfa.regen_backup_codes')
  @SecurityWrite()
  @ApiOperation({ summary: 'Replace all backup codes (verified); returned once' })
  @ApiOkResponse({ type: BackupCodesRegeneratedResponseDto })
  @ApiTfaErrors(...TFA_ROUTE_ERRORS.regenerateBackupCodes)
  async regen(
    @CurrentPrincipal() principal: Principal,
    @Body() body: RegenerateBackupCodesRequestDto,
    @Req() request: Request,
  ): Promise<BackupCodesRegeneratedResponseDto> {
    const codes = await this.regenerate.execute({
      userId: requirePersonalUserId(principal),
      factor: toFactorInput(body),
      keepSessionId: ownSessionId(principal),
      origin: requestOrigin(request),
    });
    return presentBackupCodesRegenerated(codes);
  }
}

/** The session the caller authenticated with, if any: a 2FA change never logs out its author. */
function ownSessionId(principal: Principal): number | undefined {
  return principal.credentialKind === 'session' ? principal.credentialId : undefined;
}
