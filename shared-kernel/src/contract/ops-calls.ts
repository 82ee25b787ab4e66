/**
 * The operator's console (the operator origin only: an operator's session cookie, or a team's Bearer
 * credential for its own area's releases) and the client telemetry.
 */
import { Type } from '@sinclair/typebox';
import { defineCalls, type CallTypes } from './common.ts';
import { PaymentRefund } from './checkout-types.ts';
import { AreaRoute, IntegrityReport, ReleaseAuditEntry, ReleasePart, ReleaseStatus, ScriptInventory } from './release-types.ts';
import { ClientErrorReport, TelemetryArea, TelemetryBatch, TelemetrySummary, VitalsReport } from './telemetry-types.ts';
import { BackupOverview } from './backup-types.ts';
import { CspViolationReport } from './csp-types.ts';
import { RenderFailureReport } from './render-failure-types.ts';
import { FLAG_NAME_PATTERN } from '../rules/flag-rules.ts';

const Part = Type.Object({ part: Type.String({ maxLength: 20 }) });
const Version = Type.String({ pattern: '^[0-9A-Za-z.+-]{1,64}$' });
const Reason = Type.String({ maxLength: 500 });
const body = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });

/** A part moved (or not: `changed` false) from `from` to `version`; `left` says why a part was not moved. */
const Move = Type.Object({
  part: ReleasePart,
  version: Type.String(),
  from: Type.Union([Type.String(), Type.Null()]),
  changed: Type.Boolean(),
  left: Type.Optional(Type.String()),
});
const MoveAnswer = Type.Object({ data: Move });
/**
 * Who is signed in on /ops: until when at most (`expiresAt`, absolute) and unless idle (`idleUntil`,
 * moved on by every call); `secondFactor` false: the operator may only set up the second factor.
 */
const OperatorSession = Type.Object({
  name: Type.String(),
  expiresAt: Type.String(),
  idleUntil: Type.String(),
  secondFactor: Type.Boolean(),
});
/** A code from the authenticator app (6 digits) or one of the recovery codes (`xxxxx-xxxxx`). */
const SecondFactorCode = Type.String({ minLength: 6, maxLength: 20, pattern: '^[0-9A-Za-z -]+$' });
/** A preview link that lasts (its token is shown once, when it is made). */
const PreviewListing = Type.Object({
  id: Type.String(),
  area: Type.String(),
  version: Type.String(),
  createdBy: Type.String(),
  createdAt: Type.String(),
  expiresAt: Type.String(),
  /** When the one browser that holds it opened it; null: not opened yet. */
  openedAt: Type.Union([Type.String(), Type.Null()]),
  /** A local override's loopback origin (the build is served from the developer's machine); null: a version on the origin. */
  local: Type.Union([Type.String(), Type.Null()]),
});
/** A script of a local build: its SHA-384 (base64) and size, as a signed manifest lists them. */
const LocalFileDigest = Type.Object(
  { sha384: Type.String({ maxLength: 64 }), size: Type.Integer({ minimum: 0, maximum: 100_000_000 }) },
  { additionalProperties: false },
);
/** An area's feature switch as the table holds it: on for `share` percent of browsers (0 off, 100 on). */
const FeatureFlag = Type.Object({
  area: Type.String(),
  name: Type.String(),
  share: Type.Integer({ minimum: 0, maximum: 100 }),
  updatedBy: Type.String(),
  updatedAt: Type.String(),
});
const PinAnswer = Type.Object({ data: Type.Object({ pinned: Type.Boolean() }) });

