import type dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { guardedLookup, isBlockedAddress, type ResolveAll } from '../../src/domain/webhooks/address-guard.js';

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '169.254.169.254',
    '::1',
    '::',
    'fe80::1%eth0',
    'fd00:ec2::254',
    // IPv4-mapped, dotted and hex
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:a00:1',
    '::ffff:a9fe:a9fe',
    // IPv4-compatible (::/96), whatever it carries
    '::7f00:1',
    '::127.0.0.1',
    '::a00:1',
    '::808:808',
    // IPv4-translated (::ffff:0:0:0/96)
    '::ffff:0:7f00:1',
    // NAT64, well-known prefix, carrying private addresses
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    // NAT64, local-use prefix, anything
    '64:ff9b:1::808:808',
    '64:ff9b:1:ab00::1',
    // 6to4 carrying private addresses
    '2002:7f00:1::',
    '2002:a00:1::1',
    '2002:c0a8:0101::1',
    // Teredo
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'not an address',
    '',
  ])('blocks %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81b::200e',
    '::ffff:93.184.215.14',
    '::ffff:5db8:d70e',
    // NAT64 and 6to4 carrying public addresses lead to those public hosts
    '64:ff9b::93.184.215.14',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe('guardedLookup', () => {
  const answering =
    (addresses: dns.LookupAddress[]): ResolveAll =>
    (_hostname, _options, callback) =>
      callback(null, addresses);
  const lookup = (resolve: ResolveAll, options: dns.LookupOptions, allowPrivate = false) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((done) =>
      guardedLookup(allowPrivate, resolve)('hooks.example', options, (error, address, family) => done({ error, address, family })),
    );
  const publicPair = [
    { address: '2606:4700:4700::1111', family: 6 },
    { address: '93.184.215.14', family: 4 },
  ];

  it('answers a list when asked for all addresses, and the first one otherwise', async () => {
    expect(await lookup(answering(publicPair), { all: true })).toMatchObject({ error: null, address: publicPair });
    expect(await lookup(answering(publicPair), {})).toEqual({ error: null, address: '2606:4700:4700::1111', family: 6 });
  });

  it('refuses a name when any of its addresses is blocked, in both forms', async () => {
    const mixed = [...publicPair, { address: '::ffff:7f00:1', family: 6 }];
    for (const options of [{ all: true }, {}]) {
      const { error } = await lookup(answering(mixed), options);
      expect(error).toMatchObject({ code: 'EBLOCKED', message: 'refused: hooks.example resolves to a private or reserved address' });
    }
  });

  it('lets private addresses through when they are allowed', async () => {
    const local = [{ address: '127.0.0.1', family: 4 }];
    expect(await lookup(answering(local), { all: true }, true)).toMatchObject({ error: null, address: local });
  });

  it('passes resolver errors on, and refuses an empty answer', async () => {
    const failing: ResolveAll = (_h, _o, callback) => callback(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }), []);
    expect((await lookup(failing, { all: true })).error).toMatchObject({ code: 'ENOTFOUND' });
    expect((await lookup(answering([]), { all: true })).error).toMatchObject({ code: 'ENOTFOUND' });
  });
});
