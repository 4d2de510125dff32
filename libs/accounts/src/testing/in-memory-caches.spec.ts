import { credentialCacheContract } from './credential-cache.contract';
import { InMemoryCredentialCache } from './in-memory-credential-cache';
import { InMemoryLoginThrottle } from './in-memory-login-throttle';
import { loginThrottleContract } from './login-throttle.contract';

describe('InMemoryCredentialCache', () => {
  credentialCacheContract(async () => ({
    cache: () => new InMemoryCredentialCache(),
    ready: async () => undefined,
  }));
});

describe('InMemoryLoginThrottle', () => {
  let n = 0;
  loginThrottleContract(async () => ({
    throttle: (budgets) => new InMemoryLoginThrottle(budgets),
    unique: () => `unit-${(n += 1)}`,
  }));
});
