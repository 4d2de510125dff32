import { CodeText, emailContent, smsBody } from './code-message-text';

const message: CodeText = {
  code: '042917',
  expiresAt: new Date(Date.UTC(2026, 0, 1, 12, 10)),
};

describe('code message wording', () => {
  it('the SMS carries the code and its absolute expiry', () => {
    const body = smsBody('GPU Marketplace', message);
    expect(body).toContain('042917');
    expect(body).toContain('12:10 UTC');
    expect(body.length).toBeLessThanOrEqual(160);
  });

  it('the email has a subject, and text and HTML parts with the code and expiry', () => {
    const content = emailContent('GPU Marketplace', message, Date.UTC(2026, 0, 1, 12, 0));
    expect(content.subject).toBe('GPU Marketplace verification code');
    expect(content.text).toContain('042917');
    expect(content.text).toContain('12:10 UTC (in 10 minutes)');
    expect(content.html).toContain('042917');
    expect(content.html).toContain('12:10 UTC (in 10 minutes)');
  });

  it('counts the minutes left from the clock, never below one', () => {
    expect(emailContent('B', message, Date.UTC(2026, 0, 1, 12, 9, 30)).text).toContain(
      '(in 1 minute)',
    );
    expect(emailContent('B', message, Date.UTC(2026, 0, 1, 12, 20)).text).toContain(
      '(in 1 minute)',
    );
  });

  it('escapes the brand in HTML', () => {
    expect(emailContent('<b>&Co', message, 0).html).toContain('&lt;b&gt;&amp;Co');
  });
});
