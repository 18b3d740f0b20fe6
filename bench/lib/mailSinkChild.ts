/**
 * A mail server in a process of its own for benches (bench/lib/mailSink.ts): a real smtp-server on
 * loopback with the test password, that reads each message to its end and prints one line a mail.
 * In its own process, so the receiving side's work is never counted in the app's time (a real SMTP
 * server is another machine); stdin closing stops it.
 */
import { SMTPServer } from 'smtp-server';

const server = new SMTPServer({
  disabledCommands: ['STARTTLS'],
  allowInsecureAuth: true,
  authMethods: ['PLAIN', 'LOGIN'],
  logger: false,
  onAuth(auth, _session, callback) {
    if (auth.username === 'outpost' && auth.password === 'secret')
      return callback(null, { user: auth.username });
    return callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
  },
  onData(stream, _session, callback) {
    stream.resume();
    stream.on('end', () => {
      process.stdout.write('mail\n');
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.server.address() as { port: number }).port })}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => server.close(() => process.exit(0)));
