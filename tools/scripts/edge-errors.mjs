// What nginx answers when it refuses a request itself (a malformed request, headers or a body past
// its limits, no web server left): never its own page, but the shop's error shape
// `{"error":{"code","message"}}` with a Slovak message and the request id on /api, and a Slovak
// error page of the shop on the pages' paths. Everything nginx passes on is answered
// by the servers, whose limits are below nginx's: they decide, nginx only stops what they never should see.

/**
 * nginx's limits. Headers: above the servers' (Node's 16 KB), so they decide. Bodies: exactly the
 * servers' (api/test-cluster/edge-limits.test.ts holds them equal), because a server refuses a body
 * past its limit from its length alone and closes the connection while nginx is still sending it:
 * nginx would then answer 502 for a request it cannot send again, instead of the server's 413.
 */
export const EDGE_LIMITS = {
  headerBuffers: '4 64k',
  /** The API's JSON body limit (api/src/app.ts, bodyLimit). */
  body: 262_144,
  /** The shop's paths whose limit differs: telemetry batches and policy reports, the consent form (4 KB). */
  bodies: [
    { location: '= /api/telemetry', bytes: 16_384 },
    { location: '= /api/csp-report', bytes: 16_384 },
    { location: '= /consent', bytes: 4_096 },
  ],
  /**
   * A release upload (UPLOAD_BODY_LIMIT), on the operator origin only: the shop's origin serves no
   * operator call, so there the path has the API's limit like any other.
   */
  upload: { location: '~ ^/api/ops/releases/[^/]+/upload$', bytes: 17_039_360 },
  /** A complaint form is read part by part, its photos' limits checked as they arrive, so its refusals drain the body: room for 5 photos of 5 MB. */
  complaintForm: { location: '= /api/account/complaints', bytes: 32 * 1024 * 1024 },
};

/** The security headers of every answer of the shop (api/src/infra/http/security-headers.ts; a test holds them equal), on nginx's own answers too. */
export const EDGE_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'accelerometer=(), camera=(), geolocation=(self), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/** Each status nginx can produce itself: the status the shopper gets, the error code and the message. */
const REFUSALS = [
  { from: [400, 501, 505], status: 400, code: 'bad_request', message: 'Požiadavka nemá platný tvar.' },
  { from: [405], status: 405, code: 'bad_request', message: 'Táto metóda požiadavky tu nie je povolená.' },
  { from: [408], status: 408, code: 'bad_request', message: 'Požiadavka neprišla celá včas. Skúste to, prosím, znova.' },
  { from: [411], status: 411, code: 'bad_request', message: 'Požiadavka neuvádza dĺžku svojho obsahu.' },
  { from: [413], status: 413, code: 'bad_request', message: 'Požiadavka je príliš veľká.' },
  { from: [414], status: 414, code: 'bad_request', message: 'Adresa požiadavky je príliš dlhá.' },
  { from: [494], status: 431, code: 'bad_request', message: 'Hlavičky požiadavky sú príliš veľké.' },
  { from: [500], status: 500, code: 'internal', message: 'Nastala chyba na našej strane.' },
  { from: [502, 503, 504], status: 503, code: 'internal', message: 'Obchod je na chvíľu nedostupný. Skúste to, prosím, o chvíľu znova.' },
];

const json = ({ code, message }) => `{"error":{"code":"${code}","message":"${message} (kód požiadavky: $request_id)"}}`;

const html = ({ message }) =>
  [
    '<!doctype html><html lang="sk"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
    '<title>Stavebniny Domov – chyba</title>',
    '<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2933}a{color:#b4530b}</style></head>',
    `<body><h1>Stavebniny Domov</h1><p>${message}</p><p><a href="/">Späť na úvodnú stránku</a></p>`,
    '<p><small>Kód požiadavky: $request_id</small></p></body></html>',
  ].join('');

/**
 * The `http { }` map that chooses JSON or a page by the path, as the servers do: JSON for /api,
 * /media and /builds, for the release folders' /remotes and /shells (in any letter case) and for a
 * request whose path nginx could not read, the page elsewhere.
 */
export function edgeErrorMaps() {
  return `map $request_uri $shop_error_kind {
  default json;
  "~^/(api|media|builds)(/|\\?|$)" json;
  "~*^/(remotes|shells)([/\\\\?]|$)" json;
  "~^/" html;
}`;
}

/** The `server { }` part: limits, error_page for every status nginx produces, and the internal locations answering them. */
export function edgeErrorServer() {
  const lines = [`large_client_header_buffers ${EDGE_LIMITS.headerBuffers};`, `client_max_body_size ${EDGE_LIMITS.body};`];
  for (const refusal of REFUSALS) {
    for (const from of refusal.from) lines.push(`error_page ${from} =${refusal.status} /_shop_error/$shop_error_kind/${refusal.status};`);
  }
  for (const refusal of REFUSALS) {
    for (const [kind, type, body] of [
      ['json', 'application/json', json(refusal)],
      ['html', 'text/html', html(refusal)],
    ]) {
      lines.push(
        `location = /_shop_error/${kind}/${refusal.status} {`,
        '  internal;',
        // nginx checks a location's body limit again on this internal redirect, with the request's
        // original length: a large body refused upstream (or after a failed upstream) would get
        // nginx's built-in 413 page instead of this answer.
        '  client_max_body_size 0;',
        `  default_type "${type}; charset=utf-8";`,
        '  add_header X-Request-Id $request_id always;',
        ...Object.entries(EDGE_SECURITY_HEADERS).map(([name, value]) => `  add_header ${name} "${value}" always;`),
        '  add_header Cache-Control "no-store" always;',
        ...(refusal.status === 503 ? ['  add_header Retry-After 5 always;'] : []),
        `  return ${refusal.status} '${body}';`,
        '}',
      );
    }
  }
  return lines.join('\n');
}

/** The locations whose body limit is not the API's, each proxied with `proxy` (the `proxy_pass` line). */
export function edgeBodyLimits(proxy) {
  return [...EDGE_LIMITS.bodies, EDGE_LIMITS.complaintForm]
    .map(({ location, bytes }) => `location ${location} {\n  client_max_body_size ${bytes};\n  ${proxy}\n}`)
    .join('\n');
}
