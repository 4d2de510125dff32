/**
 * The deployment's webhook settings, loaded and validated at boot
 * (infrastructure/webhooks/webhook-settings.loader.ts; docs/spend-guards.md "Settings").
 */
export class WebhookSettings {
  /** NODE_ENV=production: https only, and no private or loopback receiver. */
  production: boolean;
  /** WEBHOOK_TIMEOUT_MS: how long one attempt waits for the receiver's answer. */
  timeoutMs: number;
  /** WEBHOOK_MAX_ATTEMPTS: attempts per delivery, the first included. */
  maxAttempts: number;
  /** WEBHOOK_BACKOFF_MS: the first retry's delay; each further retry doubles it. */
  backoffMs: number;
  /**
   * WEBHOOK_SWEEP_SECONDS: how often the worker looks for deliveries still pending, and
   * how old one must be before it is queued again.
   */
  sweepSeconds: number;
}
