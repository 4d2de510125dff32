/**
 * A start-up failure a person can fix: its message is one line that names the setting to
 * change (or what to do), printed as is, without a stack.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}
