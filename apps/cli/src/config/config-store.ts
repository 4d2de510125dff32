import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export const API_KEY_FILE = 'api_key';
export const SESSION_KEY_FILE = 'session_key';

/**
 * `$XDG_CONFIG_HOME/gpumkt`, or `~/.config/gpumkt` when the variable is unset or not an
 * absolute path (what the XDG base directory specification asks clients to do).
 */
export function configDirectory(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'gpumkt');
}

/** The two key files. Secrets, so the directory is 0700 and each file 0600. */
export class ConfigStore {
  constructor(readonly directory: string) {}

  path(name: string): string {
    return join(this.directory, name);
  }

  /** The trimmed content, or undefined when the file is missing or empty. */
  read(name: string): string | undefined {
    const path = this.path(name);
    if (!existsSync(path)) return undefined;
    const value = readFileSync(path, 'utf8').trim();
    return value || undefined;
  }

  /** Writes a secret with mode 0600 from the first byte (no window where it is readable). */
  writeSecret(path: string, content: string): void {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    writeFileSync(path, content, { mode: 0o600 });
    // An existing file keeps its old mode on write; tighten it explicitly.
    chmodSync(path, 0o600);
  }

  write(name: string, content: string): string {
    const path = this.path(name);
    this.writeSecret(path, content);
    return path;
  }

  remove(name: string): boolean {
    const path = this.path(name);
    if (!existsSync(path)) return false;
    rmSync(path, { force: true });
    return true;
  }
}

/** Writes any secret file outside the config directory (backup codes), mode 0600. */
export function writeSecretFile(path: string, content: string): void {
  writeFileSync(path, content, { mode: 0o600 });
  chmodSync(path, 0o600);
}
