export declare const ROOT: string;
export declare const SERVER_DIST: string;
export declare function sourceHash(): string;
export declare function serverEntry(hash?: string): string;
export declare function buildServer(hash?: string): Promise<string>;
export declare function ensureServerBuild(): Promise<{ entry: string; built: boolean }>;
