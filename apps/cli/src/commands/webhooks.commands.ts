import { InvalidArgumentError } from 'commander';
import { CommandKit } from './command-kit';
import { addCommand, addGroup } from './command-spec';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  resendWebhookDelivery,
  rotateWebhookSecret,
  showWebhook,
  testWebhook,
  webhookDeliveries,
} from './webhooks.handlers';

/** The event types of docs/spend-guards.md, checked here so a typo costs no request. */
const EVENT_TYPES = ['budget.threshold_crossed', 'webhook.test'];

function eventsOption(value: string): string[] {
  const events = value.split(',').map((event) => event.trim());
  const unknown = events.find((event) => !EVENT_TYPES.includes(event));
  if (unknown !== undefined)
    throw new InvalidArgumentError(
      `Unknown event type '${unknown}'; use ${EVENT_TYPES.join(', ')}.`,
    );
  return events;
}

const webhookId = ['<id>', 'webhook id (wh_...)'] as const;

/** `webhooks ...`: webhook endpoints and their deliveries (docs/spend-guards.md). */
export function registerWebhookCommands(kit: CommandKit): void {
  const webhooks = addGroup(
    kit.program,
    'webhooks',
    'Webhook endpoints that receive signed budget events, and their deliveries',
    'gpumkt webhooks create https://hooks.example.com/gpumkt',
    'gpumkt webhooks deliveries wh_3kTMd8fJq2Lx7VbN9aPz1c',
  );
  addCommand(kit, webhooks, 'list', {
    description: "List the webhook endpoints (your own, or the team's with a team key)",
    examples: ['gpumkt webhooks list', 'gpumkt webhooks list --raw'],
    handler: listWebhooks,
  });
  addCommand(kit, webhooks, 'create', {
    description: 'Register an endpoint; its signing secret is printed once',
    arguments: [['<url>', 'where events are posted (https; http outside production)']],
    options: [
      {
        flags: '--events <types>',
        description: `comma-separated event types (default: all: ${EVENT_TYPES.join(',')})`,
        parse: eventsOption,
      },
      { flags: '--description <text>', description: 'a note for you (default: none)' },
    ],
    examples: [
      'gpumkt webhooks create https://hooks.example.com/gpumkt',
      'gpumkt webhooks create https://hooks.example.com/b --events budget.threshold_crossed',
    ],
    handler: createWebhook,
  });
  addCommand(kit, webhooks, 'show', {
    description: 'Show one endpoint (never its secret)',
    arguments: [webhookId],
    examples: ['gpumkt webhooks show wh_3kTMd8fJq2Lx7VbN9aPz1c'],
    handler: showWebhook,
  });
  addCommand(kit, webhooks, 'delete', {
    description: 'Delete an endpoint and its delivery log',
    arguments: [webhookId],
    examples: ['gpumkt webhooks delete wh_3kTMd8fJq2Lx7VbN9aPz1c'],
    handler: deleteWebhook,
  });
  addCommand(kit, webhooks, 'rotate-secret', {
    description: "Replace an endpoint's signing secret; the new one is printed once",
    arguments: [webhookId],
    examples: ['gpumkt webhooks rotate-secret wh_3kTMd8fJq2Lx7VbN9aPz1c'],
    handler: rotateWebhookSecret,
  });
  addCommand(kit, webhooks, 'test', {
    description: 'Queue a webhook.test event to an endpoint',
    arguments: [webhookId],
    examples: ['gpumkt webhooks test wh_3kTMd8fJq2Lx7VbN9aPz1c'],
    handler: testWebhook,
  });
  addCommand(kit, webhooks, 'deliveries', {
    description: "Show an endpoint's delivery log, newest first (at most 100)",
    arguments: [webhookId],
    examples: ['gpumkt webhooks deliveries wh_3kTMd8fJq2Lx7VbN9aPz1c'],
    handler: webhookDeliveries,
  });
  addCommand(kit, webhooks, 'resend', {
    description: "Queue a new delivery of a delivery's event (same event id and body)",
    arguments: [webhookId, ['<delivery-id>', 'delivery id (from the delivery log)']],
    examples: [
      'gpumkt webhooks resend wh_3kTMd8fJq2Lx7VbN9aPz1c 0b6f2a4e-5a0c-4d8e-9f51-3c2b7d1e8a90',
    ],
    handler: resendWebhookDelivery,
  });
}
