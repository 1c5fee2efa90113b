export declare const ROOT: string;
export declare const SPA_DIR: string;
export declare function needsBuild(): boolean;
export declare function buildSpa(options?: { quiet?: boolean }): void;
export declare function buildSpaIfStale(options?: { quiet?: boolean }): boolean;
export declare function startSpaBuild(): Promise<void>;
export declare function waitForSpaBuild(options?: { quiet?: boolean }): Promise<void>;
