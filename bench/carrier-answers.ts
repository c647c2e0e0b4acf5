/**
 * What the local carriers of the carrier-polling scenario share to answer (bench/carrier-servers.ts serves them,
 * each carrier's own paths, credentials and answers are its entry in bench/carriers/): the shape of a request
 * and a reply, and answers made from the carriers' test fixtures (test/carriers/fixtures/<id>/) rewritten for the
 * number asked. The scenario reads the same answers to seed what a shipment's previous poll stored.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Story } from './local-carriers.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'carriers', 'fixtures');

export interface Incoming {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/** What differs between carriers: paths, how a credential and the numbers are read, and the answers. */
export interface CarrierDefinition {
  token?: {
    path: string;
    /** The client id a token request names. */
    clientOf(request: Incoming): string | null;
    answer(accessToken: string): Reply;
  };
  /**
   * Told, before the run, every number the scenario tracks: the numbers an aggregator has trackers for (each was
   * registered once, when its tracking began).
   */
  knows?(numbers: readonly string[]): void;
  /** A call the carrier's limits count: tracking, and any other call the adapter paces as one (a courier list). */
  isTrack(request: Incoming): boolean;
  /** The API key of a key-based carrier (tokens are looked up for the others). */
  apiKey?(request: Incoming): string | null;
  /** Where a call carries the token `token` issued, when not as a bearer token. */
  tokenOf?(request: Incoming): string | null;
  /** The numbers a call names (checked against the numbers per call). */
  numbersOf(request: Incoming): string[];
  /**
   * Whether the call's numbers count as numbers polled; false for a call that follows one which counted them (a
   * Royal Mail history after its summary). True when left out.
   */
  counts?(request: Incoming): boolean;
  answer(numbers: string[], storyOfNumber: (number: string) => Story, request: Incoming): Reply;
  rateLimited(retryAfterSeconds: number): Reply;
  quotaSpent(nowMs: number): Reply;
  tooManyNumbers: Reply;
  unauthorized: Reply;
}

/** A fixture's text with the fixture's own number (and any other text made from it) cut out, so that an answer for any number is one join. */
export class Template {
  private readonly parts: string[];
  private readonly derived: Array<{ text: string; of: (number: string) => string }>;

  /** `derived`: texts of the fixture made from its number (a tracker id), each made anew from the number asked. */
  constructor(text: string, number: string, derived: Array<{ text: string; of: (number: string) => string }> = []) {
    this.parts = text.split(number);
    if (this.parts.length < 2) throw new Error(`the fixture text does not hold ${number}`);
    for (const d of derived) if (!text.includes(d.text)) throw new Error(`the fixture text does not hold ${d.text}`);
    this.derived = derived;
  }

  for(number: string): string {
    const text = this.parts.join(number);
    return this.derived.reduce((made, d) => made.split(d.text).join(d.of(number)), text);
  }
}

export function fixtureText(carrier: string, file: string): string {
  return fs.readFileSync(path.join(FIXTURES, carrier, file), 'utf8');
}

export function readFixture(carrier: string, file: string): any {
  return JSON.parse(fixtureText(carrier, file));
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

export function storyTemplates(make: (story: Story) => Template): Record<Story, Template> {
  return { in_transit: make('in_transit'), out_for_delivery: make('out_for_delivery'), failed_attempt: make('failed_attempt') };
}

export function lastSegment(pathname: string): string {
  return decodeURIComponent(pathname.slice(pathname.lastIndexOf('/') + 1));
}

export function bearer(request: Incoming): string | null {
  return /^Bearer (.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1] ?? null;
}

export function basicUser(request: Incoming): string | null {
  const encoded = /^Basic (.+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  return decoded.slice(0, Math.max(0, decoded.indexOf(':'))) || null;
}

export const RETRY = (seconds: number) => ({ 'retry-after': String(Math.max(1, Math.ceil(seconds))) });

/** A token endpoint answering the carrier's token fixture with the access token issued. */
export function tokenReply(carrier: string, file: string): (accessToken: string) => Reply {
  const fixture = readFixture(carrier, file);
  return (accessToken) => json(200, { ...fixture, access_token: accessToken });
}

/** The answer of a carrier asked one number per call: the number's story's template, as JSON. */
export function one(stories: Record<Story, Template>): CarrierDefinition['answer'] {
  return (numbers, story) => json(200, stories[story(numbers[0])].for(numbers[0]));
}

/** The numbers of a path ending in one number or several separated by commas. */
export function idsOf(request: Incoming): string[] {
  return lastSegment(request.path).split(',');
}
