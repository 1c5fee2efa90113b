/**
 * The Chakra system carries only the recipes of the components the views use (src/ui/system.ts): every Chakra
 * component imported under src/ must have its recipe there, or it would render without styles.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recipes, slotRecipes, system } from '../../src/ui/system';

/** The recipe keys each Chakra component reads (layout and helper components read none). */
const RECIPES_OF: Record<string, string[]> = {
  Alert: ['alert'],
  Avatar: ['avatar'],
  Badge: ['badge'],
  Box: [],
  Button: ['button'],
  ButtonGroup: ['button'],
  Center: [],
  ChakraProvider: [],
  Checkbox: ['checkbox'],
  CloseButton: ['button'],
  Code: ['code'],
  Container: ['container'],
  DataList: ['dataList'],
  Dialog: ['dialog'],
  Drawer: ['drawer'],
  EmptyState: ['emptyState'],
  Field: ['field'],
  Flex: [],
  Grid: [],
  Group: [],
  HStack: [],
  Heading: ['heading'],
  Image: [],
  IconButton: ['button'],
  Input: ['input'],
  InputGroup: ['inputAddon'],
  Kbd: ['kbd'],
  Link: ['link'],
  List: ['list'],
  Menu: ['menu'],
  NativeSelect: ['nativeSelect'],
  // (Chakra's default theme has no pagination recipe: its parts are buttons)
  Pagination: ['button'],
  Popover: ['popover'],
  Portal: [],
  Progress: ['progress'],
  QrCode: ['qrCode'],
  SimpleGrid: [],
  Skeleton: ['skeleton'],
  Spinner: ['spinner'],
  Stack: [],
  Table: ['table'],
  Tabs: ['tabs'],
  Text: [],
  Textarea: ['textarea'],
  Toast: ['toast'],
  Toaster: ['toast'],
  VStack: [],
  VisuallyHidden: [],
  Wrap: [],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The components (capitalised value imports) each file takes from '@chakra-ui/react'. */
function chakraComponents(): Set<string> {
  const found = new Set<string>();
  for (const file of sources('src')) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@chakra-ui\/react'/g)) {
      for (const spec of m[1].split(',')) {
        const name = spec.trim().split(/\s+as\s+/)[0];
        if (/^[A-Z]/.test(name)) found.add(name);
      }
    }
  }
  return found;
}

describe('the Chakra system', () => {
  const used = chakraComponents();

  it('knows the recipes of every Chakra component the views import', () => {
    expect(used.size).toBeGreaterThan(20);
    const unknown = [...used].filter((c) => !(c in RECIPES_OF));
    expect(unknown, 'add these components and their recipe keys to RECIPES_OF').toEqual([]);
    for (const component of used) {
      for (const key of RECIPES_OF[component]) {
        expect(key in recipes || key in slotRecipes, `${component} needs the recipe ${key}`).toBe(true);
      }
    }
  });

  it('carries no recipe no component uses, and the system serves each one', () => {
    const needed = new Set([...used].flatMap((c) => RECIPES_OF[c] ?? []));
    // checkmark and icon serve inside other components (the checkbox's control, icons in buttons)
    for (const key of [...Object.keys(recipes), ...Object.keys(slotRecipes)]) {
      if (key !== 'checkmark' && key !== 'icon') expect(needed.has(key), `${key} is not used`).toBe(true);
    }
    for (const key of Object.keys(recipes)) expect(system.getRecipe(key)).toBeTruthy();
    for (const key of Object.keys(slotRecipes)) expect(system.getSlotRecipe(key)).toBeTruthy();
    expect(system.getSlotRecipe('carousel')).toBeFalsy();
  });
});
