import { Command } from 'commander';
import { vi } from 'vitest';

/**
 * Points the CLI's admin-API client at a listening test service (WAYBILL_URL, WAYBILL_ADMIN_TOKEN) and returns
 * how to put the environment back as it was.
 */
export function pointCliAt(url: string, adminToken: string): () => void {
  const saved = { WAYBILL_URL: process.env.WAYBILL_URL, WAYBILL_ADMIN_TOKEN: process.env.WAYBILL_ADMIN_TOKEN };
  process.env.WAYBILL_URL = url;
  process.env.WAYBILL_ADMIN_TOKEN = adminToken;
  return () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

/** Runs `waybill …args` in this process with the commands `register` adds, and returns what it printed. */
export async function runCli(register: (program: Command) => void, ...args: string[]): Promise<string> {
  const program = new Command('waybill').exitOverride().configureOutput({ writeErr: () => {} });
  register(program);
  const out: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync(['node', 'waybill', ...args]);
  } finally {
    write.mockRestore();
  }
  return out.join('');
}
