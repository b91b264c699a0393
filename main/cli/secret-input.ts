import { CliError } from './args.js';

/**
 * Reads a secret: from a terminal without echo (raw mode, Backspace works, Ctrl-C/Ctrl-D abort),
 * else the whole of stdin (a pipe: `pass show glm | switchboard add glm --key-stdin`).
 */
export async function readSecret(prompt: string, stdin: NodeJS.ReadStream = process.stdin, stderr: NodeJS.WriteStream = process.stderr): Promise<string> {
  if (!stdin.isTTY) return (await readAll(stdin)).trim();
  stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  try {
    return await new Promise<string>((resolve, reject) => {
      let value = '';
      const onData = (chunk: string) => {
        for (const ch of chunk) {
          if (ch === '\r' || ch === '\n') {
            stdin.off('data', onData);
            return resolve(value.trim());
          }
          if (ch === '\u0003' || ch === '\u0004') {
            stdin.off('data', onData);
            return reject(new CliError('cancelled'));
          }
          if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
          else value += ch;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    stderr.write('\n');
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
