/**
 * The process environment as configuration input. Only the config loaders read it;
 * tests and the embedded launcher pass their own values instead of mutating process.env.
 */
export class Environment {
  private readonly vars: Readonly<Record<string, string | undefined>>;

  constructor(vars: Record<string, string | undefined> = process.env) {
    this.vars = Object.freeze({ ...vars });
  }

  get(name: string): string | undefined {
    const value = this.vars[name];
    return value === undefined || value === '' ? undefined : value;
  }

  /** A copy with some variables replaced. */
  with(overrides: Record<string, string | undefined>): Environment {
    return new Environment({ ...this.vars, ...overrides });
  }

  get isProduction(): boolean {
    return this.get('NODE_ENV') === 'production';
  }
}
