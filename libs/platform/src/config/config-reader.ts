import { BOOLEAN_WORDS, parseBooleanSetting } from './boolean-setting';
import { ConfigError } from './config-error';
import { Environment } from './environment';

/**
 * Reads typed settings from the environment and collects every problem before failing,
 * so a misconfigured deployment learns all of its mistakes from one start attempt.
 */
export class ConfigReader {
  private readonly problems: string[] = [];

  constructor(readonly env: Environment) {}

  string(name: string, fallback: string): string {
    return this.env.get(name) ?? fallback;
  }

  optionalString(name: string): string | undefined {
    return this.env.get(name);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.env.get(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got '${raw}')`);
      return fallback;
    }
    return raw as T;
  }

  integer(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.env.get(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || value < min || value > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max} (got '${raw}')`);
      return fallback;
    }
    return value;
  }

  number(name: string, fallback: number, min = 0): number {
    const raw = this.env.get(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) {
      this.problems.push(`${name} must be a number >= ${min} (got '${raw}')`);
      return fallback;
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.env.get(name);
    const value = parseBooleanSetting(raw);
    if (value === undefined) return fallback;
    if (value === null) {
      this.problems.push(`${name} must be one of ${BOOLEAN_WORDS} (got '${raw}')`);
      return fallback;
    }
    return value;
  }

  url(name: string, fallback: string, protocols: string[]): string {
    const raw = this.env.get(name) ?? fallback;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
    } catch {
      this.problems.push(`${name} must be a ${protocols.join(' or ')} URL (got '${raw}')`);
    }
    return raw;
  }

  /**
   * A secret: required in production, where `requirement` says what it must be; outside
   * production a development value is used (and announced by the caller) so a fresh clone
   * runs with no setup. Its form is checked by the caller, which knows it.
   */
  secret(name: string, developmentValue: string, requirement: string): string {
    const raw = this.env.get(name);
    if (raw === undefined) {
      if (this.env.isProduction) {
        this.problems.push(`${name} is required in production (${requirement})`);
      }
      return developmentValue;
    }
    return raw;
  }

  problem(message: string): void {
    this.problems.push(message);
  }

  /** Throws a ConfigError naming every problem found so far. */
  done(): void {
    if (this.problems.length > 0) throw new ConfigError([...this.problems]);
  }
}
