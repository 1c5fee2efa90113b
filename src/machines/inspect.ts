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
