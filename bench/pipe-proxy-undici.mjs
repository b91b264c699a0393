// The pipe proxy of bench/pipe-proxy.mjs on the HTTP client the engine uses (undici's pool
// dispatch): accept a request, stream it to the upstream, relay the answer's chunks, parse
// nothing. The node:http pipe is the baseline issue 19 set its targets against; this one shows how
// much of the engine's margin over it is the HTTP client, and what the engine's own work costs.
import http from 'node:http';
import { Pool } from 'undici';

const upstream = new URL(process.argv[2]);
const pool = new Pool(upstream.origin, { connections: 256 });
const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'host'];
const withoutHopByHop = (headers) => {
  const out = { ...headers };
  for (const name of HOP_BY_HOP) delete out[name];
  return out;
};

const server = http.createServer((req, res) => {
  pool.dispatch(
    { path: req.url, method: req.method, headers: withoutHopByHop(req.headers), body: req },
    {
      onRequestStart() {},
      onResponseStart(_controller, status, headers) {
        res.writeHead(status, withoutHopByHop(headers));
      },
      onResponseData(_controller, chunk) {
        res.write(chunk);
      },
      onResponseEnd() {
        res.end();
      },
      onResponseError() {
        res.destroy();
      },
    },
  );
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
