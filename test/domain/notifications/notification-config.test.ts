import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';

describe('notification configuration', () => {
  it('needs the SMTP server and the default sender together', () => {
    expect(() => loadConfig({ WAYBILL_SMTP_URL: 'smtp://mail.example:587' })).toThrow(ConfigError);
    expect(() => loadConfig({ WAYBILL_SMTP_FROM: 'Shop <shop@example.com>' })).toThrow(/set together/);
    expect(() => loadConfig({ WAYBILL_SMTP_URL: 'http://mail.example', WAYBILL_SMTP_FROM: 'a@example.com' })).toThrow(/smtp:\/\//);
    const config = loadConfig({ WAYBILL_SMTP_URL: 'smtps://u:p@mail.example:465', WAYBILL_SMTP_FROM: 'a@example.com' }).notifications;
    expect(config).toMatchObject({ smtpUrl: 'smtps://u:p@mail.example:465', smtpFrom: 'a@example.com', smtpPoolSize: 5, dkim: null });
  });

  it('needs all three DKIM settings or none', () => {
    expect(() => loadConfig({ WAYBILL_DKIM_DOMAIN: 'example.com', WAYBILL_DKIM_SELECTOR: 's1' })).toThrow(/set together/);
    expect(loadConfig({}).notifications.dkim).toBeNull();
    const dkim = loadConfig({ WAYBILL_DKIM_DOMAIN: 'example.com', WAYBILL_DKIM_SELECTOR: 's1', WAYBILL_DKIM_PRIVATE_KEY: 'PEM' })
      .notifications.dkim;
    expect(dkim).toEqual({ domainName: 'example.com', keySelector: 's1', privateKey: 'PEM' });
    expect(() =>
      loadConfig({
        WAYBILL_DKIM_DOMAIN: 'example.com',
        WAYBILL_DKIM_SELECTOR: 's1',
        WAYBILL_DKIM_PRIVATE_KEY_FILE: '/nonexistent/key.pem',
      }),
    ).toThrow(/cannot be read/);
  });
});
