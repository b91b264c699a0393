// The baseline of npm run bench:api: plain node:http answering a fixed JSON body, i.e. the most
// any Node server can do per request on this machine. Prints its port.
import http from 'node:http';

const body = process.argv[2] ?? '{}';
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
