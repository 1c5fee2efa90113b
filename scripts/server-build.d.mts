export declare const ROOT: string;
export declare const SERVER_DIST: string;
export declare const SERVER_ENTRY: string;
export declare function serverNeedsBuild(): boolean;
export declare function buildServer(): Promise<void>;
export declare function ensureServerBuild(): Promise<boolean>;
