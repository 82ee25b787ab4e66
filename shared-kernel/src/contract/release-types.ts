/** Release shapes: parts, routes an area serves, moves, pins, status (the operator's /ops). */
import { Type, type Static } from '@sinclair/typebox';


export type ReleasePart = Static<typeof ReleasePart>
export const ReleasePart = Type.Union([
Type.Literal('shell'),
Type.Literal('catalog'),
Type.Literal('checkout'),
Type.Literal('account'),
Type.Literal('content')
])

export type AreaRoute = Static<typeof AreaRoute>
export const AreaRoute = Type.Object({
name: Type.String(),
path: Type.String(),
module: Type.String(),
layout: Type.Union([
Type.Literal('default'),
Type.Literal('checkout'),
Type.Literal('account')
]),
requiresBasket: Type.Optional(Type.Boolean()),
requiresSignIn: Type.Optional(Type.Boolean()),
noConsent: Type.Optional(Type.Boolean())
})

export type ReleaseAction = Static<typeof ReleaseAction>
export const ReleaseAction = Type.Union([
Type.Literal('deploy'),
Type.Literal('rollback'),
Type.Literal('publish'),
Type.Literal('canary'),
Type.Literal('promote'),
Type.Literal('abort'),
Type.Literal('pin'),
Type.Literal('unpin')
])

export type ReleaseMove = Static<typeof ReleaseMove>
export const ReleaseMove = Type.Object({
at: Type.String(),
who: Type.String(),
part: ReleasePart,
action: ReleaseAction,
from: Type.Union([
Type.String(),
Type.Null()
]),
to: Type.String(),
reason: Type.Optional(Type.Union([
Type.String(),
Type.Null()
])),
commit: Type.Optional(Type.Union([
Type.String(),
Type.Null()
])),
dirty: Type.Optional(Type.Union([
Type.Boolean(),
Type.Null()
])),
share: Type.Optional(Type.Number())
})

export type ReleasePin = Static<typeof ReleasePin>
export const ReleasePin = Type.Object({
version: Type.String(),
by: Type.String(),
at: Type.String(),
reason: Type.Union([
Type.String(),
Type.Null()
])
})

export type ReleasePartStatus = Static<typeof ReleasePartStatus>
export const ReleasePartStatus = Type.Object({
part: ReleasePart,
version: Type.Union([
Type.String(),
Type.Null()
]),
since: Type.Union([
Type.String(),
Type.Null()
]),
by: Type.Union([
Type.String(),
Type.Null()
]),
versionsKept: Type.Array(Type.String()),
pin: Type.Union([
ReleasePin,
Type.Null()
]),
canary: Type.Union([
Type.Object({
version: Type.String(),
share: Type.Number(),
since: Type.String(),
by: Type.String()
}),
Type.Null()
]),
rollback: Type.Union([
Type.Object({
version: Type.String(),
lastInForceUntil: Type.String(),
by: Type.Union([
Type.String(),
Type.Null()
])
}),
Type.Object({
refused: Type.String()
})
])
})

export type ReleaseVersionHealth = Static<typeof ReleaseVersionHealth>
export const ReleaseVersionHealth = Type.Object({
area: Type.String(),
version: Type.String(),
views: Type.Number(),
errors: Type.Number()
})

export type ReleaseStatus = Static<typeof ReleaseStatus>
export const ReleaseStatus = Type.Object({
revision: Type.String(),
registry: Type.Boolean(),
lock: Type.Union([
Type.Object({
pid: Type.Number(),
host: Type.String(),
since: Type.String(),
what: Type.String(),
stale: Type.Boolean(),
staleBecause: Type.Union([
Type.String(),
Type.Null()
])
}),
Type.Null()
]),
parts: Type.Array(ReleasePartStatus),
history: Type.Array(ReleaseMove),
health: Type.Array(ReleaseVersionHealth)
})
