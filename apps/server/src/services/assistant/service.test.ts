import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/index.js';
import type { Queryable } from '../../db/types.js';
import { completionsUrl } from './llm.js';
import { SlidingWindowLimiter } from './rate-limit.js';
import { FALLBACK } from './replies.js';
import { AssistantRateLimitError, createAssistantService, type AssistantRequest } from './service.js';

// A fake OpenAI-compatible endpoint on 127.0.0.1:0. Its behaviour is chosen per request by the model name.
interface Seen {
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}
const seen: Seen[] = [];
let server: Server;
let baseUrl = '';

function handle(request: IncomingMessage, response: ServerResponse): void {
  let raw = '';
  request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
  request.on('end', () => {
    const body = JSON.parse(raw) as Seen['body'];
    seen.push({ authorization: request.headers.authorization, body });
    if (body.model === 'broken') {
      response
        .writeHead(500, { 'content-type': 'application/json' })
        .end('{"error":{"message":"overloaded"}}');
    } else if (body.model === 'slow') {
      setTimeout(
        () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
        2_000,
      ).unref();
    } else {
      const reply = {
        choices: [
          { message: { role: 'assistant', content: ` model says hi (${body.messages.length} messages) ` } },
        ],
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    }
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const noDatabase: Queryable = {
  query: () => Promise.reject(new Error('a visitor must not touch the database')),
  exec: () => Promise.reject(new Error('unused')),
};
const warnings: string[] = [];
const logger = {
  warn: (_obj: unknown, message: string) => void warnings.push(message),
  debug: () => undefined,
};

function service(model: string | undefined, timeoutMs = 3_000) {
  const config = parseConfig({
    publicHost: 'pool.manjam.example',
    ...(model ? { assistant: { llm: { url: baseUrl, apiKey: 'sk-test', model, timeoutMs } } } : {}),
  });
  return createAssistantService({ config, db: noDatabase, logger });
}
const visitor = { userId: null, key: 'ip:127.0.0.1' };
const request = (message: string): AssistantRequest => ({
  message,
  language: 'en',
  history: [{ role: 'user', content: 'hello' }],
});

describe('assistant language-model mode', () => {
  it('answers with the rules when no model is configured', async () => {
    const answer = await service(undefined).reply(request('litecoin'), visitor);
    expect(answer.source).toBe('rules');
    expect(answer.reply).toContain('stratum+tcp://pool.manjam.example:4444');
  });

  it('sends the question, the history and the pool facts to the model and returns its answer', async () => {
    const answer = await service('good').reply(request('which port for litecoin'), visitor);
    expect(answer).toEqual({ reply: 'model says hi (3 messages)', source: 'llm' });
    const last = seen.at(-1);
    expect(last?.authorization).toBe('Bearer sk-test');
    expect(last?.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(last?.body.messages[0]?.content).toContain(
      'Scrypt: stratum+tcp://pool.manjam.example:4444 (live)',
    );
    expect(last?.body.messages[2]?.content).toBe('which port for litecoin');
  });

  it('falls back to the rules when the model answers with an HTTP error', async () => {
    const answer = await service('broken').reply(request('what is the weather'), visitor);
    expect(answer).toEqual({ reply: FALLBACK.en, source: 'rules' });
    expect(warnings.at(-1)).toContain('answering with the rules');
  });

  it('falls back to the rules when the model does not answer within the timeout', async () => {
    const started = Date.now();
    const answer = await service('slow', 200).reply(request('bitcoin'), visitor);
    expect(answer.source).toBe('rules');
    expect(answer.reply).toContain('SHA-256');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('accepts a base URL or the full completions URL', () => {
    expect(completionsUrl('https://api.example/v1/')).toBe('https://api.example/v1/chat/completions');
    expect(completionsUrl('https://api.example/v1/chat/completions')).toBe(
      'https://api.example/v1/chat/completions',
    );
  });
});

describe('assistant request limits', () => {
  it('passes only the last ten history items to the model', async () => {
    const history = Array.from({ length: 15 }, (_, i) => ({
      role: 'user' as const,
      content: `question ${i}`,
    }));
    await service('good').reply({ message: 'btc', language: 'en', history }, visitor);
    const sent = seen.at(-1)?.body.messages ?? [];
    expect(sent).toHaveLength(12);
    expect(sent[1]?.content).toBe('question 5');
  });

  it('refuses the 21st question in a minute from the same caller, but not from another', async () => {
    const assistant = service(undefined);
    for (let i = 0; i < 20; i += 1)
      await assistant.reply(request('btc'), { userId: null, key: 'ip:10.0.0.1' });
    await expect(
      assistant.reply(request('btc'), { userId: null, key: 'ip:10.0.0.1' }),
    ).rejects.toBeInstanceOf(AssistantRateLimitError);
    await expect(
      assistant.reply(request('btc'), { userId: null, key: 'ip:10.0.0.2' }),
    ).resolves.toMatchObject({ source: 'rules' });
  });

  it('lets a caller in again once the window has passed', () => {
    const limiter = new SlidingWindowLimiter(2, 1_000);
    expect(limiter.hit('a', 0).allowed).toBe(true);
    expect(limiter.hit('a', 10).allowed).toBe(true);
    expect(limiter.hit('a', 20)).toEqual({ allowed: false, retryAfterMs: 980 });
    expect(limiter.hit('a', 1_001).allowed).toBe(true);
  });
});
