// The owner's private release key stays with the owner's tools: a server's environment never names it.
// The release tool and `npm run credentials -- shop-key-create` read RELEASE_SIGNING_KEY(_FILE);
// a server refuses to start with either set (server/src/server.ts).
const PRIVATE_KEY_VARIABLES = ['RELEASE_SIGNING_KEY', 'RELEASE_SIGNING_KEY_FILE'];

/** `env` without the variables that hand a tool the private release key: what a server is started with. */
export function serverEnvironment(env) {
  const copy = { ...env };
  for (const name of PRIVATE_KEY_VARIABLES) delete copy[name];
  return copy;
}
