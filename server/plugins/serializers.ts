/**
 * Response serializers shared by every app of a process. fastify builds a fast-json-stringify function for each
 * response schema of each route when an app starts (about 100 ms of CPU for this contract), and the test suite
 * starts hundreds of apps on one unchanging contract: a serializer is built once per schema (by its JSON, with the
 * options and shared schemas it was built with) and reused. Serializers are pure functions of their input.
 */
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

const build = SerializerSelector();
const built = new Map<string, ReturnType<ReturnType<SerializerFactory>>>();

/** A value's JSON, or null when it has none (a schema that refers to itself is a cycle once resolved). */
function json(value: unknown): string | null {
  try {
    return JSON.stringify(value ?? null);
  } catch {
    return null;
  }
}

export const sharedSerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = build(externalSchemas, options);
  const context = json([externalSchemas, options]);
  return (route) => {
    const schema = json(route.schema);
    // what cannot be told apart by its JSON is built for its route alone
    if (context === null || schema === null) return compile(route);
    const key = `${context}\n${route.httpStatus}\n${schema}`;
    let serializer = built.get(key);
    if (!serializer) built.set(key, (serializer = compile(route)));
    return serializer;
  };
};
