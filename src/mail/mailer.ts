/**
 * Sending mail over SMTP (SMTP_URL): the verification links of e-mail addresses and the notices that
 * go with them. Below the domain, which sees only the Mailer interface and imports nothing else here.
 */
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** What the domain sends mail through. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** A mailer over the SMTP server of `url` (smtp://, smtps://, with user:password@ if it needs them). */
export function createSmtpMailer(url: string, from: string): Mailer {
  // Bounded waits: a dead mail server must not hold the sends (and their memory) for minutes.
  const transport = nodemailer.createTransport(url, { from, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  return {
    async send(mail) {
      await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
