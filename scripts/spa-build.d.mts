export declare const ROOT: string;
export declare const SPA_DIR: string;
export declare function needsBuild(): boolean;
export declare function buildSpaIfStale(options?: { quiet?: boolean }): boolean;
