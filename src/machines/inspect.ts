// Development only: `?inspect` in the address wires the Stately inspector to the root actor.
// The package is loaded on demand, so production bundles never contain it.
import type { InspectionEvent, Observer } from 'xstate';

export type InspectOption = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

export function wantsInspector(search: string, isDev: boolean): boolean {
  return isDev && new URLSearchParams(search).has('inspect');
}

/** Resolves to the `inspect` option for `createActor`, or undefined when not inspecting. */
export async function createInspectOption(
  search: string = globalThis.location?.search ?? '',
  isDev: boolean = import.meta.env?.DEV ?? false,
): Promise<InspectOption | undefined> {
  if (!wantsInspector(search, isDev)) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return createBrowserInspector().inspect;
}

let current: InspectOption | undefined;

/** Remembers the inspector of this page (main.tsx), so actors created outside the root actor show up too. */
export function setInspector(option: InspectOption | undefined): void {
  current = option;
}

/** `{inspect}` for a screen's own actor (upload pipeline, document editor, payment) when inspecting, else `{}`. */
export function inspectOptions(): { inspect?: InspectOption } {
  return current ? { inspect: current } : {};
}
