// Language and theme through their live bindings: the choice is restored from and kept in storage.
import { beforeEach, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { liveLanguage, liveTheme } from '../../src/machines/live';
import { INTL_TAGS, languageMachine } from '../../src/machines/language';
import { freshStores } from '../api/helpers';

let stores: ReturnType<typeof freshStores>;
beforeEach(() => {
  stores = freshStores();
});

describe('language (spec §1)', () => {
  it('defaults to cn when nothing is stored', () => {
    const actor = createActor(liveLanguage()).start();
    expect(actor.getSnapshot().context.locale).toBe('cn');
  });

  it('restores a stored choice and falls back to hk for an unknown value', () => {
    stores.local.setItem('language', 'en');
    expect(createActor(liveLanguage()).start().getSnapshot().context.locale).toBe('en');
    stores.local.setItem('language', 'fr');
    expect(createActor(liveLanguage()).start().getSnapshot().context.locale).toBe('hk');
  });

  it('keeps a choice and ignores unknown locales', () => {
    const actor = createActor(liveLanguage()).start();
    actor.send({ type: 'language chosen', locale: 'hk' });
    expect(actor.getSnapshot().context.locale).toBe('hk');
    expect(stores.local.getItem('language')).toBe('hk');
    actor.send({ type: 'language chosen', locale: 'xx' as 'cn' });
    expect(actor.getSnapshot().context.locale).toBe('hk');
    expect(stores.local.getItem('language')).toBe('hk');
  });

  it('maps locales to real Intl tags', () => {
    expect(INTL_TAGS).toEqual({ cn: 'zh-CN', en: 'en', hk: 'zh-HK' });
  });

  it('refuses to run without its implementations', () => {
    const actor = createActor(languageMachine);
    const errors: unknown[] = [];
    actor.subscribe({ error: (e) => errors.push(e) });
    actor.start();
    expect(String(errors[0])).toContain('must be provided via .provide()');
  });
});

describe('theme (spec §1, §4)', () => {
  it('starts light, restores dark, toggles and chooses, persisting each change', () => {
    expect(createActor(liveTheme()).start().getSnapshot().context.mode).toBe('light');
    stores.local.setItem('theme', 'dark');
    const actor = createActor(liveTheme()).start();
    expect(actor.getSnapshot().context.mode).toBe('dark');
    actor.send({ type: 'theme toggled' });
    expect(actor.getSnapshot().context.mode).toBe('light');
    expect(stores.local.getItem('theme')).toBe('light');
    actor.send({ type: 'theme toggled' });
    expect(stores.local.getItem('theme')).toBe('dark');
    actor.send({ type: 'theme chosen', mode: 'light' });
    expect(actor.getSnapshot().context.mode).toBe('light');
    expect(stores.local.getItem('theme')).toBe('light');
  });
});
