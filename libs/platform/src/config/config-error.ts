/**
 * Thrown at boot when configuration is invalid. The message is one line listing every
 * problem, each naming its variable, so it reads the same in a terminal and in a log file.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}
