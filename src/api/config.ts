// Runtime configuration (spec §1) read at start-up from the server, never baked into the build.
import { configureApi, type FetchLike } from './client';

export interface RuntimeConfig {
  baseURL: string;
  wxURL: string;
  bindWechat: string;
  resetWechat: string;
  socketURL: string;
}

export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = {
  baseURL: '',
  wxURL: '',
  bindWechat: '',
  resetWechat: '',
  socketURL: '/ws',
};

export const RUNTIME_CONFIG_PATH = '/workbench/config.json';

let runtimeConfig: RuntimeConfig = { ...DEFAULT_RUNTIME_CONFIG };

export function getRuntimeConfig(): RuntimeConfig {
  return runtimeConfig;
}

function pickString(source: Record<string, unknown>, key: keyof RuntimeConfig): string {
  const value = source[key];
  return typeof value === 'string' ? value : DEFAULT_RUNTIME_CONFIG[key];
}

/**
 * Fetches `/workbench/config.json` (plain JSON, no envelope), keeps it for getRuntimeConfig() and
 * points the API client at `baseURL`. When the file cannot be read the defaults apply (same origin).
 */
export async function loadRuntimeConfig(
  options: { url?: string; fetch?: FetchLike | typeof fetch } = {},
): Promise<RuntimeConfig> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin ?? 'http://localhost';
  let loaded: RuntimeConfig = { ...DEFAULT_RUNTIME_CONFIG };
  try {
    const response = await (doFetch as FetchLike)(new Request(new URL(options.url ?? RUNTIME_CONFIG_PATH, origin)));
    if (response.ok) {
      const body = (await response.json()) as Record<string, unknown>;
      loaded = {
        baseURL: pickString(body, 'baseURL'),
        wxURL: pickString(body, 'wxURL'),
        bindWechat: pickString(body, 'bindWechat'),
        resetWechat: pickString(body, 'resetWechat'),
        socketURL: pickString(body, 'socketURL') || DEFAULT_RUNTIME_CONFIG.socketURL,
      };
    }
  } catch {
    // Offline or no config file: the defaults keep the app usable against its own origin.
  }
  runtimeConfig = loaded;
  configureApi({ baseURL: loaded.baseURL });
  return loaded;
}
