import { afterEach, describe, expect, it } from 'vitest';
import { buildSocketUrl } from '../../src/api/socketUrl';
import { DEFAULT_RUNTIME_CONFIG, getRuntimeConfig, loadRuntimeConfig } from '../../src/api/config';
import { api, configureApi, unwrap } from '../../src/api/client';
import { notify, subscribeNotices, type Notice } from '../../src/api/notify';
import { clearSession, getDeviceId, getLanguage, getToken, isLoginFlagSet, saveSession } from '../../src/api/storage';
import { createActor, createMachine, type InspectionEvent } from 'xstate';
import { inspectOptions, setInspector, wantsInspector } from '../../src/machines/inspect';
import { fakeFetch, freshStores } from './helpers';

afterEach(() => configureApi({}));

describe('socket URL (spec §7)', () => {
  const base = { token: 't k', endpoint: '1', pageUrl: 'https://proof.example/workbench/editor?id=3' };
  it('resolves a path against the page and uses the session id when there is one', () => {
    expect(buildSocketUrl({ ...base, socketURL: '/ws', sessionId: 's1' })).toBe(
      'wss://proof.example/ws?token=t+k&session_id=s1',
    );
  });
  it('sends the platform code before a session id exists', () => {
    expect(buildSocketUrl({ ...base, socketURL: '', sessionId: null })).toBe(
      'wss://proof.example/ws?token=t+k&endpoint=1',
    );
  });
  it('keeps absolute ws addresses and maps http(s) to ws(s)', () => {
    expect(buildSocketUrl({ ...base, socketURL: 'ws://rt.example:8080/socket', sessionId: null })).toBe(
      'ws://rt.example:8080/socket?token=t+k&endpoint=1',
    );
    expect(buildSocketUrl({ ...base, socketURL: 'http://rt.example/ws', sessionId: 'x' })).toBe(
      'ws://rt.example/ws?token=t+k&session_id=x',
    );
  });
});

describe('runtime config (spec §1)', () => {
  it('loads config.json and points the client at baseURL', async () => {
    // the files of a worker share their modules: no tracking value remembered by another file rides along
    freshStores();
    const config = fakeFetch({
      'GET /workbench/config.json': {
        body: {
          baseURL: 'http://api.example',
          wxURL: 'w',
          bindWechat: 'b',
          resetWechat: 'r',
          socketURL: 'wss://rt.example/ws',
        },
      },
    });
    const loaded = await loadRuntimeConfig({ fetch: config.fetch });
    expect(loaded).toEqual({
      baseURL: 'http://api.example',
      wxURL: 'w',
      bindWechat: 'b',
      resetWechat: 'r',
      socketURL: 'wss://rt.example/ws',
    });
    expect(getRuntimeConfig()).toEqual(loaded);
    // the shared client now calls the configured base
    const transport = fakeFetch();
    configureApi({ baseURL: loaded.baseURL, fetch: transport.fetch });
    await unwrap(api.GET('/user/user_info'));
    expect(transport.requests[0].url).toBe('http://api.example/user/user_info');
  });

  it('falls back to same-origin defaults when the file is missing or unreachable', async () => {
    expect(await loadRuntimeConfig({ fetch: fakeFetch({}, { status: 404 }).fetch })).toEqual(DEFAULT_RUNTIME_CONFIG);
    expect(await loadRuntimeConfig({ fetch: fakeFetch({}, { networkDown: true }).fetch })).toEqual(
      DEFAULT_RUNTIME_CONFIG,
    );
    expect(DEFAULT_RUNTIME_CONFIG.socketURL).toBe('/ws');
  });
});

describe('notices', () => {
  it('keeps notices raised before the UI subscribed and delivers them once', () => {
    // files of a worker share this module: take what earlier files raised without a subscriber first
    subscribeNotices(() => {})();
    notify({ status: 'success', title: '登录成功' });
    notify({ status: 'error', title: '' });
    const seen: Notice[] = [];
    const stop = subscribeNotices((n) => seen.push(n));
    expect(seen).toEqual([{ status: 'success', title: '登录成功' }]);
    notify({ status: 'info', title: 'x', duration: 5000 });
    expect(seen).toHaveLength(2);
    stop();
    const again: Notice[] = [];
    const stop2 = subscribeNotices((n) => again.push(n));
    expect(again).toEqual([]);
    stop2();
  });
});

describe('storage', () => {
  it('saves and clears the session, keeps the device id, and normalises the language', () => {
    const { local } = freshStores();
    saveSession('abc');
    expect(getToken()).toBe('abc');
    expect(isLoginFlagSet()).toBe(true);
    clearSession();
    expect(getToken()).toBeNull();
    expect(isLoginFlagSet()).toBe(false);
    const cid = getDeviceId();
    expect(getDeviceId()).toBe(cid);
    expect(getLanguage()).toBe('cn');
    local.setItem('language', 'de');
    expect(getLanguage()).toBe('hk');
  });
});

describe('inspector', () => {
  it('is wired only in development with ?inspect', () => {
    expect(wantsInspector('?inspect', true)).toBe(true);
    expect(wantsInspector('?a=1&inspect=1', true)).toBe(true);
    expect(wantsInspector('?inspect', false)).toBe(false);
    expect(wantsInspector('', true)).toBe(false);
  });

  it("reaches a screen's own actors (upload pipeline, document editor, payment) once the page has one", () => {
    expect(inspectOptions()).toEqual({});
    const seen: string[] = [];
    setInspector((event: InspectionEvent) => {
      if (event.type === '@xstate.snapshot') seen.push(JSON.stringify((event.snapshot as { value?: unknown }).value));
    });
    try {
      const actor = createActor(
        createMachine({ initial: 'idle', states: { idle: { on: { GO: 'busy' } }, busy: {} } }),
        inspectOptions(),
      ).start();
      actor.send({ type: 'GO' });
      expect(seen).toEqual(['"idle"', '"busy"']);
    } finally {
      setInspector(undefined);
    }
    expect(inspectOptions()).toEqual({});
  });
});
