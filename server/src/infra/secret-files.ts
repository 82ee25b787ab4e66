// The names of the data directory's secret files, below the entry files: config.ts loads them, the
// backup copies and restores them.

/**
 * The files in the data directory that hold generated secrets (a backup copies them with the data they
 * sign). The shop's private release key is not one: it lives with the owner's release tool, outside the
 * data directory and its backups (release/src/shop-key.ts); servers hold only public keys.
 */
export const SECRET_FILES = {
  jwt: 'jwt-secret',
  gateway: 'gateway-secret',
} as const;

/**
 * Secrets older backups hold that are never restored into a data directory: the private release key
 * (its public half is in the database) and the key preview links were once signed with (a preview is
 * now a row of the database, its token random).
 */
export const RETIRED_SECRET_FILES: readonly string[] = ['release-signing-key.pem', 'preview-secret'];
