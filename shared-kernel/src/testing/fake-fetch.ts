/**
 * A fake fetch for tests: records every call and answers from handlers
 * keyed by "METHOD /path" (query string excluded). Unhandled calls answer 404.
 */
export type RecordedCall = {
  method: string;
  url: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  /** Whether the browser would send its cookies (the session) with the call. */
  credentials: RequestCredentials | undefined;
};

export type FakeAnswer = { status?: number; body?: unknown } | Error;

export type FakeHandler = (call: RecordedCall) => FakeAnswer | Promise<FakeAnswer>;

export type FakeFetch = typeof fetch & {
  calls: RecordedCall[];
  on(route: string, handler: FakeHandler | FakeAnswer): void;
  callsTo(route: string): RecordedCall[];
  reset(): void;
};

export function createFakeFetch(): FakeFetch {
  const handlers = new Map<string, FakeHandler>();
  const calls: RecordedCall[] = [];

  const fake = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const parsed = new URL(url, 'http://kernel.test');
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = { ...((init?.headers as Record<string, string> | undefined) ?? {}) };
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call: RecordedCall = {
      method,
      url,
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      headers,
      body,
      credentials: init?.credentials,
    };
    calls.push(call);
    const handler = handlers.get(`${method} ${parsed.pathname}`);
    const answer = handler ? await handler(call) : { status: 404, body: { error: { code: 'not_found', message: 'Nenájdené' } } };
    if (answer instanceof Error) throw answer;
    const status = answer.status ?? 200;
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return new Response(status === 204 ? null : text, {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  }) as FakeFetch;

  fake.calls = calls;
  fake.on = (route, handler) => {
    handlers.set(route, typeof handler === 'function' ? handler : () => handler);
  };
  fake.callsTo = (route) => calls.filter((c) => `${c.method} ${c.path}` === route);
  fake.reset = () => {
    calls.length = 0;
    handlers.clear();
  };
  return fake;
}
