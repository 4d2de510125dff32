import { Principal, RequestOrigin } from '@app/platform';
import { ConfirmNewMethodCommand } from '../application/methods/confirm-new-method.use-case';
import { FactorInput } from '../application/verification/second-factor-verifier.service';
import { SendSmsCommand } from '../application/challenges/send-sms-code.use-case';
import {
  ConfirmNewMethodRequestDto,
  FactorRequestDto,
  SendSmsRequestDto,
} from './dto/tfa-requests.dto';
import { personalUserId } from './tfa-caller';

/** The second factor a request body proves (login, removal, regeneration). */
export function toFactorInput(body: FactorRequestDto): FactorInput {
  return {
    tfaMethod: body.tfa_method,
    tfaMethodId: body.tfa_method_id,
    code: body.code,
    secret: body.secret,
    backupCode: body.backup_code,
  };
}

/** POST sms and sms/resend (and their deprecated aliases): Bearer, or the secret alone. */
export function toSendSmsCommand(
  principal: Principal | undefined,
  body: SendSmsRequestDto,
): SendSmsCommand {
  return {
    userId: personalUserId(principal),
    secret: body.secret,
    phoneNumber: body.phone_number,
    tfaMethodId: body.tfa_method_id,
  };
}

/** POST confirm-new; the deprecated test-submit also refuses legacy accounts. */
export function toConfirmNewMethodCommand(
  userId: number,
  body: ConfirmNewMethodRequestDto,
  origin: RequestOrigin,
  rejectLegacy = false,
): ConfirmNewMethodCommand {
  return {
    userId,
    origin,
    tfaMethod: body.tfa_method,
    code: body.code,
    secret: body.secret,
    phoneNumber: body.phone_number,
    label: body.label,
    rejectLegacy,
  };
}