export const opsCalls = defineCalls({
  'GET /api/health': {
    summary: 'Proces odpovedá (liveness)',
    answer: Type.Object({ data: Type.Object({ status: Type.Literal('ok'), uptimeSeconds: Type.Integer({ minimum: 0 }) }) }),
  },
  'GET /api/ready': {
    summary: 'Databáza a ďalšie závislosti odpovedajú (readiness); inak 503 s tým, čo je nedostupné',
    answer: Type.Object({
      data: Type.Object({ status: Type.Literal('ready'), checks: Type.Record(Type.String(), Type.Literal('ok')) }),
    }),
  },
  /**
   * Sign-in of an operator account: name, password and, once it is set up, the second factor's code;
   * sets the operator origin's HttpOnly session cookie (`__Host-`, Path=/, SameSite=Strict).
   */
  'POST /api/ops/session': {
    summary: 'Prihlásenie operátora menom, heslom a kódom druhého faktora',
    body: body({
      name: Type.String({ minLength: 1, maxLength: 40 }),
      password: Type.String({ minLength: 1, maxLength: 200 }),
      code: Type.Optional(SecondFactorCode),
    }),
    answer: Type.Object({ data: OperatorSession }),
  },
  /** A fresh code for what needs one (release actions): the session's re-authentication. */
  'POST /api/ops/session/reauth': {
    summary: 'Opätovné overenie kódom druhého faktora pred citlivou akciou',
    body: body({ code: SecondFactorCode }),
    answer: Type.Object({ data: OperatorSession }),
  },
  /** Starts (or restarts) setting up the authenticator app: a new secret, until a first code confirms it. */
  'POST /api/ops/second-factor': {
    summary: 'Nastavenie druhého faktora (TOTP): nové tajomstvo a QR kód',
    body: body({}),
    answer: Type.Object({
      data: Type.Object({
        secret: Type.String(),
        uri: Type.String(),
        qr: Type.String({ description: 'obrázok QR kódu (data: URL, PNG)' }),
      }),
    }),
  },
  /** The first code confirms the secret; the ten recovery codes are answered once, never again. */
  'POST /api/ops/second-factor/confirm': {
    summary: 'Potvrdenie druhého faktora prvým kódom; jednorazové záložné kódy',
    body: body({ code: Type.String({ pattern: '^[0-9]{6}$' }) }),
    answer: Type.Object({ data: Type.Object({ recoveryCodes: Type.Array(Type.String()), session: OperatorSession }) }),
  },
  // Asking who is signed in is no error: nobody is `data: null` (a 401 would be an error in the operator's console on every visit).
  'GET /api/ops/session': {
    summary: 'Prihlásený operátor (null, keď nikto)',
    answer: Type.Object({ data: Type.Union([OperatorSession, Type.Null()]) }),
  },
  'DELETE /api/ops/session': { summary: 'Odhlásenie operátora (ukončí prihlásenie)', answer: Type.Null(), status: 204 },
  'GET /api/ops/releases': {
    summary: 'Vydania v platnosti, históriu a zdravie verzií',
    answer: Type.Object({ data: ReleaseStatus }),
  },
  'POST /api/ops/releases/:part/rollback': {
    summary: 'Návrat časti na skoršiu verziu (pripne ju a verziu, z ktorej sa vracia, označí ako nepoužiteľnú)',
    params: Part,
    body: body({
      version: Type.Optional(Version),
      reason: Type.Optional(Reason),
      /** A team's rollback signed with its key (release/src/move-request.ts); a team's credential alone may not roll back. */
      signed: Type.Optional(
        Type.Object(
          { text: Type.String({ minLength: 1, maxLength: 16_384 }), signature: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
      ),
    }),
    answer: MoveAnswer,
  },
  'POST /api/ops/releases/:part/pin': {
    params: Part,
    body: body({ reason: Type.Optional(Reason) }),
    answer: PinAnswer,
  },
  'POST /api/ops/releases/:part/unpin': {
    params: Part,
    body: body({ reason: Type.Optional(Reason) }),
    answer: PinAnswer,
  },
  'POST /api/ops/releases/:part/promote': {
    summary: 'Kanárska verzia pre všetkých',
    params: Part,
    body: body({ version: Type.Optional(Version), reason: Type.Optional(Reason) }),
    answer: MoveAnswer,
  },
  'POST /api/ops/releases/:part/abort': {
    summary: 'Zrušenie kanárskej verzie',
    params: Part,
    body: body({ version: Type.Optional(Version), reason: Type.Optional(Reason) }),
    answer: MoveAnswer,
  },
  /** Marks a version never to be served again, or lifts that mark (an operator's audited override). */
  'POST /api/ops/releases/:part/floor': {
    summary: 'Označenie verzie, ktorá sa už nikdy nesmie použiť (alebo zrušenie označenia)',
    params: Part,
    body: body({ version: Version, floored: Type.Boolean(), reason: Type.Optional(Reason) }),
    answer: Type.Object({ data: Type.Object({ part: ReleasePart, version: Type.String(), floored: Type.Boolean() }) }),
  },
  /** A link the first browser that opens it holds alone, 24 h at most, until ended or revoked. */
  'POST /api/ops/releases/:part/preview': {
    summary: 'Odkaz na náhľad verzie pre jeden prehliadač',
    params: Part,
    body: body({ version: Version }),
    answer: Type.Object({ data: Type.Object({ id: Type.String(), url: Type.String(), expires: Type.String() }) }),
  },
  /**
   * A local override: a preview link for one browser whose area is loaded from the developer's
   * machine (a loopback origin only), every script checked against the digests recorded here.
   */
  'POST /api/ops/releases/:part/override': {
    summary: 'Odkaz na lokálnu zostavu časti pre jeden prehliadač',
    params: Part,
    body: body({
      origin: Type.String({ maxLength: 100 }),
      version: Version,
      entry: Type.String({ maxLength: 512 }),
      kernel: Type.String({ maxLength: 40 }),
      react: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
      exposes: Type.Array(Type.String({ maxLength: 80 }), { minItems: 1, maxItems: 50 }),
      routes: Type.Array(AreaRoute, { minItems: 1, maxItems: 100 }),
      files: Type.Record(Type.String({ maxLength: 512 }), LocalFileDigest, { minProperties: 1, maxProperties: 400 }),
    }),
    answer: Type.Object({ data: Type.Object({ id: Type.String(), url: Type.String(), expires: Type.String() }) }),
  },
  'GET /api/ops/releases/previews': {
    summary: 'Platné náhľady: časť, verzia, kto ho vydal, či ho už otvoril prehliadač a dokedy platí',
    answer: Type.Object({ data: Type.Array(PreviewListing) }),
  },
  'POST /api/ops/releases/previews/:id/revoke': {
    summary: 'Zrušenie jedného náhľadu (jeho prehliadač dostane od ďalšej stránky verziu v prevádzke)',
    params: Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{16}$' }) }),
    body: body({ reason: Type.Optional(Reason) }),
    answer: Type.Object({ data: Type.Object({ id: Type.String(), area: Type.String(), version: Type.String() }) }),
  },
  /** A CI release without file access to the origin: the build's files in the body, the same checks as a deploy. */
  'POST /api/ops/releases/:part/upload': {
    summary: 'Nahratie a vydanie zostavy z CI',
    params: Part,
    body: body({
      packageVersion: Type.String({ pattern: '^[0-9A-Za-z.+-]{1,40}$' }),
      budgetBytes: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 100_000_000 }), Type.Null()])),
      mode: Type.Union([Type.Literal('live'), Type.Literal('publish'), Type.Literal('canary')]),
      share: Type.Optional(Type.Integer({ minimum: 1, maximum: 99 })),
      /** A staged canary: every share, the first one `share` (1–5, each larger; the release tool's canary-stages.ts). */
      stages: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 99 }), { minItems: 1, maxItems: 5 })),
      /** How long each stage holds (ms, 1 min – 1440 min); absent: the server's CANARY_STAGE_MS. */
      stageMs: Type.Optional(Type.Integer({ minimum: 60_000, maximum: 86_400_000 })),
      /** After the last stage: promoted to everyone on its own (else held for an operator). */
      autoPromote: Type.Optional(Type.Boolean()),
      overridePin: Type.Optional(Type.Boolean()),
      who: Type.String({ minLength: 1, maxLength: 200 }),
      reason: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
      commit: Type.Optional(Type.Union([Type.String({ pattern: '^[0-9a-f]{4,40}$' }), Type.Null()])),
      dirty: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
      files: Type.Record(Type.String(), Type.String(), { maxProperties: 400, propertyNames: { maxLength: 200 } }),
      /** Every file's SHA-384 and size, signed (Ed25519) with the team's key or the shop's release key; the server refuses any difference. */
      manifest: Type.Object(
        { text: Type.String({ minLength: 1, maxLength: 262_144 }), signature: Type.String({ minLength: 1, maxLength: 200 }) },
        { additionalProperties: false },
      ),
    }),
    answer: Type.Object({ data: Type.Object({ result: Move, previewUrl: Type.Union([Type.String(), Type.Null()]) }) }),
  },
  'GET /api/ops/flags': {
    summary: 'Prepínače funkcií oblastí: podiel prehliadačov, pre ktoré je funkcia zapnutá, a kto ho nastavil',
    answer: Type.Object({ data: Type.Object({ flags: Type.Array(FeatureFlag), maxPerArea: Type.Integer() }) }),
  },
  /** An operator (with a fresh code) for every area, a team's credential for its own area only; audited either way. */
  'POST /api/ops/flags/:part/:name': {
    summary: 'Zapnutie, vypnutie alebo podiel prepínača funkcie oblasti (bez nového vydania)',
    params: Type.Object({ part: Type.String({ maxLength: 20 }), name: Type.String({ pattern: FLAG_NAME_PATTERN, maxLength: 40 }) }),
    body: body({ share: Type.Integer({ minimum: 0, maximum: 100 }), reason: Type.Optional(Reason) }),
    answer: Type.Object({
      data: Type.Object({
        area: Type.String(),
        name: Type.String(),
        before: Type.Union([Type.Integer(), Type.Null()]),
        after: Type.Integer(),
      }),
    }),
  },
  'GET /api/ops/inventory': {
    summary: 'Inventár skriptov: každý skript, ktorý môže bežať na stránke obchodu, s odtlačkom SHA-384',
    answer: Type.Object({ data: ScriptInventory }),
  },
  'GET /api/ops/refunds': {
    summary: 'Vrátené platby (operátor prihlásený na /ops)',
    answer: Type.Object({ data: Type.Array(PaymentRefund) }),
  },
  'GET /api/ops/integrity': {
    summary: 'Kontrola integrity: súbory, manifesty a hlavičky pokladne, ktoré sa líšia od podpísaných',
    answer: Type.Object({ data: IntegrityReport }),
  },
  'GET /api/ops/audit': {
    summary: 'Záznam vydaní: každý pokus o zmenu verzií, povolený aj odmietnutý',
    answer: Type.Object({ data: Type.Array(ReleaseAuditEntry) }),
  },
  'GET /api/ops/backups': {
    summary: 'Posledná záloha, posledný neúspešný pokus a plán záloh',
    answer: Type.Object({ data: BackupOverview }),
  },
  'GET /api/ops/csp-violations': {
    summary: 'Porušenia Content-Security-Policy za posledných 7 dní podľa stránky, časti a direktívy',
    answer: Type.Object({ data: CspViolationReport }),
  },
  'GET /api/ops/render-failures': {
    summary: 'Stránky, ktorých vykreslenie na serveri v izolovanom prostredí zlyhalo: časť, verzia, dôvod (najnovšie)',
    answer: Type.Object({ data: RenderFailureReport }),
  },
  'GET /api/ops/vitals': {
    summary: 'Web Vitals u zákazníkov: 75. percentil LCP, INP, CLS, FCP a TTFB podľa časti a verzie za posledné hodiny',
    /** The last `hours` hours, the current one included. */
    query: Type.Object({ hours: Type.Integer({ minimum: 1, maximum: 720, default: 24 }) }, { additionalProperties: false }),
    answer: Type.Object({ data: VitalsReport }),
  },
  'GET /api/ops/client-errors': {
    summary: 'Chyby u zákazníkov podľa časti, verzie, stránky a miesta v pôvodnom kóde (mapované zdrojovými mapami vydania)',
    /** Groups reported in the last `hours` hours, of one area and version when asked. */
    query: Type.Object(
      {
        hours: Type.Integer({ minimum: 1, maximum: 720, default: 24 }),
        area: Type.Optional(TelemetryArea),
        version: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z.+-]{1,64}$' })),
      },
      { additionalProperties: false },
    ),
    answer: Type.Object({ data: ClientErrorReport }),
  },
  /** Public; JSON or text/plain as navigator.sendBeacon sends it; 204 No Content. */
  'POST /api/telemetry': {
    summary: 'Hlásenie zobrazení, chýb a Web Vitals z prehliadača',
    body: TelemetryBatch,
    answer: Type.Null(),
    status: 204,
  },
  'GET /api/telemetry/summary': {
    summary: 'Zobrazenia a chyby podľa časti a verzie (operátor)',
    /** The operator's window: the last `minutes` minutes, the current one included. */
    query: Type.Object({ minutes: Type.Integer({ minimum: 1, maximum: 1440, default: 60 }) }, { additionalProperties: false }),
    answer: Type.Object({ data: TelemetrySummary }),
  },
});

export type OpsCalls = CallTypes<typeof opsCalls>;
