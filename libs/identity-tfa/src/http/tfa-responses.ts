import { Injectable } from '@nestjs/common';
import { Principal } from '@app/platform';
import { ConfirmNewMethodUseCase } from '../application/confirm-new-method.use-case';
import { ResendSmsCodeUseCase } from '../application/resend-sms-code.use-case';
import { SendSmsCodeUseCase } from '../application/send-sms-code.use-case';
import { MethodRecords } from '../application/method-records';
import {
  ConfirmNewMethodRequestDto,
  FactorRequestDto,
  SendSmsRequestDto,
} from './dto/tfa-requests.dto';
import { CodeSentResponseDto } from './dto/code-challenge.response.dto';
import { personalUserId } from './tfa-caller';
import { MSG } from './tfa-messages';

export function factorOf(body: FactorRequestDto) {
  return {
    tfaMethod: body.tfa_method,
    tfaMethodId: body.tfa_method_id,
    code: body.code,
    secret: body.secret,
    backupCode: body.backup_code,
  };
}

/** Responses shared by the current routes and their deprecated aliases. */
@Injectable()
export class TfaResponses {
  constructor(
    private readonly sendSmsCode: SendSmsCodeUseCase,
    private readonly resendSmsCode: ResendSmsCodeUseCase,
    private readonly confirmNewMethod: ConfirmNewMethodUseCase,
    private readonly records: MethodRecords,
  ) {}

  async sendSms(
    principal: Principal | undefined,
    body: SendSmsRequestDto,
  ): Promise<CodeSentResponseDto> {
    const { secret } = await this.sendSmsCode.execute({
      userId: personalUserId(principal),
      secret: body.secret,
      phoneNumber: body.phone_number,
      tfaMethodId: body.tfa_method_id,
    });
    return { success: true, msg: MSG.smsSent, secret };
  }

  async resendSms(
    principal: Principal | undefined,
    body: SendSmsRequestDto,
  ): Promise<CodeSentResponseDto> {
    const { secret } = await this.resendSmsCode.execute({
      userId: personalUserId(principal),
      secret: body.secret,
      phoneNumber: body.phone_number,
      tfaMethodId: body.tfa_method_id,
    });
    return { success: true, msg: MSG.resent, secret };
  }

  async confirmNew(userId: number, body: ConfirmNewMethodRequestDto, rejectLegacy = false) {
    const result = await this.confirmNewMethod.execute({
      userId,
      tfaMethod: body.tfa_method,
      code: body.code,
      secret: body.secret,
      phoneNumber: body.phone_number,
      label: body.label,
      rejectLegacy,
    });
    return {
      success: true,
      msg: result.method.type === 'sms' ? MSG.smsAdded : MSG.totpAdded,
      method: (await this.records.of(userId, [result.method]))[0],
      ...(result.backupCodes ? { backup_codes: result.backupCodes } : {}),
    };
  }
}
