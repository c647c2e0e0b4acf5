import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A worker thread's module beside the file at `besideUrl` (its `import.meta.url`): the compiled `.js` when running
 * from dist/, otherwise the `.ts` source (vitest, tsx), which the thread then loads through tsx.
 */
export function workerModule(name: string, besideUrl: string): { filename: string; execArgv: string[] } {
  const compiled = new URL(`./${name}.js`, besideUrl);
  if (existsSync(fileURLToPath(compiled))) return { filename: compiled.href, execArgv: [] };
  return { filename: new URL(`./${name}.ts`, besideUrl).href, execArgv: ['--import', 'tsx'] };
}
