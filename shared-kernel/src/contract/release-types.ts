/** Release shapes: parts, the routes an area serves, moves, pins, status (the operator's /ops). */
import { Type, type Static, type TLiteral } from '@sinclair/typebox';
import { AREAS, LAYOUTS } from './parts.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** A list of names as a tuple of literal schemas (a tuple, so TypeBox's decoded types keep every member). */
function literals<const T extends readonly string[]>(names: T): { -readonly [K in keyof T]: TLiteral<T[K]> } {
  return names.map((name) => Type.Literal(name)) as { -readonly [K in keyof T]: TLiteral<T[K]> };
}

/** The independently released parts of the shop (parts.ts: the shell first, as the operator's console lists them). */
export type ReleasePart = Static<typeof ReleasePart>;
export const ReleasePart = Type.Union(literals(['shell', ...AREAS]));

/** A page an area ships: declared by the area's build, carried by the registry; the shell builds its route table from these. */
export type AreaRoute = Static<typeof AreaRoute>;
export const AreaRoute = Type.Object({
  /** Unique across the shop, e.g. 'checkout-cart'. */
  name: Type.String(),
  /** React Router path: static segments and :params, e.g. '/checkout/thankyou/:orderToken'. */
  path: Type.String(),
  /** The exposed module that renders it, './CartPage'. */
  module: Type.String(),
  layout: Type.Union(literals(LAYOUTS)),
  /** The step needs a non-empty basket; otherwise the shopper goes to the basket. */
  requiresBasket: Type.Optional(Type.Boolean()),
  /** The page is for signed-in shoppers (guests go to sign in). */
  requiresSignIn: Type.Optional(Type.Boolean()),
  /** No consent notice and no analytics (utility routes). */
  noConsent: Type.Optional(Type.Boolean()),
  /** A public page the same for every shopper: the shop's server renders its first view (HTML for crawlers, fast first paint). */
  serverRender: Type.Optional(Type.Boolean()),
});

export type ReleaseAction = Static<typeof ReleaseAction>;
export const ReleaseAction = Type.Union([
  Type.Literal('deploy'),
  Type.Literal('rollback'),
  Type.Literal('publish'),
  Type.Literal('canary'),
  /** A staged canary moved on to its next share by the canary watch. */
  Type.Literal('advance'),
  Type.Literal('promote'),
  Type.Literal('abort'),
  Type.Literal('pin'),
  Type.Literal('unpin'),
]);

/** One entry of the release history. */
export type ReleaseMove = Static<typeof ReleaseMove>;
export const ReleaseMove = Type.Object({
  at: Type.String(),
  who: Type.String(),
  part: ReleasePart,
  action: ReleaseAction,
  from: NullableString,
  to: Type.String(),
  reason: Type.Optional(NullableString),
  /** The commit the build came from, and whether the working tree had changes. */
  commit: Type.Optional(NullableString),
  dirty: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  /** A canary's share of visitors, percent. */
  share: Type.Optional(Type.Number()),
});

/** A part held at a version: deploys do not move it until unpinned. */
export type ReleasePin = Static<typeof ReleasePin>;
export const ReleasePin = Type.Object({ version: Type.String(), by: Type.String(), at: Type.String(), reason: NullableString });

/** A version marked never to be put in force again (by a rollback from it, an operator or the owner). */
export type ReleaseFloor = Static<typeof ReleaseFloor>;
export const ReleaseFloor = Type.Object({ version: Type.String(), by: Type.String(), at: Type.String(), reason: NullableString });

export type ReleasePartStatus = Static<typeof ReleasePartStatus>;
export const ReleasePartStatus = Type.Object({
  part: ReleasePart,
  /** The version in force; null before the first release. */
  version: NullableString,
  since: NullableString,
  by: NullableString,
  versionsKept: Type.Array(Type.String()),
  pin: Type.Union([ReleasePin, Type.Null()]),
  canary: Type.Union([
    Type.Object({
      version: Type.String(),
      share: Type.Number(),
      since: Type.String(),
      by: Type.String(),
      /** A staged canary's ramp: its shares, the stage it is at (0-based), since when, how long each holds, what follows the last. */
      stages: Type.Optional(
        Type.Object({
          shares: Type.Array(Type.Number()),
          index: Type.Number(),
          stageSince: Type.String(),
          stageMs: Type.Number(),
          autoPromote: Type.Boolean(),
        }),
      ),
      /** What the canary watch judges it on (Slovak labels), e.g. chybovosť, rýchlosť (INP, LCP). */
      judged: Type.Optional(Type.Array(Type.String())),
    }),
    Type.Null(),
  ]),
  /** Where a rollback without a version goes (and when that version was last in force, put there by whom), or why none. */
  rollback: Type.Union([
    Type.Object({ version: Type.String(), lastInForceUntil: Type.String(), by: NullableString }),
    Type.Object({ refused: Type.String() }),
  ]),
  /** Versions marked never to be served again. */
  floors: Type.Optional(Type.Array(ReleaseFloor)),
});

