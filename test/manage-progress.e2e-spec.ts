import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { DIST, runManage } from '@test/support/api';
import { TEST_DATABASE_URL } from '@test/support/test-env';

const MANAGE = join(DIST, 'apps/manage/src/main.js');
const SMALL = ['--users', '20', '--contracts', '25000', '--days', '5'];

/** Removes every row seed:demo made (its users are recognisable by their email domain). */
async function removeDemoData(): Promise<void> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const demo = `SELECT id FROM users WHERE email LIKE '%@demo.gpumarket.test'`;
    await client.query(`DELETE FROM billing_report_days WHERE owner_key IN (${demo})`);
    await client.query(
      `DELETE FROM billing_charges WHERE contract_id IN
         (SELECT id FROM billing_contracts WHERE user_id IN (${demo}))`,
    );
    await client.query(`DELETE FROM billing_contracts WHERE user_id IN (${demo})`);
    await client.query(`DELETE FROM users WHERE id IN (${demo})`);
  } finally {
    await client.end();
  }
}

/** `manage seed:demo` under a pseudo-terminal (util-linux `script`), its stdout to /dev/null. */
function seedInTerminal(): Promise<{ code: number | null; screen: string }> {
  const command = `${process.execPath} ${MANAGE} seed:demo ${SMALL.join(' ')} > /dev/null`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, screen }));
  });
}

describe('manage seed:demo shows its progress', () => {
  afterAll(removeDemoData);

  it('shows its defaults as numbers in its help', async () => {
    const help = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [MANAGE, 'seed:demo', '--help'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(text));
    });
    expect(help).toContain('(default: 10000)');
    expect(help).toContain('(default: 1000000)');
    expect(help).toContain('(default: 120)');
    expect(help).not.toMatch(/default: "/);
  });

  it('prints plain progress lines on stderr when it is not a terminal, the result alone on stdout', async () => {
    const result = await runManage(['seed:demo', ...SMALL]);
    expect(result.code).toBe(0);
    expect(result.json).toMatchObject({ users: 20, contracts: 25_000 });
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    expect(result.stderr).not.toContain('\r');
    expect(result.stderr).not.toContain('\u001b[');
    expect(lines).toEqual(
      expect.arrayContaining([
        'contracts: 0/25,000 contracts (0%)',
        'contracts: 10,000/25,000 contracts (40%)',
        'contracts: 20,000/25,000 contracts (80%)',
        expect.stringMatching(/^contracts: 25,000\/25,000 contracts done in \d+\.\d s$/),
        'charges: 10,000/25,000 contracts (40%)',
        expect.stringMatching(/^charges: 25,000\/25,000 contracts done in \d+\.\d s$/),
        expect.stringMatching(/^report days: 20\/20 users done in \d+\.\d s$/),
        expect.stringMatching(/^vacuum analyze: 5\/5 tables done in \d+\.\d s$/),
        expect.stringMatching(/^statement days: 1\/1 steps done in \d+\.\d s$/),
      ]),
    );
  });

  it('draws a bar redrawn in place on a terminal', async () => {
    const { code, screen } = await seedInTerminal();
    expect(code).toBe(0);
    expect(screen).toContain(
      '\r\u001b[Kcontracts                  [##########--------------]  40%  10,000/25,000 contracts',
    );
    // The finished bar stays, with the phase's time, and the next phase starts a new line.
    const finished =
      '\r\u001b[Kcharges' + ' '.repeat(20) + `[${'#'.repeat(24)}] 100%  25,000/25,000 contracts  `;
    expect(screen).toContain(finished);
    expect(screen.slice(screen.indexOf(finished) + finished.length)).toMatch(/^\d+\.\d s\r?\n/);
  });
});
