import { defineRateLimits } from '@app/platform';

/**
 * The minimum seconds between two requests of one user to each rate-limited route
 * (`@RateLimit(name)`), and the variable that overrides it; registered by the module.
 */
export const BILLING_RATE_LIMITS = defineRateLimits({
  charges: { minimumSeconds: 1.0, env: 'RATE_LIMIT_CHARGES' },
  // A whole range in one file is a heavy read: one export start per user every 10 s.
  charges_export: { minimumSeconds: 10.0, env: 'RATE_LIMIT_CHARGES_EXPORT' },
  charges_summary: { minimumSeconds: 1.0, env: 'RATE_LIMIT_CHARGES_SUMMARY' },
});
