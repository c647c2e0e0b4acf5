/** One CSV record: its cells and the line of the file it starts on (1-based). */
export interface CsvRecord {
  cells: string[];
  line: number;
}

/**
 * RFC 4180 CSV: comma-separated, `"` quotes (doubled inside), quoted cells may span lines, CRLF or LF.
 * A byte-order mark is dropped; blank lines are skipped. An unterminated quote ends the input with an error.
 */
export function* parseCsv(text: string): Generator<CsvRecord, void, undefined> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const length = text.length;
  while (i < length) {
    const startLine = line;
    const cells: string[] = [];
    let cell = '';
    let endOfRecord = false;
    while (!endOfRecord) {
      if (text[i] === '"') {
        i++;
        let closed = false;
        while (i < length) {
          const quote = text.indexOf('"', i);
          if (quote === -1) break;
          const chunk = text.slice(i, quote);
          cell += chunk;
          line += countNewlines(chunk);
          if (text[quote + 1] === '"') {
            cell += '"';
            i = quote + 2;
          } else {
            i = quote + 1;
            closed = true;
            break;
          }
        }
        if (!closed) throw new CsvError(`Unterminated quoted cell starting on line ${startLine}`, startLine);
      }
      // Unquoted part (or what follows a closing quote up to the separator).
      let j = i;
      while (j < length) {
        const c = text.charCodeAt(j);
        if (c === 44 /* , */ || c === 10 /* \n */ || c === 13 /* \r */) break;
        j++;
      }
      cell += text.slice(i, j);
      i = j;
      cells.push(cell);
      cell = '';
      if (i >= length) endOfRecord = true;
      else if (text.charCodeAt(i) === 44) i++;
      else {
        if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) i++;
        i++;
        line++;
        endOfRecord = true;
      }
    }
    if (cells.length === 1 && cells[0] === '') continue;
    yield { cells, line: startLine };
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) count++;
  return count;
}

export class CsvError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** One cell as CSV text: quoted when it holds a separator, a quote or a line break. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
