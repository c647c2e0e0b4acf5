import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for the notification benchmark, in a process of its own (started with `fork`) so that
 * receiving does not share the measured process's event loop. It accepts every message and tells its parent,
 * over IPC, each message's first recipient, size and arrival time (epoch ms, comparable across processes).
 */
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    stream.on('end', () => {
      process.send?.({ to: session.envelope.rcptTo[0]?.address ?? '', bytes, at: Date.now() });
      callback();
    });
  },
});

server.listen(0, '127.0.0.1', () => {
  const address = (server as unknown as { server: { address(): { port: number } } }).server.address();
  process.send?.({ port: address.port });
});
process.on('disconnect', () => process.exit(0));
