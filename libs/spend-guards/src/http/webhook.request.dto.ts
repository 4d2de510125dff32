import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import {
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX_LENGTH,
} from '../domain/webhook';

/**
 * `{url, events?, description?}`; the rules of each field are the domain's
 * (webhookUrlProblem, webhookEventsProblem, webhookDescriptionProblem).
 */
export class CreateWebhookRequestDto {
  @ApiProperty({
    example: 'https://hooks.example.com/gpumkt',
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    description: 'https (http outside production); no credentials, no fragment',
  })
  @IsString()
  url: string;

  @ApiPropertyOptional({
    type: [String],
    enum: WEBHOOK_EVENT_TYPES,
    description: 'the event types to receive; absent: every type',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({
    example: 'budget alerts to the on-call bot',
    maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH,
  })
  @IsOptional()
  @IsString()
  description?: string;
}

/** The routes that take no body: an empty object, or none. */
export class NoWebhookBodyRequestDto {}
