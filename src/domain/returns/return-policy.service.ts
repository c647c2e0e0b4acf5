import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ReturnPolicyRow } from '../../db/repositories/return-policies.repository.js';
import type { FileStore, StoredFile } from '../../documents/file-store.js';
import { LogoChecksBusyError } from '../../documents/logo-checks.js';
import { LOGO_TYPES } from '../../documents/logo-image.js';
import { DomainError, ValidationError } from '../errors.js';
import { checkedReturnPolicy, defaultReturnPolicy, type ReturnPolicy, type ReturnPolicyInput, type UploadedLogo } from './return-policy.js';

/** The most bytes an uploaded logo may have. */
export const MAX_LOGO_BYTES = 262_144;

/** An account's policy in force, with its portal reference. */
export interface AccountReturnPolicy {
  account_id: number;
  portal_reference: string;
  policy: ReturnPolicy;
  updated_at: string | null;
}

/** Uploaded logos are being checked for other requests: a passing state, the upload may be sent again. */
export class LogoCheckBusy extends DomainError {
  constructor(message: string) {
    super('unavailable', message);
    this.retryAfterSeconds = 1;
  }
}

/** Where an uploaded logo is checked (LogoChecks: off the request's thread). */
export interface LogoInspector {
  problem(bytes: Uint8Array, contentType: string): Promise<string | null>;
}

/** A new portal reference: 128 random bits, URL-safe (22 characters). */
function newPortalReference(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * Each account's returns policy (GET/PUT /v5/returns/policy/) and the portal reference the consumer's portal is
 * found by. An account gets its reference, and the default policy, the first time its policy is read.
 */
export class ReturnPolicyService {
  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
    /** The service's public address, for `portal_url`. */
    private readonly publicUrl: string,
    /** Where uploaded logos are kept (in the database, like documents). */
    private readonly files: FileStore,
    private readonly logoChecks: LogoInspector,
  ) {}

  async of(accountId: number): Promise<AccountReturnPolicy> {
    const row =
      (await this.repos.returnPolicies.of(accountId)) ??
      (await this.repos.returnPolicies.ensure({
        account_id: accountId,
        portal_reference: newPortalReference(),
        policy: JSON.stringify(defaultReturnPolicy()),
        created_at: this.clock.now().toISOString(),
      }));
    return read(row);
  }

  /** The policy of the portal with this reference; undefined for a reference no account has. */
  async byPortalReference(portalReference: string): Promise<AccountReturnPolicy | undefined> {
    const row = await this.repos.returnPolicies.byPortalReference(portalReference);
    return row ? read(row) : undefined;
  }

  /** As GET /v5/returns/policy/ answers it. */
  async shown(accountId: number) {
    return this.view(await this.of(accountId));
  }

  /** Replaces the policy (PUT): checked whole, stored whole; the portal reference stays. */
  async put(accountId: number, input: ReturnPolicyInput) {
    const policy = checkedReturnPolicy(input);
    const current = await this.of(accountId);
    // The uploaded logo is not part of what PUT sends: it stays until deleted.
    policy.branding.logo_file = current.policy.branding.logo_file ?? null;
    await this.repos.returnPolicies.put(accountId, JSON.stringify(policy), this.clock.now().toISOString());
    return this.shown(accountId);
  }

  /**
   * Stores an uploaded logo (PUT /v5/returns/policy/logo/): a whole PNG, JPEG, GIF or WebP of at most 256 KiB and
   * MAX_LOGO_SIDE pixels on each side (logo-image.ts), checked on a thread of its own (LogoChecks).
   */
  async putLogo(accountId: number, upload: { content_type: string; content_base64: string }) {
    if (!Object.hasOwn(LOGO_TYPES, upload.content_type))
      throw ValidationError.at(['content_type'], `Must be one of: ${Object.keys(LOGO_TYPES).join(', ')}.`);
    const bytes = Buffer.from(upload.content_base64, 'base64');
    if (bytes.length === 0 || bytes.toString('base64').replace(/=+$/, '') !== upload.content_base64.replace(/\s/g, '').replace(/=+$/, '')) {
      throw ValidationError.at(['content_base64'], 'Not valid Base64.');
    }
    if (bytes.length > MAX_LOGO_BYTES) throw ValidationError.at(['content_base64'], `The image is over ${MAX_LOGO_BYTES / 1024} KiB.`);
    const problem = await this.logoChecks.problem(bytes, upload.content_type).catch((error: unknown) => {
      if (error instanceof LogoChecksBusyError) throw new LogoCheckBusy(error.message);
      throw error;
    });
    if (problem) throw ValidationError.at(['content_base64'], problem);
    const current = await this.of(accountId);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const logo: UploadedLogo = {
      key: `return-portal-logos/${accountId}/${sha256}`,
      content_type: upload.content_type,
      sha256,
      bytes: bytes.length,
    };
    await this.files.put(logo.key, bytes, logo.content_type);
    await this.storeLogo(current, logo);
    return this.shown(accountId);
  }

  /** Removes the uploaded logo (DELETE /v5/returns/policy/logo/); `logo_url`, if any, is shown again. */
  async deleteLogo(accountId: number) {
    const current = await this.of(accountId);
    await this.storeLogo(current, null);
    return this.shown(accountId);
  }

  /** The uploaded logo of a portal, when it has one. */
  async logoFile(policy: ReturnPolicy): Promise<StoredFile | null> {
    const logo = policy.branding.logo_file;
    return logo ? this.files.get(logo.key) : null;
  }

  private async storeLogo(current: AccountReturnPolicy, logo: UploadedLogo | null): Promise<void> {
    const previous = current.policy.branding.logo_file;
    const policy = { ...current.policy, branding: { ...current.policy.branding, logo_file: logo } };
    await this.repos.returnPolicies.put(current.account_id, JSON.stringify(policy), this.clock.now().toISOString());
    if (previous && previous.key !== logo?.key) await this.files.delete(previous.key);
  }

  /** The address of a portal's logo: the uploaded one (its hash in the query, so a new one is fetched), else `logo_url`. */
  logoSource(portalReference: string, policy: ReturnPolicy): string | null {
    const file = policy.branding.logo_file;
    return file ? `/returns/${portalReference}/logo?v=${file.sha256.slice(0, 16)}` : policy.branding.logo_url;
  }

  /** The consumer's portal of a reference. */
  portalUrl(portalReference: string): string {
    return `${this.publicUrl}/returns/${portalReference}`;
  }

  private view(current: AccountReturnPolicy) {
    const { logo_file: file, ...branding } = current.policy.branding;
    return {
      portal_reference: current.portal_reference,
      portal_url: this.portalUrl(current.portal_reference),
      ...current.policy,
      branding: {
        ...branding,
        uploaded_logo: file
          ? {
              content_type: file.content_type,
              bytes: file.bytes,
              url: `${this.publicUrl}${this.logoSource(current.portal_reference, current.policy)}`,
            }
          : null,
      },
      updated_at: current.updated_at,
    };
  }
}

/** A stored policy over the defaults, so that a field added later has its default in policies saved before. */
function read(row: ReturnPolicyRow): AccountReturnPolicy {
  const stored = JSON.parse(row.policy) as Partial<ReturnPolicy>;
  return {
    account_id: row.account_id,
    portal_reference: row.portal_reference,
    policy: { ...defaultReturnPolicy(), ...stored },
    updated_at: row.updated_at,
  };
}
