import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import {
  Access,
  CurrentPrincipal,
  ErrorEnvelopeDto,
  errorResponsesOf,
  Principal,
  RateLimit,
  strictBody,
} from '@app/platform';
import { chargeOwnerKey } from '@app/billing';
import { CreateWebhookUseCase } from '../application/webhooks/create-webhook.use-case';
import { DeleteWebhookUseCase } from '../application/webhooks/delete-webhook.use-case';
import { ListWebhookDeliveriesUseCase } from '../application/webhooks/list-webhook-deliveries.use-case';
import { ListWebhooksUseCase } from '../application/webhooks/list-webhooks.use-case';
import { ResendWebhookDeliveryUseCase } from '../application/webhooks/resend-webhook-delivery.use-case';
import { RotateWebhookSecretUseCase } from '../application/webhooks/rotate-webhook-secret.use-case';
import { SendTestEventUseCase } from '../application/webhooks/send-test-event.use-case';
import { ShowWebhookUseCase } from '../application/webhooks/show-webhook.use-case';
import { SPEND_GUARDS_ERRORS, SpendGuardsError } from '../domain/errors';
import {
  presentWebhook,
  presentWebhookDelivery,
  presentWebhookWithSecret,
} from './webhook.presenter';
import { CreateWebhookRequestDto, NoWebhookBodyRequestDto } from './webhook.request.dto';
import {
  WebhookDeletedResponseDto,
  WebhookDeliveriesResponseDto,
  WebhookDeliveryResponseDto,
  WebhookResponseDto,
  WebhooksResponseDto,
  WebhookWithSecretResponseDto,
} from './webhook.response.dto';

/** `@StrictBody() body: SomeDto`: the request body as SomeDto, or a 400 bad_request. */
const StrictBody = strictBody((message) => new SpendGuardsError('bad_request', message));

/** Documents a route's failures from the codes it can raise. */
const ApiWebhookErrors = errorResponsesOf(SPEND_GUARDS_ERRORS, ErrorEnvelopeDto);

const TOO_FREQUENT = {
  description: '{"detail": "API requests too frequent endpoint threshold=..."}',
};

/**
 * The owner of the caller's webhooks: the team in a team's context, else the user, keyed
 * as billing keys their charges (budget events name that key).
 */
function ownerOf(principal: Principal): number {
  return chargeOwnerKey({ userId: principal.userId, teamId: principal.teamId });
}

/**
 * Webhook endpoints of the caller's owner and their signed deliveries
 * (docs/spend-guards.md "Webhooks"). Reads are billing_read and changes billing_write: the
 * events are the owner's spending.
 */
@ApiTags('webhooks')
@ApiBearerAuth()
@Controller('api/v0/webhooks')
export class WebhooksController {
  constructor(
    private readonly createWebhook: CreateWebhookUseCase,
    private readonly listWebhooks: ListWebhooksUseCase,
    private readonly showWebhook: ShowWebhookUseCase,
    private readonly deleteWebhook: DeleteWebhookUseCase,
    private readonly rotateSecret: RotateWebhookSecretUseCase,
    private readonly sendTest: SendTestEventUseCase,
    private readonly listDeliveries: ListWebhookDeliveriesUseCase,
    private readonly resendDelivery: ResendWebhookDeliveryUseCase,
  ) {}

  @Post()
  @Access('billing_write', 'api.webhooks.create')
  @HttpCode(200)
  @RateLimit('webhooks_create')
  @ApiOperation({
    summary: 'Register a webhook endpoint',
    description:
      'Answers the signing secret, shown only here and on a rotation. At most 10 per owner.',
  })
  @ApiBody({ type: CreateWebhookRequestDto })
  @ApiOkResponse({ type: WebhookWithSecretResponseDto })
  @ApiWebhookErrors(
    'bad_request',
    'webhook_url_invalid',
    'webhook_events_invalid',
    'webhook_description_invalid',
    'webhook_limit_reached',
  )
  @ApiTooManyRequestsResponse(TOO_FREQUENT)
  async create(
    @CurrentPrincipal() principal: Principal,
    @StrictBody() body: CreateWebhookRequestDto,
  ): Promise<WebhookWithSecretResponseDto> {
    const created = await this.createWebhook.execute({
      ownerKey: ownerOf(principal),
      url: body.url,
      events: body.events,
      description: body.description,
    });
    return { success: true, webhook: presentWebhookWithSecret(created) };
  }

