import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhook';
import { WEBHOOK_DELIVERY_STATUSES } from '../domain/webhook-delivery';

export class WebhookDto {
  @ApiProperty({ example: 'wh_3kTMd8fJq2Lx7VbN9aPz1c' })
  id: string;

  @ApiProperty({ example: 'https://hooks.example.com/gpumkt' })
  url: string;

  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_TYPES })
  events: string[];

  @ApiProperty({ example: 'budget alerts to the on-call bot' })
  description: string;

  @ApiProperty({ example: 1767225600, description: 'epoch seconds' })
  created_at: number;
}

export class WebhookWithSecretDto extends WebhookDto {
  @ApiProperty({
    example: 'whsec_Q2hhbmdlIG1lOiBhIHJhbmRvbSAzMi1ieXRlIHNlY3JldA',
    description: 'the signing secret; shown only on creation and rotation',
  })
  secret: string;
}

export class WebhookWithSecretResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: WebhookWithSecretDto })
  webhook: WebhookWithSecretDto;
}

export class WebhookResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: WebhookDto })
  webhook: WebhookDto;
}

export class WebhooksResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: [WebhookDto] })
  webhooks: WebhookDto[];
}

export class WebhookDeletedResponseDto {
  @ApiProperty({ example: true })
  success: boolean;
}

export class WebhookDeliveryDto {
  @ApiProperty({ example: '0b6f2a4e-5a0c-4d8e-9f51-3c2b7d1e8a90' })
  id: string;

  @ApiProperty({ example: 'evt_7XoP2dKq9sLm4NbV1cZr8t' })
  event_id: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, example: 'webhook.test' })
  event_type: string;

  @ApiProperty({ enum: WEBHOOK_DELIVERY_STATUSES, example: 'succeeded' })
  status: string;

  @ApiProperty({ example: 1 })
  attempts: number;

  @ApiProperty({ type: 'integer', nullable: true, example: 200 })
  last_status_code: number | null;

  @ApiProperty({ type: 'string', nullable: true, example: null })
  last_error: string | null;

  @ApiProperty({ example: 1767225600, description: 'epoch seconds' })
  created_at: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'epoch seconds' })
  last_attempt_at: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'epoch seconds' })
  delivered_at: number | null;
}

export class WebhookDeliveriesResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: [WebhookDeliveryDto], description: 'newest first, at most 100' })
  deliveries: WebhookDeliveryDto[];
}

export class WebhookDeliveryResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: WebhookDeliveryDto })
  delivery: WebhookDeliveryDto;
}
