// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, fetchRevalidated, request, requestAgain, seedAnswers } from './answers';

/*
 * An answer a page came with is asked again (the live stream's catch-up, a catalogue change) with
 * the ETag it came with: unchanged, the API answers 304 and the page keeps what it has; changed,
 * the new answer and its ETag replace them. The API is a function of the request here, as the
 * catalogue's route answers (server/catalog/routes.ts): a 304 when If-None-Match is its ETag.
 */

function api(versions: { body: unknown; etag: string }[]) {
  const asked: (string | null)[] = [];
  const fetch = vi.fn(async (_path: string, init?: RequestInit) => {
    const sent = new Headers(init?.headers).get('If-None-Match');
    asked.push(sent);
    const now = versions[0]!;
    if (sent === now.etag) return new Response(null, { status: 304, headers: { ETag: now.etag } });
    return new Response(JSON.stringify(now.body), { status: 200, headers: { 'Content-Type': 'application/json', ETag: now.etag } });
  });
  vi.stubGlobal('fetch', fetch);
  return { asked, versions };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('answers a page came with, asked again', () => {
  it('are asked with their ETag, and a 304 keeps the one held', async () => {
    const key = 'test:revalidated:a';
    seedAnswers({ [key]: { services: ['one'] } }, { [key]: 'W/"v1"' });
    const { asked } = api([{ body: { services: ['one'] }, etag: 'W/"v1"' }]);
    const load = () => fetchRevalidated(key, '/api/list');
    await request(key, load);
    // Held already: not asked for at all.
    expect(asked).toEqual([]);
    await requestAgain('test:revalidated:a');
    expect(asked).toEqual(['W/"v1"']);
    expect(answer(key)?.data).toEqual({ services: ['one'] });
  });

  it('take the new answer and its ETag when it changed, and revalidate with that one next', async () => {
    const key = 'test:revalidated:b';
    seedAnswers({ [key]: { services: ['one'] } }, { [key]: 'W/"v1"' });
    const server = api([{ body: { services: ['one', 'two'] }, etag: 'W/"v2"' }]);
    const load = () => fetchRevalidated(key, '/api/list');
    await request(key, load, true);
    expect(answer(key)?.data).toEqual({ services: ['one', 'two'] });
    await request(key, load, true);
    expect(server.asked).toEqual(['W/"v1"', 'W/"v2"']);
    expect(answer(key)?.data).toEqual({ services: ['one', 'two'] });
  });

  it('are asked without a condition when the page came with no ETag', async () => {
    const key = 'test:revalidated:c';
    seedAnswers({ [key]: { services: [] } });
    const server = api([{ body: { services: ['x'] }, etag: 'W/"v3"' }]);
    await request(key, () => fetchRevalidated(key, '/api/list'), true);
    expect(server.asked).toEqual([null]);
    expect(answer(key)?.data).toEqual({ services: ['x'] });
  });
});