/** Page views and client errors of one version of an area in the last hour. */
export type ReleaseVersionHealth = Static<typeof ReleaseVersionHealth>;
export const ReleaseVersionHealth = Type.Object({
  area: Type.String(),
  version: Type.String(),
  views: Type.Number(),
  errors: Type.Number(),
});

export type ReleaseStatus = Static<typeof ReleaseStatus>;
export const ReleaseStatus = Type.Object({
  revision: Type.String(),
  /** False: the origin has no registry (a mistyped DATA_DIR?). */
  registry: Type.Boolean(),
  /** The release lock, when a release is running (or a stale lock was left behind). */
  lock: Type.Union([
    Type.Object({
      pid: Type.Number(),
      host: Type.String(),
      since: Type.String(),
      what: Type.String(),
      stale: Type.Boolean(),
      staleBecause: NullableString,
    }),
    Type.Null(),
  ]),
  parts: Type.Array(ReleasePartStatus),
  history: Type.Array(ReleaseMove),
  health: Type.Array(ReleaseVersionHealth),
});

/** One release action in the audit log: who (a team's credential, `ops` for the operator, `owner`), what, and whether it was allowed. */
export type ReleaseAuditEntry = Static<typeof ReleaseAuditEntry>;
export const ReleaseAuditEntry = Type.Object({
  at: Type.String(),
  actor: Type.String(),
  action: Type.String(),
  part: NullableString,
  allowed: Type.Boolean(),
  detail: NullableString,
});

/** Every script a shop page can run, generated from the release registry (the operator's inventory, PCI DSS 6.4.3). */
export type ScriptInventory = Static<typeof ScriptInventory>;
export const ScriptInventory = Type.Object({
  parts: Type.Array(
    Type.Object({
      part: Type.String(),
      version: Type.String(),
      /** `preview`: loaded only by the one browser that opened a preview link that lasts. */
      state: Type.Union([Type.Literal('stable'), Type.Literal('canary'), Type.Literal('preview')]),
      /** Route names the part renders; `*`: every page (the shell). */
      pages: Type.Array(Type.String()),
      releasedBy: NullableString,
      releasedAt: NullableString,
      /** Whose key signed the version's manifest (a team's credential or `shop`), and when; null: no valid signature. */
      signedBy: NullableString,
      signedAt: NullableString,
      /** From the signed manifest: what the browser checks each file against. */
      files: Type.Array(Type.Object({ file: Type.String(), sha384: Type.String(), bytes: Type.Integer() })),
    }),
  ),
  thirdParty: Type.Array(Type.Object({ url: Type.String(), loaded: Type.String(), why: Type.String() })),
  /** The Content-Security-Policy every page of the shell in force answers with; null without a shell. */
  policy: NullableString,
});

/** What the integrity watch found: released files, manifests or the checkout page's headers that differ from what was signed (PCI DSS 11.6.1). */
export type IntegrityReport = Static<typeof IntegrityReport>;
export const IntegrityReport = Type.Object({
  /** When the watch (of whichever process runs it) last finished a check; null: none yet. */
  lastCheck: NullableString,
  /** The registry revision that check began with: what it found holds for the versions in force then. */
  lastCheckedRevision: NullableString,
  intervalMs: Type.Integer(),
  action: Type.Union([Type.Literal('fallback'), Type.Literal('alert')]),
  findings: Type.Array(
    Type.Object({
      part: Type.String(),
      version: Type.String(),
      subject: Type.String(),
      kind: Type.String(),
      expected: NullableString,
      actual: NullableString,
      firstSeen: Type.String(),
      lastSeen: Type.String(),
      action: Type.String(),
      detail: NullableString,
    }),
  ),
});
