// Types of tools/scripts/edge-errors.mjs for the TypeScript tests that import it.
export declare const EDGE_LIMITS: {
  headerBuffers: string;
  body: number;
  bodies: { location: string; bytes: number }[];
  upload: { location: string; bytes: number };
  complaintForm: { location: string; bytes: number };
};
export declare const EDGE_SECURITY_HEADERS: Record<string, string>;
export declare function edgeErrorMaps(): string;
export declare function edgeErrorServer(): string;
export declare function edgeBodyLimits(proxy: string): string;
