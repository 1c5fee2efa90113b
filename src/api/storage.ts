// Every key the app keeps in local/session storage, with typed getters and setters (spec §1, §2, §4).
// Outside a browser (node tests, SSR) an in-memory store stands in, so every module stays testable.

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type Locale = 'cn' | 'en' | 'hk';
export type ThemeMode = 'light' | 'dark';
export type LocalTrackingKey = 'bd_vid' | 'qhclickid';
export type TrackingKey = LocalTrackingKey | 'up_id';

export const LOCALES: readonly Locale[] = ['cn', 'en', 'hk'];
export const TRACKING_KEYS: readonly TrackingKey[] = ['bd_vid', 'qhclickid', 'up_id'];

export const StorageKey = {
  token: 'token',
  isLogin: 'isLogin',
  cid: 'cid',
  language: 'language',
  theme: 'theme',
  lastRoute: 'lastRoute',
  bdVid: 'bd_vid',
  qhclickid: 'qhclickid',
  upId: 'up_id',
  appUuid: 'appUuid',
  pageReloaded: 'pageReloaded',
} as const;

export function createMemoryStore(): KeyValueStore & { clear(): void } {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

function browserStore(name: 'localStorage' | 'sessionStorage'): KeyValueStore | null {
  try {
    const store = (globalThis as Record<string, unknown>)[name] as KeyValueStore | undefined;
    return store && typeof store.getItem === 'function' ? store : null;
  } catch {
    // Storage access throws in some privacy modes.
    return null;
  }
}

let local: KeyValueStore = browserStore('localStorage') ?? createMemoryStore();
let session: KeyValueStore = browserStore('sessionStorage') ?? createMemoryStore();

/** Tests (and embedders) swap the backing stores. */
export function setStores(stores: { local?: KeyValueStore; session?: KeyValueStore }): void {
  if (stores.local) local = stores.local;
  if (stores.session) session = stores.session;
}

// Auth token and login flag (spec §4: cleared together on logout).
export const getToken = (): string | null => local.getItem(StorageKey.token) || null;
export const setToken = (token: string): void => local.setItem(StorageKey.token, token);
export const isLoginFlagSet = (): boolean => local.getItem(StorageKey.isLogin) === 'true';
export const setLoginFlag = (value: boolean): void =>
  value ? local.setItem(StorageKey.isLogin, 'true') : local.removeItem(StorageKey.isLogin);

/** Stores a token received from login, registration or the route query and sets the login flag. */
export function saveSession(token: string): void {
  setToken(token);
  setLoginFlag(true);
}

/** Logout (spec §4): the stored auth token, the login flag and the token cookie go. */
export function clearSession(): void {
  local.removeItem(StorageKey.token);
  setLoginFlag(false);
  const doc = (globalThis as { document?: { cookie: string } }).document;
  if (doc) doc.cookie = 'token=; Max-Age=0; path=/';
}

function randomId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID().replace(/-/g, '');
  return Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
}

/** The device id sent as the `cid` header: generated once, then kept. */
export function getDeviceId(): string {
  let cid = local.getItem(StorageKey.cid);
  if (!cid) {
    cid = randomId();
    local.setItem(StorageKey.cid, cid);
  }
  return cid;
}

/** Spec §1: default cn; an unknown stored value falls back to hk. */
export function getLanguage(): Locale {
  const stored = local.getItem(StorageKey.language);
  if (stored === null || stored === '') return 'cn';
  return (LOCALES as readonly string[]).includes(stored) ? (stored as Locale) : 'hk';
}
export const setLanguage = (locale: Locale): void => local.setItem(StorageKey.language, locale);

export function getTheme(): ThemeMode {
  return local.getItem(StorageKey.theme) === 'dark' ? 'dark' : 'light';
}
export const setTheme = (mode: ThemeMode): void => local.setItem(StorageKey.theme, mode);

export const getLastRoute = (): string | null => local.getItem(StorageKey.lastRoute) || null;
export const setLastRoute = (path: string): void => local.setItem(StorageKey.lastRoute, path);

/** Spec §2: bd_vid and qhclickid live in local storage, up_id in session storage. */
function trackingStore(key: TrackingKey): KeyValueStore {
  return key === 'up_id' ? session : local;
}
export const getTrackingParam = (key: TrackingKey): string | null => trackingStore(key).getItem(key) || null;
export const setTrackingParam = (key: TrackingKey, value: string): void => trackingStore(key).setItem(key, value);

/** The tracking parameters currently remembered, in a fixed order. */
export function getTrackingParams(): Array<[TrackingKey, string]> {
  const out: Array<[TrackingKey, string]> = [];
  for (const key of TRACKING_KEYS) {
    const value = getTrackingParam(key);
    if (value) out.push([key, value]);
  }
  return out;
}

export const getAppUuid = (): string | null => local.getItem(StorageKey.appUuid) || null;
export const setAppUuid = (uuid: string): void => local.setItem(StorageKey.appUuid, uuid);

/** Spec §2/§9: a failed lazy page load reloads once per session. */
export const isPageReloaded = (): boolean => session.getItem(StorageKey.pageReloaded) === 'true';
export const setPageReloaded = (value: boolean): void =>
  value ? session.setItem(StorageKey.pageReloaded, 'true') : session.removeItem(StorageKey.pageReloaded);
