// Types of tools/scripts/folder-graph.mjs for the TypeScript test that imports it.
export type FolderEdge = { from: string; to: string; files: string[] };
export declare const API_SRC: string;
export declare function nodeOf(file: string): string;
export declare function folderGraph(root?: string): FolderEdge[];
export declare function folderCycles(edges: FolderEdge[]): string[][];
export declare function upwardImports(edges: FolderEdge[]): FolderEdge[];
export declare function describe(edges: FolderEdge[]): string;
