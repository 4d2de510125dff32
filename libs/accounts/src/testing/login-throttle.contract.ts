import { LoginThrottle, ThrottleScope } from '../application/ports/login-throttle.port';

/** What the contract runs against. */
export interface LoginThrottleSubject {
  /** A throttle allowing `budgets[prefix]` attempts per key of that prefix; others unlimited. */
  throttle(budgets: Record<string, number>): LoginThrottle;
  /** A new part for key names, so that runs sharing a Redis never meet. */
  unique(): string;
}

/**
 * One suite, run by a unit spec on InMemoryLoginThrottle and by an int-spec on
 * RedisLoginThrottle (docs/decisions.md "Password login"): every attempt is counted on each
 * key of its scope before the password is checked, up to the budget of the key's prefix;
 * a refused attempt counts nothing; a right password clears its own counter, takes what
 * that held off the counter it is part of, and gives each other key its attempt back.
 */
export function loginThrottleContract(setup: () => Promise<LoginThrottleSubject>): void {
  let subject: LoginThrottleSubject;

  beforeAll(async () => {
    subject = await setup();
  });

  /** How many more attempts a scope of the one key `key` is admitted, up to `most`. */
  async function admissions(throttle: LoginThrottle, key: string, most = 20): Promise<number> {
    for (let admitted = 0; admitted < most; admitted += 1) {
      if (!(await throttle.admit({ keys: [key], own: key }))) return admitted;
    }
    return most;
  }

  it("admits an attempt until any of its keys has used its prefix's budget, and a refusal counts nothing", async () => {
    const throttle = subject.throttle({ user: 3, addr: 5 });
    const [user, address] = [`user:${subject.unique()}`, `addr:${subject.unique()}`];
    const scope: ThrottleScope = { keys: [user, address], own: user };
    for (let i = 0; i < 3; i += 1) expect(await throttle.admit(scope)).toBe(true);
    expect(await throttle.admit(scope)).toBe(false);
    expect(await throttle.admit(scope)).toBe(false);
    // The address counted the three admitted attempts, not the two refused ones.
    expect(await admissions(throttle, address)).toBe(2);
  });

  it('never admits more parallel attempts than the budget', async () => {
    const throttle = subject.throttle({ user: 3 });
    const user = `user:${subject.unique()}`;
    const admitted = await Promise.all(
      Array.from({ length: 12 }, () => throttle.admit({ keys: [user], own: user })),
    );
    expect(admitted.filter(Boolean)).toHaveLength(3);
  });

  it('does not count keys of a prefix without a budget', async () => {
    const throttle = subject.throttle({ user: 1 });
    expect(await admissions(throttle, `login:${subject.unique()}`)).toBe(20);
  });

  it('on a right password clears its own counter, forgives what it held on the one it is part of, and gives the others one attempt back', async () => {
    const throttle = subject.throttle({ user: 4, 'user-addr': 3, addr: 4 });
    const id = subject.unique();
    const from = (address: string): ThrottleScope => ({
      keys: [`user:${id}`, `user-addr:${id}:${address}`, `addr:${address}-${id}`],
      own: `user-addr:${id}:${address}`,
      within: `user:${id}`,
    });
    for (const address of ['a', 'a', 'b', 'a'])
      expect(await throttle.admit(from(address))).toBe(true);
    await throttle.succeeded(from('a'));
    // user: 4 - the 3 of address a = 1 used; user-addr a: cleared; addr a: 3 - 1 = 2 used.
    expect(await admissions(throttle, `user:${id}`)).toBe(3);
    expect(await admissions(throttle, `user-addr:${id}:a`)).toBe(3);
    expect(await admissions(throttle, `addr:a-${id}`)).toBe(2);
    // Another address's counters are untouched.
    expect(await admissions(throttle, `user-addr:${id}:b`)).toBe(2);
  });
}
