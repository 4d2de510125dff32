import { createTransport, Transporter } from 'nodemailer';
import { Clock } from '@app/platform';
import { emailContent } from './code-message-text';
import { CodeSender, DeliveryMessage, isNoticeMessage, SentMessage } from './code-sender';
import { noticeContent } from './notice-message-text';
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
  brand: string;
}

/** Email through an SMTP relay with nodemailer: a plain-text and an HTML part (codes and notices). */
export class SmtpEmailSender extends CodeSender {
  readonly name = 'smtp';
  private readonly transport: Transporter;

  constructor(
    private readonly settings: SmtpSettings,
    private readonly clock: Clock,
  ) {
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

  async send(message: DeliveryMessage): Promise<SentMessage> {
    const content = isNoticeMessage(message)
      ? noticeContent(this.settings.brand, message.notice)
      : emailContent(this.settings.brand, message, this.clock.nowMs());
    try {
      const info = (await this.transport.sendMail({
        from: this.settings.from,
        to: message.destination,
        subject: content.subject,
        text: content.text,
        html: content.html,
        // The same id on every attempt of one send: mail systems collapse duplicates by it.
        messageId: `<${message.idempotencyKey}@${this.messageIdDomain()}>`,
      })) as { messageId?: string };
      return { providerMessageId: info.messageId ?? message.idempotencyKey };
    } catch (error) {
      throw classifySmtpError(error);
    }
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
