import { run } from './cli';
import { memoryIo } from './testing/memory-io';

describe('exit codes', () => {
  it('is 0 for help, 2 for usage errors, with one line and no stack', async () => {
    const help = memoryIo();
    expect(await run(['--help'], help.io)).toBe(0);
    expect(help.stdout()).toContain('Usage: gpumkt');

    for (const args of [
      ['nope'],
      ['show'],
      ['update', 'endpoint', '42'],
      ['create', 'endpoint', '--cold_workers', '-1'],
      ['create', 'endpoint', '--endpoint_name', 'bad name'],
      ['show', 'invoices', '-c', '--csv', '--raw'],
      ['show', 'invoices', '-c', '-ct', 'gpu'],
      ['show', 'invoices', '-c', '-l', '0'],
      ['tfa', 'update', '3'],
      ['tfa', 'login'],
      ['tfa', 'login', '-t', 'totp', '--method-id', '3', '-c', '1'],
      ['--url', 'ftp://x', 'show', 'user'],
    ]) {
      const memory = memoryIo();
      const code = await run(args, memory.io);
      expect({ args, code }).toEqual({ args, code: 2 });
      expect(memory.stdout()).toBe('');
      expect(memory.stderr()).toMatch(/error/);
      expect(memory.stderr()).not.toMatch(/\n\s+at /);
    }
  });
});
