// Types of tools/scripts/requirement-refs.mjs for the TypeScript test that imports it.
export declare const REQUIREMENTS_FILE: string;
export declare function definedIds(markdown: string): Set<string>;
export declare function citedIds(text: string): string[];
export declare function unresolvedRefs(): { file: string; id: string }[];
