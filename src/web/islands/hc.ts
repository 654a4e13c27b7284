/**
 * The part of Hono's typed client (`hc` from 'hono/client') that src/web/lib/api.ts uses, for
 * public pages: the islands build resolves 'hono/client' to this module
 * (docs/decisions/0022-islands-on-demand.md). `api.track[':number'].$get({ param, query }, { init })`
 * becomes a fetch of /api/track/<number>?…; `json` is sent as a JSON body, `form` as a multipart
 * one (a bank transfer's receipt). Types come from Hono's own declarations, as in the app.
 */
type FormValue = string | Blob;
type Args = { param?: Record<string, string>; query?: Record<string, string | string[] | undefined>; json?: unknown; form?: Record<string, FormValue | FormValue[]> };
type Options = { init?: RequestInit; headers?: Record<string, string> };
type ClientOptions = { fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>; headers?: Record<string, string> };

const METHODS: Record<string, string> = { $get: 'GET', $post: 'POST', $put: 'PUT', $patch: 'PATCH', $delete: 'DELETE' };

function request(base: string, segments: string[], method: string, args: Args = {}, options: Options = {}, client: ClientOptions) {
  let path = segments.map((s) => (s.startsWith(':') ? (args.param?.[s.slice(1)] ?? s) : s)).join('/');
  if (path.endsWith('index')) path = path.slice(0, -'index'.length).replace(/\/$/, '');
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(args.query ?? {})) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(key, v);
  }
  const headers: Record<string, string> = { ...client.headers, ...options.headers };
  let body: string | FormData | undefined;
  if (args.json !== undefined) {
    body = JSON.stringify(args.json);
    headers['content-type'] = 'application/json';
  } else if (args.form !== undefined) {
    // The browser writes the multipart boundary into the content type itself.
    const form = new FormData();
    for (const [key, value] of Object.entries(args.form)) for (const v of Array.isArray(value) ? value : [value]) form.append(key, v);
    body = form;
  }
  const url = `${base.replace(/\/$/, '')}/${path}${query.size ? `?${query}` : ''}`;
  return (client.fetch ?? fetch)(url, { ...options.init, method, headers, body });
}

function proxy(base: string, segments: string[], client: ClientOptions): unknown {
  return new Proxy(() => {}, {
    get: (_, key) => (typeof key === 'string' && key !== 'then' ? proxy(base, [...segments, key], client) : undefined),
    apply(_, __, [args, options]: [Args?, Options?]) {
      const method = METHODS[segments.at(-1) ?? ''];
      if (!method) throw new TypeError(`Not a request: ${segments.join('.')}`);
      return request(base, segments.slice(0, -1), method, args, options, client);
    },
  });
}

export function hc(base: string, client: ClientOptions = {}): unknown {
  return proxy(base, [], client);
}
