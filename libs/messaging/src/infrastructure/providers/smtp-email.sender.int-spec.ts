import { mailCode, SmtpSink, startSmtpSink } from '@test/support/smtp-sink';
import { deliveryFailureOf } from '../../testing/delivery-failure-of';
import { testMessage } from '../../testing/test-message';
import { SmtpEmailSender, SmtpSettings } from './smtp-email.sender';

describe('SmtpEmailSender (against an SMTP server on loopback)', () => {
  let sink: SmtpSink;
  let settings: SmtpSettings;
  const senders: SmtpEmailSender[] = [];
  const sender = (overrides: Partial<SmtpSettings> = {}) => {
    const created = new SmtpEmailSender({ ...settings, ...overrides });
    senders.push(created);
    return created;
  };
  const message = (code = '314159') =>
    testMessage('email', { code, idempotencyKey: `challenge-${code}-1` });

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
    };
  });
  afterAll(async () => {
    for (const created of senders) created.close();
    await sink.close();
  });

  it('delivers the subject, the text and the HTML part it is handed', async () => {
    await sender().send(message());
    expect(sink.messages).toHaveLength(1);
    const [mail] = sink.messages;
    expect(mail.from).toBe('no-reply@gpumarket.test');
    expect(mail.to).toEqual(['someone@example.test']);
    expect(mail.subject).toBe('Test code');
    expect(mailCode(mail)).toBe('314159');
    expect(mail.text).toContain('It expires at 09:30 UTC.');
    expect(mail.html).toBe('<p>314159 is your test code. It expires at 09:30 UTC.</p>');
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
    expect((await deliveryFailureOf(created.send(message()))).kind).toBe('transient');
    const refused = await deliveryFailureOf(created.send(message()));
    expect(refused).toMatchObject({ kind: 'rejected', providerCode: 550 });
    expect(sink.messages).toHaveLength(0);
  });

  it('an unreachable server is transient', async () => {
    const closed = await startSmtpSink();
    await closed.close();
    const failure = await deliveryFailureOf(sender({ port: closed.port }).send(message()));
    expect(failure.kind).toBe('transient');
  });

  it('cannot ask the server what it accepted', async () => {
    expect(await sender().findSent()).toBeNull();
  });
});
