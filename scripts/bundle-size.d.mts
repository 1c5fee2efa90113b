export declare const INITIAL_JS_BUDGET: number;
export declare function initialJs(outDir: string): {
  files: Array<{ file: string; bytes: number; gzip: number }>;
  gzip: number;
};