  @Get()
  @Access('billing_read', 'api.webhooks.list')
  @ApiOperation({ summary: "The owner's webhook endpoints, oldest first (never a secret)" })
  @ApiOkResponse({ type: WebhooksResponseDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<WebhooksResponseDto> {
    const webhooks = await this.listWebhooks.execute(ownerOf(principal));
    return { success: true, webhooks: webhooks.map(presentWebhook) };
  }

  @Get(':id')
  @Access('billing_read', 'api.webhooks.show')
  @ApiParam({ name: 'id', type: 'string' })
  @ApiOperation({ summary: 'One webhook endpoint (never its secret)' })
  @ApiOkResponse({ type: WebhookResponseDto })
  @ApiWebhookErrors.described('no such webhook, or not yours', 'webhook_not_found')
  async show(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
  ): Promise<WebhookResponseDto> {
    return {
      success: true,
      webhook: presentWebhook(await this.showWebhook.execute(ownerOf(principal), id)),
    };
  }

  @Delete(':id')
  @Access('billing_write', 'api.webhooks.delete')
  @ApiParam({ name: 'id', type: 'string' })
  @ApiOperation({ summary: 'Delete a webhook endpoint and its delivery log' })
  @ApiOkResponse({ type: WebhookDeletedResponseDto })
  @ApiWebhookErrors('bad_request')
  @ApiWebhookErrors.described('no such webhook, or not yours', 'webhook_not_found')
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @StrictBody() _body: NoWebhookBodyRequestDto,
  ): Promise<WebhookDeletedResponseDto> {
    await this.deleteWebhook.execute(ownerOf(principal), id);
    return { success: true };
  }

  @Post(':id/rotate_secret')
  @Access('billing_write', 'api.webhooks.rotate_secret')
  @HttpCode(200)
  @RateLimit('webhooks_rotate_secret')
  @ApiParam({ name: 'id', type: 'string' })
  @ApiOperation({
    summary: "Replace a webhook's signing secret",
    description: 'Answers the new secret, shown only here; every later attempt is signed with it.',
  })
  @ApiOkResponse({ type: WebhookWithSecretResponseDto })
  @ApiWebhookErrors('bad_request')
  @ApiWebhookErrors.described('no such webhook, or not yours', 'webhook_not_found')
  @ApiTooManyRequestsResponse(TOO_FREQUENT)
  async rotate(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @StrictBody() _body: NoWebhookBodyRequestDto,
  ): Promise<WebhookWithSecretResponseDto> {
    const rotated = await this.rotateSecret.execute(ownerOf(principal), id);
    return { success: true, webhook: presentWebhookWithSecret(rotated) };
  }

  @Post(':id/test')
  @Access('billing_write', 'api.webhooks.test')
  @HttpCode(200)
  @RateLimit('webhooks_send')
  @ApiParam({ name: 'id', type: 'string' })
  @ApiOperation({
    summary: 'Queue a webhook.test event to the endpoint',
    description: 'Answers the pending delivery; its outcome is in the delivery log.',
  })
  @ApiOkResponse({ type: WebhookDeliveryResponseDto })
  @ApiWebhookErrors('bad_request')
  @ApiWebhookErrors.described('no such webhook, or not yours', 'webhook_not_found')
  @ApiTooManyRequestsResponse(TOO_FREQUENT)
  async test(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @StrictBody() _body: NoWebhookBodyRequestDto,
  ): Promise<WebhookDeliveryResponseDto> {
    const delivery = await this.sendTest.execute(ownerOf(principal), id);
    return { success: true, delivery: presentWebhookDelivery(delivery) };
  }

  @Get(':id/deliveries')
  @Access('billing_read', 'api.webhooks.deliveries')
  @ApiParam({ name: 'id', type: 'string' })
  @ApiOperation({ summary: "The endpoint's delivery log, newest first (at most 100)" })
  @ApiOkResponse({ type: WebhookDeliveriesResponseDto })
  @ApiWebhookErrors.described('no such webhook, or not yours', 'webhook_not_found')
  async deliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
  ): Promise<WebhookDeliveriesResponseDto> {
    const deliveries = await this.listDeliveries.execute(ownerOf(principal), id);
    return { success: true, deliveries: deliveries.map(presentWebhookDelivery) };
  }

  @Post(':id/deliveries/:deliveryId/resend')
  @Access('billing_write', 'api.webhooks.resend')
  @HttpCode(200)
  @RateLimit('webhooks_send')
  @ApiParam({ name: 'id', type: 'string' })
  @ApiParam({ name: 'deliveryId', type: 'string' })
  @ApiOperation({
    summary: 'Queue a new delivery of a delivery’s event (same event id and body)',
  })
  @ApiOkResponse({ type: WebhookDeliveryResponseDto })
  @ApiWebhookErrors('bad_request')
  @ApiWebhookErrors.described(
    'no such webhook or delivery, or not yours',
    'webhook_not_found',
    'webhook_delivery_not_found',
  )
  @ApiTooManyRequestsResponse(TOO_FREQUENT)
  async resend(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @StrictBody() _body: NoWebhookBodyRequestDto,
  ): Promise<WebhookDeliveryResponseDto> {
    const delivery = await this.resendDelivery.execute(ownerOf(principal), id, deliveryId);
    return { success: true, delivery: presentWebhookDelivery(delivery) };
  }
}
