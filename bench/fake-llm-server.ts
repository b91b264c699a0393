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

// `/v1/messages` answers in the Anthropic format (for passthrough of Claude Code's own wire format).
const event = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const anthropicFirst = event('message_start', { type: 'message_start', message: { id: 'msg_bench', type: 'message', role: 'assistant', content: [], model: 'bench-model', stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, cache_read_input_tokens: 4000, cache_creation_input_tokens: 0, output_tokens: 1 } } });
const anthropicRest =
  event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
  Array.from({ length: 20 }, (_, i) => event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `token${i} ` } })).join('') +
  event('content_block_stop', { type: 'content_block_stop', index: 0 }) +
  event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 21 } }) +
  event('message_stop', { type: 'message_stop' });
const anthropicWhole = JSON.stringify({ id: 'msg_bench', type: 'message', role: 'assistant', model: 'bench-model', content: [{ type: 'text', text: 'Hello from the fake upstream.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 12, output_tokens: 7 } });

// `/backend-api/codex/responses` answers as the ChatGPT backend does for a codex account (the
// Responses API, always streamed): the same 20 text tokens and usage as the chat stream above.
const responsesEvent = (type: string, fields: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
const responsesFirst = responsesEvent('response.created', { response: { id: 'resp_bench', status: 'in_progress', model: 'gpt-5.4', output: [] } });
const responsesRest =
  responsesEvent('response.output_item.added', { output_index: 0, item: { id: 'msg_bench', type: 'message', role: 'assistant', content: [] } }) +
  Array.from({ length: 20 }, (_, i) => responsesEvent('response.output_text.delta', { item_id: 'msg_bench', output_index: 0, content_index: 0, delta: `token${i} ` })).join('') +
  responsesEvent('response.output_item.done', { output_index: 0, item: { id: 'msg_bench', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'tokens' }] } }) +
  responsesEvent('response.completed', { response: { id: 'resp_bench', status: 'completed', model: 'gpt-5.4', output: [], usage: { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 21, total_tokens: 33 } } });

function answerResponses(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(responsesFirst);
  setImmediate(() => res.end(responsesRest));
}

const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => {
    const reply = req.url?.startsWith('/v1/messages') ? answerAnthropic : req.url?.startsWith('/backend-api/codex/responses') ? answerResponses : answer;
    if (delayMs > 0) setTimeout(reply, delayMs, res, body);
    else reply(res, body);
  });
});

function answerAnthropic(res: http.ServerResponse, body: string): void {
  if (body.includes('"stream":true')) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(anthropicFirst);
    setImmediate(() => res.end(anthropicRest));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(anthropicWhole) });
  res.end(anthropicWhole);
}

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
