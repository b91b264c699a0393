// A loopback OpenAI-format upstream for `npm run bench:proxy`, in its own process so it does not
// share an event loop with the load generator. Prints `listening <port>` when ready.
// `--delay-ms N` holds each answer (a stream's first chunk) N ms, as a model's time to first token
// would; without it the answer goes out at once, which shows what the proxy itself costs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const delayArg = process.argv.indexOf('--delay-ms');
const delayMs = delayArg === -1 ? 0 : Number(process.argv[delayArg + 1]);

const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1767225600,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the fake upstream.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
});

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1767225600, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const first = chunk({ role: 'assistant', content: '' });
const rest =
  Array.from({ length: 20 }, (_, i) => chunk({ content: `token${i} ` })).join('') +
  chunk({}, 'stop') +
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1767225600, model: 'bench-model', choices: [], usage: { prompt_tokens: 12, completion_tokens: 21, total_tokens: 33 } })}\n\n` +
  'data: [DONE]\n\n';

const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => {
    if (delayMs > 0) setTimeout(answer, delayMs, res, body);
    else answer(res, body);
  });
});

function answer(res: http.ServerResponse, body: string): void {
  if (body.includes('"stream":true')) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(first);
    // The rest follows on the next tick, as a real upstream's tokens would, so TTFB is measurable.
    setImmediate(() => res.end(rest));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(completion) });
  res.end(completion);
}
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
