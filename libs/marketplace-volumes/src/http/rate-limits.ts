import { defineRateLimits } from '@app/platform';

/**
 * The minimum seconds between two requests of one user to each rate-limited route
 * (`@RateLimit(name)`), and the variable that overrides it; registered by the module.
 */
export const VOLUMES_RATE_LIMITS = defineRateLimits({
  volumes_unlist: { minimumSeconds: 5.0, env: 'RATE_LIMIT_VOLUMES_UNLIST' },
});
