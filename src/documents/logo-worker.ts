import { logoProblem } from './logo-image.js';

/** One logo to check, sent to the thread (a copy of the upload's bytes). */
export interface LogoTask {
  bytes: Uint8Array;
  contentType: string;
}

/** Entry point of the logo-check thread (loaded by piscina from this file's default export): logoProblem's answer. */
export default function checkLogoTask(task: LogoTask): string | null {
  return logoProblem(Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength), task.contentType);
}
