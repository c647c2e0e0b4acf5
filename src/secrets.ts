import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomFillSync,
  timingSafeEqual,
} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Key material derived from one master key (WAYBILL_SECRET_KEY, or a file generated in the data dir).
 * Each purpose gets its own key through HKDF so that one use never weakens another.
 */
export class Secrets {
  readonly tokenKey: Buffer;
  readonly urlKey: Buffer;
  /** Signs the hook tokens given to carriers that are told where to push in each subscription. */
  readonly hookKey: Buffer;
  private readonly encryptionKey: Buffer;

  constructor(master: Buffer) {
    const derive = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
    this.tokenKey = derive('waybill access tokens');
    this.urlKey = derive('waybill signed urls');
    this.hookKey = derive('waybill carrier hook tokens');
    this.encryptionKey = derive('waybill encryption at rest');
  }

  static load(secretKey: string | null, dataDir: string): Secrets {
    if (secretKey) return new Secrets(decodeKey(secretKey));
    return new Secrets(decodeKey(readOrCreate(dataDir, 'secret.key', () => randomBytes(32).toString('base64'))));
  }

  sign(key: Buffer, data: string): string {
    return createHmac('sha256', key).update(data).digest('base64url');
  }

  /** AES-256-GCM; output is iv.tag.ciphertext in base64url. */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
  }

  decrypt(sealed: string): string {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}

function decodeKey(text: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (key.length < 32) throw new Error('WAYBILL_SECRET_KEY must be at least 32 bytes, base64-encoded');
  return key;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * Random bytes drawn from the system's generator ahead of need, 4 KiB at a time, as Node's own `randomUUID` does:
 * a draw of a few bytes costs several microseconds, a new shipment's tracking page reference is one. Every byte is
 * handed out once.
 */
const pool = Buffer.alloc(4096);
let poolUsed = pool.length;

/** A token of `bytes` random bytes, base64url. */
export function randomToken(bytes = 32): string {
  if (bytes > pool.length / 16) return randomBytes(bytes).toString('base64url');
  if (poolUsed + bytes > pool.length) {
    randomFillSync(pool);
    poolUsed = 0;
  }
  const token = pool.toString('base64url', poolUsed, poolUsed + bytes);
  poolUsed += bytes;
  return token;
}

/** The operator's admin token: from the environment, or generated once into the data dir. */
export function loadAdminToken(configured: string | null, dataDir: string): { token: string; file: string | null } {
  if (configured) return { token: configured, file: null };
  const token = readOrCreate(dataDir, 'admin-token', () => `wbadm_${randomToken(32)}`);
  return { token, file: path.join(dataDir, 'admin-token') };
}

/** Reads a generated file, creating it first if absent; safe when several processes start at once. */
function readOrCreate(dataDir: string, name: string, generate: () => string): string {
  const file = path.join(dataDir, name);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, generate(), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return fs.readFileSync(file, 'utf8').trim();
}
