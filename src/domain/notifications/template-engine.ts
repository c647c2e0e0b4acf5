import { Liquid, LiquidError, type Template } from 'liquidjs';

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
// Refused where they are written, whether or not a branch would run them: a partial comes from nowhere.
for (const name of ['include', 'render', 'layout']) {
  engine.registerTag(name, {
    parse() {
      throw new Error('A template cannot include another (include, render and layout are not available)');
    },
    *render() {},
  });
}

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
  if (problems.length > 0) return problems.sort((a, b) => a.line - b.line);
  // Rendered once with every variable set: a partial named, or a limit of time or memory reached, is found now rather
  // than by every message made from the template.
  try {
    // Not strict about variables here: a sample value has not the parts a real one may have (`.first` of a list).
    engine.renderSync(templates, sampleVariables(), { strictVariables: false });
  } catch (error) {
    return [renderProblem(error)];
  }
  return [];
}

let samples: Record<string, unknown> | null = null;

/** Values of the shapes real ones have, where they are not text. */
const SAMPLE_SHAPES: Record<string, unknown> = { opening_hours: ['x', 'x'], label_available: true };

/** Every variable a template may use, set to a short text, or to a value of its shape. */
function sampleVariables(): Record<string, unknown> {
  samples ??= Object.fromEntries(
    Object.entries(TEMPLATE_VARIABLES).map(([root, keys]) => [
      root,
      keys === null ? 'x' : Object.fromEntries(keys.map((key) => [key, SAMPLE_SHAPES[key] ?? 'x'])),
    ]),
  );
  return samples;
}

/** What keeps a template from being rendered, said for the merchant. */
function renderProblem(error: unknown): TemplateProblem {
  const problem = syntaxProblem(error);
  // Partials come from an empty map: naming one is the only way to fail a look-up.
  if (/Failed to lookup|ENOENT/.test(problem.message)) {
    return { line: problem.line, message: 'A template cannot include another (include, render and layout are not available).' };
  }
  return { line: problem.line, message: `Cannot be rendered: ${problem.message}` };
}

/** A template that failed to render with the variables given: the field it was rendered for, and why. */
export class TemplateRenderError extends Error {
  constructor(
    readonly field: 'subject' | 'body',
    readonly problem: TemplateProblem,
  ) {
    super(`Line ${problem.line}: ${problem.message}`);
  }
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

/**
 * Renders a template that passed `checkTemplate` (or one of ours) with the given variables, as plain text. A template
 * that fails with these values (a loop the check's values did not run, a limit reached) throws TemplateRenderError
 * for `field`.
 */
export function renderTemplate(text: string, variables: Record<string, unknown>, field: 'subject' | 'body' = 'body'): string {
  try {
    return engine.renderSync(parse(text), variables) as string;
  } catch (error) {
    if (error instanceof LiquidError) throw new TemplateRenderError(field, renderProblem(error));
    throw error;
  }
}
