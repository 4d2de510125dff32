import { ApiProperty } from '@nestjs/swagger';

/** Every 2FA success body says so; failures carry success false (ErrorEnvelopeDto). */
export class TfaSuccessDto {
  @ApiProperty({ enum: [true] })
  success: true;
}
