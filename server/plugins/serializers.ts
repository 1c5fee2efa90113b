/**
 * Response serializers shared by every app of a process. fastify builds a fast-json-stringify function for each
 * response schema of each route when an app starts (about 100 ms of CPU for this contract), and the test suite
 * starts hundreds of apps on one unchanging contract: a serializer is built once per schema (by its JSON, with the
 * options and shared schemas it was built with) and reused. Serializers are pure functions of their input.
 */
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

const build = SerializerSelector();
const built = new Map<string, ReturnType<ReturnType<SerializerFactory>>>();

export const sharedSerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = build(externalSchemas, options);
  const context = JSON.stringify([externalSchemas ?? null, options ?? null]);
  return (route) => {
    const key = `${context}\n${route.httpStatus}\n${JSON.stringify(route.schema ?? null)}`;
    let serializer = built.get(key);
    if (!serializer) built.set(key, (serializer = compile(route)));
    return serializer;
  };
};
