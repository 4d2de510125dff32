import { createTransport, Transporter } from 'nodemailer';
import { tracedProviderCall } from '@app/platform';
import { OutgoingMessage } from '../../domain/message';
import { ProviderSender, SentMessage } from './provider-sender';
import { classifySmtpError } from './smtp-failure';

/** implicit: TLS from the first byte (port 465); starttls: upgrade required (587); none: plain. */
export type SmtpTlsMode = 'implicit' | 'starttls' | 'none';

export interface SmtpSettings {
  host: string;
  port: number;
  tls: SmtpTlsMode;
  user: string | null;
  password: string | null;
  /** The From address, e.g. `GPU Marketplace <no-reply@example.com>`. */
  from: string;
  timeoutMs: number;
}

/** Email through an SMTP relay with nodemailer: a plain-text part and, when given, an HTML one. */
export class SmtpEmailSender extends ProviderSender {
  readonly name = 'smtp';
  private readonly transport: Transporter;

  constructor(private readonly settings: SmtpSettings) {
    super();
    this.transport = createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.tls === 'implicit',
      requireTLS: settings.tls === 'starttls',
      ignoreTLS: settings.tls === 'none',
      auth:
        settings.user !== null ? { user: settings.user, pass: settings.password ?? '' } : undefined,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
    });
  }

  async send(message: OutgoingMessage): Promise<SentMessage> {
    const { content } = message;
    const server = { 'server.address': this.settings.host, 'server.port': this.settings.port };
    return tracedProviderCall('smtp send', server, async (traceHeaders) => {
      try {
        const info = (await this.transport.sendMail({
          from: this.settings.from,
          to: message.destination,
          subject: content.subject ?? undefined,
          text: content.text,
          html: content.html,
          // The same id on every attempt of one send: mail systems collapse duplicates by it.
          messageId: `<${message.idempotencyKey}@${this.messageIdDomain()}>`,
          // The trace's traceparent (with tracing on): a late message's raw source names it.
          headers: traceHeaders,
        })) as { messageId?: string };
        return { providerMessageId: info.messageId ?? message.idempotencyKey };
      } catch (error) {
        throw classifySmtpError(error);
      }
    });
  }

  /**
   * SMTP cannot be asked what it accepted. An attempt with an unknown outcome is sent
   * again with the same Message-ID (see send), which mail clients show once.
   */
  async findSent(): Promise<SentMessage | null> {
    return null;
  }

  close(): void {
    this.transport.close();
  }

  private messageIdDomain(): string {
    const address = /<([^>]+)>/.exec(this.settings.from)?.[1] ?? this.settings.from;
    return address.split('@')[1]?.trim() || 'localhost';
  }
}
