// The placeholders every machine names in setup(): an implementation the machine cannot have itself (a call, storage,
// the router) throws until live.ts or a test binds it with .provide().

/** For an action or a guard: throws at once. */
export function mustProvide(machine: string, name: string): never {
  throw new Error(`${machine}: '${name}' must be provided via .provide()`);
}

/** For a promise actor's logic: rejects when the actor starts. */
export function notProvided(machine: string, name: string) {
  return async (): Promise<never> => mustProvide(machine, name);
}
