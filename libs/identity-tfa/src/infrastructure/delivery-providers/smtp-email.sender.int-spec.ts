import { mailCode, SmtpSink, startSmtpSink } from '@test/support/smtp-sink';
import { ManualClock } from '@app/platform/testing';
import { CodeMessage, DeliveryFailure } from './code-sender';
import { SmtpEmailSender, SmtpSettings } from './smtp-email.sender';

async function failureOf(work: Promise<unknown>): Promise<DeliveryFailure> {
  try {
    await work;
  } catch (error) {
    if (error instanceof DeliveryFailure) return error;
    throw error;
  }
  throw new Error('expected a DeliveryFailure');
}

describe('SmtpEmailSender (against an SMTP server on loopback)', () => {
  let sink: SmtpSink;
  let settings: SmtpSettings;
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 9, 20));
  const senders: SmtpEmailSender[] = [];
  const sender = (overrides: Partial<SmtpSettings> = {}) => {
    const created = new SmtpEmailSender({ ...settings, ...overrides }, clock);
    senders.push(created);
    return created;
  };
  const message = (code = '314159'): CodeMessage => ({
    channel: 'email',
    destination: 'someone@example.test',
    code,
    expiresAt: new Date(Date.UTC(2026, 0, 1, 9, 30)),
    idempotencyKey: `challenge-${code}-1`,
  });

  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  beforeEach(() => {
    sink.reset();
    settings = {
      host: sink.host,
      port: sink.port,
      tls: 'none',
      user: null,
      password: null,
      from: 'GPU Marketplace <no-reply@gpumarket.test>',
      timeoutMs: 5_000,
      brand: 'GPU Marketplace',
    };
  });
  afterAll(async () => {
    for (const created of senders) created.close();
    await sink.close();
  });

  it('delivers a text and an HTML part with the code and its expiry', async () => {
    await sender().send(message());
    expect(sink.messages).toHaveLength(1);
    const [mail] = sink.messages;
    expect(mail.from).toBe('no-reply@gpumarket.test');
    expect(mail.to).toEqual(['someone@example.test']);
    expect(mail.subject).toBe('GPU Marketplace verification code');
    expect(mailCode(mail)).toBe('314159');
    expect(mail.text).toContain('09:30 UTC (in 10 minutes)');
    expect(mail.html).toContain('314159');
    expect(mail.html).toContain('09:30 UTC');
  });

  it('every attempt of one send carries the same Message-ID', async () => {
    const created = sender();
    await created.send(message('271828'));
    await created.send(message('271828'));
    const [first, second] = sink.messages;
    expect(first.messageId).toBe('<challenge-271828-1@gpumarket.test>');
    expect(second.messageId).toBe(first.messageId);
  });

  it('logs in when credentials are configured', async () => {
    await sender({ user: 'mailer', password: 'secret' }).send(message());
    expect(sink.messages[0].user).toBe('mailer');
  });

  it('a 4xx reply is transient, a 5xx reply is a permanent refusal', async () => {
    sink.program(451, 550);
    const created = sender();
    expect((await failureOf(created.send(message()))).kind).toBe('transient');
    const refused = await failureOf(created.send(message()));
    expect(refused).toMatchObject({ kind: 'rejected', providerCode: 550 });
    expect(sink.messages).toHaveLength(0);
  });

  it('an unreachable server is transient', async () => {
    const closed = await startSmtpSink();
    await closed.close();
    const failure = await failureOf(sender({ port: closed.port }).send(message()));
    expect(failure.kind).toBe('transient');
  });

  it('cannot ask the server what it accepted', async () => {
    expect(await sender().findSent()).toBeNull();
  });
});
