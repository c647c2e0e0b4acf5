import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Errors Node raises on a connection before there is a request to route (a request head over the size limit,
 * a client too slow to send its headers or body, bytes that are not HTTP) are answered in the envelope too,
 * then the connection is closed.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request timeout: the request was not received in time']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request headers too large']
        : [400, 'Invalid request format: not a valid HTTP request'];
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ api_response: '4000', message });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
