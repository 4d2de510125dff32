import { defineRateLimits } from '@app/platform';

/**
 * The minimum seconds between two requests of one user to each rate-limited route
 * (`@RateLimit(name)`), and the variable that overrides it; registered by the module.
 */
export const AUTOSCALING_RATE_LIMITS = defineRateLimits({
  endpoint_groups_create: { minimumSeconds: 4.0, env: 'RATE_LIMIT_ENDPOINT_GROUPS_CREATE' },
});
