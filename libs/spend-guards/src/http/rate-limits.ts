import { defineRateLimits } from '@app/platform';

/**
 * The minimum seconds between two requests of one user to each rate-limited route
 * (`@RateLimit(name)`), and the variable that overrides it; registered by the module.
 */
export const SPEND_GUARDS_RATE_LIMITS = defineRateLimits({
  budgets_write: { minimumSeconds: 0.5, env: 'RATE_LIMIT_BUDGETS_WRITE' },
  budgets_read: { minimumSeconds: 0.2, env: 'RATE_LIMIT_BUDGETS_READ' },
  webhooks_create: { minimumSeconds: 2.0, env: 'RATE_LIMIT_WEBHOOKS_CREATE' },
  webhooks_rotate_secret: { minimumSeconds: 5.0, env: 'RATE_LIMIT_WEBHOOKS_ROTATE_SECRET' },
  webhooks_send: { minimumSeconds: 1.0, env: 'RATE_LIMIT_WEBHOOKS_SEND' },
});
