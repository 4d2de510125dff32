import { errorResponsesOf } from '@app/platform';
import { TFA_ERRORS } from '../domain/errors';
import { TfaErrorResponseDto } from './dto/tfa-error.response.dto';

/** Documents a 2FA route's failures from the codes it can raise (see errorResponsesOf). */
export const ApiTfaErrors = errorResponsesOf(TFA_ERRORS, TfaErrorResponseDto);
