#!/usr/bin/env node
// `npm run typecheck`: every package, as `npm test` checks them (lib.mjs typecheckAll).
import { typecheckAll } from './lib.mjs';

await typecheckAll();
