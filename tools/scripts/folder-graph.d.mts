// Types of tools/scripts/folder-graph.mjs for the TypeScript test that imports it.
/** `files`: the imports that make the edge, each `file -> target` (paths under server/src). */
export type FolderEdge = { from: string; to: string; files: string[] };
export declare const API_SRC: string;
export declare function nodeOf(file: string): string;
export declare function folderGraph(root?: string): FolderEdge[];
export declare function folderCycles(edges: FolderEdge[]): string[][];
export declare function layerOf(node: string): number | undefined;
export declare function unplacedNodes(edges: FolderEdge[]): string[];
export declare function isCommand(file: string): boolean;
export declare function upwardImports(edges: FolderEdge[]): FolderEdge[];
export declare function isPublicEntry(file: string): boolean;
export declare function domainInternals(edges: FolderEdge[]): FolderEdge[];
export declare function brokenRules(edges: FolderEdge[]): string[];
export declare function describe(edges: FolderEdge[]): string;
