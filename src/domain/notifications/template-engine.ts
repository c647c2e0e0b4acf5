import { Liquid, type Template } from 'liquidjs';

/**
 * Merchant templates in Liquid (Shopify's syntax): sandboxed (no file access, no partials, time and memory
 * capped), strict about variables and filters, and checked before they are saved so that a mistake is a
 * validation error naming the line, not a message that fails later.
 */

/** Every variable a template may use: an object's known keys, or null for a plain value. */
export const TEMPLATE_VARIABLES: Readonly<Record<string, readonly string[] | null>> = {
  merchant: ['name'],
  shipment: [
    'tracking_number',
    'carrier',
    'tracking_url',
    'shipment_id',
    'order_number',
    'status',
    'expected_delivery',
    'predicted_delivery',
    'predicted_delivery_likely',
  ],
  recipient: ['name'],
  pickup: ['name', 'address', 'opening_hours'],
  return: ['return_id', 'reject_reason', 'status_url', 'label_available', 'refunded_amount'],
  unsubscribe_url: null,
  trigger: null,
  language: null,
};

const engine = new Liquid({
  strictVariables: true,
  strictFilters: true,
  ownPropertyOnly: true,
  // Partials come only from this (empty) map: a template can never read a file.
  templates: {},
  parseLimit: 100_000,
  renderLimit: 1_000,
  memoryLimit: 10_000_000,
});

/** A problem in a template: its line (1-based) and what is wrong. */
export interface TemplateProblem {
  line: number;
  message: string;
}

const parsed = new Map<string, Template[]>();
const PARSED_MAX = 2_000;

function parse(text: string): Template[] {
  let templates = parsed.get(text);
  if (!templates) {
    templates = engine.parse(text);
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value as string);
    parsed.set(text, templates);
  }
  return templates;
}

/** The problems of a template, none when it can be saved. */
export function checkTemplate(text: string): TemplateProblem[] {
  let templates: Template[];
  try {
    templates = engine.parse(text);
  } catch (error) {
    return [syntaxProblem(error)];
  }
  const problems: TemplateProblem[] = [];
  let analysis: ReturnType<typeof engine.analyzeSync>;
  try {
    analysis = engine.analyzeSync(templates, { partials: false });
  } catch (error) {
    return [syntaxProblem(error)];
  }
  for (const variables of Object.values(analysis.globals)) {
    for (const variable of variables) {
      const [root, key] = variable.segments;
      const known = typeof root === 'string' ? TEMPLATE_VARIABLES[root] : undefined;
      const name = variable.segments.filter((s) => typeof s !== 'object').join('.');
      if (known === undefined || !Object.hasOwn(TEMPLATE_VARIABLES, String(root))) {
        problems.push({ line: variable.location.row, message: `Unknown variable "${name}". Known: ${knownNames()}.` });
      } else if (known !== null && key !== undefined && (typeof key !== 'string' || !known.includes(key))) {
        problems.push({ line: variable.location.row, message: `Unknown variable "${name}". Known: ${knownNames()}.` });
      }
    }
  }
  return problems.sort((a, b) => a.line - b.line);
}

function knownNames(): string {
  return Object.entries(TEMPLATE_VARIABLES)
    .flatMap(([root, keys]) => (keys === null ? [root] : keys.map((k) => `${root}.${k}`)))
    .join(', ');
}

function syntaxProblem(error: unknown): TemplateProblem {
  const err = error as { message?: string; token?: { getPosition?: () => [number, number] } };
  const line = err.token?.getPosition?.()[0] ?? 1;
  // LiquidJS ends its message with ", line:L, col:C": the line is given apart.
  const message = (err.message ?? 'Invalid template').replace(/, line:\d+, col:\d+$/, '');
  return { line, message: `${message.charAt(0).toUpperCase()}${message.slice(1)}.` };
}

/** Renders a template that passed `checkTemplate` (or one of ours) with the given variables, as plain text. */
export function renderTemplate(text: string, variables: Record<string, unknown>): string {
  return engine.renderSync(parse(text), variables) as string;
}
