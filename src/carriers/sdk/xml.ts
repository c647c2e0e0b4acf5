import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * A reader of a carrier's XML answers: element names to values, namespaces and attributes left out, every value
 * kept as text (`0174` keeps its zero), and the elements named in `lists` read as lists even when one is present.
 * Null when the text is not well-formed XML (a proxy's page, a truncated body); never throws.
 */
export function xmlReader(lists: Iterable<string>): (text: string) => Record<string, unknown> | null {
  const repeated = new Set(lists);
  const parser = new XMLParser({
    ignoreAttributes: true,
    removeNSPrefix: true,
    parseTagValue: false,
    trimValues: true,
    htmlEntities: false,
    isArray: (name) => repeated.has(name),
  });
  return (text) => {
    const trimmed = text.trim();
    if (!trimmed.startsWith('<') || XMLValidator.validate(trimmed) !== true) return null;
    try {
      const parsed: unknown = parser.parse(trimmed);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };
}
