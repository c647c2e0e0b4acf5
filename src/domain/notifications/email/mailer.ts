import nodemailer, { type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { NotificationConfig } from '../../../config.js';

export interface OutgoingEmail {
  from: string;
  replyTo?: string | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Fixed when the message was queued: a resend after a crash carries the same one. */
  messageId: string;
  language: string;
  unsubscribeUrl: string;
}

export type MailOutcome = { status: 'accepted'; response: string } | { status: 'failed'; permanent: boolean; message: string };

/**
 * E-mail over SMTP with pooled connections (nodemailer), DKIM-signed when the operator configured a key.
 * Every message carries a one-click unsubscribe (RFC 8058: List-Unsubscribe with an https link and
 * List-Unsubscribe-Post), which mailbox providers show as their own unsubscribe button.
 */
export class Mailer {
  private readonly transport: Transporter;

  constructor(config: NotificationConfig & { smtpUrl: string }) {
    this.transport = nodemailer.createTransport({
      url: config.smtpUrl,
      pool: true,
      maxConnections: config.smtpPoolSize,
      maxMessages: Number.POSITIVE_INFINITY,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      ...(config.dkim ? { dkim: config.dkim } : {}),
    } as SMTPPool.Options);
  }

  async send(mail: OutgoingEmail): Promise<MailOutcome> {
    try {
      // Composed into one buffer first: streamed as nodemailer builds it, a message reaches the socket in a
      // dozen small writes, each a system call; as one buffer it is one. DKIM signs the buffer as it would the stream.
      const message = new MailComposer({
        from: mail.from,
        replyTo: mail.replyTo ?? undefined,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        // Base64 is encoded natively; quoted-printable in script costs more than composing the message.
        textEncoding: 'base64',
        headers: {
          'List-Unsubscribe': `<${mail.unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          'Content-Language': mail.language,
          'Auto-Submitted': 'auto-generated',
        },
      }).compile();
      const raw = await message.build();
      const info = await this.transport.sendMail({ envelope: message.getEnvelope(), raw, messageId: mail.messageId });
      if ((info.rejected ?? []).length > 0)
        return { status: 'failed', permanent: true, message: `Recipient refused: ${String(info.response)}` };
      return { status: 'accepted', response: String(info.response ?? '') };
    } catch (error) {
      return classify(error);
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** SMTP 5xx answers are permanent (RFC 5321); 4xx, connection and timeout failures are worth another try. */
function classify(error: unknown): MailOutcome {
  const err = error as { responseCode?: number; response?: string; code?: string; message?: string };
  const code = err.responseCode;
  const message = (err.response ?? err.message ?? 'SMTP failure').slice(0, 500);
  if (typeof code === 'number' && code >= 500 && code < 600) return { status: 'failed', permanent: true, message };
  if (err.code === 'EENVELOPE' && typeof code !== 'number') return { status: 'failed', permanent: true, message };
  return { status: 'failed', permanent: false, message };
}
