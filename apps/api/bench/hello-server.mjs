// The baselines: a bare Fastify (no plugins, no logger) on 127.0.0.1:PORT, answering
// - GET /     the hello-world;
// - GET /hub  the bytes of HUB_FILE (read once, at the first request) as brotli-compressed JSON, with the
//             headers the API sends them with: the most any handler could do with the same answer.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
let hub;
app.get('/hub', async (_request, reply) => {
  hub ??= readFileSync(String(process.env.HUB_FILE));
  return reply
    .type('application/json; charset=utf-8')
    .header('vary', 'accept-encoding')
    .header('content-encoding', 'br')
    .send(hub);
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
