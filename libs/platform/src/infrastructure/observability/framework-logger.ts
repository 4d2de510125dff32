import { LoggerService } from '@nestjs/common';

/**
 * Nest's own start-up chatter: a line per module initialised and per route mapped (dozens
 * at every start). Useful when debugging the wiring, noise otherwise.
 */
const CHATTER_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
]);

/**
 * Wraps the application logger so that the framework's start-up chatter is logged at debug
 * level (visible with LOG_LEVEL=debug); everything else passes through unchanged.
 */
export class FrameworkChatterAtDebug implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && CHATTER_CONTEXTS.has(context) && this.inner.debug) {
      this.inner.debug(message, ...rest);
      return;
    }
    this.inner.log(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.inner.error(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.inner.warn(message, ...rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.inner.debug?.(message, ...rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.inner.verbose?.(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...rest);
  }
}
